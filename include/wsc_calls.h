/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The allowlist of wsc, as one list shared by the module (which enforces
 * it) and libwsc (whose conventional fallback must refuse the same calls).
 *
 * WSC_CALL(name, group, flags): the x86-64 system call __NR_<name>, in
 * group WSC_GROUP_<group>, with WSC_CALL_* flags.  The order is the order
 * of the listing; the no-op entry comes first and is not in this list.
 *
 * A call is listed only if it behaves the same whether entered through the
 * syscall instruction or called from the ioctl: nothing that depends on
 * the real entry frame (rt_sigreturn, arch_prctl, iopl, modify_ldt),
 * creates or replaces tasks (clone, fork, vfork, execve), ends the task
 * (exit, exit_group), or changes what filters or traces it (seccomp,
 * ptrace).  Everything not listed is refused.
 */
#define WSC_FOR_EACH_CALL(WSC_CALL)					\
	/* user data */							\
	WSC_CALL(read,		USERDATA, WSC_CALL_MAY_BLOCK)		\
	WSC_CALL(write,		USERDATA, WSC_CALL_MAY_BLOCK)		\
	WSC_CALL(pread64,	USERDATA, 0)				\
	WSC_CALL(pwrite64,	USERDATA, 0)				\
	WSC_CALL(readv,		USERDATA, WSC_CALL_MAY_BLOCK)		\
	WSC_CALL(writev,	USERDATA, WSC_CALL_MAY_BLOCK)		\
	/* files */							\
	WSC_CALL(open,		FILE, WSC_CALL_RETURNS_FD)		\
	WSC_CALL(openat,	FILE, WSC_CALL_RETURNS_FD)		\
	WSC_CALL(close,		FILE, 0)				\
	WSC_CALL(lseek,		FILE, 0)				\
	WSC_CALL(fstat,		FILE, 0)				\
	WSC_CALL(newfstatat,	FILE, 0)				\
	WSC_CALL(statx,		FILE, 0)				\
	WSC_CALL(access,	FILE, 0)				\
	WSC_CALL(faccessat,	FILE, 0)				\
	WSC_CALL(dup,		FILE, WSC_CALL_RETURNS_FD)		\
	WSC_CALL(dup2,		FILE, WSC_CALL_RETURNS_FD)		\
	WSC_CALL(dup3,		FILE, WSC_CALL_RETURNS_FD)		\
	WSC_CALL(fcntl,		FILE, WSC_CALL_MAY_BLOCK)		\
	WSC_CALL(getdents64,	FILE, 0)				\
	WSC_CALL(fsync,		FILE, 0)				\
	WSC_CALL(fdatasync,	FILE, 0)				\
	WSC_CALL(unlink,	FILE, 0)				\
	WSC_CALL(unlinkat,	FILE, 0)				\
	WSC_CALL(mkdir,		FILE, 0)				\
	WSC_CALL(mkdirat,	FILE, 0)				\
	WSC_CALL(rename,	FILE, 0)				\
	WSC_CALL(renameat,	FILE, 0)				\
	/* memory */							\
	WSC_CALL(brk,		MEMORY, 0)				\
	WSC_CALL(mmap,		MEMORY, 0)				\
	WSC_CALL(munmap,	MEMORY, 0)				\
	WSC_CALL(mprotect,	MEMORY, 0)				\
	WSC_CALL(madvise,	MEMORY, 0)				\
	/* signals */							\
	WSC_CALL(rt_sigaction,	SIGNAL, 0)				\
	WSC_CALL(rt_sigprocmask, SIGNAL, 0)				\
	/* inter-process communication */				\
	WSC_CALL(pipe2,		IPC, WSC_CALL_RETURNS_FD)		\
	WSC_CALL(sendto,	IPC, WSC_CALL_MAY_BLOCK)		\
	WSC_CALL(recvfrom,	IPC, WSC_CALL_MAY_BLOCK)		\
	WSC_CALL(sendmsg,	IPC, WSC_CALL_MAY_BLOCK)		\
	WSC_CALL(recvmsg,	IPC, WSC_CALL_MAY_BLOCK)		\
	/* locking and waiting */					\
	WSC_CALL(poll,		LOCKING, WSC_CALL_MAY_BLOCK)		\
	WSC_CALL(ppoll,		LOCKING, WSC_CALL_MAY_BLOCK)		\
	WSC_CALL(futex,		LOCKING, WSC_CALL_MAY_BLOCK)		\
	/* identity and time */						\
	WSC_CALL(getpid,	OTHER, 0)				\
	WSC_CALL(getppid,	OTHER, 0)				\
	WSC_CALL(gettid,	OTHER, 0)				\
	WSC_CALL(nanosleep,	OTHER, WSC_CALL_MAY_BLOCK)

/* Short names of enum wsc_group, as /proc and the CLI print them. */
#define WSC_GROUP_NAMES {						\
	[WSC_GROUP_NONE]	= "none",				\
	[WSC_GROUP_MEMORY]	= "memory",				\
	[WSC_GROUP_SIGNAL]	= "signal",				\
	[WSC_GROUP_IPC]		= "ipc",				\
	[WSC_GROUP_FILE]	= "file",				\
	[WSC_GROUP_USERDATA]	= "userdata",				\
	[WSC_GROUP_LOCKING]	= "locking",				\
	[WSC_GROUP_OTHER]	= "other",				\
}
