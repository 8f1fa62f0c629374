// SPDX-License-Identifier: MIT
/*
 * libwsc's statistics against vectors computed independently with
 * Python's statistics module (tests/unit/gen_stats_vectors.py).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libwsc.h"
#include "stats_vectors.h"
#include "vectors.h"


static void assert_close(double got, double want)
{
	double tol = 1e-9 * fmax(1.0, fabs(want));

	if (fabs(got - want) > tol)
		fail_msg("got %.12g, want %.12g", got, want);
}

static double *copy_of(const struct stats_vector *v)
{
	double *d = malloc(v->n * sizeof(double));

	assert_non_null(d);
	memcpy(d, v->data, v->n * sizeof(double));
	return d;
}

static void test_median(void **state)
{
	const struct stats_vector *v;
	double *d;

	(void)state;
	for_each_vector(v, d, stats_vectors, copy_of)
		assert_close(wsc_stats_median(d, v->n), v->median);
}

static void test_quantiles(void **state)
{
	const struct stats_vector *v;
	double *d;

	(void)state;
	for_each_vector(v, d, stats_vectors, copy_of) {
		wsc_stats_sort(d, v->n);
		assert_close(wsc_stats_quantile_sorted(d, v->n, 0.95), v->p95);
		assert_close(wsc_stats_quantile_sorted(d, v->n, 0.99), v->p99);
		assert_close(wsc_stats_quantile_sorted(d, v->n, 0.0), d[0]);
		assert_close(wsc_stats_quantile_sorted(d, v->n, 1.0), d[v->n - 1]);
	}
}

static void test_quantile_rejects_nonsense(void **state)
{
	double d[2] = { 1, 2 };

	(void)state;
	assert_true(isnan(wsc_stats_quantile_sorted(d, 0, 0.5)));
	assert_true(isnan(wsc_stats_quantile_sorted(d, 2, -0.1)));
	assert_true(isnan(wsc_stats_quantile_sorted(d, 2, 1.5)));
	assert_true(isnan(wsc_stats_median(d, 0)));
}

static void test_fit_line(void **state)
{
	double a, b;

	(void)state;
	assert_int_equal(wsc_stats_fit_line(fit_x, fit_y, 6, &a, &b), 0);
	assert_close(a, fit_intercept);
	assert_close(b, fit_slope);
}

static void test_fit_line_degenerate(void **state)
{
	const double x[3] = { 2, 2, 2 }, y[3] = { 1, 2, 3 };
	double a, b;

	(void)state;
	assert_int_equal(wsc_stats_fit_line(x, y, 1, &a, &b), -EINVAL);
	assert_int_equal(wsc_stats_fit_line(x, y, 3, &a, &b), -EDOM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_quantile_rejects_nonsense),
		cmocka_unit_test(test_fit_line),
		cmocka_unit_test(test_fit_line_degenerate),
	};

	return cmocka_run_group_tests_name("libwsc statistics", tests, NULL, NULL);
}
