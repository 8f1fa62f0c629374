// SPDX-License-Identifier: GPL-2.0
/*
 * WSC_BATCH_BREAK_EVEN with the real module and a calibration file
 * (written beside this program, named by $WSC_CALIBRATION): a batch
 * below the break-even runs plain, one at or above it through /dev/wsc,
 * the module's own count of batches agreeing with libwsc's; references
 * resolve either way; without a calibration the flag changes nothing.
 * Each test runs in its own child, so each reads the file anew.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "harness.h"
#include "libwsc.h"
#include "util.h"

/* The calibration's break-even: batches of 1 to 4 entries run plain. */
#define BREAK_EVEN	5

/* Point $WSC_CALIBRATION at a file beside this program, holding @text. */
static void use_calibration(const char *name, const char *text)
{
	char path[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	ASSERT_GT(n, 0);
	path[n] = '\0';
	slash = strrchr(path, '/');
	ASSERT_TRUE(slash != NULL);
	snprintf(slash + 1, sizeof(path) - (size_t)(slash + 1 - path), "%s", name);
	unlink(path);
	if (text) {
		FILE *f = fopen(path, "we");

		ASSERT_TRUE(f != NULL);
		ASSERT_GE(fputs(text, f), 0);
		ASSERT_EQ(fclose(f), 0);
	}
	ASSERT_EQ(setenv("WSC_CALIBRATION", path, 1), 0);
}

/* The module's count of batches run (/proc/syscall_lat's header). */
static unsigned long long module_batches(void)
{
	unsigned long long batches = 0;
	char line[256];
	FILE *f = fopen("/proc/syscall_lat", "re");

	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "# wsc: %llu batches", &batches) == 1)
			break;
	fclose(f);
	return batches;
}

/* @n getppid() calls in one submission: the plain calls libwsc made. */
static void submit_getppids(struct wsc_batch *b, unsigned int n)
{
	unsigned int i;
	int e = -1;

	for (i = 0; i < n; i++)
		e = wsc_prep_getppid(b);
	ASSERT_EQ(wsc_batch_submit(b), n);
	EXPECT_EQ(wsc_batch_result(b, (unsigned int)e), getppid());
}

TEST(calibrated_break_even_is_read)
{
	use_calibration("t_break_even.conf",
			"# wsc calibration\nversion=1\nkernel=any\n"
			"entry_ns=900.0\nbatch_fixed_ns=3000.0\n"
			"batch_per_call_ns=100.0\nbreak_even=5 # test\n");
	EXPECT_EQ(wsc_break_even(), BREAK_EVEN);
}

TEST(below_plain_at_and_above_wrapped)
{
	unsigned long long before, after;
	struct wsc_batch *b;

	use_calibration("t_break_even.conf", "version=1\nbreak_even=5\n");
	ASSERT_EQ(wsc_batch_create(&b, WSC_BATCH_BREAK_EVEN), 0);
	ASSERT_TRUE(wsc_batch_is_native(b));
	before = module_batches();
	submit_getppids(b, BREAK_EVEN - 1);
	EXPECT_EQ(wsc_batch_kernel_entries(b), 0);
	EXPECT_EQ(wsc_batch_conventional_calls(b), BREAK_EVEN - 1);
	EXPECT_EQ(module_batches(), before);

	submit_getppids(b, BREAK_EVEN);
	submit_getppids(b, 64);
	after = module_batches();
	EXPECT_EQ(wsc_batch_kernel_entries(b), 2);
	EXPECT_EQ(wsc_batch_conventional_calls(b), BREAK_EVEN - 1);
	EXPECT_EQ(after - before, 2);
	wsc_batch_destroy(b);
}

/* A file read whole by openat, read, close: plain, references resolved. */
TEST(references_resolve_when_plain)
{
	struct wsc_batch *b;
	char buf[64] = "";
	int op, rd, cl;

	use_calibration("t_break_even.conf", "version=1\nbreak_even=5\n");
	ASSERT_EQ(wsc_batch_create(&b, WSC_BATCH_BREAK_EVEN), 0);
	op = wsc_prep_openat(b, AT_FDCWD, "/proc/self/comm", O_RDONLY, 0);
	rd = wsc_prep_read(b, -1, buf, sizeof(buf) - 1);
	cl = wsc_prep_close(b, -1);
	ASSERT_EQ(wsc_entry_ref(b, rd, 0, op), 0);
	ASSERT_EQ(wsc_entry_ref(b, cl, 0, op), 0);
	ASSERT_EQ(wsc_batch_submit(b), 3);
	EXPECT_EQ(wsc_batch_kernel_entries(b), 0);
	EXPECT_EQ(wsc_batch_conventional_calls(b), 3);
	EXPECT_GE(wsc_batch_result(b, op), 0);
	EXPECT_EQ(wsc_batch_result(b, rd), (int64_t)strlen("t_break_even\n"));
	EXPECT_EQ(strcmp(buf, "t_break_even\n"), 0);
	EXPECT_EQ(wsc_batch_result(b, cl), 0);
	wsc_batch_destroy(b);
}

TEST(collect_mode_decides_per_flush)
{
	struct wsc_batch *b;
	unsigned int i;

	use_calibration("t_break_even.conf", "version=1\nbreak_even=5\n");
	ASSERT_EQ(wsc_batch_create(&b, WSC_BATCH_BREAK_EVEN |
				       WSC_BATCH_COLLECT), 0);
	/* Eight flushed when the ninth comes: wrapped; the last three plain. */
	for (i = 0; i < 11; i++)
		ASSERT_GE(wsc_prep_gettid(b), 0);
	EXPECT_EQ(wsc_batch_kernel_entries(b), 1);
	ASSERT_EQ(wsc_batch_submit(b), 3);
	EXPECT_EQ(wsc_batch_kernel_entries(b), 1);
	EXPECT_EQ(wsc_batch_conventional_calls(b), 3);
	EXPECT_EQ(wsc_batch_result(b, 10), gettid());
	wsc_batch_destroy(b);
}

TEST(without_calibration_nothing_changes)
{
	struct wsc_batch *b;

	use_calibration("t_break_even.none", NULL);
	EXPECT_EQ(wsc_break_even(), 0);
	ASSERT_EQ(wsc_batch_create(&b, WSC_BATCH_BREAK_EVEN), 0);
	submit_getppids(b, 1);
	EXPECT_EQ(wsc_batch_kernel_entries(b), 1);
	EXPECT_EQ(wsc_batch_conventional_calls(b), 0);
	wsc_batch_destroy(b);
}

TEST(a_calibration_of_another_version_is_none)
{
	struct wsc_batch *b;

	use_calibration("t_break_even.conf", "version=2\nbreak_even=5\n");
	EXPECT_EQ(wsc_break_even(), 0);
	ASSERT_EQ(wsc_batch_create(&b, WSC_BATCH_BREAK_EVEN), 0);
	EXPECT_EQ(wsc_batch_set_break_even(b, 3), 0);
	submit_getppids(b, 2);
	submit_getppids(b, 3);
	EXPECT_EQ(wsc_batch_kernel_entries(b), 1);
	EXPECT_EQ(wsc_batch_conventional_calls(b), 2);
	wsc_batch_destroy(b);
}

TEST_HARNESS_MAIN
