// SPDX-License-Identifier: MIT
/*
 * The benchmarks' robust figures (user/cli/common/rounds.c): the median
 * and spread over rounds, and the Theil-Sen line, against values worked
 * out by hand.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libwsc.h"
#include "common/rounds.h"

static void assert_close(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fmax(1.0, fabs(want)))
		fail_msg("got %.12g, want %.12g", got, want);
}

static void test_spread_odd_and_even(void **state)
{
	const double odd[5] = { 3.35, 19.02, 10.15, 9.8, 10.3 };
	const double even[4] = { 4, 1, 3, 2 };
	struct spread s;

	(void)state;
	spread_of(odd, 5, &s);
	assert_close(s.median, 10.15);
	assert_close(s.min, 3.35);
	assert_close(s.max, 19.02);
	spread_of(even, 4, &s);
	assert_close(s.median, 2.5);
	assert_close(s.min, 1);
	assert_close(s.max, 4);
}

/* A break-even no batch size reaches is infinite: it sorts last. */
static void test_spread_infinite_and_nan(void **state)
{
	const double some[3] = { 5.0, INFINITY, 4.0 };
	const double most[3] = { INFINITY, 5.0, INFINITY };
	const double none[2] = { NAN, NAN };
	const double holes[4] = { NAN, 2.0, NAN, 4.0 };
	struct spread s;

	(void)state;
	spread_of(some, 3, &s);
	assert_close(s.median, 5.0);
	assert_close(s.min, 4.0);
	assert_true(isinf(s.max));
	spread_of(most, 3, &s);
	assert_true(isinf(s.median));
	spread_of(none, 2, &s);
	assert_true(isnan(s.median) && isnan(s.min) && isnan(s.max));
	spread_of(holes, 4, &s);
	assert_close(s.median, 3.0);
	assert_close(s.min, 2.0);
	assert_close(s.max, 4.0);
}

static void test_theil_sen_exact_line(void **state)
{
	const double x[6] = { 1, 2, 4, 8, 16, 64 };
	double y[6], a, b;
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++)
		y[i] = 1000 + 30 * x[i];
	assert_int_equal(fit_theil_sen(x, y, 6, &a, &b), 0);
	assert_close(a, 1000);
	assert_close(b, 30);
}

/*
 * One wild point, as a noisy host makes: least squares follows it far,
 * Theil-Sen stays on the other five.  Batch sizes as wsc bench fit's,
 * cost 1000 + 30 n, but the batch of 64 measured twice as slow.
 */
static void test_theil_sen_resists_an_outlier(void **state)
{
	const double x[6] = { 1, 2, 4, 8, 16, 64 };
	double y[6], a, b, ls_a, ls_b;
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++)
		y[i] = 1000 + 30 * x[i];
	y[5] *= 2;
	assert_int_equal(fit_theil_sen(x, y, 6, &a, &b), 0);
	assert_int_equal(wsc_stats_fit_line(x, y, 6, &ls_a, &ls_b), 0);
	/* 15 pairwise slopes, 10 of them exactly 30: the median is 30. */
	assert_close(b, 30);
	assert_close(a, 1000);
	/* Least squares: a slope near 78, an intercept near 727. */
	assert_true(ls_b > 77 && ls_b < 79 && ls_a > 720 && ls_a < 735);
}

/* The median of an even number of pairwise slopes: the middle two's mean. */
static void test_theil_sen_even_pairs(void **state)
{
	const double x[4] = { 0, 1, 2, 3 }, y[4] = { 0, 1, 4, 9 };
	double a, b;

	(void)state;
	/* Slopes 1, 2, 3, 4, 5, 3 -> sorted 1 2 3 3 4 5: median 3. */
	assert_int_equal(fit_theil_sen(x, y, 4, &a, &b), 0);
	assert_close(b, 3);
	/* y - 3x = 0, -2, -2, 0: median -1. */
	assert_close(a, -1);
}

static void test_theil_sen_refuses(void **state)
{
	const double x[3] = { 2, 2, 2 }, y[3] = { 1, 2, 3 };
	double big[65] = { 0 }, a, b;

	(void)state;
	assert_int_equal(fit_theil_sen(x, y, 1, &a, &b), -EINVAL);
	assert_int_equal(fit_theil_sen(x, y, 3, &a, &b), -EDOM);
	assert_int_equal(fit_theil_sen(big, big, 65, &a, &b), -EINVAL);
}

static void test_json_numbers(void **state)
{
	struct spread s = { 2.5, 1.25, INFINITY };
	char buf[64] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	assert_non_null(f);
	json_number(f, 2, NAN);
	fputc(' ', f);
	json_spread(f, 3, &s);
	fclose(f);
	assert_string_equal(buf, "null [1.250, null]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread_odd_and_even),
		cmocka_unit_test(test_spread_infinite_and_nan),
		cmocka_unit_test(test_theil_sen_exact_line),
		cmocka_unit_test(test_theil_sen_resists_an_outlier),
		cmocka_unit_test(test_theil_sen_even_pairs),
		cmocka_unit_test(test_theil_sen_refuses),
		cmocka_unit_test(test_json_numbers),
	};

	return cmocka_run_group_tests_name("robust figures over rounds", tests,
					   NULL, NULL);
}
