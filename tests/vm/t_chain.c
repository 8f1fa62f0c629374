// SPDX-License-Identifier: GPL-2.0
/*
 * Chains and references in the real module: a failure cancels what
 * follows, the ignore flag and new chains, results feeding later calls,
 * the whole cp transaction in one entry, and timing.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "libwsc.h"
#include "util.h"

TEST(nop_returns_its_value)
{
	struct wsc_entry ent[3] = { NOP(0), NOP(42), NOP(-1) };
	struct wsc_result res[3];
	int fd = wsc_test_open();

	/* The third is a failure, but nothing follows it. */
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 3);
	EXPECT_EQ(res[0].ret, 0);
	EXPECT_EQ(res[1].ret, 42);
	EXPECT_EQ(res[2].ret, -1);
	EXPECT_EQ(res[0].duration_ns, 0);
}

TEST(failure_cancels_the_rest_of_the_chain)
{
	struct wsc_entry ent[4] = {
		ENT0(SYS_getpid), NOP(-EBADF), ENT0(SYS_getpid), NOP(7),
	};
	struct wsc_result res[4];
	int fd = wsc_test_open();

	ASSERT_EQ(wsc_test_submit(fd, ent, res, 4, 0, NULL), 4);
	EXPECT_EQ(res[0].ret, getpid());
	EXPECT_EQ(res[1].ret, -EBADF);
	EXPECT_EQ(res[2].ret, -ECANCELED);
	EXPECT_EQ(res[3].ret, -ECANCELED);
}

TEST(real_failure_cancels_the_rest)
{
	struct wsc_entry ent[3] = {
		ENT1(SYS_close, 9999), ENT0(SYS_getpid), ENT0(SYS_gettid),
	};
	struct wsc_result res[3];
	int fd = wsc_test_open();

	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 3);
	EXPECT_EQ(res[0].ret, -EBADF);
	EXPECT_EQ(res[1].ret, -ECANCELED);
	EXPECT_EQ(res[2].ret, -ECANCELED);
}

TEST(ignore_failure_keeps_the_chain_going)
{
	struct wsc_entry ent[3] = {
		ENT1(SYS_close, 9999), ENT0(SYS_getpid), NOP(-ENOENT),
	};
	struct wsc_result res[3];
	int fd = wsc_test_open();

	ent[0].flags = WSC_ENTRY_IGNORE_FAILURE;
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 3);
	EXPECT_EQ(res[0].ret, -EBADF);
	EXPECT_EQ(res[1].ret, getpid());
	EXPECT_EQ(res[2].ret, -ENOENT);
}

TEST(new_chain_starts_after_a_failure)
{
	struct wsc_entry ent[5] = {
		NOP(-EIO), NOP(1), NOP(2), NOP(3), NOP(-EAGAIN),
	};
	struct wsc_result res[5];
	int fd = wsc_test_open();

	ent[2].flags = WSC_ENTRY_NEW_CHAIN;
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 5, 0, NULL), 5);
	EXPECT_EQ(res[0].ret, -EIO);
	EXPECT_EQ(res[1].ret, -ECANCELED);
	EXPECT_EQ(res[2].ret, 2);
	EXPECT_EQ(res[3].ret, 3);
	EXPECT_EQ(res[4].ret, -EAGAIN);
}

TEST(reference_passes_a_result_on)
{
	struct wsc_entry ent[3] = { NOP(5), NOP(0), ENT2(WSC_NR_NOP, 0, 0) };
	struct wsc_result res[3];
	int fd = wsc_test_open();

	/* Entry 1 returns entry 0's result; entry 2 returns entry 1's. */
	ent[1].ref_mask = 1;
	ent[1].args[0] = 0;
	ent[2].ref_mask = 1;
	ent[2].args[0] = 1;
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 3);
	EXPECT_EQ(res[1].ret, 5);
	EXPECT_EQ(res[2].ret, 5);
}

TEST(reference_to_a_failed_entry_is_cancelled)
{
	struct wsc_entry ent[3] = {
		ENT3(SYS_openat, AT_FDCWD, "/nonexistent/wsc", O_RDONLY),
		ENT1(SYS_close, 0), NOP(9),
	};
	struct wsc_result res[3];
	int fd = wsc_test_open();

	ent[0].flags = WSC_ENTRY_IGNORE_FAILURE;
	ent[1].ref_mask = 1;
	ent[1].args[0] = 0;
	ent[1].flags = WSC_ENTRY_IGNORE_FAILURE;
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 3);
	EXPECT_EQ(res[0].ret, -ENOENT);
	/* close(-ENOENT) never ran: the errno is not a descriptor. */
	EXPECT_EQ(res[1].ret, -ECANCELED);
	EXPECT_EQ(res[2].ret, 9);
}

static void make_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static void expect_file(const char *path, const char *data, size_t len)
{
	char buf[8192];
	int fd = open(path, O_RDONLY);

	ASSERT_GE(fd, 0);
	ASSERT_LE(len, sizeof(buf));
	EXPECT_EQ(read(fd, buf, sizeof(buf)), (ssize_t)len);
	EXPECT_EQ(memcmp(buf, data, len), 0);
	close(fd);
}

static void fill(char *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (char)(seed * 131 + i * 7 + (i >> 8));
}

/* open, open, read, write(count = read's result), close, close. */
TEST(cp_transaction_in_one_entry)
{
	char dir[] = "/tmp/wsc-cp-XXXXXX", src[64], dst[64], data[4096], buf[8192];
	struct wsc_entry ent[6];
	struct wsc_result res[6];
	int fd = wsc_test_open(), i;

	ASSERT_TRUE(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/src", dir);
	snprintf(dst, sizeof(dst), "%s/dst", dir);
	fill(data, sizeof(data) - 5, 1);
	make_file(src, data, sizeof(data) - 5);

	ent[0] = ENT4(SYS_openat, AT_FDCWD, src, O_RDONLY, 0);
	ent[1] = ENT4(SYS_openat, AT_FDCWD, dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ent[2] = ENT3(SYS_read, 0, buf, sizeof(buf));
	ent[2].ref_mask = 1 << 0;		/* fd = entry 0 */
	ent[3] = ENT3(SYS_write, 1, buf, 2);
	ent[3].ref_mask = 1 << 0 | 1 << 2;	/* fd = entry 1, count = entry 2 */
	ent[4] = ENT1(SYS_close, 0);
	ent[4].ref_mask = 1;
	ent[5] = ENT1(SYS_close, 1);
	ent[5].ref_mask = 1;

	ASSERT_EQ(wsc_test_submit(fd, ent, res, 6, 0, NULL), 6);
	EXPECT_GE(res[0].ret, 0);
	EXPECT_GE(res[1].ret, 0);
	EXPECT_EQ(res[2].ret, sizeof(data) - 5);
	EXPECT_EQ(res[3].ret, sizeof(data) - 5);
	for (i = 4; i < 6; i++)
		EXPECT_EQ(res[i].ret, 0);
	expect_file(dst, data, sizeof(data) - 5);
	/* Both descriptors were closed inside the batch. */
	EXPECT_EQ(fcntl((int)res[0].ret, F_GETFD), -1);
}

/* The same through libwsc, many transactions, cut by collect mode. */
static void cp_with_libwsc(unsigned int flags, unsigned int threshold,
			   bool expect_native)
{
	enum { N = 10, SIZE = 3000 };
	char dir[] = "/tmp/wsc-lib-XXXXXX", src[N][64], dst[N][64];
	static char data[N][SIZE], buf[N][SIZE];
	struct wsc_batch *b;
	int i, s, d, rd, wr;

	ASSERT_TRUE(mkdtemp(dir));
	ASSERT_EQ(wsc_batch_create(&b, flags), 0);
	ASSERT_EQ(wsc_batch_is_native(b), expect_native);
	ASSERT_EQ(wsc_batch_set_threshold(b, threshold), 0);
	for (i = 0; i < N; i++) {
		snprintf(src[i], sizeof(src[i]), "%s/s%d", dir, i);
		snprintf(dst[i], sizeof(dst[i]), "%s/d%d", dir, i);
		fill(data[i], SIZE - i, i);
		make_file(src[i], data[i], SIZE - i);

		s = wsc_prep_openat(b, AT_FDCWD, src[i], O_RDONLY, 0);
		ASSERT_GE(s, 0);
		ASSERT_EQ(wsc_entry_set_flags(b, s, WSC_ENTRY_NEW_CHAIN), 0);
		d = wsc_prep_openat(b, AT_FDCWD, dst[i], O_WRONLY | O_CREAT, 0600);
		rd = wsc_prep_read(b, -1, buf[i], SIZE);
		ASSERT_EQ(wsc_entry_ref(b, rd, 0, s), 0);
		wr = wsc_prep_write(b, -1, buf[i], 0);
		ASSERT_EQ(wsc_entry_ref(b, wr, 0, d), 0);
		ASSERT_EQ(wsc_entry_ref(b, wr, 2, rd), 0);
		ASSERT_EQ(wsc_entry_ref(b, wsc_prep_close(b, -1), 0, s), 0);
		ASSERT_EQ(wsc_entry_ref(b, wsc_prep_close(b, -1), 0, d), 0);
		ASSERT_EQ(wr, 6 * i + 3);
	}
	ASSERT_GE(wsc_batch_submit(b), 0);
	ASSERT_EQ(wsc_batch_completed(b), 6 * N);
	for (i = 0; i < N; i++) {
		EXPECT_EQ(wsc_batch_result(b, 6 * i + 3), SIZE - i);
		expect_file(dst[i], data[i], SIZE - i);
	}
	if (!expect_native) {
		/* Each call its own system call, none through /dev/wsc. */
		EXPECT_EQ(wsc_batch_kernel_entries(b), 0);
		EXPECT_EQ(wsc_batch_conventional_calls(b), 6 * N);
	} else if (threshold) {
		EXPECT_GE(wsc_batch_kernel_entries(b), 6 * N / threshold);
	} else {
		EXPECT_EQ(wsc_batch_kernel_entries(b), 1);
	}
	wsc_batch_destroy(b);
}

TEST(libwsc_cp_one_submission)
{
	cp_with_libwsc(0, 0, true);
}

TEST(libwsc_cp_collect_threshold_8)
{
	cp_with_libwsc(0, 8, true);
}

TEST(libwsc_cp_collect_threshold_not_dividing)
{
	cp_with_libwsc(0, 7, true);
}

TEST(libwsc_cp_conventional_same_results)
{
	cp_with_libwsc(WSC_BATCH_CONVENTIONAL, 5, false);
}

TEST(libwsc_chain_stops_across_submissions)
{
	struct wsc_batch *b;
	int i;

	/* Threshold 2: the failure and what it cancels land in different
	 * submissions, and the outcome must not change. */
	ASSERT_EQ(wsc_batch_create(&b, 0), 0);
	ASSERT_EQ(wsc_batch_set_threshold(b, 2), 0);
	ASSERT_EQ(wsc_prep_getpid(b), 0);
	ASSERT_EQ(wsc_prep_nop(b, -EPIPE), 1);
	ASSERT_EQ(wsc_prep_getpid(b), 2);
	ASSERT_EQ(wsc_entry_set_flags(b, 2, WSC_ENTRY_IGNORE_FAILURE), 0);
	ASSERT_EQ(wsc_prep_getpid(b), 3);
	ASSERT_EQ(wsc_prep_getpid(b), 4);
	ASSERT_EQ(wsc_entry_set_flags(b, 4, WSC_ENTRY_NEW_CHAIN), 0);
	ASSERT_EQ(wsc_batch_submit(b), 1);
	EXPECT_EQ(wsc_batch_result(b, 0), getpid());
	EXPECT_EQ(wsc_batch_result(b, 1), -EPIPE);
	for (i = 2; i < 4; i++)
		EXPECT_EQ(wsc_batch_result(b, i), -ECANCELED);
	EXPECT_EQ(wsc_batch_result(b, 4), getpid());
	EXPECT_EQ(wsc_batch_kernel_entries(b), 3);
	wsc_batch_destroy(b);
}

TEST(timing_fills_durations)
{
	struct wsc_entry ent[4] = {
		ENT0(SYS_getpid), ENT0(SYS_getppid), ENT0(SYS_gettid), NOP(0),
	};
	struct wsc_result res[4];
	int fd = wsc_test_open(), i;

	ASSERT_EQ(wsc_test_submit(fd, ent, res, 4, WSC_SUBMIT_TIMING, NULL), 4);
	for (i = 0; i < 3; i++)
		EXPECT_GT(res[i].duration_ns, 0);
	/* The no-op runs no handler: there is nothing to time. */
	EXPECT_EQ(res[3].duration_ns, 0);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 4, 0, NULL), 4);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(res[i].duration_ns, 0);
}

TEST(largest_batch_runs_whole)
{
	static struct wsc_entry ent[WSC_MAX_ENTRIES];
	static struct wsc_result res[WSC_MAX_ENTRIES];
	int fd = wsc_test_open(), i;

	for (i = 0; i < WSC_MAX_ENTRIES; i++)
		ent[i] = i % 2 ? ENT0(SYS_gettid) : NOP(i);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, WSC_MAX_ENTRIES, 0, NULL),
		  WSC_MAX_ENTRIES);
	for (i = 0; i < WSC_MAX_ENTRIES; i++)
		ASSERT_EQ(res[i].ret, i % 2 ? gettid() : i);
}

TEST_HARNESS_MAIN
