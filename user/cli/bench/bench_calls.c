// SPDX-License-Identifier: MIT
/*
 * The calls of the suite, each in every mechanism that has it: the calls
 * the DMSM paper and the latency-lab report timed (Documentation/
 * papers.md), with the same arguments in every mechanism so that only the
 * way into the kernel differs.  Every result is checked
 * after its sample (untimed): a benchmark of calls that failed would
 * measure the error path.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

/* A number no kernel implements: the conventional call returns ENOSYS. */
#define BENCH_ENOSYS_NR		1023
/* The DMSM paper's read and write size, on a regular file. */
#define BENCH_FILE_IO		256
/* The DMSM paper's sbrk step. */
#define BENCH_BRK_STEP		4096

static const char *const mech_names[] = {
	[BENCH_CONVENTIONAL] = "conventional",
	[BENCH_WRAPPED] = "wrapped",
	[BENCH_URING] = "io_uring",
};

static int bench_bad(struct bench_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bench_bad(struct bench_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return -1;
}

/* What a conventional call returns, as libwsc and io_uring report it. */
static int64_t sys_ret(long ret)
{
	return ret == -1 ? -errno : ret;
}

/* Every call of the sample returned @want. */
static int expect_all(struct bench_ctx *c, const char *call, enum bench_mech m,
		      const int64_t *ret, unsigned int n, int64_t want)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (ret[i] != want)
			return bench_bad(c, "%s %s: call %u of a sample returned %lld, expected %lld",
					 mech_names[m], call, i,
					 (long long)ret[i], (long long)want);
	}
	return 0;
}

/* Buffers a read fills are cleared first, so that stale bytes never pass. */
static void clear_buffers(struct bench_ctx *c, unsigned int n)
{
	memset(c->buf, 0, (size_t)n * c->size);
}

/* What the @i-th call of a sample read must equal. */
static int expect_bytes(struct bench_ctx *c, const char *call, enum bench_mech m,
			unsigned int n, const char *want, size_t stride)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (memcmp(c->buf + i * c->size, want + i * stride, c->size))
			return bench_bad(c, "%s %s: call %u of a sample read other bytes than the conventional call",
					 mech_names[m], call, i);
	}
	return 0;
}

static void fill_pattern(char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (char)('a' + (i * 7 + seed) % 26);
}

/* setup and teardown shared by the calls */

static int setup_buffers(struct bench_ctx *c, size_t size)
{
	c->size = size;
	c->buf = calloc(BENCH_MAX_BATCH, size);
	c->data = malloc(BENCH_MAX_BATCH * size);
	if (!c->buf || !c->data)
		return bench_bad(c, "no memory for %d buffers of %zu bytes",
				 BENCH_MAX_BATCH, size);
	fill_pattern(c->data, BENCH_MAX_BATCH * size, 0);
	return 0;
}

static int setup_devnull(struct bench_ctx *c)
{
	if (setup_buffers(c, c->o->size))
		return -1;
	c->devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (c->devnull < 0)
		return bench_bad(c, "/dev/null: %s", strerror(errno));
	return 0;
}

static void teardown(struct bench_ctx *c)
{
	if (c->devnull >= 0)
		close(c->devnull);
	if (c->dev >= 0)
		close(c->dev);
	if (c->file >= 0)
		close(c->file);
	if (c->pipe[0] >= 0)
		close(c->pipe[0]);
	if (c->pipe[1] >= 0)
		close(c->pipe[1]);
	free(c->buf);
	free(c->data);
}

/* null: the mechanism alone */

static int64_t null_call(struct bench_ctx *c, unsigned int i)
{
	(void)c, (void)i;
	return sys_ret(syscall(BENCH_ENOSYS_NR));
}

static int null_prep(struct bench_ctx *c, struct wsc_batch *b, unsigned int i)
{
	(void)c, (void)i;
	return wsc_prep_nop(b, 0);
}

static void null_sqe(struct bench_ctx *c, struct io_uring_sqe *sqe,
		     unsigned int i)
{
	(void)c, (void)i;
	io_uring_prep_nop(sqe);
}

static int null_after(struct bench_ctx *c, enum bench_mech m,
		      const int64_t *ret, unsigned int n)
{
	return expect_all(c, "null", m, ret, n,
			  m == BENCH_CONVENTIONAL ? -ENOSYS : 0);
}

static int null_setup(struct bench_ctx *c)
{
	return setup_buffers(c, 1);
}

/*
 * open and close of /dev/null, each timed on its own.  open looks "null"
 * up in a descriptor of /dev, not "/dev/null" from the root: in the test
 * VM the root is the host's filesystem shared over 9p, whose lookups
 * cost tens of microseconds under TCG and would drown the mechanism.
 */
static int open_setup(struct bench_ctx *c)
{
	if (setup_devnull(c))
		return -1;
	c->dev = open("/dev", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (c->dev < 0)
		return bench_bad(c, "/dev: %s", strerror(errno));
	return 0;
}

static int64_t open_call(struct bench_ctx *c, unsigned int i)
{
	(void)i;
	return sys_ret(openat(c->dev, "null", O_RDONLY | O_CLOEXEC));
}

static int open_prep(struct bench_ctx *c, struct wsc_batch *b, unsigned int i)
{
	(void)i;
	return wsc_prep_openat(b, c->dev, "null", O_RDONLY | O_CLOEXEC, 0);
}

static void open_sqe(struct bench_ctx *c, struct io_uring_sqe *sqe,
		     unsigned int i)
{
	(void)i;
	io_uring_prep_openat(sqe, c->dev, "null", O_RDONLY | O_CLOEXEC, 0);
}

/* Close what the sample opened; any failed open fails the run. */
static int open_after(struct bench_ctx *c, enum bench_mech m,
		      const int64_t *ret, unsigned int n)
{
	unsigned int i;
	int bad = 0;

	for (i = 0; i < n; i++) {
		if (ret[i] >= 0)
			close((int)ret[i]);
		else if (!bad)
			bad = bench_bad(c, "%s open: call %u returned %s",
					mech_names[m], i, strerror((int)-ret[i]));
	}
	return bad;
}

static int close_before(struct bench_ctx *c, enum bench_mech m,
			unsigned int n)
{
	unsigned int i;

	(void)m;
	for (i = 0; i < n; i++) {
		int fd = openat(c->dev, "null", O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			while (i--)
				close((int)c->arg[i]);
			return bench_bad(c, "open /dev/null for close: %s",
					 strerror(errno));
		}
		c->arg[i] = fd;
	}
	return 0;
}

static int64_t close_call(struct bench_ctx *c, unsigned int i)
{
	return sys_ret(close((int)c->arg[i]));
}

static int close_prep(struct bench_ctx *c, struct wsc_batch *b, unsigned int i)
{
	return wsc_prep_close(b, (int)c->arg[i]);
}

static void close_sqe(struct bench_ctx *c, struct io_uring_sqe *sqe,
		      unsigned int i)
{
	io_uring_prep_close(sqe, (int)c->arg[i]);
}

/* A descriptor whose close failed is still open: close it, then fail. */
static int close_after(struct bench_ctx *c, enum bench_mech m,
		       const int64_t *ret, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (ret[i])
			close((int)c->arg[i]);
	}
	return expect_all(c, "close", m, ret, n, 0);
}

/* read and write of --size bytes on /dev/null */

static int64_t read_call(struct bench_ctx *c, unsigned int i)
{
	return sys_ret(read(c->devnull, c->buf + i * c->size, c->size));
}

static int read_prep(struct bench_ctx *c, struct wsc_batch *b, unsigned int i)
{
	return wsc_prep_read(b, c->devnull, c->buf + i * c->size, c->size);
}

/* Offset -1: at the file position, as read(2) and write(2) do. */
static void read_sqe(struct bench_ctx *c, struct io_uring_sqe *sqe,
		     unsigned int i)
{
	io_uring_prep_read(sqe, c->devnull, c->buf + i * c->size,
			   (unsigned int)c->size, (__u64)-1);
}

/* /dev/null reads nothing. */
static int read_after(struct bench_ctx *c, enum bench_mech m,
		      const int64_t *ret, unsigned int n)
{
	return expect_all(c, "read", m, ret, n, 0);
}

static int64_t write_call(struct bench_ctx *c, unsigned int i)
{
	return sys_ret(write(c->devnull, c->data + i * c->size, c->size));
}

static int write_prep(struct bench_ctx *c, struct wsc_batch *b, unsigned int i)
{
	return wsc_prep_write(b, c->devnull, c->data + i * c->size, c->size);
}

static void write_sqe(struct bench_ctx *c, struct io_uring_sqe *sqe,
		      unsigned int i)
{
	io_uring_prep_write(sqe, c->devnull, c->data + i * c->size,
			    (unsigned int)c->size, (__u64)-1);
}

static int write_after(struct bench_ctx *c, enum bench_mech m,
		       const int64_t *ret, unsigned int n)
{
	return expect_all(c, "write", m, ret, n, (int64_t)c->size);
}

/*
 * read256 and write256: the DMSM paper's 256-byte reads and writes on a
 * regular file of BENCH_MAX_BATCH blocks, the @i-th call of a sample at
 * block @i.  pread and pwrite in every mechanism, so that all three do the
 * same work: io_uring's reads and writes take an offset, and a position
 * shared by requests in flight at once would be a race.
 */
static int file_setup(struct bench_ctx *c)
{
	const char *dir = getenv("TMPDIR");
	size_t len = (size_t)BENCH_MAX_BATCH * BENCH_FILE_IO;

	if (setup_buffers(c, BENCH_FILE_IO))
		return -1;
	snprintf(c->path, sizeof(c->path), "%s/wsc-bench.XXXXXX",
		 dir && strlen(dir) < 40 ? dir : "/tmp");
	c->file = mkostemp(c->path, O_CLOEXEC);
	if (c->file < 0)
		return bench_bad(c, "cannot create %s: %s", c->path,
				 strerror(errno));
	/* Unnamed at once: a killed run leaves nothing behind. */
	unlink(c->path);
	if (pwrite(c->file, c->data, len, 0) != (ssize_t)len)
		return bench_bad(c, "cannot write %s: %s", c->path,
				 strerror(errno));
	return 0;
}

static int file_before(struct bench_ctx *c, enum bench_mech m, unsigned int n)
{
	(void)m;
	clear_buffers(c, n);
	return 0;
}

static int64_t read256_call(struct bench_ctx *c, unsigned int i)
{
	return sys_ret(pread(c->file, c->buf + i * c->size, c->size,
			     (off_t)(i * c->size)));
}

static int read256_prep(struct bench_ctx *c, struct wsc_batch *b,
			unsigned int i)
{
	return wsc_prep_pread64(b, c->file, c->buf + i * c->size, c->size,
				(off_t)(i * c->size));
}

static void read256_sqe(struct bench_ctx *c, struct io_uring_sqe *sqe,
			unsigned int i)
{
	io_uring_prep_read(sqe, c->file, c->buf + i * c->size,
			   (unsigned int)c->size, (__u64)i * c->size);
}

/* Block i of the file is what setup wrote there: data + i * 256. */
static int read256_after(struct bench_ctx *c, enum bench_mech m,
			 const int64_t *ret, unsigned int n)
{
	if (expect_all(c, "read256", m, ret, n, BENCH_FILE_IO))
		return -1;
	return expect_bytes(c, "read256", m, n, c->data, c->size);
}

static int64_t write256_call(struct bench_ctx *c, unsigned int i)
{
	return sys_ret(pwrite(c->file, c->data + i * c->size, c->size,
			      (off_t)(i * c->size)));
}

static int write256_prep(struct bench_ctx *c, struct wsc_batch *b,
			 unsigned int i)
{
	return wsc_prep_pwrite64(b, c->file, c->data + i * c->size, c->size,
				 (off_t)(i * c->size));
}

static void write256_sqe(struct bench_ctx *c, struct io_uring_sqe *sqe,
			 unsigned int i)
{
	io_uring_prep_write(sqe, c->file, c->data + i * c->size,
			    (unsigned int)c->size, (__u64)i * c->size);
}

/* The blocks written hold what was written: read them back. */
static int write256_after(struct bench_ctx *c, enum bench_mech m,
			  const int64_t *ret, unsigned int n)
{
	size_t len = (size_t)n * c->size;

	if (expect_all(c, "write256", m, ret, n, BENCH_FILE_IO))
		return -1;
	if (pread(c->file, c->buf, len, 0) != (ssize_t)len)
		return bench_bad(c, "read back %s: %s", c->path, strerror(errno));
	if (memcmp(c->buf, c->data, len))
		return bench_bad(c, "%s write256: the file holds other bytes than were written",
				 mech_names[m]);
	return 0;
}

/* getpid */

static int64_t getpid_call(struct bench_ctx *c, unsigned int i)
{
	(void)c, (void)i;
	return sys_ret(syscall(SYS_getpid));
}

static int getpid_prep(struct bench_ctx *c, struct wsc_batch *b,
		       unsigned int i)
{
	(void)c, (void)i;
	return wsc_prep_getpid(b);
}

static int getpid_after(struct bench_ctx *c, enum bench_mech m,
			const int64_t *ret, unsigned int n)
{
	return expect_all(c, "getpid", m, ret, n, getpid());
}

/*
 * sbrk: the heap grows and shrinks by 4096 bytes through brk(2), the
 * calls of a mechanism alternating (grow, shrink, grow, ...) across its
 * samples.  A shrink always undoes a grow of the same mechanism, so the
 * break never falls below where the run found it; teardown puts it back.
 * Nothing else may move the break meanwhile (malloc could, if its heap
 * ran out): every sample checks it is where the suite left it.
 */
static int sbrk_setup(struct bench_ctx *c)
{
	if (setup_buffers(c, 1))
		return -1;
	c->brk_base = (uint64_t)syscall(SYS_brk, 0);
	c->brk_now = c->brk_base;
	return 0;
}

static void sbrk_teardown(struct bench_ctx *c)
{
	/* Only a break the suite left: malloc may have moved it since. */
	if (c->brk_base && c->brk_now != c->brk_base &&
	    (uint64_t)syscall(SYS_brk, 0) == c->brk_now)
		syscall(SYS_brk, c->brk_base);
	teardown(c);
}

static int sbrk_before(struct bench_ctx *c, enum bench_mech m, unsigned int n)
{
	uint64_t at = (uint64_t)syscall(SYS_brk, 0);
	unsigned int i;

	if (at != c->brk_now)
		return bench_bad(c, "the program break moved under the benchmark (malloc?): %#llx, expected %#llx",
				 (unsigned long long)at,
				 (unsigned long long)c->brk_now);
	for (i = 0; i < n; i++) {
		at += (c->done[m] + i) % 2 ? -BENCH_BRK_STEP : BENCH_BRK_STEP;
		c->arg[i] = (int64_t)at;
	}
	return 0;
}

static int64_t sbrk_call(struct bench_ctx *c, unsigned int i)
{
	return sys_ret(syscall(SYS_brk, c->arg[i]));
}

static int sbrk_prep(struct bench_ctx *c, struct wsc_batch *b, unsigned int i)
{
	return wsc_prep_brk(b, (void *)(uintptr_t)c->arg[i]);
}

/* brk returns the new break, or the old one when it could not move it. */
static int sbrk_after(struct bench_ctx *c, enum bench_mech m,
		      const int64_t *ret, unsigned int n)
{
	unsigned int i;

	c->done[m] += n;
	c->brk_now = (uint64_t)syscall(SYS_brk, 0);
	for (i = 0; i < n; i++) {
		if (ret[i] != c->arg[i])
			return bench_bad(c, "%s sbrk: call %u moved the break to %#llx, asked for %#llx",
					 mech_names[m], i,
					 (unsigned long long)ret[i],
					 (unsigned long long)c->arg[i]);
	}
	return 0;
}

/*
 * pipe-write and pipe-read: the latency-lab report's single-threaded
 * non-blocking pipe.  A write sample's bytes are drained after it, a read sample's
 * bytes written before it, untimed; the pipe holds a whole sample.
 */
static int pipe_setup(struct bench_ctx *c)
{
	size_t need = (size_t)BENCH_MAX_BATCH * c->o->size;

	if (setup_buffers(c, c->o->size))
		return -1;
	if (pipe2(c->pipe, O_NONBLOCK | O_CLOEXEC))
		return bench_bad(c, "pipe2: %s", strerror(errno));
	if (need > 65536 && fcntl(c->pipe[1], F_SETPIPE_SZ, (int)need) < 0)
		return bench_bad(c, "a pipe of %zu bytes for %d writes of --size %zu: %s (see /proc/sys/fs/pipe-max-size)",
				 need, BENCH_MAX_BATCH, c->size, strerror(errno));
	return 0;
}

static int pipe_move(struct bench_ctx *c, int fd, char *p, size_t len,
		     const char *what)
{
	ssize_t got = fd == c->pipe[1] ? write(fd, p, len) : read(fd, p, len);

	if (got != (ssize_t)len)
		return bench_bad(c, "%s %zu bytes: %s", what, len,
				 got < 0 ? strerror(errno) : "short");
	return 0;
}

static int64_t pipew_call(struct bench_ctx *c, unsigned int i)
{
	return sys_ret(write(c->pipe[1], c->data + i * c->size, c->size));
}

static int pipew_prep(struct bench_ctx *c, struct wsc_batch *b, unsigned int i)
{
	return wsc_prep_write(b, c->pipe[1], c->data + i * c->size, c->size);
}

static void pipew_sqe(struct bench_ctx *c, struct io_uring_sqe *sqe,
		      unsigned int i)
{
	io_uring_prep_write(sqe, c->pipe[1], c->data + i * c->size,
			    (unsigned int)c->size, (__u64)-1);
}

/* The pipe must hold exactly what the sample wrote, in order. */
static int pipew_after(struct bench_ctx *c, enum bench_mech m,
		       const int64_t *ret, unsigned int n)
{
	int bad = expect_all(c, "pipe-write", m, ret, n, (int64_t)c->size);

	if (pipe_move(c, c->pipe[0], c->buf, n * c->size, "drain the pipe of"))
		return -1;
	if (bad)
		return bad;
	if (memcmp(c->buf, c->data, n * c->size))
		return bench_bad(c, "%s pipe-write: the pipe holds other bytes than were written",
				 mech_names[m]);
	return 0;
}

static int piper_before(struct bench_ctx *c, enum bench_mech m, unsigned int n)
{
	(void)m;
	clear_buffers(c, n);
	return pipe_move(c, c->pipe[1], c->data, n * c->size, "fill the pipe with");
}

static int64_t piper_call(struct bench_ctx *c, unsigned int i)
{
	return sys_ret(read(c->pipe[0], c->buf + i * c->size, c->size));
}

static int piper_prep(struct bench_ctx *c, struct wsc_batch *b, unsigned int i)
{
	return wsc_prep_read(b, c->pipe[0], c->buf + i * c->size, c->size);
}

static void piper_sqe(struct bench_ctx *c, struct io_uring_sqe *sqe,
		      unsigned int i)
{
	io_uring_prep_read(sqe, c->pipe[0], c->buf + i * c->size,
			   (unsigned int)c->size, (__u64)-1);
}

/* Reads of a pipe come back in the order they ran: call i got block i. */
static int piper_after(struct bench_ctx *c, enum bench_mech m,
		       const int64_t *ret, unsigned int n)
{
	char rest[1];

	if (expect_all(c, "pipe-read", m, ret, n, (int64_t)c->size))
		return -1;
	if (read(c->pipe[0], rest, 1) != -1 || errno != EAGAIN)
		return bench_bad(c, "%s pipe-read: bytes left in the pipe",
				 mech_names[m]);
	return expect_bytes(c, "pipe-read", m, n, c->data, c->size);
}

/* sem and futex: no setup here, bench_wake.c runs them. */
static int wake_setup(struct bench_ctx *c)
{
	return setup_buffers(c, 1);
}

const struct bench_call bench_calls[] = {
	{ "null", "the mechanism alone: an unimplemented call (ENOSYS), the wrapped no-op, IORING_OP_NOP",
	  BENCH_F_URING, null_setup, teardown, NULL,
	  null_call, null_prep, null_sqe, null_after },
	{ "open", "openat(/dev, \"null\", O_RDONLY); closed untimed after each sample",
	  BENCH_F_URING, open_setup, teardown, NULL,
	  open_call, open_prep, open_sqe, open_after },
	{ "close", "close() of a /dev/null descriptor opened untimed before each sample (its last reference)",
	  BENCH_F_URING, open_setup, teardown, close_before,
	  close_call, close_prep, close_sqe, close_after },
	{ "read", "read() of --size bytes from /dev/null",
	  BENCH_F_URING | BENCH_F_SIZE, setup_devnull, teardown, NULL,
	  read_call, read_prep, read_sqe, read_after },
	{ "write", "write() of --size bytes to /dev/null",
	  BENCH_F_URING | BENCH_F_SIZE, setup_devnull, teardown, NULL,
	  write_call, write_prep, write_sqe, write_after },
	{ "read256", "pread() of 256 bytes from a regular file (the DMSM paper's read of 256 bytes)",
	  BENCH_F_URING, file_setup, teardown, file_before,
	  read256_call, read256_prep, read256_sqe, read256_after },
	{ "write256", "pwrite() of 256 bytes to a regular file (the DMSM paper's write of 256 bytes)",
	  BENCH_F_URING, file_setup, teardown, file_before,
	  write256_call, write256_prep, write256_sqe, write256_after },
	{ "getpid", "getpid()",
	  0, null_setup, teardown, NULL,
	  getpid_call, getpid_prep, NULL, getpid_after },
	{ "sbrk", "brk() growing and shrinking the heap by 4096 bytes, alternately (the DMSM paper's sbrk)",
	  0, sbrk_setup, sbrk_teardown, sbrk_before,
	  sbrk_call, sbrk_prep, NULL, sbrk_after },
	{ "pipe-write", "write() of --size bytes to a non-blocking pipe, drained untimed (as the latency-lab report)",
	  BENCH_F_URING | BENCH_F_SIZE, pipe_setup, teardown, NULL,
	  pipew_call, pipew_prep, pipew_sqe, pipew_after },
	{ "pipe-read", "read() of --size bytes from a non-blocking pipe, filled untimed (as the latency-lab report)",
	  BENCH_F_URING | BENCH_F_SIZE, pipe_setup, teardown, piper_before,
	  piper_call, piper_prep, piper_sqe, piper_after },
	{ "sem", "sem_post() to sem_wait() wake-up between two pinned threads, from the waker's timestamp",
	  BENCH_F_WAKE, wake_setup, teardown, NULL, NULL, NULL, NULL, NULL },
	{ "futex", "FUTEX_WAKE to FUTEX_WAIT wake-up between two pinned threads, from the waker's timestamp",
	  BENCH_F_WAKE, wake_setup, teardown, NULL, NULL, NULL, NULL, NULL },
};

const unsigned int bench_nr_calls = sizeof(bench_calls) / sizeof(bench_calls[0]);

const struct bench_call *bench_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < bench_nr_calls; i++) {
		if (!strcmp(bench_calls[i].name, name))
			return &bench_calls[i];
	}
	return NULL;
}
