// SPDX-License-Identifier: MIT
/*
 * wsc trace's pure logic on the host: system call names and groups, the
 * figures from the log-linear buckets, the order of the rows, the
 * filters and values of the command line, the intervals, and the table,
 * JSON and CSV it prints (user/cli/trace/trace_*.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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
	assert_group("read", "userdata");
	assert_group("write", "userdata");
	assert_group("pread64", "userdata");
	assert_group("copy_file_range", "userdata");
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
 * @row as a fetch leaves it: @from's call and sums, its group, a copy of
 * the @n buckets @b, and what trace_row_finish() works out of them.
 */
static void copy_row(struct trace_row *row, const struct trace_row *from,
		     const struct trace_bucket *b, size_t n)
{
	*row = *from;
	row->group = trace_syscall_group(row->name);
	row->buckets = malloc(n * sizeof(*b));
	assert_non_null(row->buckets);
	memcpy(row->buckets, b, n * sizeof(*b));
	row->nr_buckets = n;
	trace_row_finish(row);
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
	static const struct trace_row read = {
		.nr = 0, .name = "read", .calls = 15, .errors = 1,
		.total_ns = 4560000, .max_ns = 1010000,
	};
	static const struct trace_row futex = {
		.nr = 202, .name = "futex", .calls = 2, .total_ns = 40,
		.max_ns = 21,
	};

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

	copy_row(&r->rows[0], &read, read_b, ARRAY_SIZE(read_b));
	copy_row(&r->rows[1], &futex, futex_b, ARRAY_SIZE(futex_b));

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
		"\"errors\": 1", "\"wrapped\": 0,", "\"syscalls\": [",
		"\"stopped_by\": null,",
		"{\"name\": \"read\", \"nr\": 0, \"group\": \"userdata\", "
			"\"calls\": 15, \"errors\": 1, \"wrapped\": 0, "
			"\"total_ns\": 4560000",
		"\"mean_ns\": 304000", "\"p50_ns\": 1039", "\"p99_ns\": 1007615",
		"\"max_ns\": 1010000",
		"\"hist\": [[1024, 1055, 10], [999424, 1015807, 5]]",
		"{\"name\": \"futex\", \"nr\": 202, \"group\": \"locking\"",
		"\"environment\": {\"date\": \"20",
		"\"wsc_version\": \"" WSC_VERSION "\", \"kernel\": ",
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
	assert_contains(out, "trace 3: 1.23s, ended when every traced task had "
			"exited; 2 tasks; 17 calls, 1 error\n");
	/* Nothing lost: no line says so; the one unmatched call is said. */
	assert_false(strstr(out, "lost"));
	assert_false(strstr(out, "WARNING"));
	assert_contains(out, "\nnot counted: 1 call already running when the "
			"trace began\n\n");
	assert_false(strstr(out, "wrapped:"));
	assert_contains(out, "syscall");
	/* read: 15 calls, 4.56ms of 4.56004ms, mean 304us, max 1.01ms. */
	assert_contains(out, "\nby group: userdata 100.0% (15 calls), "
			"locking 0.0% (2 calls)\n");
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
	assert_contains(out, "WARNING: lost 3: 0 tasks not followed, 0 calls "
			"not counted, 2 exits never seen,\n  1 call in no "
			"histogram; the figures below miss these\n  (the kernel "
			"follows 64 tasks at once and keeps 32 histograms per "
			"CPU)\n");
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
		"p99_ns,max_ns,on_cpu_ns,off_cpu_ns,errnos,wrapped\n"
		"read,0,userdata,15,1,4560000,99.999,304000,1039,1007615,1010000,"
		"4560000,0,,0\n"
		"futex,202,locking,2,0,40,0.001,20,20,20,21,40,0,,0\n");
	free(out);
	trace_report_free(&r);
}

/* One line of JSON lines: a line break at the end, none before. */
static void assert_one_line(const char *s)
{
	size_t len = strlen(s);

	assert_true(len > 1);
	assert_int_equal(s[len - 1], '\n');
	assert_null(memchr(s, '\n', len - 1));
}

/* Bit @nr of a -e bitmap. */
static bool has_call(const uint64_t *calls, int nr)
{
	return nr >= 0 && (calls[nr / 64] >> (nr % 64)) & 1;
}

static int count_calls(const uint64_t *calls)
{
	int i, n = 0;

	for (i = 0; i < TRACE_CALL_WORDS; i++)
		n += __builtin_popcountll(calls[i]);
	return n;
}

/* -e @list onto @calls, fresh unless @add (a second -e): it parses. */
static void parse_calls(uint64_t *calls, const char *list, bool add)
{
	char bad[64];

	if (!add)
		memset(calls, 0, TRACE_CALL_WORDS * sizeof(*calls));
	assert_int_equal(trace_parse_calls(list, calls, bad, sizeof(bad)), 0);
}

/* The call named @name is in @calls. */
static bool has_named(const uint64_t *calls, const char *name)
{
	return has_call(calls, trace_syscall_nr(name));
}

static void test_calls_names_numbers_groups(void **state)
{
	uint64_t calls[TRACE_CALL_WORDS];

	(void)state;
	parse_calls(calls, "openat,newfstatat,39", false);
	assert_int_equal(count_calls(calls), 3);
	assert_true(has_call(calls, 257));
	assert_true(has_call(calls, 262));
	assert_true(has_call(calls, 39));
	/* Repeated -e: the lists add up; "trace=" is strace's habit. */
	parse_calls(calls, "trace=read", true);
	assert_int_equal(count_calls(calls), 4);
	assert_true(has_call(calls, 0));

	parse_calls(calls, "%userdata", false);
	assert_true(has_named(calls, "read"));
	assert_true(has_named(calls, "pwrite64"));
	assert_false(has_named(calls, "openat"));
	parse_calls(calls, "%file,%locking", false);
	assert_true(has_named(calls, "openat"));
	assert_true(has_named(calls, "futex"));
	assert_false(has_named(calls, "read"));
	parse_calls(calls, "%other", false);
	assert_true(has_named(calls, "execve"));
	assert_false(has_named(calls, "mmap"));
	parse_calls(calls, "all", false);
	assert_int_equal(count_calls(calls), WSC_TRACE_NR_MAX);
}

static void test_calls_negated(void **state)
{
	uint64_t calls[TRACE_CALL_WORDS];

	(void)state;
	parse_calls(calls, "!read,write", false);
	assert_int_equal(count_calls(calls), WSC_TRACE_NR_MAX - 2);
	assert_false(has_call(calls, 0));
	assert_false(has_call(calls, 1));
	assert_true(has_call(calls, 2));
	parse_calls(calls, "trace=!%memory", false);
	assert_false(has_named(calls, "mmap"));
	assert_true(has_named(calls, "read"));
	/* A second -e adds to the first: read is back. */
	parse_calls(calls, "mmap", true);
	assert_true(has_named(calls, "mmap"));
}

static void test_calls_refused(void **state)
{
	static const struct {
		const char *list, *bad;
	} cases[] = {
		{ "nosuchcall", "nosuchcall" }, { "read,bogus", "bogus" },
		{ "%files", "%files" }, { "%user data", "%user data" },
		{ "1024", "1024" }, { "-1", "-1" }, { "12x", "12x" },
		{ "read,,write", "" }, { "", "" }, { "read,", "" },
		{ "!", "" }, { "trace=", "" }, { "Read", "Read" },
	};
	uint64_t calls[TRACE_CALL_WORDS] = { 0 };
	char bad[64];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strcpy(bad, "unset");
		if (trace_parse_calls(cases[i].list, calls, bad, sizeof(bad)) != -1)
			fail_msg("-e '%s' accepted", cases[i].list);
		assert_string_equal(bad, cases[i].bad);
	}
	/* Nothing is added by a refused list. */
	assert_int_equal(count_calls(calls), 0);
}

static void test_parse_errno(void **state)
{
	uint32_t e = 0;

	(void)state;
	assert_int_equal(trace_parse_errno("ENOENT", &e), 0);
	assert_int_equal(e, ENOENT);
	assert_int_equal(trace_parse_errno("eacces", &e), 0);
	assert_int_equal(e, EACCES);
	assert_int_equal(trace_parse_errno("4095", &e), 0);
	assert_int_equal(e, 4095);
	assert_int_equal(trace_parse_errno("1", &e), 0);
	assert_int_equal(e, 1);
	assert_int_equal(trace_parse_errno("0", &e), -1);
	assert_int_equal(trace_parse_errno("4096", &e), -1);
	assert_int_equal(trace_parse_errno("EFOO", &e), -1);
	assert_int_equal(trace_parse_errno("", &e), -1);
	assert_int_equal(trace_parse_errno("-2", &e), -1);
	assert_int_equal(trace_parse_errno("2x", &e), -1);
	assert_int_equal(e, 1);
}

static void test_parse_seconds(void **state)
{
	static const char *const bad[] = {
		"", "abc", "nan", "NAN", "inf", "infinity", "-1", "+1", " 1",
		"1x", "1 ", "0x10", "0.0001", "86401", "1e9", "0", "-0",
	};
	uint64_t ns = 7;
	size_t i;

	(void)state;
	assert_int_equal(trace_parse_seconds("0.5", 0.001, 86400, &ns), 0);
	assert_int_equal(ns, 500000000);
	assert_int_equal(trace_parse_seconds("2", 0.001, 86400, &ns), 0);
	assert_int_equal(ns, 2000000000);
	assert_int_equal(trace_parse_seconds("0.001", 0.001, 86400, &ns), 0);
	assert_int_equal(ns, 1000000);
	assert_int_equal(trace_parse_seconds("1e-3", 0.001, 86400, &ns), 0);
	assert_int_equal(ns, 1000000);
	assert_int_equal(trace_parse_seconds(".25", 0.001, 86400, &ns), 0);
	assert_int_equal(ns, 250000000);
	assert_int_equal(trace_parse_seconds("86400", 0.001, 86400, &ns), 0);
	assert_int_equal(ns, 86400000000000ull);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ns = 7;
		if (trace_parse_seconds(bad[i], 0.001, 86400, &ns) != -1)
			fail_msg("'%s' accepted as seconds", bad[i]);
		assert_int_equal(ns, 7);
	}
	assert_int_equal(trace_parse_seconds("0.005", 0.01, 86400, &ns), -1);
}

static void test_time_and_by(void **state)
{
	enum trace_time t = TRACE_TIME_OFF;
	enum trace_by b = TRACE_BY_NONE;

	(void)state;
	assert_int_equal(trace_parse_time("cpu", &t), 0);
	assert_int_equal(t, TRACE_TIME_CPU);
	assert_int_equal(trace_parse_time("wall", &t), 0);
	assert_int_equal(t, TRACE_TIME_WALL);
	assert_int_equal(trace_parse_time("off", &t), 0);
	assert_int_equal(t, TRACE_TIME_OFF);
	assert_int_equal(trace_parse_time("CPU", &t), -1);
	assert_string_equal(trace_time_name(TRACE_TIME_WALL), "wall");
	assert_int_equal(trace_parse_by("process", &b), 0);
	assert_int_equal(b, TRACE_BY_PROCESS);
	assert_int_equal(trace_parse_by("thread", &b), 0);
	assert_int_equal(b, TRACE_BY_THREAD);
	assert_int_equal(trace_parse_by("task", &b), -1);
	assert_int_equal(trace_time_of(TRACE_TIME_CPU, 100, 30), 70);
	assert_int_equal(trace_time_of(TRACE_TIME_WALL, 100, 30), 100);
	assert_int_equal(trace_time_of(TRACE_TIME_OFF, 100, 30), 30);
	/* Off never above the total (clocks of two CPUs): on is 0 then. */
	assert_int_equal(trace_time_of(TRACE_TIME_CPU, 100, 130), 0);
	assert_int_equal(trace_time_of(TRACE_TIME_OFF, 100, 130), 100);
}

/* -s total sorts by the time --time names. */
static void test_sort_follows_time(void **state)
{
	struct trace_row rows[] = {
		{ .nr = 1, .name = "blocked", .total_ns = 1000, .off_ns = 990 },
		{ .nr = 2, .name = "busy", .total_ns = 500, .off_ns = 0 },
	};
	struct trace_report r = { .rows = rows, .nr_rows = 2 };

	(void)state;
	r.time = TRACE_TIME_CPU;
	trace_sort_rows(&r, TRACE_SORT_TOTAL);
	assert_int_equal(rows[0].nr, 2);
	r.time = TRACE_TIME_WALL;
	trace_sort_rows(&r, TRACE_SORT_TOTAL);
	assert_int_equal(rows[0].nr, 1);
	r.time = TRACE_TIME_OFF;
	trace_sort_rows(&r, TRACE_SORT_TOTAL);
	assert_int_equal(rows[0].nr, 1);
}

/* make_report()'s, plus off-CPU time, errnos and three tasks. */
static void make_report_more(struct trace_report *r)
{
	static const struct wsc_trace_task tasks[] = {
		{ .tid = 100, .pid = 100, .ppid = 1, .comm = "make", .calls = 10,
		  .errors = 1, .total_ns = 4000000, .off_ns = 1000000 },
		{ .tid = 101, .pid = 101, .ppid = 100, .comm = "cc1", .calls = 5,
		  .total_ns = 500000, .off_ns = 100000 },
		{ .tid = 102, .pid = 100, .ppid = 1, .comm = "make", .calls = 2,
		  .total_ns = 60040, .off_ns = 0 },
	};
	struct trace_row *row;

	make_report(r);
	row = &r->rows[0];
	row->off_ns = 1000000;
	row->errnos = calloc(2, sizeof(*row->errnos));
	assert_non_null(row->errnos);
	row->errnos[0] = (struct trace_errno){ ENOENT, 12 };
	row->errnos[1] = (struct trace_errno){ EACCES, 1 };
	row->nr_errnos = 2;
	row->errors = 13;
	r->tasks = malloc(sizeof(tasks));
	assert_non_null(r->tasks);
	memcpy(r->tasks, tasks, sizeof(tasks));
	r->nr_tasks = ARRAY_SIZE(tasks);
	trace_report_finish(r);
}

static void test_table_times_and_errnos(void **state)
{
	struct trace_report r;
	char *out;

	(void)state;
	make_report_more(&r);
	out = capture(print_table_plain, &r);
	assert_contains(out, "on-cpu + off-cpu = time in the calls; share: of "
			"the time on the CPU (--time cpu)\nmean, p50, p99, max: "
			"one call, entry to exit\n");
	assert_contains(out, " on-cpu ");
	assert_contains(out, " off-cpu ");
	/* One column per figure: no "time" repeating on-cpu. */
	assert_contains(out, "\nsyscall  calls  errors   on-cpu  off-cpu   "
			"share     mean      p50      p99       max\n");
	/* read: 4.56ms in all, 1ms off, 3.56ms on. */
	assert_contains(out, "3.56ms");
	assert_contains(out, "1.00ms");
	assert_contains(out, "\nerrors by errno:\nread     ENOENT 12  EACCES 1\n");
	assert_false(strstr(out, "\nby process"));
	assert_false(strstr(out, "not shown"));
	free(out);

	r.time = TRACE_TIME_OFF;
	out = capture(print_table_plain, &r);
	assert_contains(out, "(--time off)");
	assert_contains(out, "100.0%");	/* futex has no off-CPU time */
	free(out);
	trace_report_free(&r);
}

/* The longest line of @text, in bytes (the table is ASCII). */
static size_t widest_line(const char *text)
{
	size_t widest = 0, len;
	const char *nl;

	for (; *text; text = nl + 1) {
		nl = strchr(text, '\n');
		if (!nl)
			nl = text + strlen(text);
		len = (size_t)(nl - text);
		widest = len > widest ? len : widest;
		if (!*nl)
			break;
	}
	return widest;
}

/*
 * The table within 100 columns, whatever it holds: the longest name the
 * kernel has, counts of ten digits, every errno a call can fail with, a
 * loss and every "not counted" figure; and wrapped calls said once.
 */
static void test_table_width_and_wrapped(void **state)
{
	static const uint32_t errs[] = { EPERM, ENOENT, EINTR, EIO, EBADF,
		EAGAIN, ENOMEM, EACCES, EFAULT, EBUSY, EEXIST, ENOTDIR,
		EISDIR, EINVAL, ENFILE, EMFILE, ENOSPC, EROFS, ENAMETOOLONG };
	struct trace_report r;
	struct trace_row *row;
	char *out;
	size_t i;

	(void)state;
	make_report_more(&r);
	row = &r.rows[0];
	snprintf(row->name, sizeof(row->name), "sched_get_priority_max");
	row->calls = 4000000000ull;
	row->errors = 3999999999ull;
	row->wrapped = 3200;
	free(row->errnos);
	row->errnos = calloc(ARRAY_SIZE(errs), sizeof(*row->errnos));
	assert_non_null(row->errnos);
	for (i = 0; i < ARRAY_SIZE(errs); i++)
		row->errnos[i] = (struct trace_errno){ errs[i], 123456789 };
	row->nr_errnos = ARRAY_SIZE(errs);
	r.status.lost_calls = 7;
	r.status.unmatched = 2;
	r.status.unfinished = 1;
	r.status.foreign = 3;
	r.status.lost_errnos = 4;
	r.by = TRACE_BY_THREAD;
	r.stop = TRACE_STOP_SIGNAL;
	r.stop_signal = SIGINT;
	r.status.end = WSC_TRACE_END_STOPPED;
	trace_report_finish(&r);
	out = capture(print_table_hist, &r);
	if (widest_line(out) > 100)
		fail_msg("a line of %zu columns in:\n%s", widest_line(out), out);
	assert_contains(out, "ended");
	assert_contains(out, "interrupted by SIGINT; ");
	assert_contains(out, "\nnot counted: 2 calls already running when the "
			"trace began, 1 call still running when it ended,\n  3 "
			"32-bit or unknown calls\n");
	assert_contains(out, "\nwrapped: 3200 of the calls ran in wsc batches");
	assert_contains(out, "\nsched_get_priority_max 4000000000 3999999999 ");
	free(out);

	r.stop = TRACE_STOP_DURATION;
	out = capture(trace_print_json, &r);
	assert_contains(out, "\"stopped_by\": \"duration\",");
	assert_contains(out, "\"wrapped\": 3200,");
	free(out);
	out = capture(print_table_plain, &r);
	assert_contains(out, "stopped after --duration; ");
	free(out);
	trace_report_free(&r);
}

static void test_table_top(void **state)
{
	struct trace_report r;
	char *out;

	(void)state;
	make_report(&r);
	r.top = 1;
	out = capture(print_table_plain, &r);
	assert_contains(out, "\n... 1 more system call (2 calls) not shown "
			"(--top 1)\n");
	assert_false(strstr(out, "\nfutex "));
	/* The total is the whole's. */
	assert_contains(out, "\ntotal ");
	assert_contains(out, " 17 ");
	free(out);
	r.top = 2;
	out = capture(print_table_plain, &r);
	assert_false(strstr(out, "not shown"));
	free(out);
	trace_report_free(&r);
}

static void test_table_by_task(void **state)
{
	struct trace_report r;
	char *out;

	(void)state;
	make_report_more(&r);
	r.by = TRACE_BY_PROCESS;
	out = capture(print_table_plain, &r);
	assert_contains(out, "\nby process (2):\n");
	assert_contains(out, "threads");
	/* make: 2 threads, 12 calls, 1 error, 3.06ms on, 1ms off. */
	assert_contains(out, "     100         1  make                    2  "
			"        12         1    3.06ms    1.00ms\n");
	assert_contains(out, "     101       100  cc1                     1  "
			"         5         0     400us     100us\n");
	free(out);
	r.by = TRACE_BY_THREAD;
	r.top = 2;
	out = capture(print_table_plain, &r);
	assert_contains(out, "\nby thread (3):\n");
	assert_contains(out, "     100       100         1  make  ");
	assert_false(strstr(out, "     102       100         1  make  "));
	assert_contains(out, "... 1 more (2 calls) not shown (--top 2)\n");
	free(out);
	trace_report_free(&r);
}

static void test_json_new_keys(void **state)
{
	static const char *const keys[] = {
		"\"time\": \"cpu\"", "\"on_cpu_ns\": 3560040",
		"\"off_cpu_ns\": 1000000", "\"rows_left_out\": 0",
		"\"calls_left_out\": 0", "\"filter\": \"-e read\"",
		"\"all\": false, \"failed\": true, \"errno\": \"ENOENT\"",
		"\"filtered\": 5, \"lost_errnos\": 0, \"lost_records\": 0",
		"\"errnos\": {\"ENOENT\": 12, \"EACCES\": 1}",
		"\"errnos\": {}",
		"\"on_cpu_ns\": 3560000, \"off_cpu_ns\": 1000000",
		"\"max_bound\": false",
		"\"tasks\": [",
		"{\"tid\": 100, \"pid\": 100, \"ppid\": 1, \"comm\": \"make\", "
			"\"calls\": 10, \"errors\": 1, \"total_ns\": 4000000, "
			"\"on_cpu_ns\": 3000000, \"off_cpu_ns\": 1000000}",
		"{\"tid\": 102, \"pid\": 100",
	};
	struct trace_report r;
	char *out, *line;
	size_t i;

	(void)state;
	make_report_more(&r);
	snprintf(r.filter, sizeof(r.filter), "-e read");
	r.status.failed = true;
	r.status.err = ENOENT;
	r.status.filtered = 5;
	out = capture(trace_print_json, &r);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		assert_contains(out, keys[i]);
	assert_json_balanced(out);
	/* share follows --time: read has 3.56ms of 3.56004ms on the CPU. */
	assert_contains(out, "\"total_ns\": 4560000, \"share\": 99.999");

	/* The same on one line. */
	line = capture(trace_print_json_line, &r);
	assert_one_line(line);
	assert_contains(line, "\"errnos\": {\"ENOENT\": 12, \"EACCES\": 1}");
	assert_json_balanced(line);
	free(line);
	free(out);

	/* --top 1: one row, what was left out said. */
	r.top = 1;
	out = capture(trace_print_json, &r);
	assert_contains(out, "\"rows_left_out\": 1, \"calls_left_out\": 2");
	assert_false(strstr(out, "\"name\": \"futex\""));
	assert_json_balanced(out);
	free(out);
	trace_report_free(&r);
}

static void test_csv_errnos_and_tasks(void **state)
{
	struct trace_report r;
	char *out;

	(void)state;
	make_report_more(&r);
	out = capture(trace_print_csv, &r);
	assert_contains(out, ",1010000,3560000,1000000,ENOENT=12;EACCES=1,0\n");
	free(out);
	snprintf(r.tasks[1].comm, sizeof(r.tasks[1].comm), "a,\"b\"");
	out = capture(trace_print_tasks_csv, &r);
	assert_string_equal(out,
		"tid,pid,ppid,comm,calls,errors,total_ns,on_cpu_ns,off_cpu_ns\n"
		"100,100,1,make,10,1,4000000,3000000,1000000\n"
		"101,101,100,\"a,\"\"b\"\"\",5,0,500000,400000,100000\n"
		"102,100,1,make,2,0,60040,60040,0\n");
	free(out);
	trace_report_free(&r);
}

static void test_errno_names(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(trace_errno_name(buf, sizeof(buf), ENOENT), "ENOENT");
	assert_string_equal(trace_errno_name(buf, sizeof(buf), 4000), "E4000");
}

/* One row of a cumulative fetch: @n buckets {low, low + 9, count}. */
static void set_row(struct trace_row *row, uint32_t nr, uint64_t calls,
		    uint64_t errors, uint64_t total, uint64_t off, uint64_t max,
		    const uint64_t (*b)[2], size_t n, const uint64_t (*e)[2],
		    size_t ne)
{
	size_t i;

	memset(row, 0, sizeof(*row));
	row->nr = nr;
	snprintf(row->name, sizeof(row->name), "%s", trace_syscall_name(nr));
	row->group = trace_syscall_group(row->name);
	row->calls = calls;
	row->errors = errors;
	row->total_ns = total;
	row->off_ns = off;
	row->max_ns = max;
	row->buckets = calloc(n + 1, sizeof(*row->buckets));
	row->errnos = calloc(ne + 1, sizeof(*row->errnos));
	assert_non_null(row->buckets);
	assert_non_null(row->errnos);
	for (i = 0; i < n; i++)
		row->buckets[i] = (struct trace_bucket){ b[i][0], b[i][0] + 9,
							 b[i][1] };
	for (i = 0; i < ne; i++)
		row->errnos[i] = (struct trace_errno){ (uint32_t)e[i][0], e[i][1] };
	row->nr_buckets = n;
	row->nr_errnos = ne;
	trace_row_finish(row);
}

/*
 * Three fetches of one trace: read grows in each, openat appears in the
 * second and then stays, futex appears in the third.
 */
static void make_fetches(struct trace_report f[3])
{
	static const uint64_t rb1[][2] = { { 100, 3 } };
	static const uint64_t rb2[][2] = { { 100, 4 }, { 5000, 1 } };
	static const uint64_t rb3[][2] = { { 100, 6 }, { 5000, 1 } };
	static const uint64_t ob[][2] = { { 300, 2 } };
	static const uint64_t fb[][2] = { { 20000, 1 } };
	static const uint64_t oe[][2] = { { ENOENT, 2 } };
	static const uint64_t re1[][2] = { { EINTR, 1 } };
	static const uint64_t re3[][2] = { { EINTR, 1 }, { EAGAIN, 2 } };
	size_t i;

	memset(f, 0, 3 * sizeof(*f));
	for (i = 0; i < 3; i++) {
		f[i].rows = calloc(3, sizeof(*f[i].rows));
		assert_non_null(f[i].rows);
	}
	set_row(&f[0].rows[0], 0, 3, 1, 330, 30, 110, rb1, 1, re1, 1);
	f[0].nr_rows = 1;
	set_row(&f[1].rows[0], 0, 5, 1, 5430, 2030, 5004, rb2, 2, re1, 1);
	set_row(&f[1].rows[1], 257, 2, 2, 610, 0, 305, ob, 1, oe, 1);
	f[1].nr_rows = 2;
	set_row(&f[2].rows[0], 0, 7, 3, 5650, 2050, 5004, rb3, 2, re3, 2);
	set_row(&f[2].rows[1], 257, 2, 2, 610, 0, 305, ob, 1, oe, 1);
	set_row(&f[2].rows[2], 202, 1, 0, 20005, 20000, 20005, fb, 1, NULL, 0);
	f[2].nr_rows = 3;
	for (i = 0; i < 3; i++) {
		f[i].status.duration_ns = (i + 1) * 1000;
		trace_report_finish(&f[i]);
	}
}

static void test_intervals_add_up(void **state)
{
	static const uint32_t nrs[] = { 0, 257, 202 };
	static const uint64_t lows[] = { 100, 300, 5000, 20000 };
	static const uint32_t errs[] = { EINTR, EAGAIN, ENOENT };
	struct trace_report f[3], iv[3];
	const struct trace_row *w, *p;
	uint64_t sum[6];
	size_t i, j, k;

	(void)state;
	make_fetches(f);
	assert_int_equal(trace_report_diff(&f[0], NULL, &iv[0]), 0);
	assert_int_equal(trace_report_diff(&f[1], &f[0], &iv[1]), 0);
	assert_int_equal(trace_report_diff(&f[2], &f[1], &iv[2]), 0);
	/* openat had no call in the third interval: no row. */
	assert_null(trace_report_row(&iv[2], 257));
	assert_int_equal(iv[1].nr_rows, 2);
	assert_int_equal(iv[2].status.duration_ns, 1000);
	for (i = 0; i < ARRAY_SIZE(nrs); i++) {
		w = trace_report_row(&f[2], nrs[i]);
		memset(sum, 0, sizeof(sum));
		for (k = 0; k < 3; k++) {
			p = trace_report_row(&iv[k], nrs[i]);
			if (!p)
				continue;
			sum[0] += p->calls;
			sum[1] += p->errors;
			sum[2] += p->total_ns;
			sum[3] += p->off_ns;
			sum[4] += p->hist_calls;
		}
		assert_int_equal(sum[0], w->calls);
		assert_int_equal(sum[1], w->errors);
		assert_int_equal(sum[2], w->total_ns);
		assert_int_equal(sum[3], w->off_ns);
		assert_int_equal(sum[4], w->hist_calls);
		for (j = 0; j < ARRAY_SIZE(lows); j++) {
			sum[5] = 0;
			for (k = 0; k < 3; k++)
				sum[5] += trace_row_bucket(trace_report_row(&iv[k], nrs[i]),
						       lows[j]);
			assert_int_equal(sum[5], trace_row_bucket(w, lows[j]));
		}
		for (j = 0; j < ARRAY_SIZE(errs); j++) {
			sum[5] = 0;
			for (k = 0; k < 3; k++)
				sum[5] += trace_row_errno(trace_report_row(&iv[k], nrs[i]),
						      errs[j]);
			assert_int_equal(sum[5], trace_row_errno(w, errs[j]));
		}
	}
	assert_int_equal(iv[0].total_calls + iv[1].total_calls +
			 iv[2].total_calls, f[2].total_calls);
	for (k = 0; k < 3; k++)
		trace_report_free(&iv[k]);
	for (k = 0; k < 3; k++)
		trace_report_free(&f[k]);
}

static void test_interval_max(void **state)
{
	struct trace_report f[3], d;
	const struct trace_row *row;

	(void)state;
	make_fetches(f);
	/* read's max grew from 110 to 5004: exact. */
	assert_int_equal(trace_report_diff(&f[1], &f[0], &d), 0);
	row = trace_report_row(&d, 0);
	assert_int_equal(row->max_ns, 5004);
	assert_false(row->max_bound);
	/* A new call's max is its own. */
	assert_int_equal(trace_report_row(&d, 257)->max_ns, 305);
	assert_false(trace_report_row(&d, 257)->max_bound);
	trace_report_free(&d);
	/* Then it did not grow: at most the top of bucket 100 (109). */
	assert_int_equal(trace_report_diff(&f[2], &f[1], &d), 0);
	row = trace_report_row(&d, 0);
	assert_int_equal(row->calls, 2);
	assert_int_equal(row->max_ns, 109);
	assert_true(row->max_bound);
	assert_int_equal(row->p50_ns, 104);
	/* The copy is the whole. */
	trace_report_free(&d);
	assert_int_equal(trace_report_copy(&f[2], &d), 0);
	assert_int_equal(d.total_calls, f[2].total_calls);
	assert_int_equal(d.nr_rows, 3);
	trace_report_free(&d);
	trace_report_free(&f[0]);
	trace_report_free(&f[1]);
	trace_report_free(&f[2]);
}

static void print_iv_table(FILE *f, const struct trace_report *r)
{
	const struct trace_interval iv = { 2, 500000000, 1000000000, false };

	trace_print_interval(f, r, &iv);
}

static void print_iv_json(FILE *f, const struct trace_report *r)
{
	const struct trace_interval iv = { 3, 1000000000, 1250000000, true };

	trace_print_interval_json(f, r, &iv);
}

static void test_interval_output(void **state)
{
	struct trace_report f[3], d;
	char *out;

	(void)state;
	make_fetches(f);
	assert_int_equal(trace_report_diff(&f[2], &f[1], &d), 0);
	out = capture(print_iv_table, &d);
	assert_contains(out, "interval 2: 0.500s to 1.000s: 3 calls, 2 errors\n");
	assert_contains(out, "<=109ns");
	assert_contains(out, "\nerrors by errno:\nread     EAGAIN 2\n");
	free(out);
	trace_report_free(&d);
	/* The first interval: one error, said in the singular. */
	assert_int_equal(trace_report_diff(&f[0], NULL, &d), 0);
	out = capture(print_iv_table, &d);
	assert_contains(out, "interval 2: 0.500s to 1.000s: 3 calls, 1 error\n");
	free(out);
	trace_report_free(&d);
	assert_int_equal(trace_report_diff(&f[2], &f[1], &d), 0);
	out = capture(print_iv_json, &d);
	assert_contains(out, "{\"interval\": 3, \"start_s\": 1.000000, "
			"\"end_s\": 1.250000, \"last\": true,");
	assert_contains(out, "\"max_ns\": 109, \"max_bound\": true");
	assert_one_line(out);
	assert_json_balanced(out);
	free(out);
	trace_report_free(&d);
	trace_report_free(&f[0]);
	trace_report_free(&f[1]);
	trace_report_free(&f[2]);
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
		cmocka_unit_test(test_calls_names_numbers_groups),
		cmocka_unit_test(test_calls_negated),
		cmocka_unit_test(test_calls_refused),
		cmocka_unit_test(test_parse_errno),
		cmocka_unit_test(test_parse_seconds),
		cmocka_unit_test(test_time_and_by),
		cmocka_unit_test(test_sort_follows_time),
		cmocka_unit_test(test_table_times_and_errnos),
		cmocka_unit_test(test_table_width_and_wrapped),
		cmocka_unit_test(test_table_top),
		cmocka_unit_test(test_table_by_task),
		cmocka_unit_test(test_json_new_keys),
		cmocka_unit_test(test_csv_errnos_and_tasks),
		cmocka_unit_test(test_errno_names),
		cmocka_unit_test(test_intervals_add_up),
		cmocka_unit_test(test_interval_max),
		cmocka_unit_test(test_interval_output),
	};

	return cmocka_run_group_tests_name("wsc trace", tests, NULL, NULL);
}
