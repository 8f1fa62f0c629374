// SPDX-License-Identifier: GPL-2.0
/*
 * t_calls: differential tests of the whole allowlist.  Every allowlisted
 * system call runs once wrapped through /dev/wsc and once conventionally,
 * with syscall(2), on the same or on twin objects (files in a private
 * temporary directory, pipes, AF_UNIX and UDP sockets, anonymous and file
 * memory), and the two must agree: the same return value or the same
 * errno, and the same observable effect.  The raw ABI is used, never
 * libwsc, so that what is compared is the module alone.
 */
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include <arpa/inet.h>
#include <linux/futex.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>

#include "util.h"

#define PG		4096UL		/* x86-64, as the call numbers */
#define NOFD		300		/* a descriptor number no test opens */
#define BADPTR		((void *)8)	/* in the never-mapped first page */
#define MS		1000000L	/* one millisecond, in nanoseconds */
#define ANY		LONG_MIN	/* SAME(ANY, ...): need only agree */


#ifndef SA_RESTORER
#define SA_RESTORER	0x04000000
#endif

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

/* /dev/wsc, moved high so that it never holds a number a test compares. */
static int dev(void)
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
static long wsc_do(uint32_t nr, uint64_t a0, uint64_t a1, uint64_t a2,
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
static long sys_do(uint32_t nr, uint64_t a0, uint64_t a1, uint64_t a2,
		   uint64_t a3, uint64_t a4, uint64_t a5)
{
	long ret = syscall(nr, a0, a1, a2, a3, a4, a5);

	return ret == -1 ? -errno : ret;
}

static bool is_err(long ret)
{
	return ret < 0 && ret >= -4095;
}

/* Wrapped @w and conventional @c must agree, and equal @expect if given. */
static long same(long expect, long w, long c, const char *call, int line)
{
	if (w != c || (expect != ANY && c != expect)) {
		printf("# %s:%d: %s: wrapped %ld, conventional %ld, "
		       "expected %ld\n", __FILE__, line, call, w, c, expect);
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
	same(expect, _w, _c, #__VA_ARGS__, __LINE__);			\
})

/* The same call on twin objects: @ow for the wrapped, @oc for the other. */
#define TWIN(expect, nr, ow, oc, ...) ({				\
	long _w = W(nr, ow, __VA_ARGS__);				\
	long _c = S(nr, oc, __VA_ARGS__);				\
	same(expect, _w, _c, #nr "(" #ow " | " #oc ", " #__VA_ARGS__ ")", \
	     __LINE__);							\
})

/* Wrapped expression @w, then conventional @c, in that order. */
#define CHECK(expect, w, c) ({						\
	long _cw = (w);							\
	long _cc = (c);							\
	same(expect, _cw, _cc, #w, __LINE__);				\
})

/* ---- Objects to work on ---------------------------------------------- */

static char tmp_path[64];

/* A fresh private directory, made the current one: paths stay short. */
static void tmp_enter(void)
{
	strcpy(tmp_path, "/tmp/wsc-calls.XXXXXX");
	ASSERT_TRUE(mkdtemp(tmp_path));
	ASSERT_EQ(chdir(tmp_path), 0);
	umask(022);
}

static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

static void tmp_leave(void)
{
	ASSERT_EQ(chdir("/"), 0);
	EXPECT_EQ(nftw(tmp_path, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

/* Position-dependent bytes, so that misplaced data shows. */
static void fill(char *buf, size_t len, int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = 'a' + (i * 7 + seed) % 26;
}

static int xopen(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0644);

	if (fd < 0)
		TH_LOG("open %s: %s", path, strerror(errno));
	ASSERT_GE(fd, 0);
	return fd;
}

static void put(const char *path, const void *data, size_t len)
{
	int fd = xopen(path, O_WRONLY | O_CREAT | O_TRUNC);

	ASSERT_EQ(write(fd, data, len), (long)len);
	close(fd);
}

static long get(const char *path, char *buf, size_t cap)
{
	int fd = xopen(path, O_RDONLY);
	long n = read(fd, buf, cap);

	close(fd);
	return n;
}

/* The effect of writes: two files must hold the same bytes. */
static void expect_same_file(const char *a, const char *b)
{
	static char ba[8192], bb[8192];
	long na = get(a, ba, sizeof(ba)), nb = get(b, bb, sizeof(bb));

	EXPECT_EQ(na, nb);
	EXPECT_TRUE(na == nb && na >= 0 && !memcmp(ba, bb, na));
}

static void expect_file(const char *path, const void *data, long len)
{
	char buf[8192];

	EXPECT_EQ(get(path, buf, sizeof(buf)), len);
	EXPECT_EQ(memcmp(buf, data, len), 0);
}

static off_t pos(int fd)
{
	return lseek(fd, 0, SEEK_CUR);
}

/* The lowest free descriptor: what the next open would return. */
static int next_fd(void)
{
	int fd = dup(0);

	ASSERT_GE(fd, 0);
	close(fd);
	return fd;
}

/* Twin objects, not the same one: everything but identity and times. */
static void expect_twin_stat(const struct stat *a, const struct stat *b)
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

static void expect_twin_paths(const char *a, const char *b)
{
	struct stat sa, sb;

	ASSERT_EQ(lstat(a, &sa), 0);
	ASSERT_EQ(lstat(b, &sb), 0);
	expect_twin_stat(&sa, &sb);
}

static bool exists(const char *path)
{
	return !access(path, F_OK);
}

/* Is the page at @p mapped?  mincore says ENOMEM when it is not. */
static long mapped(const void *p)
{
	unsigned char vec;

	return S(__NR_mincore, p, PG, &vec);
}

/* The permissions /proc/self/maps shows for the mapping holding @addr. */
static void perms(const void *addr, char out[5])
{
	unsigned long lo, hi, a = (unsigned long)addr;
	char line[512], p[8];
	FILE *f = fopen("/proc/self/maps", "re");

	strcpy(out, "none");
	ASSERT_TRUE(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, p) == 3 &&
		    a >= lo && a < hi) {
			memcpy(out, p, 5);
			break;
		}
	}
	fclose(f);
}

static void *anon(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(p != MAP_FAILED);
	return p;
}

/* The guest may boot with lo down; bring it up as "ip link set lo up". */
static void lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		return;
	if (!ioctl(s, SIOCGIFFLAGS, &ifr) && !(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
}

/* A UDP socket on 127.0.0.1 with a port of its own, and its address. */
static int udp_bound(struct sockaddr_in *sin)
{
	socklen_t len = sizeof(*sin);
	int s;

	lo_up();
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ASSERT_GE(s, 0);
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)sin, sizeof(*sin)))
		SKIP("bind 127.0.0.1: %s", strerror(errno));
	ASSERT_EQ(getsockname(s, (struct sockaddr *)sin, &len), 0);
	return s;
}

static void unix_pair(int type, int sv[2])
{
	ASSERT_EQ(socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, sv), 0);
}

/* ---- user data: read, write, pread64, pwrite64, readv, writev --------- */

/* read(2) on twin descriptors: count, bytes and offset must agree. */
static long read_twin(int fw, int fc, size_t len, const char *want)
{
	char bw[256], bc[256];
	long w, c;

	memset(bw, '.', sizeof(bw));
	memset(bc, '.', sizeof(bc));
	w = W(__NR_read, fw, bw, len);
	c = S(__NR_read, fc, bc, len);
	CHECK(ANY, w, c);
	EXPECT_EQ(memcmp(bw, bc, sizeof(bw)), 0);
	EXPECT_EQ(pos(fw), pos(fc));
	if (want && c > 0)
		EXPECT_EQ(memcmp(bc, want, c), 0);
	return c;
}

TEST(read)
{
	char data[100], buf[16];
	int fa, fb, pa[2], pb[2], dir, wo, opath, ev;

	tmp_enter();
	fill(data, sizeof(data), 1);
	put("a", data, sizeof(data));
	put("b", data, sizeof(data));
	fa = xopen("a", O_RDONLY);
	fb = xopen("b", O_RDONLY);

	/* A full read, a short one at the end of the file, then EOF. */
	EXPECT_EQ(read_twin(fa, fb, 40, data), 40);
	lseek(fa, 90, SEEK_SET);
	lseek(fb, 90, SEEK_SET);
	EXPECT_EQ(read_twin(fa, fb, 64, data + 90), 10);
	EXPECT_EQ(read_twin(fa, fb, 64, NULL), 0);

	/* A pipe gives what it holds, then EAGAIN (non-blocking), then EOF. */
	ASSERT_EQ(pipe2(pa, O_NONBLOCK | O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(pb, O_NONBLOCK | O_CLOEXEC), 0);
	ASSERT_EQ(write(pa[1], "hello", 5), 5);
	ASSERT_EQ(write(pb[1], "hello", 5), 5);
	EXPECT_EQ(read_twin(pa[0], pb[0], 64, "hello"), 5);
	EXPECT_EQ(read_twin(pa[0], pb[0], 64, NULL), -EAGAIN);
	close(pa[1]);
	close(pb[1]);
	EXPECT_EQ(read_twin(pa[0], pb[0], 64, NULL), 0);

	lseek(fa, 0, SEEK_SET);
	SAME(-EBADF, __NR_read, NOFD, buf, sizeof(buf));
	SAME(-EFAULT, __NR_read, fa, BADPTR, 10);
	EXPECT_EQ(pos(fa), 0);		/* the failed reads took nothing */
	dir = xopen(".", O_RDONLY | O_DIRECTORY);
	SAME(-EISDIR, __NR_read, dir, buf, sizeof(buf));
	wo = xopen("a", O_WRONLY);
	SAME(-EBADF, __NR_read, wo, buf, sizeof(buf));
	opath = xopen("a", O_PATH);
	SAME(-EBADF, __NR_read, opath, buf, sizeof(buf));
	/* An eventfd wants room for its 8-byte counter. */
	ev = eventfd(1, EFD_CLOEXEC);
	ASSERT_GE(ev, 0);
	SAME(-EINVAL, __NR_read, ev, buf, 4);
	tmp_leave();
}

/* write(2) on twin descriptors: count and offset must agree. */
static long write_twin(int fw, int fc, const void *data, size_t len)
{
	long c = TWIN(ANY, __NR_write, fw, fc, data, len);

	EXPECT_EQ(pos(fw), pos(fc));
	return c;
}

TEST(write)
{
	char data[100], want[104], buf[128];
	int fa, fb, fa2, fb2, pa[2], pb[2], p[2], ro, i;

	tmp_enter();
	fill(data, sizeof(data), 2);
	fa = xopen("a", O_RDWR | O_CREAT);
	fb = xopen("b", O_RDWR | O_CREAT);

	/* Writes land at the offset and move it; then overwrite the middle. */
	EXPECT_EQ(write_twin(fa, fb, data, 60), 60);
	lseek(fa, 10, SEEK_SET);
	lseek(fb, 10, SEEK_SET);
	EXPECT_EQ(write_twin(fa, fb, data + 60, 40), 40);
	EXPECT_EQ(write_twin(fa, fb, data, 0), 0);
	expect_same_file("a", "b");
	memcpy(want, data, 10);
	memcpy(want + 10, data + 60, 40);
	memcpy(want + 50, data + 50, 10);
	expect_file("a", want, 60);

	/* O_APPEND writes at the end, wherever the offset is. */
	fa2 = xopen("a", O_WRONLY | O_APPEND);
	fb2 = xopen("b", O_WRONLY | O_APPEND);
	EXPECT_EQ(write_twin(fa2, fb2, "tail", 4), 4);
	memcpy(want + 60, "tail", 4);
	expect_file("a", want, 64);
	expect_same_file("a", "b");

	/* A pipe: the bytes come out of the other end. */
	ASSERT_EQ(pipe2(pa, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(pb, O_CLOEXEC), 0);
	EXPECT_EQ(write_twin(pa[1], pb[1], data, 30), 30);
	EXPECT_EQ(read(pa[0], buf, sizeof(buf)), 30);
	EXPECT_EQ(memcmp(buf, data, 30), 0);
	EXPECT_EQ(read(pb[0], buf, sizeof(buf)), 30);
	EXPECT_EQ(memcmp(buf, data, 30), 0);

	SAME(-EBADF, __NR_write, NOFD, data, 1);
	ro = xopen("a", O_RDONLY);
	SAME(-EBADF, __NR_write, ro, data, 1);
	SAME(-EFAULT, __NR_write, fa, BADPTR, 10);
	expect_file("a", want, 64);	/* nothing was written */

	/* A full non-blocking pipe: EAGAIN. */
	ASSERT_EQ(pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
	ASSERT_GE(fcntl(p[1], F_SETPIPE_SZ, 4096), 4096);
	for (i = 0; i < 1000 && write(p[1], data, sizeof(data)) > 0; i++)
		;
	SAME(-EAGAIN, __NR_write, p[1], data, sizeof(data));

	/* No reader left: EPIPE, with SIGPIPE ignored. */
	signal(SIGPIPE, SIG_IGN);
	close(p[0]);
	SAME(-EPIPE, __NR_write, p[1], data, 1);
	tmp_leave();
}

static long pread_twin(int fw, int fc, size_t len, off_t off, const char *want)
{
	char bw[128], bc[128];
	long w, c;

	memset(bw, '.', sizeof(bw));
	memset(bc, '.', sizeof(bc));
	w = W(__NR_pread64, fw, bw, len, off);
	c = S(__NR_pread64, fc, bc, len, off);
	CHECK(ANY, w, c);
	EXPECT_EQ(memcmp(bw, bc, sizeof(bw)), 0);
	if (want && c > 0)
		EXPECT_EQ(memcmp(bc, want, c), 0);
	/* pread leaves the offset alone. */
	EXPECT_EQ(pos(fw), 0);
	EXPECT_EQ(pos(fc), 0);
	return c;
}

TEST(pread64)
{
	char data[100], buf[16];
	int fa, fb, p[2], dir;

	tmp_enter();
	fill(data, sizeof(data), 3);
	put("a", data, sizeof(data));
	put("b", data, sizeof(data));
	fa = xopen("a", O_RDONLY);
	fb = xopen("b", O_RDONLY);

	EXPECT_EQ(pread_twin(fa, fb, 20, 30, data + 30), 20);
	EXPECT_EQ(pread_twin(fa, fb, 20, 95, data + 95), 5);
	EXPECT_EQ(pread_twin(fa, fb, 20, 200, NULL), 0);

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	SAME(-ESPIPE, __NR_pread64, p[0], buf, 1, 0);
	SAME(-EINVAL, __NR_pread64, fa, buf, 1, -1);
	SAME(-EBADF, __NR_pread64, NOFD, buf, 1, 0);
	SAME(-EFAULT, __NR_pread64, fa, BADPTR, 10, 0);
	dir = xopen(".", O_RDONLY | O_DIRECTORY);
	SAME(-EISDIR, __NR_pread64, dir, buf, 1, 0);
	tmp_leave();
}

TEST(pwrite64)
{
	char data[100];
	struct stat sa;
	int fa, fb, fa2, fb2, p[2], ro;

	tmp_enter();
	fill(data, sizeof(data), 4);
	fa = xopen("a", O_RDWR | O_CREAT);
	fb = xopen("b", O_RDWR | O_CREAT);

	/* Past the end leaves a hole; then into the middle; offsets stay. */
	EXPECT_EQ(TWIN(10, __NR_pwrite64, fa, fb, data, 10, 1000), 10);
	EXPECT_EQ(TWIN(5, __NR_pwrite64, fa, fb, data + 50, 5, 3), 5);
	EXPECT_EQ(pos(fa), 0);
	EXPECT_EQ(pos(fb), 0);
	ASSERT_EQ(fstat(fa, &sa), 0);
	EXPECT_EQ(sa.st_size, 1010);
	expect_same_file("a", "b");

	/* With O_APPEND, Linux appends whatever the offset asked. */
	fa2 = xopen("a", O_WRONLY | O_APPEND);
	fb2 = xopen("b", O_WRONLY | O_APPEND);
	EXPECT_EQ(TWIN(4, __NR_pwrite64, fa2, fb2, "tail", 4, 0), 4);
	ASSERT_EQ(fstat(fa, &sa), 0);
	EXPECT_EQ(sa.st_size, 1014);
	expect_same_file("a", "b");

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	SAME(-ESPIPE, __NR_pwrite64, p[1], data, 1, 0);
	SAME(-EINVAL, __NR_pwrite64, fa, data, 1, -1);
	SAME(-EINVAL, __NR_pwrite64, fa, data, 1, LLONG_MAX);
	ro = xopen("a", O_RDONLY);
	SAME(-EBADF, __NR_pwrite64, ro, data, 1, 0);
	SAME(-EBADF, __NR_pwrite64, NOFD, data, 1, 0);
	SAME(-EFAULT, __NR_pwrite64, fa, BADPTR, 10, 0);
	expect_same_file("a", "b");
	tmp_leave();
}

TEST(readv)
{
	char data[100], w1[10], w2[25], c1[10], c2[25];
	struct iovec iw[3] = { { w1, 10 }, { NULL, 0 }, { w2, 25 } };
	struct iovec ic[3] = { { c1, 10 }, { NULL, 0 }, { c2, 25 } };
	struct iovec bad = { BADPTR, 10 };
	int fa, fb, pa[2], pb[2], dir;

	tmp_enter();
	fill(data, sizeof(data), 5);
	put("a", data, sizeof(data));
	put("b", data, sizeof(data));
	fa = xopen("a", O_RDONLY);
	fb = xopen("b", O_RDONLY);

	/* Scattered in order over the pieces, the empty one skipped. */
	EXPECT_EQ(CHECK(35, W(__NR_readv, fa, iw, 3), S(__NR_readv, fb, ic, 3)),
		  35);
	EXPECT_EQ(memcmp(w1, c1, 10), 0);
	EXPECT_EQ(memcmp(w2, c2, 25), 0);
	EXPECT_EQ(memcmp(w1, data, 10), 0);
	EXPECT_EQ(memcmp(w2, data + 10, 25), 0);
	EXPECT_EQ(pos(fa), 35);
	EXPECT_EQ(pos(fb), 35);

	/* A pipe: only what it holds, spilling into the second piece. */
	ASSERT_EQ(pipe2(pa, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(pb, O_CLOEXEC), 0);
	ASSERT_EQ(write(pa[1], data, 12), 12);
	ASSERT_EQ(write(pb[1], data, 12), 12);
	CHECK(12, W(__NR_readv, pa[0], iw, 3), S(__NR_readv, pb[0], ic, 3));
	EXPECT_EQ(memcmp(w1, c1, 10), 0);
	EXPECT_EQ(memcmp(w2, c2, 2), 0);

	SAME(-EINVAL, __NR_readv, fa, iw, -1);
	SAME(-EINVAL, __NR_readv, fa, iw, 1025);	/* UIO_MAXIOV + 1 */
	SAME(-EFAULT, __NR_readv, fa, BADPTR, 1);
	SAME(-EFAULT, __NR_readv, fa, &bad, 1);
	SAME(-EBADF, __NR_readv, NOFD, iw, 3);
	dir = xopen(".", O_RDONLY | O_DIRECTORY);
	SAME(-EISDIR, __NR_readv, dir, iw, 3);
	tmp_leave();
}

TEST(writev)
{
	char data[100], buf[64];
	struct iovec iov[3] = { { data, 7 }, { NULL, 0 }, { data + 40, 20 } };
	struct iovec bad = { BADPTR, 10 };
	struct iovec huge = { data, SIZE_MAX };
	int fa, fb, pa[2], pb[2], ro;

	tmp_enter();
	fill(data, sizeof(data), 6);
	fa = xopen("a", O_RDWR | O_CREAT);
	fb = xopen("b", O_RDWR | O_CREAT);

	/* Gathered in order; twice, so that the offset is used too. */
	EXPECT_EQ(TWIN(27, __NR_writev, fa, fb, iov, 3), 27);
	EXPECT_EQ(TWIN(27, __NR_writev, fa, fb, iov, 3), 27);
	EXPECT_EQ(pos(fa), 54);
	EXPECT_EQ(pos(fb), 54);
	expect_same_file("a", "b");
	memcpy(buf, data, 7);
	memcpy(buf + 7, data + 40, 20);
	memcpy(buf + 27, buf, 27);
	expect_file("a", buf, 54);

	ASSERT_EQ(pipe2(pa, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(pb, O_CLOEXEC), 0);
	EXPECT_EQ(TWIN(27, __NR_writev, pa[1], pb[1], iov, 3), 27);
	EXPECT_EQ(read(pa[0], buf, sizeof(buf)), 27);
	EXPECT_EQ(memcmp(buf + 7, data + 40, 20), 0);
	EXPECT_EQ(read(pb[0], buf, sizeof(buf)), 27);
	EXPECT_EQ(memcmp(buf + 7, data + 40, 20), 0);

	SAME(-EINVAL, __NR_writev, fa, iov, -1);
	SAME(-EINVAL, __NR_writev, fa, iov, 1025);
	SAME(-EINVAL, __NR_writev, fa, &huge, 1);	/* < 0 as ssize_t */
	SAME(-EFAULT, __NR_writev, fa, BADPTR, 1);
	SAME(-EFAULT, __NR_writev, fa, &bad, 1);
	ro = xopen("a", O_RDONLY);
	SAME(-EBADF, __NR_writev, ro, iov, 3);
	expect_same_file("a", "b");
	tmp_leave();
}

/* ---- files ------------------------------------------------------------ */

/* What a new descriptor is like: its flags and the file behind it. */
static void expect_twin_fds(int fw, int fc)
{
	struct stat sw, sc;

	EXPECT_EQ(fcntl(fw, F_GETFD), fcntl(fc, F_GETFD));
	EXPECT_EQ(fcntl(fw, F_GETFL), fcntl(fc, F_GETFL));
	ASSERT_EQ(fstat(fw, &sw), 0);
	ASSERT_EQ(fstat(fc, &sc), 0);
	expect_twin_stat(&sw, &sc);
}

/*
 * Open through the device, note what came back, close it, then open
 * conventionally: with the same descriptor table both get the lowest
 * free number.  The descriptors are compared while both are open.
 */
#define OPEN_TWIN(expect, nr, ...) do {					\
	long _w = W(nr, __VA_ARGS__);					\
	int _fw = _w >= 0 ? dup(_w) : -1;				\
	long _c;							\
	if (_w >= 0)							\
		close(_w);						\
	_c = S(nr, __VA_ARGS__);					\
	same(expect, _w, _c, #nr "(" #__VA_ARGS__ ")", __LINE__);	\
	if (_fw >= 0 && _c >= 0)					\
		expect_twin_fds(_fw, _c);				\
	if (_c >= 0)							\
		close(_c);						\
	if (_fw >= 0)							\
		close(_fw);						\
} while (0)

TEST(open)
{
	char data[32], longname[300];
	int low;
	long w, c;

	tmp_enter();
	fill(data, sizeof(data), 7);
	low = next_fd();

	/* Create with a mode (umask 022 applies), flags on the descriptor. */
	w = W(__NR_open, "a", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0664);
	c = S(__NR_open, "b", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0664);
	EXPECT_EQ(w, low);
	EXPECT_EQ(c, low + 1);
	ASSERT_GE(w, 0);
	ASSERT_GE(c, 0);
	expect_twin_fds(w, c);
	expect_twin_paths("a", "b");
	EXPECT_EQ(write(w, data, 32), 32);
	EXPECT_EQ(write(c, data, 32), 32);
	close(w);
	close(c);

	/* Existing files, read-only, and the same lowest number each time. */
	OPEN_TWIN(low, __NR_open, "a", O_RDONLY);
	OPEN_TWIN(low, __NR_open, "a", O_WRONLY | O_APPEND | O_NONBLOCK);
	OPEN_TWIN(low, __NR_open, ".", O_RDONLY | O_DIRECTORY);
	OPEN_TWIN(low, __NR_open, "a", O_PATH);

	/* O_TRUNC empties the file. */
	w = W(__NR_open, "a", O_WRONLY | O_TRUNC);
	c = S(__NR_open, "b", O_WRONLY | O_TRUNC);
	EXPECT_EQ(w, low);
	close(w);
	close(c);
	expect_twin_paths("a", "b");
	expect_file("a", data, 0);

	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	ASSERT_EQ(symlink("loop", "loop"), 0);
	ASSERT_EQ(symlink("a", "link"), 0);
	SAME(-ENOENT, __NR_open, "missing", O_RDONLY);
	SAME(-ENOENT, __NR_open, "missing/x", O_RDWR | O_CREAT, 0644);
	SAME(-EEXIST, __NR_open, "a", O_RDWR | O_CREAT | O_EXCL, 0644);
	SAME(-ENOTDIR, __NR_open, "a/x", O_RDONLY);
	SAME(-ENOTDIR, __NR_open, "a", O_RDONLY | O_DIRECTORY);
	SAME(-EISDIR, __NR_open, ".", O_WRONLY);
	SAME(-EFAULT, __NR_open, BADPTR, O_RDONLY);
	SAME(-ENAMETOOLONG, __NR_open, longname, O_RDONLY);
	SAME(-ELOOP, __NR_open, "loop", O_RDONLY);
	SAME(-ELOOP, __NR_open, "link", O_RDONLY | O_NOFOLLOW);
	/* O_TMPFILE must be able to write. */
	SAME(-EINVAL, __NR_open, ".", O_TMPFILE | O_RDONLY, 0600);
	EXPECT_EQ(next_fd(), low);	/* no failure left a descriptor */
	tmp_leave();
}

TEST(openat)
{
	int dir, sub, fa, low;
	char abs[128];
	long w, c;

	tmp_enter();
	ASSERT_EQ(mkdir("sub", 0755), 0);
	dir = xopen(".", O_RDONLY | O_DIRECTORY);
	sub = xopen("sub", O_RDONLY | O_DIRECTORY);
	low = next_fd();

	/* Relative to a directory descriptor, and to the current directory. */
	w = W(__NR_openat, sub, "a", O_RDWR | O_CREAT | O_EXCL, 0640);
	c = S(__NR_openat, sub, "b", O_RDWR | O_CREAT | O_EXCL, 0640);
	EXPECT_EQ(w, low);
	ASSERT_GE(w, 0);
	ASSERT_GE(c, 0);
	expect_twin_fds(w, c);
	close(w);
	close(c);
	expect_twin_paths("sub/a", "sub/b");
	OPEN_TWIN(low, __NR_openat, AT_FDCWD, "sub/a", O_RDONLY);
	OPEN_TWIN(low, __NR_openat, dir, "sub", O_RDONLY | O_DIRECTORY);
	/* An absolute path ignores the directory descriptor, even a bad one. */
	snprintf(abs, sizeof(abs), "%s/sub/a", tmp_path);
	OPEN_TWIN(low, __NR_openat, NOFD, abs, O_RDONLY);

	fa = xopen("sub/a", O_RDONLY);
	SAME(-EBADF, __NR_openat, NOFD, "a", O_RDONLY);
	SAME(-ENOTDIR, __NR_openat, fa, "a", O_RDONLY);
	SAME(-ENOENT, __NR_openat, sub, "missing", O_RDONLY);
	SAME(-EEXIST, __NR_openat, sub, "a", O_RDWR | O_CREAT | O_EXCL, 0644);
	SAME(-EFAULT, __NR_openat, sub, BADPTR, O_RDONLY);
	SAME(-EISDIR, __NR_openat, dir, "sub", O_RDWR);
	close(fa);
	EXPECT_EQ(next_fd(), low);
	tmp_leave();
}

TEST(close)
{
	int p[2], q[2], fd, low;
	char c;

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(q, O_CLOEXEC), 0);

	/* The number is free again, and the pipe sees its writer gone. */
	low = next_fd();
	fd = dup(p[1]);
	ASSERT_EQ(fd, low);
	EXPECT_EQ(W(__NR_close, fd), 0);
	EXPECT_EQ(next_fd(), low);
	fd = dup(q[1]);
	ASSERT_EQ(fd, low);
	EXPECT_EQ(S(__NR_close, fd), 0);
	EXPECT_EQ(next_fd(), low);
	CHECK(0, W(__NR_close, p[1]), S(__NR_close, q[1]));
	EXPECT_EQ(read(p[0], &c, 1), 0);
	EXPECT_EQ(read(q[0], &c, 1), 0);

	SAME(-EBADF, __NR_close, NOFD);
	SAME(-EBADF, __NR_close, -1);
	SAME(-EBADF, __NR_close, INT_MAX);
	SAME(-EBADF, __NR_close, p[1]);		/* closed above */
}

/*
 * A batch may close the very descriptor it was submitted on: the ioctl
 * keeps the file until it returns, and later entries still run.
 */
TEST(close_own_device)
{
	struct wsc_result r[3];
	struct wsc_entry e[3];
	int fd = wsc_test_open(), fd2;

	e[0] = ENT1(__NR_close, fd);
	e[1] = ENT0(__NR_getpid);
	e[1].flags = WSC_ENTRY_NEW_CHAIN;
	e[2] = ENT1(__NR_close, fd);
	e[2].flags = WSC_ENTRY_NEW_CHAIN;
	EXPECT_EQ(wsc_test_submit(fd, e, r, 3, 0, NULL), 3);
	EXPECT_EQ(r[0].ret, 0);
	EXPECT_EQ(r[1].ret, getpid());
	EXPECT_EQ(r[2].ret, -EBADF);
	EXPECT_EQ(fcntl(fd, F_GETFD), -1);

	/* The same sequence conventionally. */
	fd2 = wsc_test_open();
	EXPECT_EQ(S(__NR_close, fd2), 0);
	EXPECT_EQ(S(__NR_close, fd2), -EBADF);
	EXPECT_EQ(W(__NR_getpid), getpid());	/* the device still works */
}

TEST(lseek)
{
	static const struct { off_t off; int whence; } seq[] = {
		{ 10, SEEK_SET }, { 5, SEEK_CUR }, { -3, SEEK_CUR },
		{ -4, SEEK_END }, { 1000, SEEK_SET }, { 0, SEEK_END },
		{ 0, SEEK_DATA }, { 0, SEEK_HOLE }, { 0, SEEK_SET },
	};
	char data[100], cw, cc;
	int fa, fb, p[2];
	unsigned int i;

	tmp_enter();
	fill(data, sizeof(data), 8);
	put("a", data, sizeof(data));
	put("b", data, sizeof(data));
	fa = xopen("a", O_RDONLY);
	fb = xopen("b", O_RDONLY);

	/* Each step, then one byte read there to show the offset is real. */
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
		TWIN(ANY, __NR_lseek, fa, fb, seq[i].off, seq[i].whence);
		cw = cc = '.';
		EXPECT_EQ(read(fa, &cw, 1), read(fb, &cc, 1));
		EXPECT_EQ(cw, cc);
	}
	EXPECT_EQ(TWIN(42, __NR_lseek, fa, fb, 42, SEEK_SET), 42);
	EXPECT_EQ(TWIN(100, __NR_lseek, fa, fb, 0, SEEK_END), 100);

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	SAME(-EINVAL, __NR_lseek, fa, 0, 42);
	SAME(-EINVAL, __NR_lseek, fa, -1, SEEK_SET);
	SAME(-EINVAL, __NR_lseek, fa, -200, SEEK_END);
	SAME(-ENXIO, __NR_lseek, fa, 1000, SEEK_DATA);
	SAME(-ESPIPE, __NR_lseek, p[0], 0, SEEK_SET);
	SAME(-EBADF, __NR_lseek, NOFD, 0, SEEK_SET);
	EXPECT_EQ(pos(fa), 100);	/* failures did not move it */
	tmp_leave();
}

/* fstat(2) of one descriptor both ways: every byte but the access time. */
static void fstat_same(int fd)
{
	struct stat sw, sc;

	memset(&sw, 0xa5, sizeof(sw));
	memset(&sc, 0x5a, sizeof(sc));
	CHECK(0, W(__NR_fstat, fd, &sw), S(__NR_fstat, fd, &sc));
	sw.st_atim = sc.st_atim;
	EXPECT_EQ(memcmp(&sw, &sc, sizeof(sw)), 0);
}

TEST(fstat)
{
	int fa, dir, p[2], sv[2], null;
	struct stat st;

	tmp_enter();
	put("a", "contents", 8);
	fa = xopen("a", O_RDONLY);
	dir = xopen(".", O_RDONLY | O_DIRECTORY);
	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	unix_pair(SOCK_STREAM, sv);
	null = xopen("/dev/null", O_RDWR);

	fstat_same(fa);
	fstat_same(dir);
	fstat_same(p[0]);
	fstat_same(sv[0]);
	fstat_same(null);
	/* A size the wrapped call must see: changed just before. */
	put("a", "longer contents", 15);
	ASSERT_EQ(W(__NR_fstat, fa, &st), 0);
	EXPECT_EQ(st.st_size, 15);

	SAME(-EBADF, __NR_fstat, NOFD, &st);
	SAME(-EFAULT, __NR_fstat, fa, BADPTR);
	tmp_leave();
}

/* newfstatat(2) of one path both ways: every byte but the access time. */
static long fstatat_same(long expect, int dfd, const char *path, int flags)
{
	struct stat sw, sc;
	long c;

	memset(&sw, 0xa5, sizeof(sw));
	memset(&sc, 0x5a, sizeof(sc));
	c = CHECK(expect, W(__NR_newfstatat, dfd, path, &sw, flags),
		  S(__NR_newfstatat, dfd, path, &sc, flags));
	if (c)
		return c;
	sw.st_atim = sc.st_atim;
	EXPECT_EQ(memcmp(&sw, &sc, sizeof(sw)), 0);
	return sc.st_mode & S_IFMT;
}

TEST(newfstatat)
{
	int fa, dir;
	struct stat st;

	tmp_enter();
	put("a", "contents", 8);
	ASSERT_EQ(mkdir("d", 0755), 0);
	ASSERT_EQ(symlink("a", "l"), 0);
	fa = xopen("a", O_RDONLY);
	dir = xopen(".", O_RDONLY | O_DIRECTORY);

	EXPECT_EQ(fstatat_same(0, AT_FDCWD, "a", 0), S_IFREG);
	EXPECT_EQ(fstatat_same(0, dir, "d", 0), S_IFDIR);
	EXPECT_EQ(fstatat_same(0, dir, "l", 0), S_IFREG);
	EXPECT_EQ(fstatat_same(0, dir, "l", AT_SYMLINK_NOFOLLOW), S_IFLNK);
	EXPECT_EQ(fstatat_same(0, fa, "", AT_EMPTY_PATH), S_IFREG);
	EXPECT_EQ(fstatat_same(0, NOFD, "/dev/null", 0), S_IFCHR);

	fstatat_same(-ENOENT, AT_FDCWD, "missing", 0);
	fstatat_same(-ENOENT, fa, "", 0);		/* no AT_EMPTY_PATH */
	fstatat_same(-ENOTDIR, AT_FDCWD, "a/x", 0);
	fstatat_same(-ENOTDIR, fa, "x", 0);
	fstatat_same(-EBADF, NOFD, "a", 0);
	fstatat_same(-EINVAL, AT_FDCWD, "a", 0x1);	/* not an AT_ flag */
	SAME(-EFAULT, __NR_newfstatat, AT_FDCWD, BADPTR, &st, 0);
	SAME(-EFAULT, __NR_newfstatat, AT_FDCWD, "a", BADPTR, 0);
	tmp_leave();
}

/* statx(2) of one path both ways: every byte but the access time. */
static long statx_same(long expect, int dfd, const char *path, int flags,
		       unsigned int mask)
{
	struct statx xw, xc;
	long c;

	memset(&xw, 0xa5, sizeof(xw));
	memset(&xc, 0x5a, sizeof(xc));
	c = CHECK(expect, W(__NR_statx, dfd, path, flags, mask, &xw),
		  S(__NR_statx, dfd, path, flags, mask, &xc));
	if (c)
		return c;
	xw.stx_atime = xc.stx_atime;
	EXPECT_EQ(memcmp(&xw, &xc, sizeof(xw)), 0);
	return xc.stx_mode & S_IFMT;
}

TEST(statx)
{
	unsigned int basic = STATX_BASIC_STATS | STATX_BTIME;
	struct statx stx;
	int fa;

	tmp_enter();
	put("a", "contents", 8);
	ASSERT_EQ(symlink("a", "l"), 0);
	fa = xopen("a", O_RDONLY);

	EXPECT_EQ(statx_same(0, AT_FDCWD, "a", 0, basic), S_IFREG);
	EXPECT_EQ(statx_same(0, AT_FDCWD, "l", AT_SYMLINK_NOFOLLOW, basic),
		  S_IFLNK);
	EXPECT_EQ(statx_same(0, fa, "", AT_EMPTY_PATH, STATX_ALL), S_IFREG);
	EXPECT_EQ(statx_same(0, AT_FDCWD, ".", AT_STATX_FORCE_SYNC,
			     STATX_TYPE | STATX_INO), S_IFDIR);

	statx_same(-ENOENT, AT_FDCWD, "missing", 0, basic);
	statx_same(-EBADF, NOFD, "a", 0, basic);
	statx_same(-EINVAL, AT_FDCWD, "a",
		   AT_STATX_FORCE_SYNC | AT_STATX_DONT_SYNC, basic);
	statx_same(-EINVAL, AT_FDCWD, "a", 0, STATX__RESERVED);
	SAME(-EFAULT, __NR_statx, AT_FDCWD, "a", 0, basic, BADPTR);
	SAME(-EFAULT, __NR_statx, AT_FDCWD, BADPTR, 0, basic, &stx);
	tmp_leave();
}

TEST(access)
{
	tmp_enter();
	put("a", "x", 1);
	put("x", "x", 1);
	ASSERT_EQ(chmod("a", 0600), 0);
	ASSERT_EQ(chmod("x", 0755), 0);
	put("none", "x", 1);
	ASSERT_EQ(chmod("none", 0), 0);

	SAME(0, __NR_access, "a", F_OK);
	SAME(0, __NR_access, "a", R_OK | W_OK);
	SAME(0, __NR_access, "x", R_OK | X_OK);
	SAME(0, __NR_access, ".", X_OK);
	/* No execute bit for anyone: refused even to root. */
	SAME(-EACCES, __NR_access, "a", X_OK);
	/* Mode 0: root may read and write, others not; both ways alike. */
	SAME(ANY, __NR_access, "none", R_OK | W_OK);

	SAME(-ENOENT, __NR_access, "missing", F_OK);
	SAME(-ENOTDIR, __NR_access, "a/x", F_OK);
	SAME(-EINVAL, __NR_access, "a", 8);
	SAME(-EFAULT, __NR_access, BADPTR, F_OK);
	tmp_leave();
}

TEST(faccessat)
{
	int dir, fa;

	tmp_enter();
	ASSERT_EQ(mkdir("d", 0755), 0);
	put("d/a", "x", 1);
	ASSERT_EQ(chmod("d/a", 0600), 0);
	dir = xopen("d", O_RDONLY | O_DIRECTORY);
	fa = xopen("d/a", O_RDONLY);

	SAME(0, __NR_faccessat, dir, "a", R_OK | W_OK);
	SAME(0, __NR_faccessat, AT_FDCWD, "d/a", F_OK);
	SAME(-EACCES, __NR_faccessat, dir, "a", X_OK);

	SAME(-ENOENT, __NR_faccessat, dir, "missing", F_OK);
	SAME(-EBADF, __NR_faccessat, NOFD, "a", F_OK);
	SAME(-ENOTDIR, __NR_faccessat, fa, "x", F_OK);
	SAME(-EINVAL, __NR_faccessat, dir, "a", 8);
	SAME(-EFAULT, __NR_faccessat, dir, BADPTR, F_OK);
	tmp_leave();
}

/* A duplicate shares the open file: moving one offset moves the other. */
static void expect_shared(int fd, int dupfd)
{
	EXPECT_EQ(lseek(dupfd, 7, SEEK_SET), 7);
	EXPECT_EQ(pos(fd), 7);
	lseek(fd, 0, SEEK_SET);
}

TEST(dup)
{
	int fa, low;
	long w, c;

	tmp_enter();
	put("a", "0123456789", 10);
	fa = xopen("a", O_RDONLY);		/* O_CLOEXEC: not inherited */
	low = next_fd();

	w = W(__NR_dup, fa);
	EXPECT_EQ(w, low);
	ASSERT_GE(w, 0);
	EXPECT_EQ(fcntl(w, F_GETFD), 0);
	expect_shared(fa, w);
	close(w);
	c = S(__NR_dup, fa);
	CHECK(low, w, c);
	EXPECT_EQ(fcntl(c, F_GETFD), 0);
	close(c);

	SAME(-EBADF, __NR_dup, NOFD);
	SAME(-EBADF, __NR_dup, -1);
	tmp_leave();
}

TEST(dup2)
{
	struct stat sa, st;
	int fa, fb;

	tmp_enter();
	put("a", "0123456789", 10);
	put("b", "x", 1);
	fa = xopen("a", O_RDONLY);
	fb = xopen("b", O_RDONLY);
	ASSERT_EQ(fstat(fa, &sa), 0);

	/* Onto a free number: that number, without close-on-exec. */
	EXPECT_EQ(W(__NR_dup2, fa, 77), 77);
	EXPECT_EQ(fcntl(77, F_GETFD), 0);
	expect_shared(fa, 77);
	close(77);
	EXPECT_EQ(S(__NR_dup2, fa, 77), 77);
	close(77);

	/* Onto an open number: it now names the new file. */
	ASSERT_EQ(dup2(fb, 78), 78);
	ASSERT_EQ(dup2(fb, 79), 79);
	EXPECT_EQ(W(__NR_dup2, fa, 78), 78);
	EXPECT_EQ(S(__NR_dup2, fa, 79), 79);
	ASSERT_EQ(fstat(78, &st), 0);
	EXPECT_EQ(st.st_ino, sa.st_ino);
	ASSERT_EQ(fstat(79, &st), 0);
	EXPECT_EQ(st.st_ino, sa.st_ino);

	/* Onto itself: nothing to do but say so. */
	SAME(fa, __NR_dup2, fa, fa);

	SAME(-EBADF, __NR_dup2, NOFD, 80);
	SAME(-EBADF, __NR_dup2, NOFD, NOFD);
	SAME(-EBADF, __NR_dup2, fa, -1);
	SAME(-EBADF, __NR_dup2, fa, 1 << 30);	/* past RLIMIT_NOFILE */
	EXPECT_EQ(fcntl(80, F_GETFD), -1);
	tmp_leave();
}

TEST(dup3)
{
	int fa;

	tmp_enter();
	put("a", "0123456789", 10);
	fa = xopen("a", O_RDONLY);

	/* O_CLOEXEC is the one flag, and it sets FD_CLOEXEC. */
	EXPECT_EQ(W(__NR_dup3, fa, 81, O_CLOEXEC), 81);
	EXPECT_EQ(S(__NR_dup3, fa, 82, O_CLOEXEC), 82);
	EXPECT_EQ(fcntl(81, F_GETFD), FD_CLOEXEC);
	EXPECT_EQ(fcntl(82, F_GETFD), FD_CLOEXEC);
	expect_shared(fa, 81);
	/* Without it, onto the now open numbers: replaced, flag cleared. */
	EXPECT_EQ(W(__NR_dup3, fa, 81, 0), 81);
	EXPECT_EQ(S(__NR_dup3, fa, 82, 0), 82);
	EXPECT_EQ(fcntl(81, F_GETFD), 0);
	EXPECT_EQ(fcntl(82, F_GETFD), 0);

	SAME(-EINVAL, __NR_dup3, fa, fa, 0);		/* unlike dup2 */
	SAME(-EINVAL, __NR_dup3, fa, 83, O_NONBLOCK);
	SAME(-EBADF, __NR_dup3, NOFD, 83, 0);
	SAME(-EBADF, __NR_dup3, fa, -1, 0);
	EXPECT_EQ(fcntl(83, F_GETFD), -1);
	tmp_leave();
}

TEST(fcntl)
{
	struct flock lw, lc, lk = {
		.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0,
		.l_len = 10,
	};
	struct rlimit rl;
	int fa, fb, fa2, fb2, ro, pa[2], pb[2];
	long w, c;

	tmp_enter();
	put("a", "0123456789", 10);
	put("b", "0123456789", 10);
	fa = open("a", O_RDWR);
	fb = open("b", O_RDWR);
	ASSERT_GE(fa, 0);
	ASSERT_GE(fb, 0);

	/* Descriptor flags: set one way, read back the other. */
	EXPECT_EQ(TWIN(0, __NR_fcntl, fa, fb, F_GETFD), 0);
	EXPECT_EQ(W(__NR_fcntl, fa, F_SETFD, FD_CLOEXEC), 0);
	EXPECT_EQ(S(__NR_fcntl, fb, F_SETFD, FD_CLOEXEC), 0);
	EXPECT_EQ(fcntl(fa, F_GETFD), FD_CLOEXEC);
	EXPECT_EQ(TWIN(FD_CLOEXEC, __NR_fcntl, fb, fa, F_GETFD), FD_CLOEXEC);

	/* File status flags. */
	TWIN(0, __NR_fcntl, fa, fb, F_SETFL, O_NONBLOCK | O_APPEND);
	EXPECT_EQ(TWIN(ANY, __NR_fcntl, fb, fa, F_GETFL) &
		  (O_NONBLOCK | O_APPEND), O_NONBLOCK | O_APPEND);
	EXPECT_EQ(fcntl(fa, F_GETFL), fcntl(fb, F_GETFL));

	/* Duplicating at or above a number, with or without close-on-exec. */
	w = W(__NR_fcntl, fa, F_DUPFD, 60);
	close(w);
	c = S(__NR_fcntl, fa, F_DUPFD, 60);
	CHECK(60, w, c);
	EXPECT_EQ(fcntl(60, F_GETFD), 0);
	EXPECT_EQ(W(__NR_fcntl, fa, F_DUPFD_CLOEXEC, 60), 61);
	EXPECT_EQ(S(__NR_fcntl, fa, F_DUPFD_CLOEXEC, 60), 62);
	EXPECT_EQ(fcntl(61, F_GETFD), FD_CLOEXEC);
	EXPECT_EQ(fcntl(62, F_GETFD), FD_CLOEXEC);

	/* Pipe capacity. */
	ASSERT_EQ(pipe2(pa, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(pb, O_CLOEXEC), 0);
	TWIN(8192, __NR_fcntl, pa[0], pb[0], F_SETPIPE_SZ, 8000);
	SAME(8192, __NR_fcntl, pa[1], F_GETPIPE_SZ);
	SAME(8192, __NR_fcntl, pb[1], F_GETPIPE_SZ);

	/* Open file description locks, seen from a second description. */
	fa2 = open("a", O_RDWR);
	fb2 = open("b", O_RDWR);
	TWIN(0, __NR_fcntl, fa, fb, F_OFD_SETLK, &lk);
	lw = lc = (struct flock){ .l_type = F_RDLCK, .l_start = 5, .l_len = 1 };
	CHECK(0, W(__NR_fcntl, fa2, F_OFD_GETLK, &lw),
	      S(__NR_fcntl, fb2, F_OFD_GETLK, &lc));
	EXPECT_EQ(memcmp(&lw, &lc, sizeof(lw)), 0);
	EXPECT_EQ(lw.l_type, F_WRLCK);
	EXPECT_EQ(lw.l_start, 0);
	EXPECT_EQ(lw.l_len, 10);
	EXPECT_EQ(lw.l_pid, -1);
	SAME(-EAGAIN, __NR_fcntl, fa2, F_OFD_SETLK, &lk);
	lk.l_type = F_UNLCK;
	TWIN(0, __NR_fcntl, fa, fb, F_OFD_SETLK, &lk);
	lk.l_type = F_WRLCK;
	lw = lc = (struct flock){ .l_type = F_WRLCK, .l_len = 10 };
	CHECK(0, W(__NR_fcntl, fa2, F_OFD_GETLK, &lw),
	      S(__NR_fcntl, fb2, F_OFD_GETLK, &lc));
	EXPECT_EQ(lw.l_type, F_UNLCK);
	EXPECT_EQ(memcmp(&lw, &lc, sizeof(lw)), 0);

	ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
	ro = xopen("a", O_RDONLY);
	SAME(-EBADF, __NR_fcntl, NOFD, F_GETFD);
	SAME(-EINVAL, __NR_fcntl, fa, 9999);
	SAME(-EINVAL, __NR_fcntl, fa, F_DUPFD, -1);
	SAME(-EINVAL, __NR_fcntl, fa, F_DUPFD, rl.rlim_cur);
	SAME(-EFAULT, __NR_fcntl, fa2, F_OFD_GETLK, BADPTR);
	SAME(-EBADF, __NR_fcntl, ro, F_OFD_SETLK, &lk);	/* not writable */
	SAME(-EBADF, __NR_fcntl, fa, F_SETPIPE_SZ, 8192);	/* not a pipe */
	lk.l_pid = 1;
	SAME(-EINVAL, __NR_fcntl, fa, F_OFD_SETLK, &lk);
	tmp_leave();
}

struct dent {
	uint64_t ino;
	unsigned char type;
	char name[64];
};

struct dirent64_raw {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int dent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name,
		      ((const struct dent *)b)->name);
}

/*
 * Read a whole directory with getdents64, wrapped or not, 200 bytes at a
 * time so that it takes several calls; the entries come back sorted.
 */
static int dents_read(bool wrapped, int dfd, struct dent *out, int max,
		      long *rets, int *nrets)
{
	char buf[200] __attribute__((aligned(8)));
	int n = 0;
	long r, off;

	lseek(dfd, 0, SEEK_SET);
	*nrets = 0;
	do {
		r = wrapped ? W(__NR_getdents64, dfd, buf, sizeof(buf)) :
			      S(__NR_getdents64, dfd, buf, sizeof(buf));
		if (*nrets < 64)
			rets[(*nrets)++] = r;
		for (off = 0; off < r && n < max; n++) {
			struct dirent64_raw *d = (void *)(buf + off);

			out[n].ino = d->d_ino;
			out[n].type = d->d_type;
			snprintf(out[n].name, sizeof(out[n].name), "%s",
				 d->d_name);
			off += d->d_reclen;
		}
	} while (r > 0);
	qsort(out, n, sizeof(*out), dent_cmp);
	return n;
}

TEST(getdents64)
{
	struct dent dw[64], dc[64];
	long rw[64], rc[64];
	int dir, fa, gone, nw, nc, nrw, nrc, i;
	char name[16], buf[256];

	tmp_enter();
	ASSERT_EQ(mkdir("d", 0755), 0);
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "d/file%02d", i);
		put(name, "x", 1);
	}
	ASSERT_EQ(mkdir("d/sub", 0755), 0);
	ASSERT_EQ(symlink("file00", "d/link"), 0);
	ASSERT_EQ(mkfifo("d/fifo", 0644), 0);
	dir = xopen("d", O_RDONLY | O_DIRECTORY);

	/* The same calls return the same counts, and the same entries. */
	memset(dw, 0, sizeof(dw));
	memset(dc, 0, sizeof(dc));
	nw = dents_read(true, dir, dw, 64, rw, &nrw);
	nc = dents_read(false, dir, dc, 64, rc, &nrc);
	EXPECT_EQ(nw, 25);
	EXPECT_EQ(nw, nc);
	EXPECT_EQ(nrw, nrc);
	EXPECT_GE(nrw, 3);
	for (i = 0; i < nrw && i < nrc; i++)
		EXPECT_EQ(rw[i], rc[i]);
	EXPECT_EQ(rw[nrw - 1], 0);
	EXPECT_EQ(memcmp(dw, dc, sizeof(dw)), 0);
	for (i = 0; i < nw; i++) {
		if (!strcmp(dw[i].name, "sub"))
			EXPECT_EQ(dw[i].type, DT_DIR);
		if (!strcmp(dw[i].name, "link"))
			EXPECT_EQ(dw[i].type, DT_LNK);
		if (!strcmp(dw[i].name, "fifo"))
			EXPECT_EQ(dw[i].type, DT_FIFO);
		if (!strcmp(dw[i].name, "file07"))
			EXPECT_EQ(dw[i].type, DT_REG);
	}

	fa = xopen("d/file00", O_RDONLY);
	ASSERT_EQ(mkdir("gone", 0755), 0);
	gone = xopen("gone", O_RDONLY | O_DIRECTORY);
	ASSERT_EQ(rmdir("gone"), 0);
	lseek(dir, 0, SEEK_SET);
	SAME(-EBADF, __NR_getdents64, NOFD, buf, sizeof(buf));
	SAME(-ENOTDIR, __NR_getdents64, fa, buf, sizeof(buf));
	SAME(-EINVAL, __NR_getdents64, dir, buf, 8);	/* no room for one */
	SAME(-EFAULT, __NR_getdents64, dir, BADPTR, sizeof(buf));
	SAME(-ENOENT, __NR_getdents64, gone, buf, sizeof(buf));
	tmp_leave();
}

/* fsync and fdatasync: 0 on a file whose data stays; EINVAL on a pipe. */
static void sync_test(uint32_t nr)
{
	char data[64];
	int fa, fb, p[2], sv[2];

	tmp_enter();
	fill(data, sizeof(data), 9);
	fa = xopen("a", O_RDWR | O_CREAT);
	fb = xopen("b", O_RDWR | O_CREAT);
	ASSERT_EQ(write(fa, data, sizeof(data)), (long)sizeof(data));
	ASSERT_EQ(write(fb, data, sizeof(data)), (long)sizeof(data));
	CHECK(0, W(nr, fa), S(nr, fb));
	expect_same_file("a", "b");
	SAME(0, nr, fa);		/* nothing left to write */

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	unix_pair(SOCK_STREAM, sv);
	SAME(-EBADF, nr, NOFD);
	SAME(-EINVAL, nr, p[1]);
	SAME(-EINVAL, nr, sv[0]);
	tmp_leave();
}

TEST(fsync)
{
	sync_test(__NR_fsync);
}

TEST(fdatasync)
{
	sync_test(__NR_fdatasync);
}

TEST(unlink)
{
	struct stat sw, sc;
	int fa, fb;

	tmp_enter();
	put("a", "x", 1);
	put("b", "x", 1);
	ASSERT_EQ(mkdir("d", 0755), 0);
	fa = xopen("a", O_RDONLY);
	fb = xopen("b", O_RDONLY);

	/* Gone by name; still there through an open descriptor. */
	CHECK(0, W(__NR_unlink, "a"), S(__NR_unlink, "b"));
	EXPECT_FALSE(exists("a"));
	EXPECT_FALSE(exists("b"));
	ASSERT_EQ(fstat(fa, &sw), 0);
	ASSERT_EQ(fstat(fb, &sc), 0);
	EXPECT_EQ(sw.st_nlink, 0);
	expect_twin_stat(&sw, &sc);

	put("c", "x", 1);
	SAME(-ENOENT, __NR_unlink, "a");
	SAME(-EISDIR, __NR_unlink, "d");
	SAME(-ENOTDIR, __NR_unlink, "c/x");
	SAME(-EFAULT, __NR_unlink, BADPTR);
	SAME(-ENOENT, __NR_unlink, "");
	EXPECT_TRUE(exists("c"));
	tmp_leave();
}

TEST(unlinkat)
{
	int dir, fa;

	tmp_enter();
	ASSERT_EQ(mkdir("d", 0755), 0);
	put("d/a", "x", 1);
	put("d/b", "x", 1);
	ASSERT_EQ(mkdir("d/e1", 0755), 0);
	ASSERT_EQ(mkdir("d/e2", 0755), 0);
	ASSERT_EQ(mkdir("d/full", 0755), 0);
	put("d/full/f", "x", 1);
	dir = xopen("d", O_RDONLY | O_DIRECTORY);
	fa = xopen("d/full/f", O_RDONLY);

	CHECK(0, W(__NR_unlinkat, dir, "a", 0), S(__NR_unlinkat, dir, "b", 0));
	EXPECT_FALSE(exists("d/a"));
	EXPECT_FALSE(exists("d/b"));
	CHECK(0, W(__NR_unlinkat, dir, "e1", AT_REMOVEDIR),
	      S(__NR_unlinkat, AT_FDCWD, "d/e2", AT_REMOVEDIR));
	EXPECT_FALSE(exists("d/e1"));
	EXPECT_FALSE(exists("d/e2"));

	SAME(-ENOENT, __NR_unlinkat, dir, "a", 0);
	SAME(-EINVAL, __NR_unlinkat, dir, "full", 0x1);
	SAME(-ENOTEMPTY, __NR_unlinkat, dir, "full", AT_REMOVEDIR);
	SAME(-ENOTDIR, __NR_unlinkat, dir, "full/f", AT_REMOVEDIR);
	SAME(-EISDIR, __NR_unlinkat, dir, "full", 0);
	SAME(-EINVAL, __NR_unlinkat, dir, ".", AT_REMOVEDIR);
	SAME(-EBADF, __NR_unlinkat, NOFD, "full/f", 0);
	SAME(-ENOTDIR, __NR_unlinkat, fa, "x", 0);
	SAME(-EFAULT, __NR_unlinkat, dir, BADPTR, 0);
	EXPECT_TRUE(exists("d/full/f"));
	tmp_leave();
}

TEST(mkdir)
{
	tmp_enter();
	put("f", "x", 1);

	/* The mode goes through the umask (022), sticky bit kept. */
	CHECK(0, W(__NR_mkdir, "d1", 0750), S(__NR_mkdir, "d2", 0750));
	expect_twin_paths("d1", "d2");
	CHECK(0, W(__NR_mkdir, "d1/x", 01777), S(__NR_mkdir, "d2/x", 01777));
	expect_twin_paths("d1/x", "d2/x");
	expect_twin_paths("d1", "d2");		/* the parents' link counts */

	SAME(-EEXIST, __NR_mkdir, "d1", 0755);
	SAME(-EEXIST, __NR_mkdir, "f", 0755);
	SAME(-ENOENT, __NR_mkdir, "missing/x", 0755);
	SAME(-ENOTDIR, __NR_mkdir, "f/x", 0755);
	SAME(-EFAULT, __NR_mkdir, BADPTR, 0755);
	tmp_leave();
}

TEST(mkdirat)
{
	int dir, fa;

	tmp_enter();
	ASSERT_EQ(mkdir("p", 0755), 0);
	put("f", "x", 1);
	dir = xopen("p", O_RDONLY | O_DIRECTORY);
	fa = xopen("f", O_RDONLY);

	CHECK(0, W(__NR_mkdirat, dir, "d1", 0700),
	      S(__NR_mkdirat, dir, "d2", 0700));
	expect_twin_paths("p/d1", "p/d2");
	CHECK(0, W(__NR_mkdirat, AT_FDCWD, "p/d3", 0777),
	      S(__NR_mkdirat, AT_FDCWD, "p/d4", 0777));
	expect_twin_paths("p/d3", "p/d4");

	SAME(-EEXIST, __NR_mkdirat, dir, "d1", 0755);
	SAME(-EBADF, __NR_mkdirat, NOFD, "d5", 0755);
	SAME(-ENOTDIR, __NR_mkdirat, fa, "d5", 0755);
	SAME(-ENOENT, __NR_mkdirat, dir, "missing/x", 0755);
	SAME(-EFAULT, __NR_mkdirat, dir, BADPTR, 0755);
	EXPECT_FALSE(exists("p/d5"));
	tmp_leave();
}

/* Error cases shared by rename and renameat, against a prepared tree. */
static void rename_tree(void)
{
	put("f", "x", 1);
	ASSERT_EQ(mkdir("dir", 0755), 0);
	ASSERT_EQ(mkdir("dir/sub", 0755), 0);
	ASSERT_EQ(mkdir("full", 0755), 0);
	put("full/f", "x", 1);
	ASSERT_EQ(mkdir("empty", 0755), 0);
}

TEST(rename)
{
	tmp_enter();
	put("a", "1234", 4);
	put("b", "1234", 4);
	CHECK(0, W(__NR_rename, "a", "a2"), S(__NR_rename, "b", "b2"));
	EXPECT_FALSE(exists("a"));
	EXPECT_FALSE(exists("b"));
	expect_file("a2", "1234", 4);
	expect_same_file("a2", "b2");

	/* Over an existing file, which it replaces. */
	put("c", "new", 3);
	put("d", "old", 3);
	put("e", "new", 3);
	put("g", "old", 3);
	CHECK(0, W(__NR_rename, "c", "d"), S(__NR_rename, "e", "g"));
	expect_file("d", "new", 3);
	expect_file("g", "new", 3);
	EXPECT_FALSE(exists("c"));
	EXPECT_FALSE(exists("e"));

	/* A directory over an empty one; a name onto itself does nothing. */
	ASSERT_EQ(mkdir("d1", 0755), 0);
	ASSERT_EQ(mkdir("d2", 0700), 0);
	ASSERT_EQ(mkdir("d3", 0755), 0);
	ASSERT_EQ(mkdir("d4", 0700), 0);
	CHECK(0, W(__NR_rename, "d1", "d2"), S(__NR_rename, "d3", "d4"));
	expect_twin_paths("d2", "d4");
	SAME(0, __NR_rename, "a2", "a2");
	expect_file("a2", "1234", 4);

	rename_tree();
	SAME(-ENOENT, __NR_rename, "missing", "x");
	SAME(-ENOENT, __NR_rename, "f", "missing/x");
	SAME(-EISDIR, __NR_rename, "f", "dir");
	SAME(-ENOTDIR, __NR_rename, "dir", "f");
	SAME(-EINVAL, __NR_rename, "dir", "dir/sub/x");
	SAME(-ENOTEMPTY, __NR_rename, "empty", "full");
	SAME(-EBUSY, __NR_rename, ".", "x");
	SAME(-EFAULT, __NR_rename, BADPTR, "x");
	SAME(-EFAULT, __NR_rename, "f", BADPTR);
	EXPECT_TRUE(exists("f"));
	EXPECT_TRUE(exists("dir/sub"));
	tmp_leave();
}

TEST(renameat)
{
	int src, dst, fa;

	tmp_enter();
	ASSERT_EQ(mkdir("src", 0755), 0);
	ASSERT_EQ(mkdir("dst", 0755), 0);
	put("src/a", "1234", 4);
	put("src/b", "1234", 4);
	src = xopen("src", O_RDONLY | O_DIRECTORY);
	dst = xopen("dst", O_RDONLY | O_DIRECTORY);

	/* Across two directory descriptors, and from the current one. */
	CHECK(0, W(__NR_renameat, src, "a", dst, "a2"),
	      S(__NR_renameat, src, "b", dst, "b2"));
	expect_file("dst/a2", "1234", 4);
	expect_same_file("dst/a2", "dst/b2");
	EXPECT_FALSE(exists("src/a"));
	CHECK(0, W(__NR_renameat, AT_FDCWD, "dst/a2", src, "a3"),
	      S(__NR_renameat, AT_FDCWD, "dst/b2", src, "b3"));
	expect_same_file("src/a3", "src/b3");

	rename_tree();
	fa = xopen("f", O_RDONLY);
	SAME(-EBADF, __NR_renameat, NOFD, "a3", dst, "x");
	SAME(-EBADF, __NR_renameat, src, "a3", NOFD, "x");
	SAME(-ENOTDIR, __NR_renameat, fa, "x", dst, "y");
	SAME(-ENOENT, __NR_renameat, src, "missing", dst, "x");
	SAME(-EISDIR, __NR_renameat, AT_FDCWD, "f", AT_FDCWD, "dir");
	SAME(-ENOTEMPTY, __NR_renameat, AT_FDCWD, "empty", AT_FDCWD, "full");
	SAME(-EINVAL, __NR_renameat, AT_FDCWD, "dir", AT_FDCWD, "dir/sub/x");
	SAME(-EFAULT, __NR_renameat, src, BADPTR, dst, "x");
	EXPECT_TRUE(exists("src/a3"));
	tmp_leave();
}

/* ---- memory ------------------------------------------------------------ */

/*
 * The program break moved one way is seen the other way.  Nothing here may
 * call malloc: it might move the break itself.
 */
TEST(brk)
{
	long b0 = S(__NR_brk, 0), base, w, c;

	ASSERT_GT(b0, 0);
	base = (b0 + PG - 1) & ~(PG - 1);
	EXPECT_EQ(W(__NR_brk, 0), b0);

	/* Grow through the device, check conventionally, use the memory. */
	w = W(__NR_brk, base + 16 * PG);
	EXPECT_EQ(w, base + 16 * PG);
	EXPECT_EQ(S(__NR_brk, 0), w);
	memset((void *)base, 0x5a, 16 * PG);
	EXPECT_EQ(mapped((void *)(base + 15 * PG)), 0);

	/* Grow conventionally, read back through the device. */
	c = S(__NR_brk, base + 32 * PG);
	EXPECT_EQ(c, base + 32 * PG);
	EXPECT_EQ(W(__NR_brk, 0), c);
	memset((void *)(base + 16 * PG), 0xa5, 16 * PG);

	/* Shrink through the device: the pages above the break are gone. */
	EXPECT_EQ(W(__NR_brk, base + PG), base + PG);
	EXPECT_EQ(S(__NR_brk, 0), base + PG);
	EXPECT_EQ(mapped((void *)(base + 16 * PG)), -ENOMEM);
	EXPECT_EQ(*(unsigned char *)base, 0x5a);

	/*
	 * A break that cannot be set is no errno: brk returns the current
	 * one.  Below the heap's start, and far beyond any room.
	 */
	SAME(base + PG, __NR_brk, 1);
	SAME(base + PG, __NR_brk, 1UL << 50);
	SAME(base + PG, __NR_brk, -PG);

	EXPECT_EQ(S(__NR_brk, b0), b0);
	EXPECT_EQ(W(__NR_brk, 0), b0);
}

/* A fresh anonymous mapping: page aligned, zero, writable, resident. */
static void expect_fresh(long addr, size_t len)
{
	unsigned char *p = (unsigned char *)addr;
	size_t i;

	ASSERT_FALSE(is_err(addr));
	EXPECT_EQ(addr & (PG - 1), 0);
	for (i = 0; i < len; i++)
		if (p[i])
			break;
	EXPECT_EQ(i, len);
	memset(p, 0x77, len);
	EXPECT_EQ(p[len - 1], 0x77);
	EXPECT_EQ(mapped(p), 0);
}

TEST(mmap)
{
	char data[2 * PG], pw[5], pc[5];
	long w, c;
	char *r;
	int fa, fb, ro, dir;

	tmp_enter();

	/* Anonymous private memory. */
	w = W(__NR_mmap, NULL, 3 * PG, PROT_READ | PROT_WRITE,
	      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	c = S(__NR_mmap, NULL, 3 * PG, PROT_READ | PROT_WRITE,
	      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect_fresh(w, 3 * PG);
	expect_fresh(c, 3 * PG);
	perms((void *)w, pw);
	perms((void *)c, pc);
	EXPECT_EQ(strcmp(pw, "rw-p"), 0);
	EXPECT_EQ(strcmp(pw, pc), 0);

	/* A shared file mapping at an offset shows the file, writes through. */
	fill(data, sizeof(data), 10);
	put("a", data, sizeof(data));
	put("b", data, sizeof(data));
	fa = xopen("a", O_RDWR);
	fb = xopen("b", O_RDWR);
	w = W(__NR_mmap, NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fa, PG);
	c = S(__NR_mmap, NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED, fb, PG);
	ASSERT_FALSE(is_err(w));
	ASSERT_FALSE(is_err(c));
	EXPECT_EQ(memcmp((void *)w, data + PG, PG), 0);
	EXPECT_EQ(memcmp((void *)c, data + PG, PG), 0);
	memcpy((void *)w, "through", 7);
	memcpy((void *)c, "through", 7);
	expect_same_file("a", "b");
	perms((void *)w, pw);
	perms((void *)c, pc);
	EXPECT_EQ(strcmp(pw, "rw-s"), 0);
	EXPECT_EQ(strcmp(pw, pc), 0);

	/* MAP_FIXED into a reserved range lands exactly there. */
	r = mmap(NULL, 4 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(r != MAP_FAILED);
	EXPECT_EQ(W(__NR_mmap, r + PG, PG, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
		  (long)(r + PG));
	EXPECT_EQ(S(__NR_mmap, r + 2 * PG, PG, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0),
		  (long)(r + 2 * PG));
	expect_fresh((long)(r + PG), 2 * PG);
	perms(r, pw);
	EXPECT_EQ(strcmp(pw, "---p"), 0);

	ro = xopen("a", O_RDONLY);
	dir = xopen(".", O_RDONLY | O_DIRECTORY);
	SAME(-EINVAL, __NR_mmap, NULL, 0, PROT_READ,
	     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	SAME(-EINVAL, __NR_mmap, NULL, PG, PROT_READ, MAP_ANONYMOUS, -1, 0);
	SAME(-EINVAL, __NR_mmap, NULL, PG, PROT_READ, MAP_SHARED, fa, 1);
	SAME(-EBADF, __NR_mmap, NULL, PG, PROT_READ, MAP_SHARED, NOFD, 0);
	SAME(-EACCES, __NR_mmap, NULL, PG, PROT_READ | PROT_WRITE, MAP_SHARED,
	     ro, 0);
	SAME(-ENODEV, __NR_mmap, NULL, PG, PROT_READ, MAP_SHARED, dir, 0);
	SAME(-EEXIST, __NR_mmap, r, PG, PROT_READ,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	SAME(-ENOMEM, __NR_mmap, NULL, 1UL << 60, PROT_READ,
	     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tmp_leave();
}

TEST(munmap)
{
	char *p = anon(3 * PG), *q = anon(3 * PG);

	/* A hole punched in the middle; the neighbours stay. */
	CHECK(0, W(__NR_munmap, p + PG, PG), S(__NR_munmap, q + PG, PG));
	EXPECT_EQ(mapped(p + PG), -ENOMEM);
	EXPECT_EQ(mapped(q + PG), -ENOMEM);
	EXPECT_EQ(mapped(p), 0);
	EXPECT_EQ(mapped(p + 2 * PG), 0);
	p[0] = p[2 * PG] = 1;
	/* Unmapping nothing is no error. */
	SAME(0, __NR_munmap, p + PG, PG);
	/* Over a hole and both neighbours. */
	CHECK(0, W(__NR_munmap, p, 3 * PG), S(__NR_munmap, q, 3 * PG));
	EXPECT_EQ(mapped(p), -ENOMEM);
	EXPECT_EQ(mapped(q + 2 * PG), -ENOMEM);

	SAME(-EINVAL, __NR_munmap, p + 1, PG);
	SAME(-EINVAL, __NR_munmap, p, 0);
	SAME(-EINVAL, __NR_munmap, -PG, PG);	/* above TASK_SIZE */
}

TEST(mprotect)
{
	char *p = anon(2 * PG), *q = anon(2 * PG), *r, *m, pw[5], pc[5];
	int p2[2], fa;

	tmp_enter();
	/* Read-only first page: /proc/self/maps agrees, writes fault. */
	CHECK(0, W(__NR_mprotect, p, PG, PROT_READ),
	      S(__NR_mprotect, q, PG, PROT_READ));
	perms(p, pw);
	perms(q, pc);
	EXPECT_EQ(strcmp(pw, "r--p"), 0);
	EXPECT_EQ(strcmp(pw, pc), 0);
	perms(p + PG, pw);
	EXPECT_EQ(strcmp(pw, "rw-p"), 0);
	ASSERT_EQ(pipe2(p2, O_CLOEXEC), 0);
	ASSERT_EQ(write(p2[1], "xy", 2), 2);
	EXPECT_EQ(read(p2[0], p, 1), -1);	/* the kernel cannot write it */
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(read(p2[0], p + PG, 1), 1);

	/* Back to writable, and to nothing at all. */
	CHECK(0, W(__NR_mprotect, p, PG, PROT_READ | PROT_WRITE),
	      S(__NR_mprotect, q, PG, PROT_READ | PROT_WRITE));
	p[0] = 1;
	CHECK(0, W(__NR_mprotect, p, 2 * PG, PROT_NONE),
	      S(__NR_mprotect, q, 2 * PG, PROT_NONE));
	perms(p + PG, pw);
	perms(q + PG, pc);
	EXPECT_EQ(strcmp(pw, "---p"), 0);
	EXPECT_EQ(strcmp(pw, pc), 0);

	/* A read-only shared file mapping cannot become writable. */
	put("a", "x", 1);
	fa = xopen("a", O_RDONLY);
	m = mmap(NULL, PG, PROT_READ, MAP_SHARED, fa, 0);
	ASSERT_TRUE(m != MAP_FAILED);
	r = anon(PG);
	ASSERT_EQ(munmap(r, PG), 0);
	SAME(-EACCES, __NR_mprotect, m, PG, PROT_READ | PROT_WRITE);
	SAME(-EINVAL, __NR_mprotect, p + 1, PG, PROT_READ);
	SAME(-EINVAL, __NR_mprotect, p, PG, 0x1000);	/* unknown bit */
	SAME(-ENOMEM, __NR_mprotect, r, PG, PROT_READ);	/* unmapped */
	perms(m, pw);
	EXPECT_EQ(strcmp(pw, "r--s"), 0);
	tmp_leave();
}

TEST(madvise)
{
	char *p = anon(2 * PG), *q = anon(2 * PG), *r = anon(PG);
	size_t i;

	/* MADV_DONTNEED drops private anonymous pages: they read as zero. */
	memset(p, 0x77, 2 * PG);
	memset(q, 0x77, 2 * PG);
	CHECK(0, W(__NR_madvise, p, 2 * PG, MADV_DONTNEED),
	      S(__NR_madvise, q, 2 * PG, MADV_DONTNEED));
	for (i = 0; i < 2 * PG; i++)
		if (p[i] || q[i])
			break;
	EXPECT_EQ(i, 2 * PG);

	/* Hints with no visible effect still succeed alike. */
	SAME(0, __NR_madvise, p, 2 * PG, MADV_WILLNEED);
	SAME(0, __NR_madvise, p, 2 * PG, MADV_SEQUENTIAL);
	SAME(0, __NR_madvise, p, 2 * PG, MADV_NORMAL);
	SAME(0, __NR_madvise, p, PG, MADV_DONTFORK);
	SAME(0, __NR_madvise, p, PG, MADV_DOFORK);

	ASSERT_EQ(munmap(r, PG), 0);
	SAME(-EINVAL, __NR_madvise, p, PG, 12345);
	SAME(-EINVAL, __NR_madvise, p + 1, PG, MADV_DONTNEED);
	SAME(-ENOMEM, __NR_madvise, r, PG, MADV_DONTNEED);
}

/* ---- signals ----------------------------------------------------------- */

/* The kernel's struct sigaction on x86-64, which rt_sigaction takes. */
struct ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

static volatile sig_atomic_t hits[NSIG];

static void count_sig(int sig)
{
	hits[sig]++;
}

static uint64_t bit(int sig)
{
	return 1ULL << (sig - 1);
}

/* glibc's signal trampoline: a raw handler needs one to return. */
static void (*glibc_restorer(void))(void)
{
	struct sigaction sa = { .sa_handler = count_sig };
	struct ksigaction k;

	ASSERT_EQ(sigaction(SIGURG, &sa, NULL), 0);
	ASSERT_EQ(syscall(__NR_rt_sigaction, SIGURG, NULL, &k, 8), 0);
	signal(SIGURG, SIG_DFL);
	ASSERT_TRUE(k.flags & SA_RESTORER);
	return k.restorer;
}

TEST(rt_sigaction)
{
	struct ksigaction act = {
		.handler = count_sig,
		.flags = SA_RESTORER | SA_RESTART | SA_NODEFER | SA_SIGINFO,
		.restorer = glibc_restorer(),
		.mask = bit(SIGUSR2) | bit(SIGTERM) | bit(SIGKILL),
	};
	struct ksigaction ign = { .handler = SIG_IGN };
	struct ksigaction ow, oc, bw, bc, dfl;

	/* Install: the old (default) action comes back either way. */
	ASSERT_EQ(S(__NR_rt_sigaction, SIGUSR1, NULL, &dfl, 8), 0);
	memset(&ow, 0xa5, sizeof(ow));
	memset(&oc, 0x5a, sizeof(oc));
	CHECK(0, W(__NR_rt_sigaction, SIGUSR1, &act, &ow, 8),
	      S(__NR_rt_sigaction, SIGUSR2, &act, &oc, 8));
	EXPECT_EQ(memcmp(&ow, &oc, sizeof(ow)), 0);
	EXPECT_EQ(memcmp(&ow, &dfl, sizeof(ow)), 0);

	/* Read back both ways, both signals: SIGKILL left the mask. */
	memset(&bw, 0xa5, sizeof(bw));
	memset(&bc, 0x5a, sizeof(bc));
	CHECK(0, W(__NR_rt_sigaction, SIGUSR2, NULL, &bw, 8),
	      S(__NR_rt_sigaction, SIGUSR1, NULL, &bc, 8));
	EXPECT_EQ(memcmp(&bw, &bc, sizeof(bw)), 0);
	EXPECT_TRUE(bw.handler == count_sig);
	EXPECT_EQ(bw.flags, act.flags);
	EXPECT_TRUE(bw.restorer == act.restorer);
	EXPECT_EQ(bw.mask, bit(SIGUSR2) | bit(SIGTERM));

	/* The handler installed through the device runs and returns. */
	raise(SIGUSR1);
	raise(SIGUSR2);
	EXPECT_EQ(hits[SIGUSR1], 1);
	EXPECT_EQ(hits[SIGUSR2], 1);

	/* Ignored through the device: raising is harmless. */
	CHECK(0, W(__NR_rt_sigaction, SIGUSR1, &ign, NULL, 8),
	      S(__NR_rt_sigaction, SIGUSR2, &ign, NULL, 8));
	raise(SIGUSR1);
	raise(SIGUSR2);
	EXPECT_EQ(hits[SIGUSR1], 1);
	EXPECT_EQ(hits[SIGUSR2], 1);

	SAME(-EINVAL, __NR_rt_sigaction, 0, &act, NULL, 8);
	SAME(-EINVAL, __NR_rt_sigaction, 65, &act, NULL, 8);
	SAME(-EINVAL, __NR_rt_sigaction, SIGKILL, &act, NULL, 8);
	SAME(-EINVAL, __NR_rt_sigaction, SIGSTOP, &ign, NULL, 8);
	SAME(-EINVAL, __NR_rt_sigaction, SIGUSR1, &act, NULL, 4);
	SAME(-EFAULT, __NR_rt_sigaction, SIGUSR1, BADPTR, NULL, 8);
	SAME(-EFAULT, __NR_rt_sigaction, SIGUSR1, NULL, BADPTR, 8);
	SAME(0, __NR_rt_sigaction, SIGKILL, NULL, &bw, 8);	/* reading is */
}

TEST(rt_sigprocmask)
{
	struct sigaction sa = { .sa_handler = count_sig };
	uint64_t orig, set, ow, oc, now, cw, cc;
	struct wsc_result r[2];
	struct wsc_entry e[2];
	sigset_t pend;

	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &orig, 8), 0);

	/* Block one signal each way; each sees the other's change. */
	set = bit(SIGUSR1);
	EXPECT_EQ(W(__NR_rt_sigprocmask, SIG_BLOCK, &set, &ow, 8), 0);
	EXPECT_EQ(ow, orig);
	set = bit(SIGUSR2);
	EXPECT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, &set, &oc, 8), 0);
	EXPECT_EQ(oc, orig | bit(SIGUSR1));
	CHECK(0, W(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &cw, 8),
	      S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &cc, 8));
	EXPECT_EQ(cw, orig | bit(SIGUSR1) | bit(SIGUSR2));
	EXPECT_EQ(cw, cc);

	/* SIGKILL and SIGSTOP cannot be blocked, either way. */
	set = bit(SIGKILL) | bit(SIGSTOP) | bit(SIGTERM);
	SAME(0, __NR_rt_sigprocmask, SIG_BLOCK, &set, NULL, 8);
	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8), 0);
	EXPECT_EQ(now & (bit(SIGKILL) | bit(SIGSTOP)), 0);
	EXPECT_TRUE(now & bit(SIGTERM));

	/* Raised while blocked: pending, not delivered. */
	ASSERT_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	ASSERT_EQ(sigaction(SIGUSR2, &sa, NULL), 0);
	raise(SIGUSR1);
	raise(SIGUSR2);
	sigpending(&pend);
	EXPECT_TRUE(sigismember(&pend, SIGUSR1));
	EXPECT_EQ(hits[SIGUSR1], 0);

	/*
	 * Unblocked through the device: delivered on the way out of the
	 * ioctl, and the pending signal stops the batch before entry 1.
	 */
	set = bit(SIGUSR1);
	e[0] = ENT4(__NR_rt_sigprocmask, SIG_UNBLOCK, &set, NULL, 8);
	e[1] = ENT0(__NR_getpid);
	EXPECT_EQ(wsc_test_submit(dev(), e, r, 2, 0, NULL), 1);
	EXPECT_EQ(r[0].ret, 0);
	EXPECT_EQ(hits[SIGUSR1], 1);
	set = bit(SIGUSR2);
	EXPECT_EQ(S(__NR_rt_sigprocmask, SIG_UNBLOCK, &set, NULL, 8), 0);
	EXPECT_EQ(hits[SIGUSR2], 1);

	/* SIG_SETMASK restores, wrapped. */
	EXPECT_EQ(W(__NR_rt_sigprocmask, SIG_SETMASK, &orig, NULL, 8), 0);
	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8), 0);
	EXPECT_EQ(now, orig);

	set = bit(SIGUSR1);
	SAME(-EINVAL, __NR_rt_sigprocmask, 3, &set, NULL, 8);
	SAME(-EINVAL, __NR_rt_sigprocmask, SIG_BLOCK, &set, NULL, 4);
	SAME(-EFAULT, __NR_rt_sigprocmask, SIG_BLOCK, BADPTR, NULL, 8);
	SAME(-EFAULT, __NR_rt_sigprocmask, SIG_BLOCK, NULL, BADPTR, 8);
	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8), 0);
	EXPECT_EQ(now, orig);		/* the failures changed nothing */
}

/* ---- inter-process communication ------------------------------------- */

TEST(pipe2)
{
	int fw[2] = { -1, -1 }, fc[2] = { -1, -1 }, low;
	int flw[4], flc[4];
	char buf[16];

	low = next_fd();
	/* Numbers, flags of both ends, and data flowing, both ways alike. */
	EXPECT_EQ(W(__NR_pipe2, fw, O_CLOEXEC | O_NONBLOCK), 0);
	EXPECT_EQ(fw[0], low);
	EXPECT_EQ(fw[1], low + 1);
	flw[0] = fcntl(fw[0], F_GETFD);
	flw[1] = fcntl(fw[1], F_GETFD);
	flw[2] = fcntl(fw[0], F_GETFL);
	flw[3] = fcntl(fw[1], F_GETFL);
	EXPECT_EQ(write(fw[1], "abc", 3), 3);
	EXPECT_EQ(read(fw[0], buf, sizeof(buf)), 3);
	EXPECT_EQ(read(fw[0], buf, sizeof(buf)), -1);	/* non-blocking */
	close(fw[0]);
	close(fw[1]);
	EXPECT_EQ(S(__NR_pipe2, fc, O_CLOEXEC | O_NONBLOCK), 0);
	EXPECT_EQ(fc[0], fw[0]);
	EXPECT_EQ(fc[1], fw[1]);
	flc[0] = fcntl(fc[0], F_GETFD);
	flc[1] = fcntl(fc[1], F_GETFD);
	flc[2] = fcntl(fc[0], F_GETFL);
	flc[3] = fcntl(fc[1], F_GETFL);
	EXPECT_EQ(memcmp(flw, flc, sizeof(flw)), 0);
	EXPECT_EQ(flw[0], FD_CLOEXEC);
	EXPECT_EQ(flw[2], O_RDONLY | O_NONBLOCK);
	EXPECT_EQ(flw[3], O_WRONLY | O_NONBLOCK);
	close(fc[0]);
	close(fc[1]);

	/* O_DIRECT: packet mode keeps each write whole. */
	CHECK(0, W(__NR_pipe2, fw, O_DIRECT), S(__NR_pipe2, fc, O_DIRECT));
	EXPECT_EQ(write(fw[1], "abc", 3), 3);
	EXPECT_EQ(write(fw[1], "defg", 4), 4);
	EXPECT_EQ(write(fc[1], "abc", 3), 3);
	EXPECT_EQ(write(fc[1], "defg", 4), 4);
	EXPECT_EQ(read(fw[0], buf, sizeof(buf)), 3);
	EXPECT_EQ(read(fc[0], buf, sizeof(buf)), 3);
	EXPECT_EQ(fcntl(fw[0], F_GETFD), 0);
	close(fw[0]);
	close(fw[1]);
	close(fc[0]);
	close(fc[1]);

	/* Failures leave no descriptor behind. */
	SAME(-EINVAL, __NR_pipe2, fw, O_TRUNC);
	SAME(-EFAULT, __NR_pipe2, BADPTR, 0);
	SAME(-EFAULT, __NR_pipe2, BADPTR, O_CLOEXEC);
	EXPECT_EQ(next_fd(), low);
}

/* recvfrom(2) on twin sockets: count, bytes and sender must agree. */
static long recv_twin(int sw, int sc, size_t len, int flags, const char *want)
{
	char bw[128], bc[128];
	struct sockaddr_storage aw, ac;
	socklen_t lw = sizeof(aw), lc = sizeof(ac);
	long c;

	memset(bw, '.', sizeof(bw));
	memset(bc, '.', sizeof(bc));
	memset(&aw, 0xa5, sizeof(aw));
	memset(&ac, 0xa5, sizeof(ac));
	c = CHECK(ANY, W(__NR_recvfrom, sw, bw, len, flags, &aw, &lw),
		  S(__NR_recvfrom, sc, bc, len, flags, &ac, &lc));
	EXPECT_EQ(memcmp(bw, bc, sizeof(bw)), 0);
	EXPECT_EQ(lw, lc);
	EXPECT_EQ(memcmp(&aw, &ac, sizeof(aw)), 0);
	if (want && c > 0)
		EXPECT_EQ(memcmp(bc, want, c < (long)len ? c : (long)len), 0);
	return c;
}

TEST(sendto_recvfrom_unix)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int sw[2], sc[2], tw[2], tc[2], p[2];
	char data[64], buf[64];

	fill(data, sizeof(data), 11);
	unix_pair(SOCK_DGRAM, sw);
	unix_pair(SOCK_DGRAM, sc);

	/* Datagrams: one per call; MSG_PEEK leaves it, MSG_TRUNC tells all. */
	TWIN(20, __NR_sendto, sw[0], sc[0], data, 20, 0, NULL, 0);
	TWIN(7, __NR_sendto, sw[0], sc[0], "another", 7, 0, NULL, 0);
	EXPECT_EQ(recv_twin(sw[1], sc[1], 64, MSG_PEEK, data), 20);
	EXPECT_EQ(recv_twin(sw[1], sc[1], 5, MSG_TRUNC, data), 20);
	EXPECT_EQ(recv_twin(sw[1], sc[1], 64, 0, "another"), 7);
	EXPECT_EQ(recv_twin(sw[1], sc[1], 64, MSG_DONTWAIT, NULL), -EAGAIN);

	/* A stream: bytes, not messages. */
	unix_pair(SOCK_STREAM, tw);
	unix_pair(SOCK_STREAM, tc);
	TWIN(10, __NR_sendto, tw[0], tc[0], data, 10, 0, NULL, 0);
	TWIN(10, __NR_sendto, tw[0], tc[0], data + 10, 10, 0, NULL, 0);
	EXPECT_EQ(recv_twin(tw[1], tc[1], 15, 0, data), 15);
	EXPECT_EQ(recv_twin(tw[1], tc[1], 64, 0, data + 15), 5);

	/* A receive that faults has still taken its datagram: twins. */
	TWIN(3, __NR_sendto, sw[0], sc[0], "abc", 3, 0, NULL, 0);
	TWIN(-EFAULT, __NR_recvfrom, sw[1], sc[1], BADPTR, 64, 0, NULL, NULL);
	SAME(-EAGAIN, __NR_recvfrom, sw[1], buf, 64, MSG_DONTWAIT, NULL, NULL);
	SAME(-EAGAIN, __NR_recvfrom, sc[1], buf, 64, MSG_DONTWAIT, NULL, NULL);

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	SAME(-EBADF, __NR_sendto, NOFD, data, 1, 0, NULL, 0);
	SAME(-ENOTSOCK, __NR_sendto, p[1], data, 1, 0, NULL, 0);
	SAME(-EFAULT, __NR_sendto, sw[0], BADPTR, 10, 0, NULL, 0);
	SAME(-EOPNOTSUPP, __NR_sendto, sw[0], data, 1, MSG_OOB, NULL, 0);
	SAME(-EINVAL, __NR_sendto, sw[0], data, 1, 0, &sun, 1);
	SAME(-EBADF, __NR_recvfrom, NOFD, buf, 64, 0, NULL, NULL);
	SAME(-ENOTSOCK, __NR_recvfrom, p[0], buf, 64, 0, NULL, NULL);
	/* The peer gone: EPIPE, MSG_NOSIGNAL keeping SIGPIPE away. */
	close(tw[1]);
	SAME(-EPIPE, __NR_sendto, tw[0], data, 1, MSG_NOSIGNAL, NULL, 0);
}

TEST(sendto_recvfrom_udp)
{
	static char big[70000];
	struct sockaddr_in a1, a2, from_w, from_c, bad;
	socklen_t lw = sizeof(from_w), lc = sizeof(from_c);
	char data[64], bw[64], bc[64];
	int u1, u2;

	fill(data, sizeof(data), 12);
	u1 = udp_bound(&a1);
	u2 = udp_bound(&a2);

	/* Each way: one datagram to u2, received with u1 as its source. */
	EXPECT_EQ(W(__NR_sendto, u1, data, 30, 0, &a2, sizeof(a2)), 30);
	memset(&from_w, 0xa5, sizeof(from_w));
	EXPECT_EQ(W(__NR_recvfrom, u2, bw, sizeof(bw), 0, &from_w, &lw), 30);
	EXPECT_EQ(S(__NR_sendto, u1, data, 30, 0, &a2, sizeof(a2)), 30);
	memset(&from_c, 0x5a, sizeof(from_c));
	EXPECT_EQ(S(__NR_recvfrom, u2, bc, sizeof(bc), 0, &from_c, &lc), 30);
	EXPECT_EQ(memcmp(bw, data, 30), 0);
	EXPECT_EQ(memcmp(bc, data, 30), 0);
	EXPECT_EQ(lw, sizeof(a1));
	EXPECT_EQ(lw, lc);
	EXPECT_EQ(memcmp(&from_w, &a1, sizeof(a1)), 0);
	EXPECT_EQ(memcmp(&from_c, &a1, sizeof(a1)), 0);

	/* A bad address length pointer faults after the datagram is taken. */
	ASSERT_EQ(sendto(u1, data, 5, 0, (void *)&a2, sizeof(a2)), 5);
	ASSERT_EQ(sendto(u1, data, 5, 0, (void *)&a2, sizeof(a2)), 5);
	SAME(-EFAULT, __NR_recvfrom, u2, bw, sizeof(bw), 0, &from_w, BADPTR);
	SAME(-EAGAIN, __NR_recvfrom, u2, bw, sizeof(bw), MSG_DONTWAIT, NULL,
	     NULL);

	bad = a2;
	bad.sin_family = AF_INET6;
	SAME(-EDESTADDRREQ, __NR_sendto, u1, data, 1, 0, NULL, 0);
	SAME(-EINVAL, __NR_sendto, u1, data, 1, 0, &a2, 1);
	SAME(-EAFNOSUPPORT, __NR_sendto, u1, data, 1, 0, &bad, sizeof(bad));
	SAME(-EMSGSIZE, __NR_sendto, u1, big, sizeof(big), 0, &a2, sizeof(a2));
	SAME(-EFAULT, __NR_sendto, u1, data, 1, 0, BADPTR, sizeof(a2));
	SAME(-EFAULT, __NR_sendto, u1, BADPTR, 10, 0, &a2, sizeof(a2));
	SAME(-EAGAIN, __NR_recvfrom, u2, bw, sizeof(bw), MSG_DONTWAIT, NULL,
	     NULL);
}

/* One side's buffers for recvmsg(2): two pieces, a name, control room. */
struct rmsg {
	char b1[7], b2[40];
	struct iovec iov[2];
	struct sockaddr_storage name;
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr m;
};

static struct msghdr *rmsg_init(struct rmsg *r, size_t ctl_len, int fill_byte)
{
	memset(r, fill_byte, sizeof(*r));
	r->iov[0] = (struct iovec){ r->b1, sizeof(r->b1) };
	r->iov[1] = (struct iovec){ r->b2, sizeof(r->b2) };
	r->m = (struct msghdr){
		.msg_name = &r->name, .msg_namelen = sizeof(r->name),
		.msg_iov = r->iov, .msg_iovlen = 2,
		.msg_control = ctl_len ? r->ctl.buf : NULL,
		.msg_controllen = ctl_len,
		.msg_flags = 0x5a5a,
	};
	return &r->m;
}

/* recvmsg on twin sockets: count, bytes, name and flags must agree. */
static long recvmsg_twin(int sw, int sc, int flags, struct rmsg *rw,
			 struct rmsg *rc, size_t ctl_len)
{
	long c;

	c = CHECK(ANY, W(__NR_recvmsg, sw, rmsg_init(rw, ctl_len, 0xa5), flags),
		  S(__NR_recvmsg, sc, rmsg_init(rc, ctl_len, 0xa5), flags));
	EXPECT_EQ(memcmp(rw->b1, rc->b1, sizeof(rw->b1)), 0);
	EXPECT_EQ(memcmp(rw->b2, rc->b2, sizeof(rw->b2)), 0);
	EXPECT_EQ(rw->m.msg_namelen, rc->m.msg_namelen);
	EXPECT_EQ(memcmp(&rw->name, &rc->name, rw->m.msg_namelen), 0);
	EXPECT_EQ(rw->m.msg_flags, rc->m.msg_flags);
	EXPECT_EQ(rw->m.msg_controllen, rc->m.msg_controllen);
	return c;
}

TEST(sendmsg_recvmsg)
{
	char data[128], buf[8];
	struct iovec out[2] = { { data, 10 }, { data + 50, 15 } };
	struct iovec one = { buf, 8 };
	struct msghdr m = { .msg_iov = out, .msg_iovlen = 2 };
	struct msghdr many = { .msg_iov = out, .msg_iovlen = 1025 };
	struct msghdr mu, m1 = { .msg_iov = &one, .msg_iovlen = 1 };
	struct sockaddr_in a1, a2;
	struct rmsg rw, rc;
	int sw[2], sc[2], u1, u2, p[2];

	fill(data, sizeof(data), 13);
	unix_pair(SOCK_DGRAM, sw);
	unix_pair(SOCK_DGRAM, sc);

	/* Gathered on send, scattered on receive at other boundaries. */
	TWIN(25, __NR_sendmsg, sw[0], sc[0], &m, 0);
	EXPECT_EQ(recvmsg_twin(sw[1], sc[1], 0, &rw, &rc, 0), 25);
	EXPECT_EQ(memcmp(rw.b1, data, 7), 0);
	EXPECT_EQ(memcmp(rw.b2, data + 7, 3), 0);
	EXPECT_EQ(memcmp(rw.b2 + 3, data + 50, 15), 0);
	EXPECT_EQ(rw.m.msg_flags, 0);

	/* Too long for the buffers: MSG_TRUNC, or the full length asked. */
	memset(data + 20, 'z', 40);
	out[1].iov_len = 50;
	TWIN(60, __NR_sendmsg, sw[0], sc[0], &m, 0);
	TWIN(60, __NR_sendmsg, sw[0], sc[0], &m, MSG_DONTWAIT);
	EXPECT_EQ(recvmsg_twin(sw[1], sc[1], 0, &rw, &rc, 0), 47);
	EXPECT_EQ(rw.m.msg_flags, MSG_TRUNC);
	EXPECT_EQ(recvmsg_twin(sw[1], sc[1], MSG_TRUNC, &rw, &rc, 0), 60);
	EXPECT_EQ(recvmsg_twin(sw[1], sc[1], MSG_DONTWAIT, &rw, &rc, 0),
		  -EAGAIN);

	/* UDP: the destination on send, the source on receive. */
	u1 = udp_bound(&a1);
	u2 = udp_bound(&a2);
	mu = m;
	mu.msg_name = &a2;
	mu.msg_namelen = sizeof(a2);
	SAME(60, __NR_sendmsg, u1, &mu, 0);
	EXPECT_EQ(recvmsg_twin(u2, u2, 0, &rw, &rc, 0), 47);
	EXPECT_EQ(rw.m.msg_namelen, sizeof(a1));
	EXPECT_EQ(memcmp(&rw.name, &a1, sizeof(a1)), 0);
	EXPECT_EQ(rw.m.msg_flags, MSG_TRUNC);

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	SAME(-EBADF, __NR_sendmsg, NOFD, &m, 0);
	SAME(-ENOTSOCK, __NR_sendmsg, p[1], &m, 0);
	SAME(-EFAULT, __NR_sendmsg, sw[0], BADPTR, 0);
	SAME(-EMSGSIZE, __NR_sendmsg, sw[0], &many, 0);
	SAME(-EDESTADDRREQ, __NR_sendmsg, u1, &m, 0);
	SAME(-EOPNOTSUPP, __NR_sendmsg, sw[0], &m, MSG_OOB);
	SAME(-EBADF, __NR_recvmsg, NOFD, &m1, 0);
	SAME(-ENOTSOCK, __NR_recvmsg, p[0], &m1, 0);
	SAME(-EFAULT, __NR_recvmsg, sw[1], BADPTR, 0);
	SAME(-EMSGSIZE, __NR_recvmsg, sw[1], &many, 0);
	SAME(-EAGAIN, __NR_recvmsg, sw[1], &m1, MSG_DONTWAIT);
}

/* Passing a descriptor: the one received is the lowest free number. */
TEST(sendmsg_recvmsg_rights)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { "x", 1 };
	struct msghdr m = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct cmsghdr *cm = (struct cmsghdr *)ctl.buf;
	struct stat sa, st;
	struct rmsg rw, rc;
	int sw[2], sc[2], fa, fw, fc, low;

	tmp_enter();
	put("a", "x", 1);
	fa = xopen("a", O_RDONLY);
	ASSERT_EQ(fstat(fa, &sa), 0);
	unix_pair(SOCK_DGRAM, sw);
	unix_pair(SOCK_DGRAM, sc);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fa, sizeof(int));
	low = next_fd();

	TWIN(1, __NR_sendmsg, sw[0], sc[0], &m, 0);
	TWIN(1, __NR_sendmsg, sw[0], sc[0], &m, 0);

	/* Received wrapped: a new descriptor for the same file, cloexec. */
	EXPECT_EQ(W(__NR_recvmsg, sw[1], rmsg_init(&rw, sizeof(rw.ctl), 0),
		    MSG_CMSG_CLOEXEC), 1);
	cm = CMSG_FIRSTHDR(&rw.m);
	ASSERT_TRUE(cm);
	EXPECT_EQ(cm->cmsg_level, SOL_SOCKET);
	EXPECT_EQ(cm->cmsg_type, SCM_RIGHTS);
	EXPECT_EQ(cm->cmsg_len, CMSG_LEN(sizeof(int)));
	memcpy(&fw, CMSG_DATA(cm), sizeof(int));
	EXPECT_EQ(fw, low);
	ASSERT_EQ(fstat(fw, &st), 0);
	EXPECT_EQ(st.st_ino, sa.st_ino);
	EXPECT_EQ(fcntl(fw, F_GETFD), FD_CLOEXEC);
	close(fw);

	/* Conventionally: the same number, the same control message. */
	EXPECT_EQ(S(__NR_recvmsg, sc[1], rmsg_init(&rc, sizeof(rc.ctl), 0),
		    MSG_CMSG_CLOEXEC), 1);
	memcpy(&fc, CMSG_DATA(CMSG_FIRSTHDR(&rc.m)), sizeof(int));
	EXPECT_EQ(fc, fw);
	EXPECT_EQ(rw.m.msg_controllen, rc.m.msg_controllen);
	EXPECT_EQ(rw.m.msg_flags, rc.m.msg_flags);
	EXPECT_EQ(memcmp(rw.ctl.buf, rc.ctl.buf, rw.m.msg_controllen), 0);
	close(fc);

	/* No room for the descriptor: MSG_CTRUNC, and none installed. */
	EXPECT_EQ(recvmsg_twin(sw[1], sc[1], 0, &rw, &rc,
			       sizeof(struct cmsghdr)), 1);
	EXPECT_EQ(rw.m.msg_flags, MSG_CTRUNC);
	EXPECT_EQ(next_fd(), low);

	/* A bad descriptor, and a control header too short to be one. */
	cm = (struct cmsghdr *)ctl.buf;
	fw = NOFD;
	memcpy(CMSG_DATA(cm), &fw, sizeof(int));
	SAME(-EBADF, __NR_sendmsg, sw[0], &m, 0);
	cm->cmsg_len = 4;
	SAME(-EINVAL, __NR_sendmsg, sw[0], &m, 0);
	SAME(-EAGAIN, __NR_recvmsg, sw[1], rmsg_init(&rw, 0, 0), MSG_DONTWAIT);
	tmp_leave();
}

/* ---- locking and waiting ------------------------------------------------ */

/* A set of descriptors in every state poll can report. */
static void poll_set(struct pollfd *f, int p[2], int q[2], int h[2])
{
	struct pollfd set[6] = {
		{ .fd = p[0], .events = POLLIN },	/* data */
		{ .fd = q[0], .events = POLLIN },	/* nothing */
		{ .fd = q[1], .events = POLLOUT },	/* room */
		{ .fd = -1, .events = POLLIN },		/* ignored */
		{ .fd = NOFD, .events = POLLIN },	/* POLLNVAL */
		{ .fd = h[0], .events = POLLIN },	/* POLLHUP */
	};
	int i;

	for (i = 0; i < 6; i++)
		set[i].revents = 0x7777;		/* overwritten */
	memcpy(f, set, sizeof(set));
}

static void poll_pipes(int p[2], int q[2], int h[2])
{
	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(q, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(h, O_CLOEXEC), 0);
	ASSERT_EQ(write(p[1], "x", 1), 1);
	close(h[1]);
}

TEST(poll)
{
	struct pollfd fw[6], fc[6], empty;
	int p[2], q[2], h[2];
	struct rlimit rl;

	poll_pipes(p, q, h);
	poll_set(fw, p, q, h);
	poll_set(fc, p, q, h);
	EXPECT_EQ(CHECK(4, W(__NR_poll, fw, 6, 0), S(__NR_poll, fc, 6, 0)), 4);
	EXPECT_EQ(memcmp(fw, fc, sizeof(fw)), 0);
	EXPECT_EQ(fw[0].revents, POLLIN);
	EXPECT_EQ(fw[1].revents, 0);
	EXPECT_EQ(fw[2].revents, POLLOUT);
	EXPECT_EQ(fw[3].revents, 0);
	EXPECT_EQ(fw[4].revents, POLLNVAL);
	EXPECT_EQ(fw[5].revents, POLLHUP);

	/* Nothing ready: 0, at once or after a short timeout. */
	empty = (struct pollfd){ .fd = q[0], .events = POLLIN };
	SAME(0, __NR_poll, &empty, 1, 0);
	SAME(0, __NR_poll, &empty, 1, 1);
	SAME(0, __NR_poll, NULL, 0, 0);

	ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
	SAME(-EINVAL, __NR_poll, fw, rl.rlim_cur + 1, 0);
	SAME(-EFAULT, __NR_poll, BADPTR, 1, 0);
}

TEST(ppoll)
{
	struct timespec tw = { 0, 0 }, tc = { 0, 0 }, bad = { 0, 1000000000 };
	struct timespec neg = { -1, 0 };
	struct pollfd fw[6], fc[6], empty;
	uint64_t mask = bit(SIGUSR1), orig, now;
	int p[2], q[2], h[2];

	poll_pipes(p, q, h);
	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &orig, 8), 0);

	/* A zero timeout, then no timeout at all: something is ready. */
	poll_set(fw, p, q, h);
	poll_set(fc, p, q, h);
	CHECK(4, W(__NR_ppoll, fw, 6, &tw, NULL, 8),
	      S(__NR_ppoll, fc, 6, &tc, NULL, 8));
	EXPECT_EQ(memcmp(fw, fc, sizeof(fw)), 0);
	EXPECT_EQ(memcmp(&tw, &tc, sizeof(tw)), 0);
	poll_set(fw, p, q, h);
	poll_set(fc, p, q, h);
	CHECK(4, W(__NR_ppoll, fw, 6, NULL, NULL, 8),
	      S(__NR_ppoll, fc, 6, NULL, NULL, 8));
	EXPECT_EQ(memcmp(fw, fc, sizeof(fw)), 0);

	/* With a signal mask for the wait, put back afterwards. */
	poll_set(fw, p, q, h);
	poll_set(fc, p, q, h);
	CHECK(4, W(__NR_ppoll, fw, 6, &tw, &mask, 8),
	      S(__NR_ppoll, fc, 6, &tc, &mask, 8));
	EXPECT_EQ(memcmp(fw, fc, sizeof(fw)), 0);
	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8), 0);
	EXPECT_EQ(now, orig);

	/* Nothing ready: 0 after 1 ms, the time left written back as 0. */
	empty = (struct pollfd){ .fd = q[0], .events = POLLIN };
	tw = tc = (struct timespec){ 0, MS };
	CHECK(0, W(__NR_ppoll, &empty, 1, &tw, NULL, 8),
	      S(__NR_ppoll, &empty, 1, &tc, NULL, 8));
	EXPECT_EQ(memcmp(&tw, &tc, sizeof(tw)), 0);

	SAME(-EINVAL, __NR_ppoll, fw, 6, &tw, &mask, 4);
	SAME(-EINVAL, __NR_ppoll, fw, 6, &bad, NULL, 8);
	SAME(-EINVAL, __NR_ppoll, fw, 6, &neg, NULL, 8);
	SAME(-EFAULT, __NR_ppoll, fw, 6, BADPTR, NULL, 8);
	SAME(-EFAULT, __NR_ppoll, BADPTR, 1, &tw, NULL, 8);
	SAME(-EFAULT, __NR_ppoll, fw, 6, &tw, BADPTR, 8);
}

static uint32_t fword;

TEST(futex)
{
	struct timespec ms = { 0, MS }, bad = { 0, -1 };
	uint32_t word = 5, bits[2] = { 0, 0 };
	uint32_t *odd = (uint32_t *)((char *)bits + 1);

	/* No waiter to wake: 0. */
	SAME(0, __NR_futex, &word, FUTEX_WAKE, 1);
	SAME(0, __NR_futex, &word, FUTEX_WAKE_PRIVATE, INT_MAX);
	/* The value moved on: no wait at all. */
	SAME(-EAGAIN, __NR_futex, &word, FUTEX_WAIT, 4, NULL);
	SAME(-EAGAIN, __NR_futex, &word, FUTEX_WAIT_PRIVATE, 6, &ms);
	/* The value still there: wait out 1 ms. */
	SAME(-ETIMEDOUT, __NR_futex, &word, FUTEX_WAIT_PRIVATE, 5, &ms);
	/* Requeue with a stale expected value. */
	SAME(-EAGAIN, __NR_futex, &word, FUTEX_CMP_REQUEUE_PRIVATE, 1, 1,
	     &bits[1], 4);
	SAME(0, __NR_futex, &word, FUTEX_CMP_REQUEUE_PRIVATE, 1, 1, &bits[1],
	     5);

	SAME(-ENOSYS, __NR_futex, &word, 99, 0);
	SAME(-EINVAL, __NR_futex, odd, FUTEX_WAKE, 1);
	SAME(-EINVAL, __NR_futex, &word, FUTEX_WAIT_PRIVATE, 5, &bad);
	SAME(-EINVAL, __NR_futex, &word, FUTEX_WAIT_BITSET_PRIVATE, 5, &ms,
	     NULL, 0);
	SAME(-EFAULT, __NR_futex, BADPTR, FUTEX_WAIT, 0, NULL);
	SAME(-EFAULT, __NR_futex, BADPTR, FUTEX_WAIT_PRIVATE, 0, NULL);
	SAME(-EFAULT, __NR_futex, &word, FUTEX_WAIT_PRIVATE, 5, BADPTR);
	EXPECT_EQ(word, 5);
}

struct waiter {
	bool wrapped;
	long ret;
};

/* Wait on fword for value 0; the limit only matters if no one wakes us. */
static void *futex_waiter(void *arg)
{
	struct timespec limit = { 10, 0 };
	struct waiter *w = arg;

	if (w->wrapped)
		w->ret = W(__NR_futex, &fword, FUTEX_WAIT_PRIVATE, 0, &limit);
	else
		w->ret = S(__NR_futex, &fword, FUTEX_WAIT_PRIVATE, 0, &limit);
	return NULL;
}

/* Wake one waiter, trying again until it is asleep (1 ms apart). */
static long wake_one(bool wrapped)
{
	struct timespec ms = { 0, MS };
	long r = 0;
	int i;

	for (i = 0; i < 5000 && r == 0; i++) {
		r = wrapped ? W(__NR_futex, &fword, FUTEX_WAKE_PRIVATE, 1) :
			      S(__NR_futex, &fword, FUTEX_WAKE_PRIVATE, 1);
		if (r == 0)
			nanosleep(&ms, NULL);
	}
	return r;
}

/* A waiter one way, woken the other: the pair must meet. */
static void wait_wake(bool wrapped_waiter, bool wrapped_waker)
{
	struct waiter w = { .wrapped = wrapped_waiter, .ret = LONG_MIN };
	pthread_t t;

	dev();		/* opened once, before the threads share it */
	ASSERT_EQ(pthread_create(&t, NULL, futex_waiter, &w), 0);
	EXPECT_EQ(wake_one(wrapped_waker), 1);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	EXPECT_EQ(w.ret, 0);
}

TEST(futex_wait_wake)
{
	wait_wake(false, true);		/* conventional waiter, wrapped wake */
	wait_wake(true, false);		/* wrapped waiter, conventional wake */
	wait_wake(true, true);
}

/* ---- identity and time -------------------------------------------------- */

static void *tid_thread(void *arg)
{
	long *out = arg;

	out[0] = W(__NR_gettid);
	out[1] = S(__NR_gettid);
	out[2] = W(__NR_getpid);
	return NULL;
}

TEST(identity)
{
	long tids[3];
	pthread_t t;

	SAME(getpid(), __NR_getpid);
	SAME(getppid(), __NR_getppid);
	SAME(getpid(), __NR_gettid);	/* the main thread */

	/* Another thread: its own id, the same process. */
	dev();
	ASSERT_EQ(pthread_create(&t, NULL, tid_thread, tids), 0);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	EXPECT_EQ(tids[0], tids[1]);
	EXPECT_NE(tids[0], getpid());
	EXPECT_EQ(tids[2], getpid());
}

static long since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000000000L +
	       (t1.tv_nsec - t0->tv_nsec);
}

TEST(nanosleep)
{
	struct timespec req = { 0, MS }, zero = { 0, 0 };
	struct timespec rw = { 9, 9 }, rc = { 9, 9 }, t0;
	long w, c, dw, dc;

	/* 1 ms, at least; the remainder is written only if interrupted. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	w = W(__NR_nanosleep, &req, &rw);
	dw = since(&t0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	c = S(__NR_nanosleep, &req, &rc);
	dc = since(&t0);
	CHECK(0, w, c);
	EXPECT_GE(dw, MS);
	EXPECT_GE(dc, MS);
	EXPECT_LE(dw, 1000 * MS);
	EXPECT_EQ(memcmp(&rw, &rc, sizeof(rw)), 0);
	EXPECT_EQ(rw.tv_sec, 9);
	SAME(0, __NR_nanosleep, &zero, NULL);
	SAME(0, __NR_nanosleep, &zero, BADPTR);

	req.tv_nsec = 1000000000;
	SAME(-EINVAL, __NR_nanosleep, &req, NULL);
	req.tv_nsec = -1;
	SAME(-EINVAL, __NR_nanosleep, &req, NULL);
	req = (struct timespec){ -1, 0 };
	SAME(-EINVAL, __NR_nanosleep, &req, NULL);
	SAME(-EFAULT, __NR_nanosleep, BADPTR, NULL);
}

/* ---- batches ------------------------------------------------------- */

/*
 * The ABI's execution rules applied to conventional calls: what a batch
 * must have returned, entry by entry.
 */
static void replay(const struct wsc_entry *ent, long *res, unsigned int n)
{
	bool stopped = false;
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		const struct wsc_entry *e = &ent[i];
		uint64_t a[WSC_MAX_ARGS];
		long r = -ECANCELED;

		if (e->flags & WSC_ENTRY_NEW_CHAIN)
			stopped = false;
		if (stopped)
			goto done;
		memcpy(a, e->args, sizeof(a));
		for (k = 0; k < WSC_MAX_ARGS; k++) {
			if (!(e->ref_mask & (1u << k)))
				continue;
			if (is_err(res[e->args[k]]))
				goto done;
			a[k] = res[e->args[k]];
		}
		if (e->nr == WSC_NR_NOP)
			r = (long)a[0];
		else
			r = sys_do(e->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
done:
		res[i] = r;
		if (is_err(r) && !(e->flags & WSC_ENTRY_IGNORE_FAILURE))
			stopped = true;
	}
}

#define MIX_MAX		80

/* One run of the mixed batch: entries and every buffer they point to. */
struct mix {
	struct wsc_entry ent[MIX_MAX];
	unsigned int n;
	unsigned int i_map, i_fd, i_dup, i_read, i_dents;

	char wdata[64], rdata[64], vw1[8], vw2[8], vr1[8], vr2[8], pr[2];
	struct iovec wiov[2], riov[2];
	struct stat st, st2;
	struct statx stx;
	char dents[512] __attribute__((aligned(8)));
	int pipefd[2];
	uint64_t oldmask;
	struct ksigaction oldact;
	struct timespec nap, zero;
	uint32_t word;
	struct pollfd pfd;
	char pbuf[8], sbuf[16], mbuf[16];
	struct iovec siov, miov;
	struct msghdr smsg, rmsg;
};

static unsigned int add(struct mix *m, struct wsc_entry e)
{
	ASSERT_LT(m->n, MIX_MAX);
	m->ent[m->n] = e;
	return m->n++;
}

/* Add @e with argument @k taken from the result of entry @from. */
static unsigned int add_ref(struct mix *m, struct wsc_entry e, unsigned int k,
			    unsigned int from)
{
	e.ref_mask |= 1u << k;
	e.args[k] = from;
	return add(m, e);
}

static void add_flags(struct mix *m, struct wsc_entry e, uint16_t flags)
{
	e.flags = flags;
	add(m, e);
}

/*
 * All 47 allowlisted calls in one batch, results feeding later entries:
 * a file made, written, read, inspected, duplicated, renamed and removed;
 * a pipe and a socket pair used; memory mapped and unmapped; signal state
 * read; a nap.  It leaves the directory as it found it.
 */
static void mix_build(struct mix *m, int pp[2], int sv[2])
{
	unsigned int fd, d, dir, map;

	memset(m, 0, sizeof(*m));
	fill(m->wdata, sizeof(m->wdata), 14);
	memcpy(m->vw1, "vector-1", 8);
	memcpy(m->vw2, "vector-2", 8);
	m->wiov[0] = (struct iovec){ m->vw1, 8 };
	m->wiov[1] = (struct iovec){ m->vw2, 8 };
	m->riov[0] = (struct iovec){ m->vr1, 8 };
	m->riov[1] = (struct iovec){ m->vr2, 8 };
	m->nap = (struct timespec){ 0, MS };
	m->pfd = (struct pollfd){ .fd = pp[0], .events = POLLIN };
	m->siov = (struct iovec){ "message", 7 };
	m->smsg = (struct msghdr){ .msg_iov = &m->siov, .msg_iovlen = 1 };
	m->miov = (struct iovec){ m->mbuf, sizeof(m->mbuf) };
	m->rmsg = (struct msghdr){ .msg_iov = &m->miov, .msg_iovlen = 1 };

	add(m, E(__NR_getpid));
	add(m, E(__NR_getppid));
	add(m, E(__NR_gettid));
	add(m, E(__NR_mkdir, "d", 0755));
	add(m, E(__NR_mkdirat, AT_FDCWD, "d/sub", 0700));
	fd = m->i_fd = add(m, E(__NR_open, "d/f", O_RDWR | O_CREAT | O_EXCL,
				0644));
	add_ref(m, E(__NR_write, 0, m->wdata, sizeof(m->wdata)), 0, fd);
	add_ref(m, E(__NR_pwrite64, 0, "XY", 2, 10), 0, fd);
	add_ref(m, E(__NR_writev, 0, m->wiov, 2), 0, fd);
	add_ref(m, E(__NR_lseek, 0, 0, SEEK_SET), 0, fd);
	m->i_read = add_ref(m, E(__NR_read, 0, m->rdata, sizeof(m->rdata)), 0,
			    fd);
	add_ref(m, E(__NR_pread64, 0, m->pr, 2, 10), 0, fd);
	add_ref(m, E(__NR_readv, 0, m->riov, 2), 0, fd);
	add_ref(m, E(__NR_fstat, 0, &m->st), 0, fd);
	add_ref(m, E(__NR_fsync, 0), 0, fd);
	add_ref(m, E(__NR_fdatasync, 0), 0, fd);
	d = m->i_dup = add_ref(m, E(__NR_dup, 0), 0, fd);
	add_ref(m, E(__NR_dup2, 0, 90), 0, fd);
	add_ref(m, E(__NR_dup3, 0, 91, O_CLOEXEC), 0, d);
	add_ref(m, E(__NR_fcntl, 0, F_GETFL), 0, fd);
	add(m, E(__NR_fcntl, 91, F_GETFD));
	add_ref(m, E(__NR_close, 0), 0, d);
	add(m, E(__NR_close, 90));
	add(m, E(__NR_close, 91));
	add_ref(m, E(__NR_close, 0), 0, fd);
	add(m, E(__NR_rename, "d/f", "d/g"));
	add(m, E(__NR_renameat, AT_FDCWD, "d/g", AT_FDCWD, "d/sub/h"));
	add(m, E(__NR_newfstatat, AT_FDCWD, "d/sub/h", &m->st2, 0));
	add(m, E(__NR_statx, AT_FDCWD, "d/sub/h", 0, STATX_BASIC_STATS,
		 &m->stx));
	add_flags(m, E(__NR_access, "d/f", F_OK), WSC_ENTRY_IGNORE_FAILURE);
	add(m, E(__NR_faccessat, AT_FDCWD, "d/sub/h", R_OK | W_OK));
	dir = add(m, E(__NR_openat, AT_FDCWD, "d/sub", O_RDONLY | O_DIRECTORY));
	m->i_dents = add_ref(m, E(__NR_getdents64, 0, m->dents,
				  sizeof(m->dents)), 0, dir);
	add_ref(m, E(__NR_unlinkat, 0, "h", 0), 0, dir);
	add_ref(m, E(__NR_close, 0), 0, dir);
	add_flags(m, E(__NR_unlink, "d/missing"), WSC_ENTRY_IGNORE_FAILURE);
	add(m, E(__NR_unlinkat, AT_FDCWD, "d/sub", AT_REMOVEDIR));
	add(m, E(__NR_unlinkat, AT_FDCWD, "d", AT_REMOVEDIR));
	add(m, E(__NR_pipe2, m->pipefd, O_CLOEXEC));
	add(m, E(__NR_write, pp[1], "p", 1));
	add(m, E(__NR_poll, &m->pfd, 1, 0));
	add(m, E(__NR_ppoll, &m->pfd, 1, &m->zero, NULL, 8));
	add(m, E(__NR_read, pp[0], m->pbuf, sizeof(m->pbuf)));
	add(m, E(__NR_sendto, sv[0], "dgram", 5, 0, NULL, 0));
	add(m, E(__NR_recvfrom, sv[1], m->sbuf, sizeof(m->sbuf), 0, NULL,
		 NULL));
	add(m, E(__NR_sendmsg, sv[0], &m->smsg, 0));
	add(m, E(__NR_recvmsg, sv[1], &m->rmsg, 0));
	map = m->i_map = add(m, E(__NR_mmap, NULL, 2 * PG,
				  PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	add_ref(m, E(__NR_mprotect, 0, PG, PROT_READ), 0, map);
	add_ref(m, E(__NR_madvise, 0, 2 * PG, MADV_DONTNEED), 0, map);
	add_ref(m, E(__NR_munmap, 0, 2 * PG), 0, map);
	add(m, E(__NR_brk, 0));
	add(m, E(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &m->oldmask, 8));
	add(m, E(__NR_rt_sigaction, SIGUSR1, NULL, &m->oldact, 8));
	add(m, E(__NR_futex, &m->word, FUTEX_WAKE_PRIVATE, 1));
	add_flags(m, E(__NR_futex, &m->word, FUTEX_WAIT_PRIVATE, 1, NULL),
		  WSC_ENTRY_IGNORE_FAILURE);
	add(m, E(__NR_nanosleep, &m->nap, NULL));
	add(m, E(WSC_NR_NOP, 7));
	add(m, E(__NR_getpid));
}

/* The names in a getdents64 buffer, in order, separated by '/'. */
static void dent_names(const char *buf, long len, char *out, size_t cap)
{
	long off = 0;

	out[0] = 0;
	while (off < len) {
		const struct dirent64_raw *d = (const void *)(buf + off);

		strncat(out, d->d_name, cap - strlen(out) - 2);
		strcat(out, "/");
		off += d->d_reclen;
	}
}

TEST(batch_mixed)
{
	static struct mix mw, mc;
	struct wsc_result r[MIX_MAX];
	long res[MIX_MAX];
	char nw[64], nc[64];
	int pp[2], sv[2], low;
	unsigned int i;

	tmp_enter();
	ASSERT_EQ(pipe2(pp, O_CLOEXEC), 0);
	unix_pair(SOCK_DGRAM, sv);
	dev();
	low = next_fd();

	mix_build(&mw, pp, sv);
	ASSERT_EQ(wsc_test_submit(dev(), mw.ent, r, mw.n, 0, NULL), (int)mw.n);
	/* The pipe it made works; closed, its numbers are free again. */
	EXPECT_EQ(mw.pipefd[0], low);
	EXPECT_EQ(write(mw.pipefd[1], "z", 1), 1);
	EXPECT_EQ(read(mw.pipefd[0], nw, 1), 1);
	close(mw.pipefd[0]);
	close(mw.pipefd[1]);

	/* The same entries, conventionally, on a second set of buffers. */
	mix_build(&mc, pp, sv);
	replay(mc.ent, res, mc.n);

	for (i = 0; i < mw.n; i++) {
		if (i == mw.i_map) {
			EXPECT_FALSE(is_err(r[i].ret));
			EXPECT_FALSE(is_err(res[i]));
			EXPECT_EQ(r[i].ret & (PG - 1), 0);
			continue;
		}
		if (r[i].ret != res[i])
			TH_LOG("entry %u (nr %u): wrapped %lld, "
			       "conventional %ld", i, mw.ent[i].nr,
			       (long long)r[i].ret, res[i]);
		EXPECT_EQ(r[i].ret, res[i]);
		/* Only the entries flagged to may fail. */
		if (mw.ent[i].flags & WSC_ENTRY_IGNORE_FAILURE)
			EXPECT_TRUE(is_err(r[i].ret));
		else
			EXPECT_FALSE(is_err(r[i].ret));
	}
	EXPECT_EQ(r[0].ret, getpid());
	EXPECT_EQ(r[mw.n - 1].ret, getpid());
	EXPECT_EQ(r[mw.n - 2].ret, 7);
	EXPECT_EQ(r[mw.i_fd].ret, low);
	EXPECT_EQ(r[mw.i_read].ret, 64);

	/* What the calls wrote into memory, wrapped and replayed. */
	EXPECT_EQ(memcmp(mw.rdata, mc.rdata, sizeof(mw.rdata)), 0);
	EXPECT_EQ(memcmp(mw.rdata + 12, mw.wdata + 12, 52), 0);
	EXPECT_EQ(memcmp(mw.rdata + 10, "XY", 2), 0);
	EXPECT_EQ(memcmp(mw.pr, "XY", 2), 0);
	EXPECT_EQ(memcmp(mw.vr1, "vector-1", 8), 0);
	EXPECT_EQ(memcmp(mw.vr2, "vector-2", 8), 0);
	EXPECT_EQ(memcmp(mw.vr1, mc.vr1, 8), 0);
	expect_twin_stat(&mw.st, &mc.st);
	EXPECT_EQ(mw.st.st_size, 80);
	expect_twin_stat(&mw.st2, &mc.st2);
	EXPECT_EQ(mw.stx.stx_size, mc.stx.stx_size);
	EXPECT_EQ(mw.stx.stx_mode, mc.stx.stx_mode);
	EXPECT_EQ(mw.stx.stx_mask, mc.stx.stx_mask);
	dent_names(mw.dents, r[mw.i_dents].ret, nw, sizeof(nw));
	dent_names(mc.dents, res[mc.i_dents], nc, sizeof(nc));
	EXPECT_EQ(strcmp(nw, nc), 0);
	EXPECT_TRUE(strstr(nw, "/h/") || !strncmp(nw, "h/", 2));
	EXPECT_EQ(mw.pipefd[0], mc.pipefd[0]);
	EXPECT_EQ(mw.pipefd[1], mc.pipefd[1]);
	EXPECT_EQ(mw.oldmask, mc.oldmask);
	EXPECT_EQ(memcmp(&mw.oldact, &mc.oldact, sizeof(mw.oldact)), 0);
	EXPECT_EQ(memcmp(mw.pbuf, mc.pbuf, sizeof(mw.pbuf)), 0);
	EXPECT_EQ(memcmp(mw.sbuf, "dgram", 5), 0);
	EXPECT_EQ(memcmp(mw.mbuf, "message", 7), 0);
	EXPECT_EQ(memcmp(mw.sbuf, mc.sbuf, sizeof(mw.sbuf)), 0);
	EXPECT_EQ(memcmp(mw.mbuf, mc.mbuf, sizeof(mw.mbuf)), 0);
	EXPECT_EQ(mw.rmsg.msg_flags, mc.rmsg.msg_flags);
	EXPECT_FALSE(exists("d"));
	close(mc.pipefd[0]);
	close(mc.pipefd[1]);
	tmp_leave();
}

/* Every allowlisted call appears in the mixed batch: the list is covered. */
TEST(batch_covers_allowlist)
{
	static struct mix m;
	struct wsc_call_info ci;
	int pp[2] = { 0, 1 }, sv[2] = { 0, 1 }, rows = 0;
	unsigned int idx, i;
	bool found;

	mix_build(&m, pp, sv);
	for (idx = 0;; idx++) {
		memset(&ci, 0, sizeof(ci));
		ci.index = idx;
		if (ioctl(dev(), WSC_IOC_CALL_INFO, &ci))
			break;
		if (ci.nr == WSC_NR_NOP)
			continue;
		rows++;
		found = false;
		for (i = 0; i < m.n; i++)
			found |= m.ent[i].nr == ci.nr;
		if (!found)
			TH_LOG("%s (%u) is not in the mixed batch", ci.name,
			       ci.nr);
		EXPECT_TRUE(found);
	}
	EXPECT_EQ(errno, ENOENT);
	EXPECT_EQ(rows, 47);
}

/*
 * Failures and the chain: a failure cancels what follows until a new
 * chain, references to a failed entry cancel, cancelled entries have no
 * effect.  Replayed conventionally under the same rules.
 */
TEST(batch_chain)
{
	struct wsc_result r[12];
	struct wsc_entry e[12];
	long res[12];
	char buf[4];
	unsigned int i, n = 0;

	tmp_enter();
	e[n++] = ENT3(__NR_open, "missing", O_RDONLY, 0);
	e[n] = ENT3(__NR_read, 0, buf, sizeof(buf));
	e[n].ref_mask = 1;
	n++;
	e[n++] = ENT2(__NR_mkdir, "never", 0755);
	e[n] = ENT0(__NR_getpid);
	e[n++].flags = WSC_ENTRY_NEW_CHAIN;
	e[n] = ENT1(__NR_close, NOFD);
	e[n++].flags = WSC_ENTRY_IGNORE_FAILURE;
	e[n++] = ENT2(__NR_mkdir, "made", 0755);
	e[n++] = ENT1(__NR_close, NOFD);
	e[n++] = ENT0(__NR_getpid);
	e[n] = NOP(-EIO);
	e[n++].flags = WSC_ENTRY_NEW_CHAIN;
	e[n++] = ENT3(__NR_unlinkat, AT_FDCWD, "made", AT_REMOVEDIR);
	e[n] = ENT2(__NR_mkdir, "never", 0755);
	e[n].flags = WSC_ENTRY_NEW_CHAIN;
	e[n].ref_mask = 1;
	e[n++].args[0] = 0;		/* refers to the failed open */

	ASSERT_EQ(wsc_test_submit(dev(), e, r, n, 0, NULL), (int)n);
	EXPECT_EQ(r[0].ret, -ENOENT);
	EXPECT_EQ(r[1].ret, -ECANCELED);
	EXPECT_EQ(r[2].ret, -ECANCELED);
	EXPECT_EQ(r[3].ret, getpid());
	EXPECT_EQ(r[4].ret, -EBADF);
	EXPECT_EQ(r[5].ret, 0);
	EXPECT_EQ(r[6].ret, -EBADF);
	EXPECT_EQ(r[7].ret, -ECANCELED);
	EXPECT_EQ(r[8].ret, -EIO);
	EXPECT_EQ(r[9].ret, -ECANCELED);
	EXPECT_EQ(r[10].ret, -ECANCELED);
	EXPECT_TRUE(exists("made"));
	EXPECT_FALSE(exists("never"));

	ASSERT_EQ(rmdir("made"), 0);
	replay(e, res, n);
	for (i = 0; i < n; i++)
		EXPECT_EQ(r[i].ret, res[i]);
	EXPECT_FALSE(exists("never"));
	tmp_leave();
}

TEST_HARNESS_MAIN
