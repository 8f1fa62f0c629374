// SPDX-License-Identifier: MIT
/*
 * wsc trace's pure logic on the host: system call names and groups, the
 * figures from the log-linear buckets, the order of the rows, and the
 * table, JSON and CSV it prints (user/cli/trace/trace_*.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "trace/trace.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static void test_names_of_known_numbers(void **state)
{
	(void)state;
	assert_string_equal(trace_syscall_name(0), "read");
	assert_string_equal(trace_syscall_name(1), "write");
	assert_string_equal(trace_syscall_name(4), "stat");
	assert_string_equal(trace_syscall_name(5), "fstat");
	assert_string_equal(trace_syscall_name(17), "pread64");
	assert_string_equal(trace_syscall_name(59), "execve");
	assert_string_equal(trace_syscall_name(262), "newfstatat");
	assert_string_equal(trace_syscall_name(435), "clone3");
}

static void test_unknown_numbers_have_no_name(void **state)
{
	uint32_t nr, last = 0;

	(void)state;
	/*
	 * Which numbers below the last are holes depends on the uapi header
	 * (7.x's names 335 and 336, which 6.1's left unused): only past the
	 * last named number is a hole on every kernel.
	 */
	for (nr = 0; nr < 4096; nr++)
		if (trace_syscall_name(nr))
			last = nr;
	assert_true(last >= 435);
	assert_null(trace_syscall_name(last + 1));
	assert_null(trace_syscall_name(100000));
	assert_null(trace_syscall_name(UINT32_MAX));
	assert_int_equal(trace_syscall_nr("nosuchcall"), -1);
	assert_int_equal(trace_syscall_nr(""), -1);
}

static void test_name_number_round_trip(void **state)
{
	const char *name;
	uint32_t nr, named = 0;

	(void)state;
	assert_int_equal(trace_syscall_nr("read"), 0);
	assert_int_equal(trace_syscall_nr("newfstatat"), 262);
	assert_int_equal(trace_syscall_nr("clone3"), 435);
	for (nr = 0; nr < 1024; nr++) {
		name = trace_syscall_name(nr);
		if (!name)
			continue;
		named++;
		assert_int_equal(trace_syscall_nr(name), (int)nr);
	}
	/* Linux 3.x already had over 300. */
	assert_true(named > 300);
}

static void assert_group(const char *name, const char *group)
{
	const char *got = trace_syscall_group(name);

	if (strcmp(got, group))
		fail_msg("%s is in group \"%s\", expected \"%s\"", name, got,
			 group);
}

static void test_groups(void **state)
{
	(void)state;
	assert_group("mmap", "memory");
	assert_group("mprotect", "memory");
	assert_group("brk", "memory");
	assert_group("mremap", "memory");
	assert_group("pkey_mprotect", "memory");
	assert_group("rt_sigaction", "signal");
	assert_group("rt_sigreturn", "signal");
	assert_group("kill", "signal");
	assert_group("sigaltstack", "signal");
	assert_group("pipe", "ipc");
	assert_group("pipe2", "ipc");
	assert_group("recvfrom", "ipc");
	assert_group("sendmsg", "ipc");
	assert_group("socket", "ipc");
	assert_group("shmget", "ipc");
	assert_group("eventfd2", "ipc");
	assert_group("stat", "file");
	assert_group("newfstatat", "file");
	assert_group("openat", "file");
	assert_group("close", "file");
	assert_group("dup2", "file");
	assert_group("ioctl", "file");
	assert_group("getdents64", "file");
	assert_group("read", "user data");
	assert_group("write", "user data");
	assert_group("pread64", "user data");
	assert_group("copy_file_range", "user data");
	assert_group("futex", "locking");
	assert_group("poll", "locking");
	assert_group("epoll_wait", "locking");
	assert_group("wait4", "locking");
	assert_group("waitid", "locking");
	assert_group("execve", "other");
	assert_group("clone3", "other");
	assert_group("getpid", "other");
	assert_group("syscall_999", "other");
	assert_group("", "other");
}

static void test_quantile_of_one_bucket(void **state)
{
	const struct trace_bucket b[] = { { 1024, 1055, 10 } };

	(void)state;
	/* The midpoint, rounded down. */
	assert_int_equal(trace_quantile(b, 1, 0.5, 2000), 1039);
	assert_int_equal(trace_quantile(b, 1, 0.99, 2000), 1039);
	assert_int_equal(trace_quantile(b, 1, 1.0, 2000), 1039);
	/* Never above the longest call, which is exact. */
	assert_int_equal(trace_quantile(b, 1, 0.5, 1030), 1030);
}

static void test_quantile_of_two_buckets(void **state)
{
	const struct trace_bucket b[] = { { 100, 100, 50 }, { 200, 200, 50 } };

	(void)state;
	/* The 50th call is the last of the first bucket, the 51st is not. */
	assert_int_equal(trace_quantile(b, 2, 0.5, 200), 100);
	assert_int_equal(trace_quantile(b, 2, 0.51, 200), 200);
	assert_int_equal(trace_quantile(b, 2, 0.99, 200), 200);
	assert_int_equal(trace_quantile(b, 2, 0.01, 200), 100);
}

static void test_quantile_on_known_counts(void **state)
{
	const struct trace_bucket b[] = {
		{ 10, 10, 90 }, { 20, 20, 9 }, { 30, 30, 1 },
	};
	const struct trace_bucket c[] = { { 10, 10, 297 }, { 20, 20, 3 } };

	(void)state;
	assert_int_equal(trace_quantile(b, 3, 0.5, 30), 10);
	assert_int_equal(trace_quantile(b, 3, 0.9, 30), 10);
	assert_int_equal(trace_quantile(b, 3, 0.91, 30), 20);
	/* ceil(0.99 * 100) = 99: the last of the 9. */
	assert_int_equal(trace_quantile(b, 3, 0.99, 30), 20);
	/* ceil(0.995 * 100) = 100: the slowest call. */
	assert_int_equal(trace_quantile(b, 3, 0.995, 30), 30);
	/* 0.99 * 300 must count as 297, not a hair more. */
	assert_int_equal(trace_quantile(c, 2, 0.99, 20), 10);
}

static void test_quantile_of_nothing(void **state)
{
	const struct trace_bucket zero[] = { { 10, 10, 0 } };

	(void)state;
	assert_int_equal(trace_quantile(NULL, 0, 0.5, 0), 0);
	assert_int_equal(trace_quantile(zero, 1, 0.99, 100), 0);
}

static void test_row_finish(void **state)
{
	struct trace_bucket b[] = { { 100, 103, 2 }, { 1024, 1055, 1 } };
	struct trace_row r = {
		.calls = 3, .total_ns = 1250, .max_ns = 1040,
		.buckets = b, .nr_buckets = 2,
	};
	struct trace_row empty = { .calls = 0 };

	(void)state;
	trace_row_finish(&r);
	assert_int_equal(r.mean_ns, 416);	/* 1250 / 3, rounded down */
	assert_int_equal(r.hist_calls, 3);
	assert_int_equal(r.p50_ns, 101);
	assert_int_equal(r.p99_ns, 1039);
	trace_row_finish(&empty);
	assert_int_equal(empty.mean_ns, 0);
	assert_int_equal(empty.p50_ns, 0);
	assert_int_equal(empty.hist_calls, 0);
}

static void test_report_finish(void **state)
{
	struct trace_row rows[] = {
		{ .calls = 3, .errors = 1, .total_ns = 100 },
		{ .calls = 4, .errors = 0, .total_ns = 50 },
	};
	struct trace_report r = { .rows = rows, .nr_rows = 2 };

	(void)state;
	trace_report_finish(&r);
	assert_int_equal(r.total_calls, 7);
	assert_int_equal(r.total_errors, 1);
	assert_int_equal(r.total_ns, 150);
}

static void test_parse_sort(void **state)
{
	static const struct {
		const char *s;
		enum trace_sort key;
	} good[] = {
		{ "total", TRACE_SORT_TOTAL }, { "calls", TRACE_SORT_CALLS },
		{ "errors", TRACE_SORT_ERRORS }, { "mean", TRACE_SORT_MEAN },
		{ "p50", TRACE_SORT_P50 }, { "p99", TRACE_SORT_P99 },
		{ "max", TRACE_SORT_MAX }, { "name", TRACE_SORT_NAME },
		{ "nr", TRACE_SORT_NR },
	};
	static const char *const bad[] = { "", "Total", "p95", "total ", "n" };
	enum trace_sort key;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		key = TRACE_SORT_NR + 1;
		assert_int_equal(trace_parse_sort(good[i].s, &key), 0);
		assert_int_equal(key, good[i].key);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		key = TRACE_SORT_MAX;
		assert_int_equal(trace_parse_sort(bad[i], &key), -1);
		assert_int_equal(key, TRACE_SORT_MAX);
	}
}

/* Rows whose every figure orders them differently; 7 and 3 tie often. */
static void fill_sort_rows(struct trace_row *rows)
{
	static const struct trace_row init[] = {
		{ .nr = 7, .name = "b", .calls = 5, .errors = 1, .total_ns = 100,
		  .mean_ns = 20, .p50_ns = 10, .p99_ns = 90, .max_ns = 95 },
		{ .nr = 1, .name = "c", .calls = 9, .errors = 0, .total_ns = 50,
		  .mean_ns = 5, .p50_ns = 4, .p99_ns = 30, .max_ns = 400 },
		{ .nr = 3, .name = "a", .calls = 5, .errors = 1, .total_ns = 100,
		  .mean_ns = 20, .p50_ns = 12, .p99_ns = 90, .max_ns = 95 },
		{ .nr = 2, .name = "d", .calls = 1, .errors = 3, .total_ns = 300,
		  .mean_ns = 300, .p50_ns = 290, .p99_ns = 300, .max_ns = 300 },
	};

	memcpy(rows, init, sizeof(init));
}

static void assert_order(enum trace_sort key, const uint32_t want[4])
{
	struct trace_row rows[4];
	struct trace_report r = { .rows = rows, .nr_rows = 4 };
	size_t i;

	fill_sort_rows(rows);
	trace_sort_rows(&r, key);
	for (i = 0; i < 4; i++)
		if (rows[i].nr != want[i])
			fail_msg("key %d: row %zu is nr %u, expected %u", key,
				 i, rows[i].nr, want[i]);
}

static void test_sort_each_key(void **state)
{
	(void)state;
	assert_order(TRACE_SORT_TOTAL, (const uint32_t[]){ 2, 3, 7, 1 });
	assert_order(TRACE_SORT_CALLS, (const uint32_t[]){ 1, 3, 7, 2 });
	assert_order(TRACE_SORT_ERRORS, (const uint32_t[]){ 2, 3, 7, 1 });
	assert_order(TRACE_SORT_MEAN, (const uint32_t[]){ 2, 3, 7, 1 });
	assert_order(TRACE_SORT_P50, (const uint32_t[]){ 2, 3, 7, 1 });
	assert_order(TRACE_SORT_P99, (const uint32_t[]){ 2, 3, 7, 1 });
	assert_order(TRACE_SORT_MAX, (const uint32_t[]){ 1, 2, 3, 7 });
	assert_order(TRACE_SORT_NAME, (const uint32_t[]){ 3, 7, 1, 2 });
	assert_order(TRACE_SORT_NR, (const uint32_t[]){ 1, 2, 3, 7 });
}

static void test_sort_ties_by_number_and_stable(void **state)
{
	struct trace_row rows[] = {
		{ .nr = 9, .name = "x", .total_ns = 5 },
		{ .nr = 4, .name = "first", .total_ns = 5 },
		{ .nr = 4, .name = "second", .total_ns = 5 },
		{ .nr = 2, .name = "y", .total_ns = 5 },
	};
	struct trace_report r = { .rows = rows, .nr_rows = 4 };

	(void)state;
	trace_sort_rows(&r, TRACE_SORT_TOTAL);
	assert_int_equal(rows[0].nr, 2);
	/* Equal in every way: they keep the order they came in. */
	assert_string_equal(rows[1].name, "first");
	assert_string_equal(rows[2].name, "second");
	assert_int_equal(rows[3].nr, 9);
	trace_sort_rows(&r, TRACE_SORT_CALLS);
	assert_string_equal(rows[1].name, "first");
}

static void test_report_free(void **state)
{
	struct trace_report r = { .nr_rows = 2 };

	(void)state;
	r.rows = calloc(2, sizeof(*r.rows));
	assert_non_null(r.rows);
	r.rows[1].buckets = calloc(3, sizeof(*r.rows[1].buckets));
	r.rows[1].nr_buckets = 3;
	trace_report_free(&r);
	assert_null(r.rows);
	assert_int_equal(r.nr_rows, 0);
	trace_report_free(&r);
}

/*
 * A report as cmd_trace.c builds it: read (buckets at 1us and 1ms) and
 * futex, the command killed by SIGKILL.  The caller frees it.
 */
static void make_report(struct trace_report *r)
{
	static const struct trace_bucket read_b[] = {
		{ 1024, 1055, 10 }, { 999424, 1015807, 5 },
	};
	static const struct trace_bucket futex_b[] = { { 20, 20, 2 } };
	struct trace_row *row;

	memset(r, 0, sizeof(*r));
	snprintf(r->target, sizeof(r->target), "command: sh -c \"x\"");
	r->has_exit = true;
	r->exit_status = 9;	/* as waitpid() reports SIGKILL */
	r->status.state = WSC_TRACE_ENDED;
	r->status.end = WSC_TRACE_END_EXITED;
	r->status.id = 3;
	r->status.duration_ns = 1230000000;
	r->status.tasks = 2;
	r->status.unmatched = 1;
	r->status.task_slots = 64;
	r->status.hist_slots = 32;
	r->rows = calloc(2, sizeof(*r->rows));
	assert_non_null(r->rows);
	r->nr_rows = 2;

	row = &r->rows[0];
	row->nr = 0;
	snprintf(row->name, sizeof(row->name), "read");
	row->group = trace_syscall_group(row->name);
	row->calls = 15;
	row->errors = 1;
	row->total_ns = 4560000;
	row->max_ns = 1010000;
	row->buckets = malloc(sizeof(read_b));
	assert_non_null(row->buckets);
	memcpy(row->buckets, read_b, sizeof(read_b));
	row->nr_buckets = ARRAY_SIZE(read_b);
	trace_row_finish(row);

	row = &r->rows[1];
	row->nr = 202;
	snprintf(row->name, sizeof(row->name), "futex");
	row->group = trace_syscall_group(row->name);
	row->calls = 2;
	row->total_ns = 40;
	row->max_ns = 21;
	row->buckets = malloc(sizeof(futex_b));
	assert_non_null(row->buckets);
	memcpy(row->buckets, futex_b, sizeof(futex_b));
	row->nr_buckets = ARRAY_SIZE(futex_b);
	trace_row_finish(row);

	trace_report_finish(r);
}

/* What @print writes, as a string to free. */
static char *capture(void (*print)(FILE *, const struct trace_report *),
		     const struct trace_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	print(f, r);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void print_table_hist(FILE *f, const struct trace_report *r)
{
	trace_print_table(f, r, true);
}

static void print_table_plain(FILE *f, const struct trace_report *r)
{
	trace_print_table(f, r, false);
}

static void assert_contains(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("\"%s\" missing from:\n%s", want, text);
}

/* Brackets and braces balanced outside strings, as valid JSON has them. */
static void assert_json_balanced(const char *s)
{
	char stack[64];
	int depth = 0;
	bool in_string = false;

	for (; *s; s++) {
		if (in_string) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				in_string = false;
		} else if (*s == '"') {
			in_string = true;
		} else if (*s == '{' || *s == '[') {
			assert_true(depth < (int)sizeof(stack));
			stack[depth++] = *s;
		} else if (*s == '}' || *s == ']') {
			assert_true(depth > 0);
			assert_int_equal(stack[--depth], *s == '}' ? '{' : '[');
			assert_true(depth > 0 || s[1] == '\n');
		}
	}
	assert_false(in_string);
	assert_int_equal(depth, 0);
}

static void test_json(void **state)
{
	static const char *const keys[] = {
		"\"target\": \"command: sh -c \\\"x\\\"\"",
		"\"exit_status\": null, \"signal\": 9",
		"\"trace\": {\"id\": 3, \"state\": \"ended\", "
			"\"end\": \"target exited\"",
		"\"duration_ns\": 1230000000", "\"tasks\": 2",
		"\"lost_tasks\": 0", "\"lost_calls\": 0", "\"lost_exits\": 0",
		"\"lost_hist\": 0", "\"unmatched\": 1", "\"unfinished\": 0",
		"\"foreign\": 0", "\"task_slots\": 64", "\"hist_slots\": 32",
		"\"lost\": 0,", "\"total_ns\": 4560040", "\"calls\": 17",
		"\"errors\": 1", "\"syscalls\": [",
		"{\"name\": \"read\", \"nr\": 0, \"group\": \"user data\", "
			"\"calls\": 15, \"errors\": 1, \"total_ns\": 4560000",
		"\"mean_ns\": 304000", "\"p50_ns\": 1039", "\"p99_ns\": 1007615",
		"\"max_ns\": 1010000",
		"\"hist\": [[1024, 1055, 10], [999424, 1015807, 5]]",
		"{\"name\": \"futex\", \"nr\": 202, \"group\": \"locking\"",
		"\"environment\": {\"kernel\": ",
	};
	struct trace_report r;
	char *out;
	size_t i;

	(void)state;
	make_report(&r);
	out = capture(trace_print_json, &r);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		assert_contains(out, keys[i]);
	assert_true(out[0] == '{');
	assert_string_equal(out + strlen(out) - 2, "}\n");
	assert_json_balanced(out);
	free(out);

	/* Exited normally: a code, no signal; and no rows at all. */
	r.exit_status = 3 << 8;
	trace_report_free(&r);
	trace_report_finish(&r);
	out = capture(trace_print_json, &r);
	assert_contains(out, "\"exit_status\": 3, \"signal\": null");
	assert_contains(out, "\"syscalls\": [],");
	assert_json_balanced(out);
	free(out);
}

static void test_table_header_and_rows(void **state)
{
	struct trace_report r;
	char *out;

	(void)state;
	make_report(&r);
	out = capture(print_table_plain, &r);
	assert_contains(out, "target: command: sh -c \"x\" (killed by signal 9");
	assert_contains(out, "trace 3: 1.23s, ended");
	assert_contains(out, "2 tasks followed; 17 calls, 1 errors");
	assert_contains(out, "\nlost: 0 (");
	assert_false(strstr(out, "WARNING"));
	assert_contains(out, "unmatched 1 (calls already running when the "
			"trace began)");
	assert_contains(out, "syscall");
	/* read: 15 calls, 4.56ms of 4.56004ms, mean 304us, max 1.01ms. */
	assert_contains(out, "user data");
	assert_contains(out, "4.56ms");
	assert_contains(out, "100.0%");
	assert_contains(out, "304us");
	assert_contains(out, "1.01ms");
	assert_contains(out, "20ns");
	assert_contains(out, "\ntotal ");
	assert_false(strstr(out, "    ["));
	free(out);
	trace_report_free(&r);
}

static void test_table_warns_of_losses(void **state)
{
	struct trace_report r;
	char *out;

	(void)state;
	make_report(&r);
	r.status.lost_exits = 2;
	r.status.lost_hist = 1;
	out = capture(print_table_plain, &r);
	assert_contains(out, "WARNING: lost: 3 (0 tasks not followed, 0 calls "
			"not counted, 2 exits never seen, 1 calls in no "
			"histogram)");
	free(out);
	trace_report_free(&r);
}

#define HASHES	"########################################"

/* The hist lines of read: [1.02us, 2.05us) to [524us, 1.05ms), by 2. */
static void test_table_histograms(void **state)
{
	struct trace_report r;
	const char *p;
	char *out, bar[64];
	int lines = 0;

	(void)state;
	make_report(&r);
	out = capture(print_table_hist, &r);
	for (p = out; (p = strstr(p, "\n    [")); p++)
		lines++;
	/* read: 2^10 .. 2^19 ns, ten lines; futex: one. */
	assert_int_equal(lines, 11);
	/* The fullest bucket gets all 40 '#', one with half the calls 20. */
	snprintf(bar, sizeof(bar), "%.40s 10\n", HASHES);
	assert_contains(out, "\n    [1.02us, 2.05us)     ");
	assert_contains(out, bar);
	assert_contains(out, "\n    [2.05us, 4.10us)\n");
	snprintf(bar, sizeof(bar), "%-40.20s 5\n", HASHES);
	assert_contains(out, "\n    [524us, 1.05ms)      ");
	assert_contains(out, bar);
	assert_contains(out, "\n    [16ns, 32ns)         ");
	free(out);
	trace_report_free(&r);
}

static void test_csv(void **state)
{
	struct trace_report r;
	char *out;

	(void)state;
	make_report(&r);
	out = capture(trace_print_csv, &r);
	assert_string_equal(out,
		"name,nr,group,calls,errors,total_ns,share,mean_ns,p50_ns,"
		"p99_ns,max_ns\n"
		"read,0,user data,15,1,4560000,99.999,304000,1039,1007615,1010000\n"
		"futex,202,locking,2,0,40,0.001,20,20,20,21\n");
	free(out);
	trace_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_of_known_numbers),
		cmocka_unit_test(test_unknown_numbers_have_no_name),
		cmocka_unit_test(test_name_number_round_trip),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_quantile_of_one_bucket),
		cmocka_unit_test(test_quantile_of_two_buckets),
		cmocka_unit_test(test_quantile_on_known_counts),
		cmocka_unit_test(test_quantile_of_nothing),
		cmocka_unit_test(test_row_finish),
		cmocka_unit_test(test_report_finish),
		cmocka_unit_test(test_parse_sort),
		cmocka_unit_test(test_sort_each_key),
		cmocka_unit_test(test_sort_ties_by_number_and_stable),
		cmocka_unit_test(test_report_free),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_table_header_and_rows),
		cmocka_unit_test(test_table_warns_of_losses),
		cmocka_unit_test(test_table_histograms),
		cmocka_unit_test(test_csv),
	};

	return cmocka_run_group_tests_name("wsc trace", tests, NULL, NULL);
}
