// SPDX-License-Identifier: MIT
/*
 * wsc diff's pure logic on the host: the --threshold grammar and its
 * defaults, when a change passes a limit, reports read from text (and
 * refused), rows matched by name, their order, and the verdict
 * (user/cli/diff/diff_*.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diff/diff.h"

static int parse(struct diff_thresholds *t, const char *arg)
{
	char why[160] = "";

	return diff_threshold_parse(t, arg, why, sizeof(why));
}

static void test_threshold_grammar(void **state)
{
	struct diff_thresholds t = { .n = 0 };

	(void)state;
	assert_int_equal(parse(&t, "calls=5%"), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.lim[0].metric, DIFF_M_CALLS);
	assert_true(t.lim[0].relative);
	assert_true(t.lim[0].value == 5);
	assert_int_equal(parse(&t, "errors=0,p99=2ms,time=1.5s,p50=10us,calls=3"), 0);
	assert_int_equal(t.n, 6);
	assert_false(t.lim[1].relative);
	assert_true(t.lim[1].value == 0);
	assert_true(t.lim[2].value == 2e6);
	assert_true(t.lim[3].value == 1.5e9);
	assert_true(t.lim[4].value == 1e4);
	/* calls twice: both limits kept, to be passed together. */
	assert_int_equal(t.lim[5].metric, DIFF_M_CALLS);
	assert_true(t.named[DIFF_M_CALLS] && t.named[DIFF_M_P99]);
	assert_int_equal(parse(&t, "p99=off"), 0);
	assert_int_equal(t.n, 5);
	assert_int_equal(parse(&t, "none"), 0);
	assert_int_equal(t.n, 0);
}

static void test_threshold_mistakes(void **state)
{
	static const char *const bad[] = {
		"calls", "calls=", "bogus=5%", "calls=5x", "calls=1.5",
		"time=5", "time=5m", "p99=-1ms", "errors=%", "=5%", "calls=5%,",
		",calls=5%", "calls=abc",
	};
	struct diff_thresholds t = { .n = 0 };
	char why[160];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(diff_threshold_parse(&t, bad[i], why, sizeof(why)), -1);
		assert_true(why[0]);
	}
	diff_threshold_parse(&t, "bogus=5%", why, sizeof(why));
	assert_non_null(strstr(why, "no such metric"));
	diff_threshold_parse(&t, "time=5", why, sizeof(why));
	assert_non_null(strstr(why, "unit"));
}

static void test_threshold_defaults(void **state)
{
	struct diff_thresholds t = { .n = 0 }, b = { .n = 0 };
	char text[32];

	(void)state;
	diff_threshold_defaults(&t, DIFF_TRACE);
	assert_int_equal(t.n, 2);
	assert_string_equal(diff_limit_text(text, sizeof(text), &t.lim[0]), "5%");
	assert_int_equal(t.lim[1].metric, DIFF_M_ERRORS);
	assert_string_equal(diff_limit_text(text, sizeof(text), &t.lim[1]), "0");
	/* A metric the command line named keeps only its own limits. */
	memset(&t, 0, sizeof(t));
	assert_int_equal(parse(&t, "calls=50%,time=2ms"), 0);
	diff_threshold_defaults(&t, DIFF_TRACE);
	assert_int_equal(t.n, 3);
	assert_true(t.lim[0].value == 50);
	assert_string_equal(diff_limit_text(text, sizeof(text), &t.lim[1]), "2ms");
	assert_int_equal(t.lim[2].metric, DIFF_M_ERRORS);
	memset(&t, 0, sizeof(t));
	assert_int_equal(parse(&t, "errors=off"), 0);
	diff_threshold_defaults(&t, DIFF_TRACE);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.lim[0].metric, DIFF_M_CALLS);
	/* A bench's: its median. */
	diff_threshold_defaults(&b, DIFF_BENCH);
	assert_int_equal(b.lim[0].metric, DIFF_M_TIME);
	assert_true(b.lim[0].relative && b.lim[0].value == 10);
}

static void test_exceeds(void **state)
{
	struct diff_thresholds t = { .n = 0 };

	(void)state;
	assert_int_equal(parse(&t, "calls=5%,errors=0,time=1ms"), 0);
	assert_false(diff_exceeds(&t, DIFF_M_CALLS, 100, 105));
	assert_true(diff_exceeds(&t, DIFF_M_CALLS, 100, 106));
	assert_false(diff_exceeds(&t, DIFF_M_CALLS, 100, 50));
	/* From nothing, any growth is past any percentage. */
	assert_true(diff_exceeds(&t, DIFF_M_CALLS, 0, 1));
	assert_false(diff_exceeds(&t, DIFF_M_CALLS, 0, 0));
	assert_true(diff_exceeds(&t, DIFF_M_ERRORS, 3, 4));
	assert_false(diff_exceeds(&t, DIFF_M_ERRORS, 4, 4));
	assert_false(diff_exceeds(&t, DIFF_M_TIME, 5e6, 6e6));
	assert_true(diff_exceeds(&t, DIFF_M_TIME, 5e6, 6.1e6));
	/* No limit for p99: never past it. */
	assert_false(diff_exceeds(&t, DIFF_M_P99, 1, 1e9));
	/* Two limits of one metric: both must be passed. */
	assert_int_equal(parse(&t, "calls=10"), 0);
	assert_false(diff_exceeds(&t, DIFF_M_CALLS, 100, 108));
	assert_true(diff_exceeds(&t, DIFF_M_CALLS, 100, 111));
	assert_false(diff_exceeds(&t, DIFF_M_CALLS, 1000, 1011));
}

static const char base_text[] =
	"{\"target\": \"command: a\", \"filter\": null, \"calls\": 1110, \"errors\": 2,"
	" \"total_ns\": 50000, \"on_cpu_ns\": 40000, \"off_cpu_ns\": 10000, \"time\": \"cpu\","
	" \"syscalls\": ["
	"{\"name\": \"getppid\", \"calls\": 1000, \"errors\": 0, \"total_ns\": 10000,"
	" \"on_cpu_ns\": 10000, \"off_cpu_ns\": 0, \"p50_ns\": 10, \"p99_ns\": 20, \"errnos\": {}},"
	"{\"name\": \"read\", \"calls\": 100, \"errors\": 0, \"total_ns\": 30000,"
	" \"on_cpu_ns\": 20000, \"off_cpu_ns\": 10000, \"p50_ns\": 200, \"p99_ns\": 900, \"errnos\": {}},"
	"{\"name\": \"openat\", \"calls\": 10, \"errors\": 2, \"total_ns\": 10000,"
	" \"on_cpu_ns\": 10000, \"off_cpu_ns\": 0, \"p50_ns\": 900, \"p99_ns\": 2000,"
	" \"errnos\": {\"ENOENT\": 2}}],"
	" \"environment\": {\"kernel\": \"6.1.0-56-amd64\", \"wsc_version\": \"1.0.0\"}}";

/* The base, with getppid up 50%, openat's errors as EACCES, and mmap new. */
static const char new_text[] =
	"{\"target\": \"command: a\", \"filter\": null, \"calls\": 1615, \"errors\": 2,"
	" \"total_ns\": 60000, \"on_cpu_ns\": 50000, \"off_cpu_ns\": 10000, \"time\": \"cpu\","
	" \"syscalls\": ["
	"{\"name\": \"getppid\", \"calls\": 1500, \"errors\": 0, \"total_ns\": 15000,"
	" \"on_cpu_ns\": 15000, \"off_cpu_ns\": 0, \"p50_ns\": 10, \"p99_ns\": 20, \"errnos\": {}},"
	"{\"name\": \"read\", \"calls\": 100, \"errors\": 0, \"total_ns\": 30000,"
	" \"on_cpu_ns\": 20000, \"off_cpu_ns\": 10000, \"p50_ns\": 200, \"p99_ns\": 900, \"errnos\": {}},"
	"{\"name\": \"openat\", \"calls\": 10, \"errors\": 2, \"total_ns\": 10000,"
	" \"on_cpu_ns\": 10000, \"off_cpu_ns\": 0, \"p50_ns\": 900, \"p99_ns\": 2000,"
	" \"errnos\": {\"EACCES\": 2}},"
	"{\"name\": \"mmap\", \"calls\": 5, \"errors\": 0, \"total_ns\": 5000,"
	" \"on_cpu_ns\": 5000, \"off_cpu_ns\": 0, \"p50_ns\": 900, \"p99_ns\": 2000, \"errnos\": {}}],"
	" \"environment\": {\"kernel\": \"7.3.4+deb13-amd64\", \"wsc_version\": \"1.0.0\"}}";

static void load(struct diff_report *r, const char *text)
{
	char why[320] = "";

	memset(r, 0, sizeof(*r));
	r->path = "x";
	assert_int_equal(diff_load_text(r, text, why, sizeof(why)), 0);
}

static void test_load_trace(void **state)
{
	struct diff_report r;

	(void)state;
	load(&r, base_text);
	assert_int_equal(r.kind, DIFF_TRACE);
	assert_int_equal(r.nr_rows, 3);
	assert_string_equal(r.rows[2].name, "openat");
	assert_true(r.rows[2].v[DIFF_V_ERRORS] == 2);
	assert_true(diff_errno_count(&r.rows[2], "ENOENT") == 2);
	assert_true(diff_errno_count(&r.rows[2], "EPERM") == 0);
	assert_true(r.rows[1].v[DIFF_V_OFF] == 10000);
	assert_true(r.total.v[DIFF_V_CALLS] == 1110);
	assert_string_equal(r.time, "cpu");
	assert_string_equal(r.ctx[DIFF_CTX_KERNEL], "6.1.0-56-amd64");
	assert_string_equal(r.ctx[DIFF_CTX_TARGET], "command: a");
	diff_report_free(&r);
}

static void test_load_refusals(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "", "empty" },
		{ "{\"syscalls\": [", "not JSON: line 1" },
		{ "{\"a\": 1}\n{\"b\": ", "not JSON: line 2" },
		{ "{\"a\": 1}", "not a report of wsc trace" },
		{ "[1, 2]", "not a report of wsc trace" },
		{ "{\"interval\": 3, \"syscalls\": []}", "interval" },
		{ "{\"syscalls\": [{\"calls\": 1}]}", "has no name" },
		{ "{\"variants\": []}", "without \"call\"" },
	};
	struct diff_report r;
	char why[320];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&r, 0, sizeof(r));
		why[0] = '\0';
		assert_int_equal(diff_load_text(&r, bad[i].text, why, sizeof(why)), -1);
		if (!strstr(why, bad[i].why))
			fail_msg("'%s': '%s' lacks '%s'", bad[i].text, why, bad[i].why);
		diff_report_free(&r);
	}
}

static void test_load_last_line_and_bench(void **state)
{
	struct diff_report r;

	(void)state;
	/* wsc trace --interval -j: the last line is the whole trace. */
	load(&r, "{\"interval\": 1, \"syscalls\": []}\n"
		 "{\"syscalls\": [{\"name\": \"read\", \"calls\": 4}]}\n");
	assert_int_equal(r.nr_rows, 1);
	assert_true(r.rows[0].v[DIFF_V_CALLS] == 4);
	diff_report_free(&r);
	load(&r, "{\"call\": \"getpid\", \"iterations\": 10, \"variants\": ["
		 "{\"variant\": \"conventional\", \"count\": 10, \"errors\": 0,"
		 " \"median_ns\": 1287.5, \"p50_ns\": 1287.5, \"p99_ns\": 1767.91}]}");
	assert_int_equal(r.kind, DIFF_BENCH);
	assert_string_equal(r.rows[0].name, "getpid conventional");
	assert_true(r.rows[0].v[DIFF_V_WALL] == 1287.5);
	assert_string_equal(r.ctx[DIFF_CTX_TARGET], "wsc bench getpid");
	diff_report_free(&r);
}

static const struct diff_pair *pair_of(const struct diff_result *res,
				       const char *name)
{
	size_t i;

	for (i = 0; i < res->nr; i++) {
		const struct diff_pair *p = &res->pairs[i];

		if (!strcmp(p->side == DIFF_ONLY_NEW ? p->now->name : p->base->name, name))
			return p;
	}
	fail_msg("no row %s", name);
	return NULL;
}

static void test_compare(void **state)
{
	struct diff_thresholds t = { .n = 0 };
	struct diff_report base, now;
	struct diff_result res;
	const struct diff_pair *p;
	unsigned int which[DIFF_NR_CTX];

	(void)state;
	load(&base, base_text);
	load(&now, new_text);
	diff_threshold_defaults(&t, DIFF_TRACE);
	assert_int_equal(diff_compare(&res, &base, &now, &t, DIFF_V_ON), 0);
	assert_int_equal(res.nr, 4);
	/* The regressions first, by the change of on-CPU time: getppid
	 * +5000 ns, mmap +5000 ns but fewer calls changed, openat 0 ns. */
	assert_string_equal(res.pairs[0].base->name, "getppid");
	assert_string_equal(res.pairs[1].now->name, "mmap");
	assert_string_equal(res.pairs[2].base->name, "openat");
	assert_string_equal(res.pairs[3].base->name, "read");
	p = pair_of(&res, "getppid");
	assert_int_equal(p->side, DIFF_BOTH);
	assert_int_equal(p->regressed, 1u << DIFF_M_CALLS);
	assert_true(diff_change(p, DIFF_V_CALLS) == 500);
	assert_true(diff_change_pct(p, DIFF_V_CALLS) == 50);
	p = pair_of(&res, "mmap");
	assert_int_equal(p->side, DIFF_ONLY_NEW);
	assert_int_equal(p->regressed, 1u << DIFF_M_CALLS);
	assert_true(isinf(diff_change_pct(p, DIFF_V_CALLS)));
	/* The same number of errors, but an errno that was not there. */
	p = pair_of(&res, "openat");
	assert_int_equal(p->regressed, 1u << DIFF_M_ERRORS);
	assert_false(p->unchanged);
	p = pair_of(&res, "read");
	assert_true(p->unchanged);
	assert_int_equal(p->regressed, 0);
	assert_int_equal(res.unchanged, 1);
	/* The total: 1110 -> 1615 calls, past 5%. */
	assert_int_equal(res.total.regressed, 1u << DIFF_M_CALLS);
	assert_int_equal(res.regressions, 4);
	assert_int_equal(diff_context(&base, &now, which, DIFF_NR_CTX), 1);
	assert_int_equal(which[0], DIFF_CTX_KERNEL);
	diff_result_free(&res);

	/* Loose enough for all of it: no regression. */
	memset(&t, 0, sizeof(t));
	assert_int_equal(parse(&t, "calls=50%,calls=600,errors=off"), 0);
	diff_threshold_defaults(&t, DIFF_TRACE);
	assert_int_equal(diff_compare(&res, &base, &now, &t, DIFF_V_ON), 0);
	assert_int_equal(res.regressions, 0);
	diff_result_free(&res);

	/* Identical reports: every row unchanged, nothing regresses. */
	assert_int_equal(diff_compare(&res, &base, &base, &t, DIFF_V_WALL), 0);
	assert_int_equal(res.unchanged, 3);
	assert_int_equal(res.regressions, 0);
	assert_true(res.total.unchanged);
	diff_result_free(&res);
	diff_report_free(&base);
	diff_report_free(&now);
}

static void test_time_words(void **state)
{
	char buf[16];

	(void)state;
	assert_string_equal(diff_ns_text(buf, sizeof(buf), 0), "0ns");
	assert_string_equal(diff_ns_text(buf, sizeof(buf), 999), "999ns");
	assert_string_equal(diff_ns_text(buf, sizeof(buf), 566000), "566us");
	assert_string_equal(diff_ns_text(buf, sizeof(buf), 12345678), "12.3ms");
	assert_string_equal(diff_ns_text(buf, sizeof(buf), 1140000000), "1.14s");
	assert_string_equal(diff_ns_text(buf, sizeof(buf), -2500), "-2.50us");
	assert_int_equal(diff_time_value("cpu"), DIFF_V_ON);
	assert_int_equal(diff_time_value("off"), DIFF_V_OFF);
	assert_int_equal(diff_time_value("wall"), DIFF_V_WALL);
	assert_int_equal(diff_time_value("idle"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threshold_grammar),
		cmocka_unit_test(test_threshold_mistakes),
		cmocka_unit_test(test_threshold_defaults),
		cmocka_unit_test(test_exceeds),
		cmocka_unit_test(test_load_trace),
		cmocka_unit_test(test_load_refusals),
		cmocka_unit_test(test_load_last_line_and_bench),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_time_words),
	};

	return cmocka_run_group_tests_name("wsc diff", tests, NULL, NULL);
}
