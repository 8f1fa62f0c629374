// SPDX-License-Identifier: MIT
/*
 * wsc trace --advise's pure logic on the host (user/cli/trace/advise*.c):
 * the model's break-even and saving, --gap's values, the runs cut from
 * each thread's events, the sequences, their references and names, and
 * the calibration file (path, format, store and load).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "trace/advise.h"
#include "trace/advise_calib.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The contract's example figures: break-even 3. */
static const struct advise_costs costs = {
	.entry_ns = 800, .batch_fixed_ns = 1450, .batch_per_call_ns = 95,
	.break_even = 3,
};

static void test_break_even(void **state)
{
	(void)state;
	/* 1450 / (800 - 95) = 2.06: 3 calls are the first to save. */
	assert_int_equal(advise_break_even(800, 1450, 95), 3);
	/* Exactly even is not a saving: 2 * 100 = 200, not more. */
	assert_int_equal(advise_break_even(200, 200, 100), 3);
	assert_int_equal(advise_break_even(800, 0, 95), 1);
	/* A wrapped call dearer than an entry: never. */
	assert_int_equal(advise_break_even(100, 1000, 100), 0);
	assert_int_equal(advise_break_even(100, 1000, 150), 0);
	/* Beyond one batch's 1024 calls: none. */
	assert_int_equal(advise_break_even(101, 2000, 100), 0);
	assert_int_equal(advise_break_even(101, 1023, 100), 1024);
}

static void test_run_saving(void **state)
{
	(void)state;
	assert_int_equal(advise_batches(1), 1);
	assert_int_equal(advise_batches(1024), 1);
	assert_int_equal(advise_batches(1025), 2);
	assert_int_equal(advise_batches(2048), 2);
	/* 4 x 800 - (1450 + 4 x 95) */
	assert_true(advise_run_saving(&costs, 4) == 1370.0);
	assert_true(advise_run_saving(&costs, 2) < 0);
	/* Two batches: two fixed costs. */
	assert_true(advise_run_saving(&costs, 1025) ==
		    1025 * 800.0 - (2 * 1450.0 + 1025 * 95.0));
	assert_int_equal(advise_default_gap(800), 6400);
	assert_int_equal(advise_default_gap(0.05), 1);
}

static void test_gap_values(void **state)
{
	static const struct { const char *s; int ret; uint64_t ns; } cases[] = {
		{ "500", 0, 500 }, { "500ns", 0, 500 }, { "1.5us", 0, 1500 },
		{ "2ms", 0, 2000000 }, { "0", 0, 0 }, { "1e3ns", 0, 1000 },
		{ "60000ms", 0, 60000000000ull },
		{ "-1", -1, 0 }, { "+1", -1, 0 }, { "1xs", -1, 0 },
		{ "", -1, 0 }, { "us", -1, 0 }, { " 5", -1, 0 },
		{ "5 ", -1, 0 }, { "0x10", -1, 0 }, { "1s", -1, 0 },
		{ "nan", -1, 0 }, { "inf", -1, 0 }, { "60001ms", -2, 0 },
		{ "1e30", -2, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t ns = 12345;

		assert_int_equal(advise_parse_gap(cases[i].s, &ns), cases[i].ret);
		assert_int_equal(ns, cases[i].ret ? 12345 : cases[i].ns);
	}
}

/* A thread's calls, built one after the other. */
struct script {
	struct wsc_trace_event ev[4096];
	size_t n;
	uint64_t now;
	uint32_t tid;
};

/* One call: entered @gap ns after the previous one exited, 200 ns long. */
static void call(struct script *s, uint64_t gap, unsigned int nr, int64_t ret,
		 uint64_t a0, uint64_t a2)
{
	struct wsc_trace_event *e = &s->ev[s->n++];

	memset(e, 0, sizeof(*e));
	s->now += gap;
	e->enter_ns = s->now;
	s->now += 200;
	e->exit_ns = s->now;
	e->ret = ret;
	e->args[0] = a0;
	e->args[2] = a2;
	e->nr = (uint16_t)nr;
	e->tid = s->tid;
}

/* 10 x (openat, newfstatat, read, close) 1 ms apart, then 5 getpid. */
static void file_scan(struct script *s)
{
	int i;

	for (i = 0; i < 10; i++) {
		call(s, 1000000, SYS_openat, 3, (uint64_t)-100, 0);
		call(s, 100, SYS_newfstatat, 0, 3, 0);
		call(s, 100, SYS_read, 100, 3, 4096);
		call(s, 100, SYS_close, 0, 3, 0);
	}
	for (i = 0; i < 5; i++)
		call(s, 1000000, SYS_getpid, 42, 0, 0);
}

/* Analyse @s's events, reversed (as if from several CPUs), at @gap. */
static void analyse(struct script *s, uint64_t gap, struct advise_report *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->calib.costs = costs;
	r->gap_ns = gap;
	for (i = 0; i < s->n / 2; i++) {
		struct wsc_trace_event t = s->ev[i];

		s->ev[i] = s->ev[s->n - 1 - i];
		s->ev[s->n - 1 - i] = t;
	}
	assert_int_equal(advise_analyse(s->ev, s->n, r), 0);
}

/* A fresh script for thread @tid (one at a time: it is large). */
static struct script *script_new(uint32_t tid)
{
	static struct script s;

	memset(&s, 0, sizeof(s));
	s.tid = tid;
	return &s;
}

/* file_scan() in thread 7, analysed at @gap. */
static void scan_at(uint64_t gap, struct advise_report *r)
{
	struct script *s = script_new(7);

	file_scan(s);
	analyse(s, gap, r);
}

static void summary_is(const struct advise_seq *seq, const char *want)
{
	char buf[256];

	advise_seq_summary(seq->nrs, seq->len, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void ref_is(const struct advise_seq *seq, size_t i, const char *want)
{
	char buf[96];

	assert_true(i < seq->nr_refs);
	advise_ref_text(seq, &seq->refs[i], buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_small_gap_splits_groups(void **state)
{
	struct advise_report r;

	(void)state;
	scan_at(1000, &r);
	assert_int_equal(r.events, 45);
	assert_int_equal(r.threads, 1);
	assert_int_equal(r.runs, 10);
	assert_int_equal(r.run_calls, 40);
	assert_int_equal(r.nr_seqs, 1);
	assert_int_equal(r.seqs[0].count, 10);
	assert_true(r.seqs[0].worth);
	summary_is(&r.seqs[0], "openat -> newfstatat -> read -> close");
	assert_int_equal(r.seqs[0].nr_refs, 3);
	ref_is(&r.seqs[0], 0, "newfstatat#1.arg0 = openat#0");
	ref_is(&r.seqs[0], 1, "read#2.arg0 = openat#0");
	ref_is(&r.seqs[0], 2, "close#3.arg0 = openat#0");
	assert_int_equal(r.entries_now, 40);
	assert_int_equal(r.entries_batched, 10);
	assert_true(r.saving_ns == 10 * 1370.0);
	advise_report_free(&r);
}

static void test_large_gap_joins_everything(void **state)
{
	struct advise_report r;

	(void)state;
	scan_at(2000000, &r);
	assert_int_equal(r.runs, 1);
	assert_int_equal(r.nr_seqs, 1);
	assert_int_equal(r.seqs[0].count, 1);
	assert_int_equal(r.seqs[0].len, 45);
	summary_is(&r.seqs[0],
		   "(openat -> newfstatat -> read -> close) x 10 -> getpid x 5");
	/* Each group's calls refer to its own openat, the latest. */
	assert_int_equal(r.seqs[0].nr_refs, 30);
	ref_is(&r.seqs[0], 29, "close#39.arg0 = openat#36");
	assert_int_equal(r.entries_now, 45);
	assert_int_equal(r.entries_batched, 1);
	advise_report_free(&r);
}

static void test_tiny_gap_leaves_no_run(void **state)
{
	struct advise_report r;

	(void)state;
	scan_at(99, &r);
	assert_int_equal(r.runs, 0);
	assert_int_equal(r.nr_seqs, 0);
	assert_int_equal(r.entries_now, 0);
	assert_true(r.saving_ns == 0);
	advise_report_free(&r);
}

/* A refused call, a batch's ioctl and its wrapped calls end runs. */
static void test_what_ends_a_run(void **state)
{
	struct script *s = script_new(0);
	struct advise_report r;

	(void)state;
	call(s, 0, SYS_getpid, 1, 0, 0);
	call(s, 10, SYS_getppid, 1, 0, 0);
	call(s, 10, SYS_clone, 1, 0, 0);	/* not allowed */
	call(s, 10, SYS_getpid, 1, 0, 0);
	call(s, 10, SYS_gettid, 1, 0, 0);
	call(s, 10, SYS_ioctl, 2, 3, 0);
	s->ev[s->n - 1].flags = WSC_TRACE_EVENT_BATCH;
	call(s, 10, SYS_getpid, 1, 0, 0);
	s->ev[s->n - 1].flags = WSC_TRACE_EVENT_WRAPPED;
	call(s, 10, SYS_getpid, 1, 0, 0);
	s->ev[s->n - 1].flags = WSC_TRACE_EVENT_WRAPPED;
	call(s, 10, SYS_getpid, 1, 0, 0);
	call(s, 10, SYS_getppid, 1, 0, 0);
	analyse(s, 1000, &r);
	assert_int_equal(r.already_wrapped, 2);
	assert_int_equal(r.batch_ioctls, 1);
	assert_int_equal(r.runs, 3);
	assert_int_equal(r.nr_seqs, 2);
	/* Below the break-even of 3: listed, saving nothing. */
	assert_false(r.seqs[0].worth);
	assert_int_equal(r.entries_now, 0);
	assert_int_equal(r.entries_batched, 0);
	advise_report_free(&r);
}

/* Two threads at the same moments: their calls never join. */
static void test_threads_apart(void **state)
{
	struct script *s = script_new(0);
	struct advise_report r;
	size_t i, half;

	(void)state;
	s->tid = 1;
	for (i = 0; i < 3; i++)
		call(s, 10, SYS_getpid, 1, 0, 0);
	half = s->n;
	s->now = 0;
	s->tid = 2;
	for (i = 0; i < 3; i++)
		call(s, 10, SYS_gettid, 2, 0, 0);
	assert_int_equal(s->ev[0].enter_ns, s->ev[half].enter_ns);
	analyse(s, 1000, &r);
	assert_int_equal(r.threads, 2);
	assert_int_equal(r.runs, 2);
	assert_int_equal(r.nr_seqs, 2);
	summary_is(&r.seqs[0], "getpid x 3");
	summary_is(&r.seqs[1], "gettid x 3");
	assert_int_equal(r.entries_now, 6);
	assert_int_equal(r.entries_batched, 2);
	advise_report_free(&r);
}

/* A read's byte count written on; a descriptor not from the run is not a reference. */
static void test_byte_references(void **state)
{
	struct script *s = script_new(0);
	struct advise_report r;

	(void)state;
	call(s, 0, SYS_openat, 5, (uint64_t)-100, 0);
	call(s, 10, SYS_read, 1000, 5, 4096);
	call(s, 10, SYS_write, 1000, 1, 1000);
	call(s, 10, SYS_close, 0, 5, 0);
	/* Only the descriptor's int counts. */
	s->ev[s->n - 1].args[0] = 0xffffffff00000005ull;
	analyse(s, 1000, &r);
	assert_int_equal(r.nr_seqs, 1);
	assert_int_equal(r.seqs[0].nr_refs, 3);
	ref_is(&r.seqs[0], 0, "read#1.arg0 = openat#0");
	ref_is(&r.seqs[0], 1, "write#2.arg2 = read#1");
	ref_is(&r.seqs[0], 2, "close#3.arg0 = openat#0");
	advise_report_free(&r);
}

/* A run longer than a batch: two batches, references within each. */
static void test_long_run(void **state)
{
	struct script *s = script_new(0);
	struct advise_report r;
	size_t i;

	(void)state;
	for (i = 0; i < 1030; i++)
		call(s, 10, SYS_getpid, 1, 0, 0);
	analyse(s, 1000, &r);
	assert_int_equal(r.runs, 1);
	assert_int_equal(r.entries_now, 1030);
	assert_int_equal(r.entries_batched, 2);
	summary_is(&r.seqs[0], "getpid x 1030");
	assert_true(r.saving_ns == advise_run_saving(&costs, 1030));
	advise_report_free(&r);
}

static void test_summaries(void **state)
{
	static const uint16_t nested[] = {
		SYS_openat, SYS_read, SYS_read, SYS_read, SYS_close,
		SYS_openat, SYS_read, SYS_read, SYS_read, SYS_close,
		SYS_getpid,
	};
	struct advise_seq seq = { .nrs = (uint16_t *)nested, .len = 11 };
	char small[24];

	(void)state;
	summary_is(&seq, "(openat -> read x 3 -> close) x 2 -> getpid");
	seq.len = 5;
	summary_is(&seq, "openat -> read x 3 -> close");
	/* Cut, with its "..." */
	seq.len = 11;
	advise_seq_summary(seq.nrs, seq.len, small, sizeof(small));
	assert_string_equal(small, "(openat -> read x 3...");
}

/* A calibration as the contract shows it. */
static const char calib_text[] =
	"# wsc calibration: what one kernel entry costs on this machine\n"
	"version=1\n"
	"kernel=6.1.0-56-amd64           # uname -r\n"
	"machine=0123abcd\n"
	"module=1.0.0\n"
	"date=2026-11-27T12:34:56Z\n"
	"rounds=5\n"
	"future_key=whatever\n"
	"entry_ns=812.4\n"
	"batch_fixed_ns=1450.0\n"
	"batch_per_call_ns=95.2\n"
	"break_even=3\n"
	"gap_floor_ns=4000.5\n";

static int parse_text(const char *text, struct advise_calib *c)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int err;

	assert_non_null(f);
	err = advise_calib_parse(f, c);
	fclose(f);
	return err;
}

static void test_calib_parse(void **state)
{
	struct advise_calib c;
	char bad[sizeof(calib_text) + 32];

	(void)state;
	assert_int_equal(parse_text(calib_text, &c), 0);
	assert_string_equal(c.kernel, "6.1.0-56-amd64");
	assert_string_equal(c.machine, "0123abcd");
	assert_string_equal(c.date, "2026-11-27T12:34:56Z");
	assert_int_equal(c.rounds, 5);
	assert_true(c.costs.entry_ns == 812.4);
	assert_true(c.costs.batch_per_call_ns == 95.2);
	assert_int_equal(c.costs.break_even, 3);
	assert_true(c.gap_floor_ns == 4000.5);
	/* Every key a file must have, missing in turn. */
	static const char *const needed[] = {
		"version=", "kernel=", "module=", "date=", "entry_ns=",
		"batch_fixed_ns=", "batch_per_call_ns=", "gap_floor_ns=",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(needed); i++) {
		const char *at = strstr(calib_text, needed[i]);
		size_t off = (size_t)(at - calib_text);

		snprintf(bad, sizeof(bad), "%.*s%s", (int)off, calib_text,
			 strchr(at, '\n') + 1);
		assert_int_equal(parse_text(bad, &c), -EINVAL);
	}
	snprintf(bad, sizeof(bad), "%s", calib_text);
	memcpy(strstr(bad, "version=1"), "version=2", 9);
	assert_int_equal(parse_text(bad, &c), -EINVAL);
	snprintf(bad, sizeof(bad), "%sentry_ns=-3\n", calib_text);
	assert_int_equal(parse_text(bad, &c), -EINVAL);
	snprintf(bad, sizeof(bad), "%sa line\n", calib_text);
	assert_int_equal(parse_text(bad, &c), -EINVAL);
}

static void test_calib_store_and_load(void **state)
{
	char dir[] = "/tmp/test_advise.XXXXXX", path[256], text[2048];
	struct advise_calib c, back;
	struct stat st;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(parse_text(calib_text, &c), 0);
	snprintf(c.path, sizeof(c.path), "%s/a/b/x.conf", dir);
	assert_int_equal(advise_calib_store(&c), 0);
	assert_int_equal(advise_calib_load(c.path, &back), 0);
	assert_string_equal(back.path, c.path);
	assert_string_equal(back.kernel, c.kernel);
	assert_string_equal(back.module, c.module);
	assert_string_equal(back.date, c.date);
	assert_true(back.costs.entry_ns == c.costs.entry_ns);
	assert_true(back.costs.batch_fixed_ns == c.costs.batch_fixed_ns);
	assert_int_equal(back.costs.break_even, 3);
	/* The lines the library reads, as the contract spells them. */
	f = fopen(c.path, "r");
	assert_non_null(f);
	text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
	fclose(f);
	assert_non_null(strstr(text, "\nversion=1\n"));
	assert_non_null(strstr(text, "\nbreak_even=3\n"));
	assert_non_null(strstr(text, "\nentry_ns=812.4\n"));
	assert_non_null(strstr(text, "\ngap_floor_ns=4000.5\n"));
	/* No temporary file left beside it. */
	snprintf(path, sizeof(path), "%s/a/b/x.conf.tmp.%d", dir, (int)getpid());
	assert_int_not_equal(stat(path, &st), 0);
	assert_int_equal(advise_calib_load("/nonexistent/x.conf", &back), -ENOENT);
	unlink(c.path);
	snprintf(path, sizeof(path), "%s/a/b", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_calib_path(void **state)
{
	char buf[256];
	struct stat st;

	(void)state;
	setenv("WSC_CALIBRATION", "/x/y.conf", 1);
	assert_int_equal(advise_calib_path("6.1.0", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/y.conf");
	unsetenv("WSC_CALIBRATION");
	/* The system's folder wins when it is there: not on this host. */
	if (!stat("/var/lib/wsc", &st))
		skip();
	setenv("XDG_CACHE_HOME", "/c", 1);
	assert_int_equal(advise_calib_path("6.1.0", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/c/wsc/calibration/6.1.0.conf");
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/h", 1);
	assert_int_equal(advise_calib_path("6.1.0", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/h/.cache/wsc/calibration/6.1.0.conf");
	unsetenv("HOME");
	assert_int_equal(advise_calib_path("6.1.0", buf, sizeof(buf)), -ENOENT);
}

static void test_json(void **state)
{
	struct json_object *o, *v, *seq, *calls, *refs;
	struct advise_report r;

	(void)state;
	scan_at(1000, &r);
	snprintf(r.calib.path, sizeof(r.calib.path), "/x.conf");
	o = advise_json(&r, 100000000);
	assert_true(json_object_object_get_ex(o, "predicted_saving_ns", &v));
	assert_true(json_object_get_double(v) == 13700.0);
	assert_true(json_object_object_get_ex(o, "entries_now", &v));
	assert_int_equal(json_object_get_int64(v), 40);
	assert_true(json_object_object_get_ex(o, "entries_batched", &v));
	assert_int_equal(json_object_get_int64(v), 10);
	assert_true(json_object_object_get_ex(o, "gap_ns", &v));
	assert_int_equal(json_object_get_int64(v), 1000);
	assert_true(json_object_object_get_ex(o, "calibration", &v));
	assert_true(json_object_object_get_ex(v, "break_even", &v));
	assert_int_equal(json_object_get_int64(v), 3);
	assert_true(json_object_object_get_ex(o, "sequences", &v));
	assert_int_equal(json_object_array_length(v), 1);
	seq = json_object_array_get_idx(v, 0);
	assert_true(json_object_object_get_ex(seq, "calls", &calls));
	assert_int_equal(json_object_array_length(calls), 4);
	assert_string_equal(json_object_get_string(
		json_object_array_get_idx(calls, 1)), "newfstatat");
	assert_true(json_object_object_get_ex(seq, "count", &v));
	assert_int_equal(json_object_get_int64(v), 10);
	assert_true(json_object_object_get_ex(seq, "references", &refs));
	assert_int_equal(json_object_array_length(refs), 3);
	json_object_put(o);
	advise_report_free(&r);
}

/* advise_print() to a string (free it). */
static char *print_table(const struct advise_report *r, uint64_t traced_ns)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	advise_print(f, r, traced_ns);
	assert_int_equal(fclose(f), 0);
	return out;
}

/*
 * The table says what the JSON says, names the break-even its entries
 * count from, and keeps within 100 columns.
 */
static void test_table(void **state)
{
	struct advise_report r;
	const char *line;
	char *out;

	(void)state;
	scan_at(1000, &r);
	snprintf(r.calib.path, sizeof(r.calib.path), "/x.conf");
	out = print_table(&r, 100000000);
	assert_non_null(strstr(out, "  kernel entries of the runs of 3 calls or more (the break-even): 40 now -> 10 batched\n"));
	assert_non_null(strstr(out, "break-even 3 calls;"));
	for (line = out; *line; ) {
		size_t n = strcspn(line, "\n");

		assert_in_range(n, 0, 100);
		line += n + (line[n] == '\n');
	}
	free(out);
	r.calib.costs.break_even = 0;
	out = print_table(&r, 100000000);
	assert_non_null(strstr(out, "worth batching (none: no batch up to 1024 calls pays here)"));
	assert_non_null(strstr(out, "break-even none up to 1024;"));
	free(out);
	advise_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_break_even),
		cmocka_unit_test(test_run_saving),
		cmocka_unit_test(test_gap_values),
		cmocka_unit_test(test_small_gap_splits_groups),
		cmocka_unit_test(test_large_gap_joins_everything),
		cmocka_unit_test(test_tiny_gap_leaves_no_run),
		cmocka_unit_test(test_what_ends_a_run),
		cmocka_unit_test(test_threads_apart),
		cmocka_unit_test(test_byte_references),
		cmocka_unit_test(test_long_run),
		cmocka_unit_test(test_summaries),
		cmocka_unit_test(test_calib_parse),
		cmocka_unit_test(test_calib_store_and_load),
		cmocka_unit_test(test_calib_path),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
