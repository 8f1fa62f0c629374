/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Twin calls: the differential tests of the allowlist (t_calls_<group>.c,
 * one program per group of include/wsc_calls.h, and t_calls_batch.c) run
 * every system call once wrapped through /dev/wsc and once conventionally,
 * with syscall(2), on the same or on twin objects, and compare: the same
 * return value or the same errno, and the same observable effect.  The
 * raw ABI is used, never libwsc, so that what is compared is the module
 * alone.
 *
 * This header holds what every group shares: the calls made both ways
 * (W, S, E and the SAME, TWIN and CHECK comparisons), the objects they
 * work on (a private temporary directory, twin files, twin pipes, socket
 * pairs) and checks of their effects.  Include it in exactly one file per
 * program, after the system headers that file needs.
 */
#ifndef WSC_TEST_TWIN_H
#define WSC_TEST_TWIN_H

#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "util.h"

#define PG		4096UL		/* x86-64, as the call numbers */
#define NOFD		300		/* a descriptor number no test opens */
#define BADPTR		((void *)8)	/* in the never-mapped first page */
#define MS		1000000L	/* one millisecond, in nanoseconds */
#define ANY		LONG_MIN	/* SAME(ANY, ...): need only agree */

/* A system call argument as the 64-bit register value both paths pass. */
#define A(x)		((uint64_t)(uintptr_t)(x))

/*
 * CALL(fn, nr, args...) calls fn(nr, a0, ..., a5) with the arguments
 * converted by A() and the missing ones zero, so that the wrapped and the
 * conventional call see bit-identical registers (an int passed through
 * syscall()'s varargs would otherwise leave the upper half undefined).
 */
#define PICK(_0, _1, _2, _3, _4, _5, _6, name, ...)	name
#define C0(fn, nr)		fn(nr, 0, 0, 0, 0, 0, 0)
#define C1(fn, nr, a)		fn(nr, A(a), 0, 0, 0, 0, 0)
#define C2(fn, nr, a, b)	fn(nr, A(a), A(b), 0, 0, 0, 0)
#define C3(fn, nr, a, b, c)	fn(nr, A(a), A(b), A(c), 0, 0, 0)
#define C4(fn, nr, a, b, c, d)	fn(nr, A(a), A(b), A(c), A(d), 0, 0)
#define C5(fn, nr, a, b, c, d, e) fn(nr, A(a), A(b), A(c), A(d), A(e), 0)
#define C6(fn, nr, a, b, c, d, e, f) \
	fn(nr, A(a), A(b), A(c), A(d), A(e), A(f))
#define CALL(fn, ...) \
	PICK(__VA_ARGS__, C6, C5, C4, C3, C2, C1, C0, -)(fn, __VA_ARGS__)

/* Wrapped, conventional, and a batch entry, all with the same arguments. */
#define W(...)		CALL(wsc_do, __VA_ARGS__)
#define S(...)		CALL(sys_do, __VA_ARGS__)
#define E(...)		CALL(wsc_ent, __VA_ARGS__)

static int wsc_dev = -1;

/*
 * /dev/wsc, opened once per test and moved high, so that it never holds a
 * number a test compares.  A test that starts threads calls it first, so
 * that they share the one descriptor.
 */
static inline int dev(void)
{
	int fd;

	if (wsc_dev >= 0)
		return wsc_dev;
	fd = wsc_test_open();
	wsc_dev = fcntl(fd, F_DUPFD_CLOEXEC, 500);
	ASSERT_GE(wsc_dev, 0);
	close(fd);
	return wsc_dev;
}

/* One call through /dev/wsc: its result, as the system call returned it. */
static inline long wsc_do(uint32_t nr, uint64_t a0, uint64_t a1, uint64_t a2,
			  uint64_t a3, uint64_t a4, uint64_t a5)
{
	struct wsc_entry e = wsc_ent(nr, a0, a1, a2, a3, a4, a5);
	struct wsc_result r = { .ret = LONG_MIN };
	int n;

	n = wsc_test_submit(dev(), &e, &r, 1, 0, NULL);
	ASSERT_EQ(n, 1);
	return r.ret;
}

/* The same call made conventionally, with -1/errno turned into -errno. */
static inline long sys_do(uint32_t nr, uint64_t a0, uint64_t a1, uint64_t a2,
			  uint64_t a3, uint64_t a4, uint64_t a5)
{
	long ret = syscall(nr, a0, a1, a2, a3, a4, a5);

	return ret == -1 ? -errno : ret;
}

static inline bool is_err(long ret)
{
	return ret < 0 && ret >= -4095;
}

/* Wrapped @w and conventional @c must agree, and equal @expect if given. */
static inline long same(long expect, long w, long c, const char *call,
			const char *file, int line)
{
	if (w != c || (expect != ANY && c != expect)) {
		printf("# %s:%d: %s: wrapped %ld, conventional %ld, "
		       "expected %ld\n", file, line, call, w, c, expect);
		fflush(stdout);
		wsc_test_failed = 1;
	}
	return c;
}

/*
 * The same call both ways, wrapped first, on the same objects: for calls
 * without side effects, and for error cases, where the expected errno
 * also proves that the case reaches the check it is meant to.
 */
#define SAME(expect, ...) ({						\
	long _w = W(__VA_ARGS__);					\
	long _c = S(__VA_ARGS__);					\
	same(expect, _w, _c, #__VA_ARGS__, __FILE__, __LINE__);		\
})

/* The same call on twin objects: @ow for the wrapped, @oc for the other. */
#define TWIN(expect, nr, ow, oc, ...) ({				\
	long _w = W(nr, ow, __VA_ARGS__);				\
	long _c = S(nr, oc, __VA_ARGS__);				\
	same(expect, _w, _c, #nr "(" #ow " | " #oc ", " #__VA_ARGS__ ")", \
	     __FILE__, __LINE__);					\
})

/* Wrapped expression @w, then conventional @c, in that order. */
#define CHECK(expect, w, c) ({						\
	long _cw = (w);							\
	long _cc = (c);							\
	same(expect, _cw, _cc, #w, __FILE__, __LINE__);			\
})

/* ---- A private temporary directory ----------------------------------- */

static char tmp_path[64];

/* A fresh private directory, made the current one: paths stay short. */
static inline void tmp_enter(void)
{
	strcpy(tmp_path, "/tmp/wsc-calls.XXXXXX");
	ASSERT_TRUE(mkdtemp(tmp_path));
	ASSERT_EQ(chdir(tmp_path), 0);
	umask(022);
}

static inline int tmp_rm_one(const char *path, const struct stat *st,
			     int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* Out of the directory, and the directory gone with all it holds. */
static inline void tmp_leave(void)
{
	ASSERT_EQ(chdir("/"), 0);
	EXPECT_EQ(nftw(tmp_path, tmp_rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

/*
 * TEST_IN_TMP(name) { ... }: a test whose body runs in a fresh temporary
 * directory (tmp_enter()), removed when the body returns (tmp_leave()).
 * A failed ASSERT ends the test at once and leaves the directory for a
 * look.
 */
#define TEST_IN_TMP(name)						\
	static void tmp_test_##name(void);				\
	TEST(name)							\
	{								\
		tmp_enter();						\
		tmp_test_##name();					\
		tmp_leave();						\
	}								\
	static void tmp_test_##name(void)

/* ---- Objects to work on, and their effects ---------------------------- */

/* Position-dependent bytes, so that misplaced data shows. */
static inline void fill(char *buf, size_t len, int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = 'a' + (i * 7 + seed) % 26;
}

/* open(2) with close-on-exec, mode 0644 if it creates; fails the test. */
static inline int xopen(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0644);

	if (fd < 0)
		TH_LOG("open %s: %s", path, strerror(errno));
	ASSERT_GE(fd, 0);
	return fd;
}

/* @path holds exactly @len bytes of @data. */
static inline void put(const char *path, const void *data, size_t len)
{
	int fd = xopen(path, O_WRONLY | O_CREAT | O_TRUNC);

	ASSERT_EQ(write(fd, data, len), (long)len);
	close(fd);
}

static inline long get(const char *path, char *buf, size_t cap)
{
	int fd = xopen(path, O_RDONLY);
	long n = read(fd, buf, cap);

	close(fd);
	return n;
}

/*
 * Twin files, "a" for the wrapped call and "b" for the conventional one,
 * in the current directory: each made to hold @len bytes of @data (left
 * as they are if @data is NULL), then opened with @flags into @fa, @fb.
 */
static inline void twin_files(const void *data, size_t len, int flags,
			      int *fa, int *fb)
{
	if (data) {
		put("a", data, len);
		put("b", data, len);
	}
	*fa = xopen("a", flags);
	*fb = xopen("b", flags);
}

/* Twin pipes made with pipe2(@flags): @pw for the wrapped call. */
static inline void twin_pipes(int pw[2], int pc[2], int flags)
{
	ASSERT_EQ(pipe2(pw, flags), 0);
	ASSERT_EQ(pipe2(pc, flags), 0);
}

static inline void unix_pair(int type, int sv[2])
{
	ASSERT_EQ(socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, sv), 0);
}

/* The effect of writes: two files must hold the same bytes. */
static inline void expect_same_file(const char *a, const char *b)
{
	static char ba[8192], bb[8192];
	long na = get(a, ba, sizeof(ba)), nb = get(b, bb, sizeof(bb));

	EXPECT_EQ(na, nb);
	EXPECT_TRUE(na == nb && na >= 0 && !memcmp(ba, bb, na));
}

static inline void expect_file(const char *path, const void *data, long len)
{
	char buf[8192];

	EXPECT_EQ(get(path, buf, sizeof(buf)), len);
	EXPECT_EQ(memcmp(buf, data, len), 0);
}

static inline off_t pos(int fd)
{
	return lseek(fd, 0, SEEK_CUR);
}

/* The lowest free descriptor: what the next open would return. */
static inline int next_fd(void)
{
	int fd = dup(0);

	ASSERT_GE(fd, 0);
	close(fd);
	return fd;
}

/* Twin objects, not the same one: everything but identity and times. */
static inline void expect_twin_stat(const struct stat *a, const struct stat *b)
{
	EXPECT_EQ(a->st_dev, b->st_dev);
	EXPECT_EQ(a->st_mode, b->st_mode);
	EXPECT_EQ(a->st_nlink, b->st_nlink);
	EXPECT_EQ(a->st_uid, b->st_uid);
	EXPECT_EQ(a->st_gid, b->st_gid);
	EXPECT_EQ(a->st_rdev, b->st_rdev);
	EXPECT_EQ(a->st_size, b->st_size);
	EXPECT_EQ(a->st_blksize, b->st_blksize);
	EXPECT_EQ(a->st_blocks, b->st_blocks);
}

static inline bool exists(const char *path)
{
	return !access(path, F_OK);
}

/* ---- Kernel structures the raw calls take ----------------------------- */

/* The kernel's struct sigaction on x86-64, which rt_sigaction takes. */
struct ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

/* @sig's bit in a kernel signal set (a 64-bit word on x86-64). */
static inline uint64_t sig_bit(int sig)
{
	return 1ULL << (sig - 1);
}

/* One record of a getdents64 buffer. */
struct dirent64_raw {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

#endif /* WSC_TEST_TWIN_H */
