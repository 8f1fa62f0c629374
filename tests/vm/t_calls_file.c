// SPDX-License-Identifier: GPL-2.0
/*
 * t_calls_file: the file group (open ... renameat, 22 calls) wrapped
 * through /dev/wsc and conventionally, on twin files and directories in
 * a private temporary directory: the same result or errno, the same
 * descriptor numbers and flags, the same files left behind.  The
 * twin-call machinery is in twin.h.
 */
#include <dirent.h>
#include <limits.h>
#include <sys/resource.h>

#include "twin.h"

/* Twin paths: what lstat(2) says of each, compared as twin objects. */
static void expect_twin_paths(const char *a, const char *b)
{
	struct stat sa, sb;

	ASSERT_EQ(lstat(a, &sa), 0);
	ASSERT_EQ(lstat(b, &sb), 0);
	expect_twin_stat(&sa, &sb);
}

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
	same(expect, _w, _c, #nr "(" #__VA_ARGS__ ")", __FILE__,	\
	     __LINE__);						\
	if (_fw >= 0 && _c >= 0)					\
		expect_twin_fds(_fw, _c);				\
	if (_c >= 0)							\
		close(_c);						\
	if (_fw >= 0)							\
		close(_fw);						\
} while (0)

TEST_IN_TMP(open)
{
	char data[32], longname[300];
	int low;
	long w, c;

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
}

TEST_IN_TMP(openat)
{
	int dir, sub, fa, low;
	char abs[128];
	long w, c;

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
}

TEST(close)
{
	int p[2], q[2], fd, low;
	char c;

	twin_pipes(p, q, O_CLOEXEC);

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

TEST_IN_TMP(lseek)
{
	static const struct { off_t off; int whence; } seq[] = {
		{ 10, SEEK_SET }, { 5, SEEK_CUR }, { -3, SEEK_CUR },
		{ -4, SEEK_END }, { 1000, SEEK_SET }, { 0, SEEK_END },
		{ 0, SEEK_DATA }, { 0, SEEK_HOLE }, { 0, SEEK_SET },
	};
	char data[100], cw, cc;
	int fa, fb, p[2];
	unsigned int i;

	fill(data, sizeof(data), 8);
	twin_files(data, sizeof(data), O_RDONLY, &fa, &fb);

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

TEST_IN_TMP(fstat)
{
	int fa, dir, p[2], sv[2], null;
	struct stat st;

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

TEST_IN_TMP(newfstatat)
{
	int fa, dir;
	struct stat st;

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

TEST_IN_TMP(statx)
{
	unsigned int basic = STATX_BASIC_STATS | STATX_BTIME;
	struct statx stx;
	int fa;

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
}

TEST_IN_TMP(access)
{
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
}

TEST_IN_TMP(faccessat)
{
	int dir, fa;

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
}

/* A duplicate shares the open file: moving one offset moves the other. */
static void expect_shared(int fd, int dupfd)
{
	EXPECT_EQ(lseek(dupfd, 7, SEEK_SET), 7);
	EXPECT_EQ(pos(fd), 7);
	lseek(fd, 0, SEEK_SET);
}

TEST_IN_TMP(dup)
{
	int fa, low;
	long w, c;

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
}

TEST_IN_TMP(dup2)
{
	struct stat sa, st;
	int fa, fb;

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
}

TEST_IN_TMP(dup3)
{
	int fa;

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
}

TEST_IN_TMP(fcntl)
{
	struct flock lw, lc, lk = {
		.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0,
		.l_len = 10,
	};
	struct rlimit rl;
	int fa, fb, fa2, fb2, ro, pa[2], pb[2];
	long w, c;

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
	twin_pipes(pa, pb, O_CLOEXEC);
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
}

struct dent {
	uint64_t ino;
	unsigned char type;
	char name[64];
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

TEST_IN_TMP(getdents64)
{
	struct dent dw[64], dc[64];
	long rw[64], rc[64];
	int dir, fa, gone, nw, nc, nrw, nrc, i;
	char name[16], buf[256];

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
}

/* fsync and fdatasync: 0 on a file whose data stays; EINVAL on a pipe. */
static void sync_test(uint32_t nr)
{
	char data[64];
	int fa, fb, p[2], sv[2];

	fill(data, sizeof(data), 9);
	twin_files(NULL, 0, O_RDWR | O_CREAT, &fa, &fb);
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
}

TEST_IN_TMP(fsync)
{
	sync_test(__NR_fsync);
}

TEST_IN_TMP(fdatasync)
{
	sync_test(__NR_fdatasync);
}

TEST_IN_TMP(unlink)
{
	struct stat sw, sc;
	int fa, fb;

	twin_files("x", 1, O_RDONLY, &fa, &fb);
	ASSERT_EQ(mkdir("d", 0755), 0);

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
}

TEST_IN_TMP(unlinkat)
{
	int dir, fa;

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
}

TEST_IN_TMP(mkdir)
{
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
}

TEST_IN_TMP(mkdirat)
{
	int dir, fa;

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

TEST_IN_TMP(rename)
{
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
}

TEST_IN_TMP(renameat)
{
	int src, dst, fa;

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
}


TEST_HARNESS_MAIN
