// SPDX-License-Identifier: MIT
/*
 * wsc trace: x86-64 system call numbers and names, and the Nature of
 * System Calls paper's groups (Documentation/papers.md).
 *
 * The names come from this system's uapi header at build time
 * (tools/gen-syscall-names writes build/gen/syscall_names.h), so they are
 * spelled as the kernel and strace spell them: 4 is "stat", 262 is
 * "newfstatat", 17 is "pread64".  A number the header does not know has
 * no name here; the caller prints it as "syscall_N".
 */
#include <string.h>

#include "trace.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const syscall_names[] = {
#include "syscall_names.h"
};

const char *trace_syscall_name(uint32_t nr)
{
	if (nr >= ARRAY_SIZE(syscall_names))
		return NULL;
	return syscall_names[nr];
}

int trace_syscall_nr(const char *name)
{
	size_t nr;

	for (nr = 0; nr < ARRAY_SIZE(syscall_names); nr++)
		if (syscall_names[nr] && !strcmp(syscall_names[nr], name))
			return (int)nr;
	return -1;
}

struct syscall_group {
	const char *group;
	const char *const *names;	/* NULL-terminated */
};

/*
 * The Nature of System Calls paper, Table 3 ("Summary of the most
 * frequent and time-consuming system calls"): its groups, and in each list first its calls.  After
 * the "--" are ours: a call's newer, *at, vectored and 64-bit relatives
 * join its group (they do the same work), sockets, System V and POSIX IPC
 * join ipc, and calls that block until another task or an fd is ready
 * join locking, as futex, poll and wait4 do in the paper.
 */
static const char *const group_memory[] = {
	"mprotect", "brk", "mmap", "munmap", "madvise",
	/* -- */
	"mremap", "msync", "mlock", "mlock2", "munlock", "mlockall",
	"munlockall", "mincore", "pkey_mprotect", "pkey_alloc", "pkey_free",
	"remap_file_pages", "mbind", "set_mempolicy", "get_mempolicy",
	"set_mempolicy_home_node", "migrate_pages", "move_pages",
	"process_madvise", "process_mrelease", "userfaultfd", "memfd_secret",
	NULL
};

static const char *const group_signal[] = {
	"rt_sigaction", "rt_sigreturn", "rt_sigprocmask",
	/* -- */
	"rt_sigsuspend", "rt_sigpending", "rt_sigtimedwait",
	"rt_sigqueueinfo", "rt_tgsigqueueinfo", "sigaltstack", "kill",
	"tkill", "tgkill", "pause", "alarm", "signalfd", "signalfd4",
	"pidfd_send_signal",
	NULL
};

static const char *const group_ipc[] = {
	"pipe", "recvmsg", "recvfrom",
	/* -- */
	"pipe2", "sendmsg", "sendto", "recvmmsg", "sendmmsg", "socket",
	"socketpair", "connect", "accept", "accept4", "bind", "listen",
	"shutdown", "getsockname", "getpeername", "setsockopt", "getsockopt",
	"msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop",
	"semtimedop", "semctl", "shmget", "shmat", "shmdt", "shmctl",
	"mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive",
	"mq_notify", "mq_getsetattr", "eventfd", "eventfd2",
	"process_vm_readv", "process_vm_writev",
	NULL
};

static const char *const group_file[] = {
	"dup2", "stat", "fstat", "lstat", "open", "close", "access", "lseek",
	"fcntl",
	/* -- */
	"dup", "dup3", "newfstatat", "statx", "statfs", "fstatfs", "ustat",
	"openat", "openat2", "creat", "close_range", "faccessat",
	"faccessat2", "ioctl", "getdents", "getdents64", "readlink",
	"readlinkat", "getcwd", "chdir", "fchdir", "chroot", "pivot_root",
	"mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename",
	"renameat", "renameat2", "link", "linkat", "symlink", "symlinkat",
	"mknod", "mknodat", "chmod", "fchmod", "fchmodat", "chown", "fchown",
	"lchown", "fchownat", "umask", "truncate", "ftruncate", "fallocate",
	"fadvise64", "readahead", "fsync", "fdatasync", "sync", "syncfs",
	"sync_file_range", "utime", "utimes", "futimesat", "utimensat",
	"setxattr", "lsetxattr", "fsetxattr", "getxattr", "lgetxattr",
	"fgetxattr", "listxattr", "llistxattr", "flistxattr", "removexattr",
	"lremovexattr", "fremovexattr", "inotify_init", "inotify_init1",
	"inotify_add_watch", "inotify_rm_watch", "fanotify_init",
	"fanotify_mark", "name_to_handle_at", "open_by_handle_at",
	"memfd_create", "mount", "umount2", "open_tree", "move_mount",
	"fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
	"quotactl", "quotactl_fd",
	NULL
};

static const char *const group_user_data[] = {
	"read", "write",
	/* -- */
	"pread64", "pwrite64", "readv", "writev", "preadv", "pwritev",
	"preadv2", "pwritev2", "sendfile", "copy_file_range", "splice", "tee",
	"vmsplice", "io_submit", "io_uring_enter",
	NULL
};

static const char *const group_locking[] = {
	"futex", "poll", "wait4",
	/* -- */
	"futex_waitv", "ppoll", "select", "pselect6", "epoll_wait",
	"epoll_pwait", "epoll_pwait2", "waitid", "flock", "io_getevents",
	"io_pgetevents",
	NULL
};

static const struct syscall_group syscall_groups[] = {
	{ "memory",	group_memory },
	{ "signal",	group_signal },
	{ "ipc",	group_ipc },
	{ "file",	group_file },
	{ "userdata",	group_user_data },
	{ "locking",	group_locking },
};

const char *trace_syscall_group(const char *name)
{
	const char *const *n;
	size_t g;

	for (g = 0; g < ARRAY_SIZE(syscall_groups); g++)
		for (n = syscall_groups[g].names; *n; n++)
			if (!strcmp(*n, name))
				return syscall_groups[g].group;
	return "other";
}
