// SPDX-License-Identifier: MIT
/*
 * The calibration file as libwsc reads it (user/lib/calibration.c), and
 * WSC_BATCH_BREAK_EVEN: which submissions run plain and which go to the
 * runner that stands for /dev/wsc.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <cmocka.h>

#include "calibration.h"

/* The file as `wsc trace --advise` writes it (the issue 33 contract). */
#define GOOD_FILE \
	"# wsc calibration: what one kernel entry costs on this machine\n" \
	"version=1\n" \
	"kernel=6.1.0-56-amd64           # uname -r\n" \
	"machine=0123456789abcdef\n" \
	"module=1.0.0\n" \
	"date=2026-11-27T12:34:56Z\n" \
	"rounds=5\n" \
	"entry_ns=812.4\n" \
	"batch_fixed_ns=1450.0\n" \
	"batch_per_call_ns=95.2\n" \
	"break_even=3                    # smallest n that pays\n"

struct parse_case {
	const char *name;
	const char *text;
	int ret;		/* wsc_calibration_parse()'s */
	unsigned int break_even;	/* when ret is 0 */
};

static const struct parse_case parse_cases[] = {
	{ "the contract's file", GOOD_FILE, 0, 3 },
	{ "the least file", "version=1\nbreak_even=7\n", 0, 7 },
	{ "no last newline", "version=1\nbreak_even=7", 0, 7 },
	{ "blanks and CRLF", "  version = 1 \r\n\n\t# note\nbreak_even =\t12\r\n", 0, 12 },
	{ "unknown keys ignored", "version=1\nfuture=x=y\nbreak_even=2\n", 0, 2 },
	{ "none pays", "version=1\nbreak_even=0\n", 0, 0 },
	{ "the largest", "version=1\nbreak_even=1024\n", 0, 1024 },
	{ "the last value counts", "version=1\nbreak_even=2\nbreak_even=5\n", 0, 5 },
	{ "empty", "", -EINVAL, 0 },
	{ "no version", "break_even=3\n", -EINVAL, 0 },
	{ "another version", "version=2\nbreak_even=3\n", -EINVAL, 0 },
	{ "no break_even", "version=1\nentry_ns=800\n", -EINVAL, 0 },
	{ "over the batch limit", "version=1\nbreak_even=1025\n", -EINVAL, 0 },
	{ "negative", "version=1\nbreak_even=-1\n", -EINVAL, 0 },
	{ "a fraction", "version=1\nbreak_even=2.5\n", -EINVAL, 0 },
	{ "empty value", "version=1\nbreak_even=\n", -EINVAL, 0 },
	{ "trailing word", "version=1\nbreak_even=3 calls\n", -EINVAL, 0 },
	{ "huge", "version=1\nbreak_even=99999999999999999999\n", -EINVAL, 0 },
	{ "a line without =", "version=1\nbreak_even=3\ngarbage\n", -EINVAL, 0 },
	{ "commented out", "version=1\n#break_even=3\n", -EINVAL, 0 },
};

static void test_parse_cases(void **state)
{
	const struct parse_case *c;
	struct wsc_calibration cal;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		c = &parse_cases[i];
		print_message("  %s\n", c->name);
		assert_int_equal(wsc_calibration_parse(c->text, &cal), c->ret);
		if (!c->ret)
			assert_int_equal(cal.break_even, c->break_even);
	}
}

/* A file in a fresh folder under /tmp; the folder's name in @dir. */
static void write_file(char *dir, size_t len, const char *name,
		       const char *text, char *path, size_t plen)
{
	FILE *f;

	if (!dir[0]) {
		snprintf(dir, len, "/tmp/wsc-cal-XXXXXX");
		assert_non_null(mkdtemp(dir));
	}
	snprintf(path, plen, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static void test_load_reads_the_file(void **state)
{
	char dir[64] = "", path[PATH_MAX];
	struct wsc_calibration cal;
	char *big;

	(void)state;
	write_file(dir, sizeof(dir), "good.conf", GOOD_FILE, path, sizeof(path));
	assert_int_equal(wsc_calibration_load(path, &cal), 0);
	assert_int_equal(cal.break_even, 3);
	unlink(path);
	assert_int_equal(wsc_calibration_load(path, &cal), -ENOENT);

	/* Far longer than a calibration: refused, not half read. */
	big = malloc(40000);
	assert_non_null(big);
	memset(big, '#', 39999);
	big[39999] = '\0';
	write_file(dir, sizeof(dir), "big.conf", big, path, sizeof(path));
	free(big);
	assert_int_equal(wsc_calibration_load(path, &cal), -EFBIG);
	unlink(path);
	rmdir(dir);
}

static void test_path_follows_the_environment(void **state)
{
	char path[PATH_MAX], want[PATH_MAX];
	struct utsname u;

	(void)state;
	assert_int_equal(uname(&u), 0);
	setenv("WSC_CALIBRATION", "/some/where.conf", 1);
	assert_int_equal(wsc_calibration_path(path, sizeof(path)), 0);
	assert_string_equal(path, "/some/where.conf");
	assert_int_equal(wsc_calibration_path(path, 8), -ENAMETOOLONG);
	unsetenv("WSC_CALIBRATION");

	/* The user's cache, unless the system's folder takes it. */
	if (access(WSC_CALIBRATION_SYSTEM_DIR, W_OK) == 0)
		skip();
	snprintf(want, sizeof(want), "%s/calibration/%s.conf",
		 WSC_CALIBRATION_SYSTEM_DIR, u.release);
	if (access(want, F_OK) == 0)
		skip();
	setenv("XDG_CACHE_HOME", "/cache", 1);
	assert_int_equal(wsc_calibration_path(path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "/cache/wsc/calibration/%s.conf", u.release);
	assert_string_equal(path, want);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/home/someone", 1);
	assert_int_equal(wsc_calibration_path(path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "/home/someone/.cache/wsc/calibration/%s.conf",
		 u.release);
	assert_string_equal(path, want);
	unsetenv("HOME");
	assert_int_equal(wsc_calibration_path(path, sizeof(path)), -ENOENT);
}

/* Read once per process: a later change of the file is not seen. */
static void test_break_even_is_read_once(void **state)
{
	char dir[64] = "", path[PATH_MAX];

	(void)state;
	write_file(dir, sizeof(dir), "cal.conf", "version=1\nbreak_even=4\n",
		   path, sizeof(path));
	setenv("WSC_CALIBRATION", path, 1);
	assert_int_equal(wsc_break_even(), 4);
	write_file(dir, sizeof(dir), "cal.conf", "version=1\nbreak_even=9\n",
		   path, sizeof(path));
	assert_int_equal(wsc_break_even(), 4);
	unsetenv("WSC_CALIBRATION");
	unlink(path);
	rmdir(dir);
}

/* A stand-in for /dev/wsc that counts the submissions it is given. */
struct counted {
	unsigned int submissions;
	unsigned int entries;
};

static int counted_run(void *ctx, const struct wsc_entry *ent,
		       struct wsc_result *res, uint32_t count, uint32_t flags,
		       uint32_t *error_index)
{
	struct counted *c = ctx;

	c->submissions++;
	c->entries += count;
	return wsc_run_conventional(NULL, ent, res, count, flags, error_index);
}

static struct wsc_batch *flagged_batch(struct counted *c, unsigned int flags)
{
	struct wsc_batch *b;

	memset(c, 0, sizeof(*c));
	assert_int_equal(wsc_batch_create(&b, WSC_BATCH_CONVENTIONAL | flags), 0);
	wsc_batch_set_runner(b, counted_run, c, 16);
	return b;
}

/* @n no-ops, each referring to the one before, submitted. */
static void submit_chain(struct wsc_batch *b, unsigned int n)
{
	unsigned int first = wsc_batch_count(b), i;

	assert_int_equal(wsc_prep_nop(b, 41), first);
	for (i = 1; i < n; i++) {
		assert_int_equal(wsc_prep_nop(b, 0), first + i);
		assert_int_equal(wsc_entry_ref(b, first + i, 0, first + i - 1), 0);
	}
	assert_int_equal(wsc_batch_submit(b), n);
	for (i = 0; i < n; i++)
		assert_int_equal(wsc_batch_result(b, first + i), 41);
}

static void test_below_break_even_runs_plain(void **state)
{
	struct wsc_batch *b;
	struct counted c;

	(void)state;
	b = flagged_batch(&c, WSC_BATCH_BREAK_EVEN);
	assert_int_equal(wsc_batch_set_break_even(b, 3), 0);
	submit_chain(b, 2);
	assert_int_equal(c.submissions, 0);
	assert_int_equal(wsc_batch_kernel_entries(b), 0);
	assert_int_equal(wsc_batch_conventional_calls(b), 2);
	/* At the break-even: wrapped, its reference to entry 1 resolved. */
	submit_chain(b, 3);
	assert_int_equal(c.submissions, 1);
	assert_int_equal(c.entries, 3);
	assert_int_equal(wsc_batch_kernel_entries(b), 1);
	assert_int_equal(wsc_batch_conventional_calls(b), 2);
	/* A reference into an earlier, plain submission. */
	assert_int_equal(wsc_prep_nop(b, 0), 5);
	assert_int_equal(wsc_entry_ref(b, 5, 0, 1), 0);
	assert_int_equal(wsc_batch_submit(b), 1);
	assert_int_equal(wsc_batch_result(b, 5), 41);
	assert_int_equal(wsc_batch_conventional_calls(b), 3);
	wsc_batch_destroy(b);
}

static void test_break_even_zero_and_never(void **state)
{
	struct wsc_batch *b;
	struct counted c;

	(void)state;
	b = flagged_batch(&c, WSC_BATCH_BREAK_EVEN);
	assert_int_equal(wsc_batch_set_break_even(b, 0), 0);
	submit_chain(b, 1);
	assert_int_equal(c.submissions, 1);
	assert_int_equal(wsc_batch_set_break_even(b, WSC_BREAK_EVEN_NEVER), 0);
	/* Larger than one submission may be: every part plain. */
	submit_chain(b, 40);
	assert_int_equal(c.submissions, 1);
	assert_int_equal(wsc_batch_conventional_calls(b), 40);
	wsc_batch_destroy(b);
}

/* The whole submission decides, not the parts the limit cuts it into. */
static void test_break_even_counts_the_whole_submission(void **state)
{
	struct wsc_batch *b;
	struct counted c;

	(void)state;
	b = flagged_batch(&c, WSC_BATCH_BREAK_EVEN);
	assert_int_equal(wsc_batch_set_break_even(b, 10), 0);
	submit_chain(b, 18);	/* 16 + 2 */
	assert_int_equal(c.submissions, 2);
	assert_int_equal(c.entries, 18);
	assert_int_equal(wsc_batch_conventional_calls(b), 0);
	wsc_batch_destroy(b);
}

static void test_break_even_per_collect_flush(void **state)
{
	struct wsc_batch *b;
	struct counted c;
	unsigned int i;

	(void)state;
	b = flagged_batch(&c, WSC_BATCH_BREAK_EVEN | WSC_BATCH_COLLECT);
	assert_int_equal(wsc_batch_set_break_even(b, 5), 0);
	for (i = 0; i < 11; i++)
		wsc_prep_nop(b, i);
	/* Eight collected and flushed wrapped; the last three plain. */
	assert_int_equal(c.submissions, 1);
	assert_int_equal(c.entries, 8);
	assert_int_equal(wsc_batch_submit(b), 3);
	assert_int_equal(c.submissions, 1);
	assert_int_equal(wsc_batch_conventional_calls(b), 3);
	for (i = 0; i < 11; i++)
		assert_int_equal(wsc_batch_result(b, i), i);
	wsc_batch_destroy(b);
}

static void test_break_even_needs_the_flag(void **state)
{
	struct wsc_batch *b;
	struct counted c;

	(void)state;
	b = flagged_batch(&c, 0);
	assert_int_equal(wsc_batch_set_break_even(b, 3), -EINVAL);
	submit_chain(b, 1);
	assert_int_equal(c.submissions, 1);
	wsc_batch_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_cases),
		cmocka_unit_test(test_load_reads_the_file),
		cmocka_unit_test(test_path_follows_the_environment),
		cmocka_unit_test(test_break_even_is_read_once),
		cmocka_unit_test(test_below_break_even_runs_plain),
		cmocka_unit_test(test_break_even_zero_and_never),
		cmocka_unit_test(test_break_even_counts_the_whole_submission),
		cmocka_unit_test(test_break_even_per_collect_flush),
		cmocka_unit_test(test_break_even_needs_the_flag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
