// SPDX-License-Identifier: GPL-2.0
/*
 * t_calls_userdata: the user data group (read, write, pread64, pwrite64,
 * readv, writev) wrapped through /dev/wsc and conventionally, on twin
 * files and pipes: the same count or errno, the same bytes moved, the
 * same offsets.  The twin-call machinery is in twin.h.
 */
#include <limits.h>
#include <sys/eventfd.h>
#include <sys/uio.h>

#include "twin.h"

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

TEST_IN_TMP(read)
{
	char data[100], buf[16];
	int fa, fb, pa[2], pb[2], dir, wo, opath, ev;

	fill(data, sizeof(data), 1);
	twin_files(data, sizeof(data), O_RDONLY, &fa, &fb);

	/* A full read, a short one at the end of the file, then EOF. */
	EXPECT_EQ(read_twin(fa, fb, 40, data), 40);
	lseek(fa, 90, SEEK_SET);
	lseek(fb, 90, SEEK_SET);
	EXPECT_EQ(read_twin(fa, fb, 64, data + 90), 10);
	EXPECT_EQ(read_twin(fa, fb, 64, NULL), 0);

	/* A pipe gives what it holds, then EAGAIN (non-blocking), then EOF. */
	twin_pipes(pa, pb, O_NONBLOCK | O_CLOEXEC);
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
}

/* write(2) on twin descriptors: count and offset must agree. */
static long write_twin(int fw, int fc, const void *data, size_t len)
{
	long c = TWIN(ANY, __NR_write, fw, fc, data, len);

	EXPECT_EQ(pos(fw), pos(fc));
	return c;
}

TEST_IN_TMP(write)
{
	char data[100], want[104], buf[128];
	int fa, fb, fa2, fb2, pa[2], pb[2], p[2], ro, i;

	fill(data, sizeof(data), 2);
	twin_files(NULL, 0, O_RDWR | O_CREAT, &fa, &fb);

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
	twin_files(NULL, 0, O_WRONLY | O_APPEND, &fa2, &fb2);
	EXPECT_EQ(write_twin(fa2, fb2, "tail", 4), 4);
	memcpy(want + 60, "tail", 4);
	expect_file("a", want, 64);
	expect_same_file("a", "b");

	/* A pipe: the bytes come out of the other end. */
	twin_pipes(pa, pb, O_CLOEXEC);
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

TEST_IN_TMP(pread64)
{
	char data[100], buf[16];
	int fa, fb, p[2], dir;

	fill(data, sizeof(data), 3);
	twin_files(data, sizeof(data), O_RDONLY, &fa, &fb);

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
}

TEST_IN_TMP(pwrite64)
{
	char data[100];
	struct stat sa;
	int fa, fb, fa2, fb2, p[2], ro;

	fill(data, sizeof(data), 4);
	twin_files(NULL, 0, O_RDWR | O_CREAT, &fa, &fb);

	/* Past the end leaves a hole; then into the middle; offsets stay. */
	EXPECT_EQ(TWIN(10, __NR_pwrite64, fa, fb, data, 10, 1000), 10);
	EXPECT_EQ(TWIN(5, __NR_pwrite64, fa, fb, data + 50, 5, 3), 5);
	EXPECT_EQ(pos(fa), 0);
	EXPECT_EQ(pos(fb), 0);
	ASSERT_EQ(fstat(fa, &sa), 0);
	EXPECT_EQ(sa.st_size, 1010);
	expect_same_file("a", "b");

	/* With O_APPEND, Linux appends whatever the offset asked. */
	twin_files(NULL, 0, O_WRONLY | O_APPEND, &fa2, &fb2);
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
}

TEST_IN_TMP(readv)
{
	char data[100], w1[10], w2[25], c1[10], c2[25];
	struct iovec iw[3] = { { w1, 10 }, { NULL, 0 }, { w2, 25 } };
	struct iovec ic[3] = { { c1, 10 }, { NULL, 0 }, { c2, 25 } };
	struct iovec bad = { BADPTR, 10 };
	int fa, fb, pa[2], pb[2], dir;

	fill(data, sizeof(data), 5);
	twin_files(data, sizeof(data), O_RDONLY, &fa, &fb);

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
	twin_pipes(pa, pb, O_CLOEXEC);
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
}

TEST_IN_TMP(writev)
{
	char data[100], buf[64];
	struct iovec iov[3] = { { data, 7 }, { NULL, 0 }, { data + 40, 20 } };
	struct iovec bad = { BADPTR, 10 };
	struct iovec huge = { data, SIZE_MAX };
	int fa, fb, pa[2], pb[2], ro;

	fill(data, sizeof(data), 6);
	twin_files(NULL, 0, O_RDWR | O_CREAT, &fa, &fb);

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

	twin_pipes(pa, pb, O_CLOEXEC);
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
}


TEST_HARNESS_MAIN
