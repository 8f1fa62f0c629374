// SPDX-License-Identifier: MIT
/*
 * Typed wsc_prep_*(): one per allowlisted call, arguments as libc takes
 * them, packed in the x86-64 system call order.  Integers are widened with
 * their sign, as the kernel's own wrappers truncate them back.
 */
#include <sys/syscall.h>

#include "internal.h"

#define P(x)	((uint64_t)(uintptr_t)(x))
#define I(x)	((uint64_t)(int64_t)(x))
#define U(x)	((uint64_t)(x))

static int prep(struct wsc_batch *b, unsigned int nr, uint64_t a0,
		uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
		uint64_t a5)
{
	const uint64_t args[WSC_MAX_ARGS] = { a0, a1, a2, a3, a4, a5 };

	return wsc_prep_syscall(b, nr, args);
}

int wsc_prep_read(struct wsc_batch *b, int fd, void *buf, size_t count)
{
	return prep(b, SYS_read, I(fd), P(buf), U(count), 0, 0, 0);
}

int wsc_prep_write(struct wsc_batch *b, int fd, const void *buf, size_t count)
{
	return prep(b, SYS_write, I(fd), P(buf), U(count), 0, 0, 0);
}

int wsc_prep_pread64(struct wsc_batch *b, int fd, void *buf, size_t count,
		     off_t offset)
{
	return prep(b, SYS_pread64, I(fd), P(buf), U(count), I(offset), 0, 0);
}

int wsc_prep_pwrite64(struct wsc_batch *b, int fd, const void *buf,
		      size_t count, off_t offset)
{
	return prep(b, SYS_pwrite64, I(fd), P(buf), U(count), I(offset), 0, 0);
}

int wsc_prep_readv(struct wsc_batch *b, int fd, const struct iovec *iov,
		   int iovcnt)
{
	return prep(b, SYS_readv, I(fd), P(iov), I(iovcnt), 0, 0, 0);
}

int wsc_prep_writev(struct wsc_batch *b, int fd, const struct iovec *iov,
		    int iovcnt)
{
	return prep(b, SYS_writev, I(fd), P(iov), I(iovcnt), 0, 0, 0);
}

int wsc_prep_open(struct wsc_batch *b, const char *path, int flags,
		  mode_t mode)
{
	return prep(b, SYS_open, P(path), I(flags), U(mode), 0, 0, 0);
}

int wsc_prep_openat(struct wsc_batch *b, int dirfd, const char *path,
		    int flags, mode_t mode)
{
	return prep(b, SYS_openat, I(dirfd), P(path), I(flags), U(mode), 0, 0);
}

int wsc_prep_close(struct wsc_batch *b, int fd)
{
	return prep(b, SYS_close, I(fd), 0, 0, 0, 0, 0);
}

int wsc_prep_lseek(struct wsc_batch *b, int fd, off_t offset, int whence)
{
	return prep(b, SYS_lseek, I(fd), I(offset), I(whence), 0, 0, 0);
}

int wsc_prep_fstat(struct wsc_batch *b, int fd, struct stat *st)
{
	return prep(b, SYS_fstat, I(fd), P(st), 0, 0, 0, 0);
}

int wsc_prep_newfstatat(struct wsc_batch *b, int dirfd, const char *path,
			struct stat *st, int flags)
{
	return prep(b, SYS_newfstatat, I(dirfd), P(path), P(st), I(flags), 0, 0);
}

int wsc_prep_statx(struct wsc_batch *b, int dirfd, const char *path,
		   int flags, unsigned int mask, struct statx *stx)
{
	return prep(b, SYS_statx, I(dirfd), P(path), I(flags), U(mask), P(stx),
		    0);
}

int wsc_prep_access(struct wsc_batch *b, const char *path, int mode)
{
	return prep(b, SYS_access, P(path), I(mode), 0, 0, 0, 0);
}

int wsc_prep_faccessat(struct wsc_batch *b, int dirfd, const char *path,
		       int mode)
{
	return prep(b, SYS_faccessat, I(dirfd), P(path), I(mode), 0, 0, 0);
}

int wsc_prep_dup(struct wsc_batch *b, int fd)
{
	return prep(b, SYS_dup, I(fd), 0, 0, 0, 0, 0);
}

int wsc_prep_dup2(struct wsc_batch *b, int oldfd, int newfd)
{
	return prep(b, SYS_dup2, I(oldfd), I(newfd), 0, 0, 0, 0);
}

int wsc_prep_dup3(struct wsc_batch *b, int oldfd, int newfd, int flags)
{
	return prep(b, SYS_dup3, I(oldfd), I(newfd), I(flags), 0, 0, 0);
}

int wsc_prep_fcntl(struct wsc_batch *b, int fd, int cmd, unsigned long arg)
{
	return prep(b, SYS_fcntl, I(fd), I(cmd), U(arg), 0, 0, 0);
}

int wsc_prep_getdents64(struct wsc_batch *b, int fd, void *dirp,
			size_t count)
{
	return prep(b, SYS_getdents64, I(fd), P(dirp), U(count), 0, 0, 0);
}

int wsc_prep_fsync(struct wsc_batch *b, int fd)
{
	return prep(b, SYS_fsync, I(fd), 0, 0, 0, 0, 0);
}

int wsc_prep_fdatasync(struct wsc_batch *b, int fd)
{
	return prep(b, SYS_fdatasync, I(fd), 0, 0, 0, 0, 0);
}

int wsc_prep_unlink(struct wsc_batch *b, const char *path)
{
	return prep(b, SYS_unlink, P(path), 0, 0, 0, 0, 0);
}

int wsc_prep_unlinkat(struct wsc_batch *b, int dirfd, const char *path,
		      int flags)
{
	return prep(b, SYS_unlinkat, I(dirfd), P(path), I(flags), 0, 0, 0);
}

int wsc_prep_mkdir(struct wsc_batch *b, const char *path, mode_t mode)
{
	return prep(b, SYS_mkdir, P(path), U(mode), 0, 0, 0, 0);
}

int wsc_prep_mkdirat(struct wsc_batch *b, int dirfd, const char *path,
		     mode_t mode)
{
	return prep(b, SYS_mkdirat, I(dirfd), P(path), U(mode), 0, 0, 0);
}

int wsc_prep_rename(struct wsc_batch *b, const char *oldpath,
		    const char *newpath)
{
	return prep(b, SYS_rename, P(oldpath), P(newpath), 0, 0, 0, 0);
}

int wsc_prep_renameat(struct wsc_batch *b, int olddirfd, const char *oldpath,
		      int newdirfd, const char *newpath)
{
	return prep(b, SYS_renameat, I(olddirfd), P(oldpath), I(newdirfd),
		    P(newpath), 0, 0);
}

int wsc_prep_brk(struct wsc_batch *b, void *addr)
{
	return prep(b, SYS_brk, P(addr), 0, 0, 0, 0, 0);
}

int wsc_prep_mmap(struct wsc_batch *b, void *addr, size_t length, int prot,
		  int flags, int fd, off_t offset)
{
	return prep(b, SYS_mmap, P(addr), U(length), I(prot), I(flags), I(fd),
		    I(offset));
}

int wsc_prep_munmap(struct wsc_batch *b, void *addr, size_t length)
{
	return prep(b, SYS_munmap, P(addr), U(length), 0, 0, 0, 0);
}

int wsc_prep_mprotect(struct wsc_batch *b, void *addr, size_t length,
		      int prot)
{
	return prep(b, SYS_mprotect, P(addr), U(length), I(prot), 0, 0, 0);
}

int wsc_prep_madvise(struct wsc_batch *b, void *addr, size_t length,
		     int advice)
{
	return prep(b, SYS_madvise, P(addr), U(length), I(advice), 0, 0, 0);
}

int wsc_prep_rt_sigaction(struct wsc_batch *b, int sig, const void *act,
			  void *oldact, size_t sigsetsize)
{
	return prep(b, SYS_rt_sigaction, I(sig), P(act), P(oldact),
		    U(sigsetsize), 0, 0);
}

int wsc_prep_rt_sigprocmask(struct wsc_batch *b, int how, const void *set,
			    void *oldset, size_t sigsetsize)
{
	return prep(b, SYS_rt_sigprocmask, I(how), P(set), P(oldset),
		    U(sigsetsize), 0, 0);
}

int wsc_prep_pipe2(struct wsc_batch *b, int fds[2], int flags)
{
	return prep(b, SYS_pipe2, P(fds), I(flags), 0, 0, 0, 0);
}

int wsc_prep_sendto(struct wsc_batch *b, int fd, const void *buf, size_t len,
		    int flags, const struct sockaddr *to, unsigned int tolen)
{
	return prep(b, SYS_sendto, I(fd), P(buf), U(len), I(flags), P(to),
		    U(tolen));
}

int wsc_prep_recvfrom(struct wsc_batch *b, int fd, void *buf, size_t len,
		      int flags, struct sockaddr *from, unsigned int *fromlen)
{
	return prep(b, SYS_recvfrom, I(fd), P(buf), U(len), I(flags), P(from),
		    P(fromlen));
}

int wsc_prep_sendmsg(struct wsc_batch *b, int fd, const struct msghdr *msg,
		     int flags)
{
	return prep(b, SYS_sendmsg, I(fd), P(msg), I(flags), 0, 0, 0);
}

int wsc_prep_recvmsg(struct wsc_batch *b, int fd, struct msghdr *msg,
		     int flags)
{
	return prep(b, SYS_recvmsg, I(fd), P(msg), I(flags), 0, 0, 0);
}

int wsc_prep_poll(struct wsc_batch *b, struct pollfd *fds, unsigned int nfds,
		  int timeout)
{
	return prep(b, SYS_poll, P(fds), U(nfds), I(timeout), 0, 0, 0);
}

int wsc_prep_ppoll(struct wsc_batch *b, struct pollfd *fds, unsigned int nfds,
		   const struct timespec *timeout, const void *sigmask,
		   size_t sigsetsize)
{
	return prep(b, SYS_ppoll, P(fds), U(nfds), P(timeout), P(sigmask),
		    U(sigsetsize), 0);
}

int wsc_prep_futex(struct wsc_batch *b, uint32_t *uaddr, int op,
		   uint32_t val, const struct timespec *timeout,
		   uint32_t *uaddr2, uint32_t val3)
{
	return prep(b, SYS_futex, P(uaddr), I(op), U(val), P(timeout),
		    P(uaddr2), U(val3));
}

int wsc_prep_getpid(struct wsc_batch *b)
{
	return prep(b, SYS_getpid, 0, 0, 0, 0, 0, 0);
}

int wsc_prep_getppid(struct wsc_batch *b)
{
	return prep(b, SYS_getppid, 0, 0, 0, 0, 0, 0);
}

int wsc_prep_gettid(struct wsc_batch *b)
{
	return prep(b, SYS_gettid, 0, 0, 0, 0, 0, 0);
}

int wsc_prep_nanosleep(struct wsc_batch *b, const struct timespec *req,
		       struct timespec *rem)
{
	return prep(b, SYS_nanosleep, P(req), P(rem), 0, 0, 0, 0);
}
