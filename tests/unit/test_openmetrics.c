// SPDX-License-Identifier: MIT
/*
 * wsc trace --openmetrics on the host: the kernel's log-linear buckets
 * mapped onto the fixed "le" bounds, the metrics a report becomes (names,
 * labels, escapes, values in seconds, the histogram's cumulative lines,
 * errors by errno, the tasks with --by) and the file replaced whole
 * (user/cli/trace/trace_openmetrics.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "wsc_hist.h"
#include "trace/trace_openmetrics.h"

/* The metrics of @r as a string to free, through a scratch file. */
static char *om_text(const struct trace_report *r)
{
	FILE *f = tmpfile();
	char *text;
	long size;

	assert_non_null(f);
	trace_om_print(f, r);
	size = ftell(f);
	assert_true(size > 0);
	text = calloc(1, (size_t)size + 1);
	assert_non_null(text);
	rewind(f);
	assert_int_equal(fread(text, 1, (size_t)size, f), size);
	fclose(f);
	return text;
}

/* Lines of @text that start with @start. */
static unsigned int lines_starting(const char *text, const char *start)
{
	unsigned int n = 0;
	const char *p = text;

	while (*p) {
		if (!strncmp(p, start, strlen(start)))
			n++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return n;
}

static void assert_line(const char *text, const char *line)
{
	char want[512];

	snprintf(want, sizeof(want), "\n%s\n", line);
	if (!strstr(text, want))
		fail_msg("line \"%s\" missing from:\n%s", line, text);
}

static void test_bounds_are_bucket_tops(void **state)
{
	uint64_t b;
	unsigned int i;

	(void)state;
	assert_int_equal(trace_om_bound_ns(0), 63);
	assert_int_equal(trace_om_bound_ns(TRACE_OM_BOUNDS - 1),
			 (1ull << 36) - 1);
	for (i = 0; i < TRACE_OM_BOUNDS; i++) {
		b = trace_om_bound_ns(i);
		/* The top of its bucket; the next value starts another. */
		assert_int_equal(wsc_hist_high(wsc_hist_index(b)), b);
		assert_int_equal(wsc_hist_low(wsc_hist_index(b + 1)), b + 1);
		if (i)
			assert_true(b > trace_om_bound_ns(i - 1));
	}
}

/*
 * Latencies put in the kernel's buckets as the module does: at every
 * bound, the cumulative count equals the latencies at or below it.
 */
static void test_cumulative_counts_exact(void **state)
{
	enum { N = 4000 };
	static uint64_t lat[N];
	struct trace_bucket *b = calloc(WSC_HIST_BUCKETS, sizeof(*b));
	struct trace_row row = { .buckets = b };
	uint64_t x = 88172645463325252ull, want;
	unsigned int i, j, idx, last = 0;
	size_t k;

	(void)state;
	assert_non_null(b);
	for (i = 0; i < N; i++) {
		/* xorshift64: spread over 2^0 .. 2^40 ns, and the bounds too */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		lat[i] = i % 5 == 0 ? trace_om_bound_ns(i % TRACE_OM_BOUNDS) + i % 2 :
			 (x >> 24) >> (x % 40);
	}
	/* One bucket per index, ascending, as libwsc hands them over. */
	for (idx = 0; idx < WSC_HIST_BUCKETS; idx++) {
		uint64_t n = 0;

		for (i = 0; i < N; i++)
			n += wsc_hist_index(lat[i]) == idx;
		if (!n)
			continue;
		b[row.nr_buckets++] = (struct trace_bucket){
			wsc_hist_low(idx), wsc_hist_high(idx), n };
		last = idx;
	}
	assert_true(row.nr_buckets > 100);
	assert_true(wsc_hist_low(last) > trace_om_bound_ns(TRACE_OM_BOUNDS - 1));
	for (j = 0; j < TRACE_OM_BOUNDS; j++) {
		want = 0;
		for (i = 0; i < N; i++)
			want += lat[i] <= trace_om_bound_ns(j);
		assert_int_equal(trace_om_cumulative(&row, trace_om_bound_ns(j)),
				 want);
	}
	want = 0;
	for (k = 0; k < row.nr_buckets; k++)
		want += b[k].count;
	assert_int_equal(trace_om_cumulative(&row, UINT64_MAX), want);
	free(b);
}

static struct trace_bucket read_buckets[] = {
	{ 40, 40, 2 }, { 992, 1007, 3 }, { 68719476736ull, 70866960383ull, 1 },
};
static struct trace_errno open_errnos[] = { { 2, 3 }, { 13, 1 } };
static struct trace_bucket open_buckets[] = { { 2048, 2111, 5 } };

/* Two calls, errors by errno and one the kernel could not tell. */
static void fill_report(struct trace_report *r, struct trace_row *rows)
{
	memset(r, 0, sizeof(*r));
	memset(rows, 0, 2 * sizeof(*rows));
	snprintf(r->target, sizeof(r->target), "command: sh -c \"a\\b\"\nx\xff");
	r->status.id = 42;
	r->status.duration_ns = 1500000000ull;
	r->status.lost_calls = 3;
	rows[0] = (struct trace_row){ .nr = 0, .name = "read", .calls = 6,
		.wrapped = 2, .total_ns = 70000005040ull, .off_ns = 70000000000ull,
		.buckets = read_buckets, .nr_buckets = 3 };
	rows[1] = (struct trace_row){ .nr = 257, .name = "openat", .calls = 5,
		.errors = 5, .total_ns = 10240, .off_ns = 0,
		.buckets = open_buckets, .nr_buckets = 1,
		.errnos = open_errnos, .nr_errnos = 2 };
	trace_row_finish(&rows[0]);
	trace_row_finish(&rows[1]);
	r->rows = rows;
	r->nr_rows = 2;
	trace_report_finish(r);
}

#define T "target=\"command: sh -c \\\"a\\\\b\\\"\\nx?\""

static void test_metrics_of_a_report(void **state)
{
	struct trace_row rows[2];
	struct trace_report r;
	char *text;

	(void)state;
	fill_report(&r, rows);
	text = om_text(&r);
	/* Every family once, typed, helped; units where the name has one. */
	assert_int_equal(lines_starting(text, "# TYPE "), 9);
	assert_int_equal(lines_starting(text, "# HELP "), 9);
	assert_line(text, "# TYPE wsc_syscall_calls_total counter");
	assert_line(text, "# TYPE wsc_syscall_latency_seconds histogram");
	assert_line(text, "# UNIT wsc_syscall_latency_seconds seconds");
	assert_line(text, "# UNIT wsc_trace_duration_seconds seconds");
	assert_int_equal(lines_starting(text, "# UNIT "), 2);
	assert_line(text, "wsc_trace_info{" T ",trace=\"42\"} 1");
	assert_line(text, "wsc_trace_duration_seconds{" T "} 1.5");
	assert_line(text, "wsc_trace_lost_events_total{" T "} 3");
	assert_line(text, "wsc_syscall_calls_total{" T ",syscall=\"read\"} 6");
	assert_line(text, "wsc_syscall_calls_total{" T ",syscall=\"openat\"} 5");
	assert_line(text, "wsc_syscall_wrapped_total{" T ",syscall=\"read\"} 2");
	assert_line(text, "wsc_syscall_cpu_seconds_total{" T ",syscall=\"read\"} 0.00000504");
	assert_line(text, "wsc_syscall_off_cpu_seconds_total{" T ",syscall=\"read\"} 70");
	assert_line(text, "wsc_syscall_off_cpu_seconds_total{" T ",syscall=\"openat\"} 0");
	assert_line(text, "wsc_syscall_errors_total{" T ",syscall=\"openat\",errno=\"ENOENT\"} 3");
	assert_line(text, "wsc_syscall_errors_total{" T ",syscall=\"openat\",errno=\"EACCES\"} 1");
	assert_line(text, "wsc_syscall_errors_total{" T ",syscall=\"openat\",errno=\"unknown\"} 1");
	assert_int_equal(lines_starting(text, "wsc_syscall_errors_total{"), 3);
	/* The histogram: cumulative at each bound, +Inf, sum and count. */
	assert_int_equal(lines_starting(text, "wsc_syscall_latency_seconds_bucket{"),
			 2 * (TRACE_OM_BOUNDS + 1));
	assert_line(text, "wsc_syscall_latency_seconds_bucket{" T ",syscall=\"read\",le=\"0.000000063\"} 2");
	assert_line(text, "wsc_syscall_latency_seconds_bucket{" T ",syscall=\"read\",le=\"0.000000511\"} 2");
	assert_line(text, "wsc_syscall_latency_seconds_bucket{" T ",syscall=\"read\",le=\"0.000001023\"} 5");
	assert_line(text, "wsc_syscall_latency_seconds_bucket{" T ",syscall=\"read\",le=\"68.719476735\"} 5");
	assert_line(text, "wsc_syscall_latency_seconds_bucket{" T ",syscall=\"read\",le=\"+Inf\"} 6");
	assert_line(text, "wsc_syscall_latency_seconds_sum{" T ",syscall=\"read\"} 70.00000504");
	assert_line(text, "wsc_syscall_latency_seconds_count{" T ",syscall=\"read\"} 6");
	assert_line(text, "wsc_syscall_latency_seconds_bucket{" T ",syscall=\"openat\",le=\"0.000002047\"} 0");
	assert_line(text, "wsc_syscall_latency_seconds_bucket{" T ",syscall=\"openat\",le=\"0.000004095\"} 5");
	assert_line(text, "wsc_syscall_latency_seconds_sum{" T ",syscall=\"openat\"} 0.00001024");
	/* No tasks without --by, no requests without --ring; the end said. */
	assert_null(strstr(text, "wsc_ring_"));
	assert_null(strstr(text, "wsc_process_"));
	assert_null(strstr(text, "wsc_thread_"));
	assert_int_equal(strcmp(text + strlen(text) - 6, "# EOF\n"), 0);
	free(text);
}

static void test_metrics_per_task(void **state)
{
	struct wsc_trace_task tasks[3] = {
		{ .tid = 10, .pid = 10, .ppid = 1, .comm = "make", .calls = 4,
		  .errors = 1, .total_ns = 3000, .off_ns = 1000 },
		{ .tid = 11, .pid = 10, .ppid = 1, .comm = "make", .calls = 2,
		  .total_ns = 500 },
		{ .tid = 12, .pid = 12, .ppid = 10, .comm = "cc\"1", .calls = 1 },
	};
	struct trace_row rows[2];
	struct trace_report r;
	char *text;

	(void)state;
	fill_report(&r, rows);
	snprintf(r.target, sizeof(r.target), "pid 10");
	r.tasks = tasks;
	r.nr_tasks = 3;
	r.by = TRACE_BY_PROCESS;
	text = om_text(&r);
	assert_line(text, "# TYPE wsc_process_calls_total counter");
	assert_line(text, "wsc_process_calls_total{target=\"pid 10\",pid=\"10\",comm=\"make\"} 6");
	assert_line(text, "wsc_process_errors_total{target=\"pid 10\",pid=\"10\",comm=\"make\"} 1");
	assert_line(text, "wsc_process_cpu_seconds_total{target=\"pid 10\",pid=\"10\",comm=\"make\"} 0.0000025");
	assert_line(text, "wsc_process_off_cpu_seconds_total{target=\"pid 10\",pid=\"10\",comm=\"make\"} 0.000001");
	assert_line(text, "wsc_process_calls_total{target=\"pid 10\",pid=\"12\",comm=\"cc\\\"1\"} 1");
	assert_int_equal(lines_starting(text, "wsc_process_calls_total{"), 2);
	free(text);

	r.by = TRACE_BY_THREAD;
	text = om_text(&r);
	assert_line(text, "wsc_thread_calls_total{target=\"pid 10\",tid=\"11\",pid=\"10\",comm=\"make\"} 2");
	assert_int_equal(lines_starting(text, "wsc_thread_calls_total{"), 3);
	assert_null(strstr(text, "wsc_process_"));
	free(text);
}

static struct trace_errno ring_errnos[] = { { 125, 1 } };
static struct trace_bucket ring_buckets[] = { { 8192, 8447, 3 }, { 1048576, 1081343, 1 } };

/* fill_report() and, with --ring, io_uring's READs in @rows[2]. */
static void fill_ring_report(struct trace_report *r, struct trace_row *rows)
{
	fill_report(r, rows);
	rows[2] = (struct trace_row){ .nr = 1046, .name = "ring:READ",
		.group = "io_uring", .calls = 4, .errors = 1,
		.total_ns = 1100000, .off_ns = 1100000,
		.buckets = ring_buckets, .nr_buckets = 2,
		.errnos = ring_errnos, .nr_errnos = 1, .ring = true, .op = 22 };
	trace_row_finish(&rows[2]);
	r->nr_rows = 3;
	r->ring = true;
	r->ring_lost = 2;
	r->ring_pending = 1;
	trace_report_finish(r);
}

/*
 * io_uring's requests are families of their own, by opcode: the system
 * calls' series add up to the report's totals, as the table's rows do.
 */
static void test_ring_families(void **state)
{
	struct trace_row rows[3];
	struct trace_report r;
	char *text;

	(void)state;
	fill_ring_report(&r, rows);
	text = om_text(&r);
	assert_int_equal(lines_starting(text, "# TYPE "), 14);
	assert_line(text, "# TYPE wsc_ring_requests_total counter");
	assert_line(text, "# TYPE wsc_ring_latency_seconds histogram");
	assert_line(text, "# TYPE wsc_ring_pending_requests gauge");
	assert_line(text, "wsc_ring_requests_total{" T ",op=\"READ\"} 4");
	assert_line(text, "wsc_ring_errors_total{" T ",op=\"READ\",errno=\"ECANCELED\"} 1");
	assert_line(text, "wsc_ring_latency_seconds_bucket{" T ",op=\"READ\",le=\"0.000016383\"} 3");
	assert_line(text, "wsc_ring_latency_seconds_bucket{" T ",op=\"READ\",le=\"0.002097151\"} 4");
	assert_line(text, "wsc_ring_latency_seconds_sum{" T ",op=\"READ\"} 0.0011");
	assert_line(text, "wsc_ring_latency_seconds_count{" T ",op=\"READ\"} 4");
	assert_line(text, "wsc_ring_lost_requests_total{" T "} 2");
	assert_line(text, "wsc_ring_pending_requests{" T "} 1");
	/* Not a system call: in none of their series. */
	assert_null(strstr(text, "syscall=\"ring:"));
	assert_int_equal(lines_starting(text, "wsc_syscall_calls_total{"), 2);
	assert_int_equal(lines_starting(text, "wsc_ring_requests_total{"), 1);
	free(text);
}

/*
 * promtool check metrics passes the text of a report and of its tasks
 * (escaped labels, errnos, the histograms, io_uring's requests), when
 * promtool is installed.
 * The VM suite's t_openmetrics.sh has node_exporter's parser read a real
 * trace's file; promtool is checked here, where it starts in a tenth of
 * a second instead of twenty.
 */
static void test_promtool_accepts(void **state)
{
	char path[] = "/tmp/test_openmetrics.promXXXXXX", cmd[128];
	struct wsc_trace_task tasks[1] = {
		{ .tid = 10, .pid = 10, .ppid = 1, .comm = "make", .calls = 4 },
	};
	struct trace_row rows[3];
	struct trace_report r;
	char *text;
	int by, fd;

	(void)state;
	if (system("command -v promtool > /dev/null") != 0)
		skip();
	fill_ring_report(&r, rows);
	r.tasks = tasks;
	r.nr_tasks = 1;
	for (by = TRACE_BY_NONE; by <= TRACE_BY_THREAD; by++) {
		r.by = by;
		text = om_text(&r);
		fd = mkstemp(path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
		close(fd);
		snprintf(cmd, sizeof(cmd), "promtool check metrics < %s", path);
		assert_int_equal(system(cmd), 0);
		unlink(path);
		memcpy(path + strlen(path) - 6, "XXXXXX", 6);
		free(text);
	}
}

/* The file is replaced whole; its .tmp never stays; a failure is said. */
static void test_write_replaces_the_file(void **state)
{
	char dir[] = "/tmp/test_openmetrics.XXXXXX", path[64], tmp[80];
	struct csv_out c = { 0 };
	struct trace_row rows[2];
	struct trace_report r;
	struct stat st;
	char *text, *back;
	FILE *f;
	long n;

	(void)state;
	fill_report(&r, rows);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/wsc.prom", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	c.path = path;
	snprintf(c.tmp, sizeof(c.tmp), "%s", tmp);
	assert_int_equal(trace_om_write(&c, &r), 0);
	rows[0].calls = 7;
	assert_int_equal(trace_om_write(&c, &r), 0);
	assert_null(c.f);
	assert_int_not_equal(stat(tmp, &st), 0);
	text = om_text(&r);
	f = fopen(path, "r");
	assert_non_null(f);
	back = calloc(1, strlen(text) + 2);
	assert_non_null(back);
	n = (long)fread(back, 1, strlen(text) + 1, f);
	fclose(f);
	assert_int_equal(n, (long)strlen(text));
	assert_string_equal(back, text);
	free(back);
	free(text);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	/* Its folder gone: -ENOENT, and nothing left behind. */
	assert_int_equal(trace_om_write(&c, &r), -ENOENT);
	assert_null(c.f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds_are_bucket_tops),
		cmocka_unit_test(test_cumulative_counts_exact),
		cmocka_unit_test(test_metrics_of_a_report),
		cmocka_unit_test(test_metrics_per_task),
		cmocka_unit_test(test_ring_families),
		cmocka_unit_test(test_write_replaces_the_file),
		cmocka_unit_test(test_promtool_accepts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
