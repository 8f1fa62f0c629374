// SPDX-License-Identifier: MIT
/*
 * The latency lab's shared arithmetic on the host: the integer summary
 * (include/wsc_summary.h, through wsc_stats_summary()) against vectors
 * computed independently by tests/unit/gen_summary_vectors.py, and the
 * log-linear histogram buckets (include/wsc_hist.h).
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
#include "wsc_hist.h"
#include "wsc_summary.h"
#include "summary_vectors.h"
#include "vectors.h"


typedef unsigned __int128 u128;

/* The vector's samples, in the order given (unsorted). */
static uint64_t *samples_of(const struct summary_vector *v)
{
	uint64_t *d = malloc(v->n * sizeof(*d) + 1);
	uint64_t i;

	assert_non_null(d);
	for (i = 0; i < v->n; i++)
		d[i] = v->data ? v->data[i] : v->base + (i * v->mult) % v->mod;
	return d;
}

static void assert_summary_equal(const char *name, const struct wsc_summary *got,
				 const struct wsc_summary *want)
{
#define FIELD(f) do {							\
	if (got->f != want->f)						\
		fail_msg("%s: " #f " is %llu, expected %llu", name,	\
			 (unsigned long long)got->f,			\
			 (unsigned long long)want->f);			\
} while (0)
	FIELD(count);
	FIELD(mean_ps);
	FIELD(median_ps);
	FIELD(stddev_ps);
	FIELD(min_ps);
	FIELD(max_ps);
	FIELD(ci95_lo_ps);
	FIELD(ci95_hi_ps);
	FIELD(p50_ps);
	FIELD(p95_ps);
	FIELD(p99_ps);
#undef FIELD
}

/* wsc_stats_summary() sorts and summarises: every field as computed. */
static void test_summary_vectors(void **state)
{
	const struct summary_vector *v;
	struct wsc_summary s;
	uint64_t *d, k;

	(void)state;
	for_each_vector(v, d, summary_vectors, samples_of) {
		memset(&s, 0xa5, sizeof(s));
		assert_int_equal(wsc_stats_summary(d, v->n, &s), 0);
		assert_summary_equal(v->name, &s, &v->sum);
		for (k = 1; k < v->n; k++)
			assert_true(d[k - 1] <= d[k]);
	}
}

/* The header's own entry point on sorted input gives the same. */
static void test_summary_compute_sorted(void **state)
{
	const struct summary_vector *v;
	struct wsc_summary a, b;
	uint64_t *d;

	(void)state;
	for_each_vector(v, d, summary_vectors, samples_of) {
		assert_int_equal(wsc_stats_summary(d, v->n, &a), 0);
		wsc_summary_compute((const __u64 *)d, v->n, &b);
		assert_summary_equal(v->name, &b, &a);
	}
}

static void assert_within_1ps(const char *name, const char *what,
			      uint64_t got, double want)
{
	double tol = 1 + 1e-12 * fabs(want);

	if (fabs((double)got - want) >= tol)
		fail_msg("%s: %s is %llu ps, Python's statistics says %.3f",
			 name, what, (unsigned long long)got, want);
}

/*
 * The integer rules lose at most a picosecond against the statistics
 * module's exact mean, float stdev and 1.96 stdev / sqrt(n).
 */
static void test_summary_agrees_with_statistics(void **state)
{
	const struct summary_vector *v;
	struct wsc_summary s;
	uint64_t *d;

	(void)state;
	for_each_vector(v, d, summary_vectors, samples_of) {
		assert_int_equal(wsc_stats_summary(d, v->n, &s), 0);
		assert_within_1ps(v->name, "mean", s.mean_ps, v->mean_f);
		assert_within_1ps(v->name, "stddev", s.stddev_ps, v->stdev_f);
		assert_within_1ps(v->name, "ci95 half-width",
				  s.ci95_hi_ps - s.mean_ps, v->half_f);
		if (s.ci95_lo_ps)
			assert_within_1ps(v->name, "ci95 half-width (low side)",
					  s.mean_ps - s.ci95_lo_ps, v->half_f);
		assert_true(s.min_ps <= s.p50_ps && s.p50_ps <= s.p95_ps &&
			    s.p95_ps <= s.p99_ps && s.p99_ps <= s.max_ps);
		assert_true(s.ci95_lo_ps <= s.mean_ps && s.mean_ps <= s.ci95_hi_ps);
		assert_int_equal(s.median_ps, s.p50_ps);
	}
}

static void test_summary_empty_and_bad(void **state)
{
	struct wsc_summary s, zero;
	uint64_t one = 7;

	(void)state;
	memset(&zero, 0, sizeof(zero));
	memset(&s, 0xa5, sizeof(s));
	assert_int_equal(wsc_stats_summary(NULL, 0, &s), 0);
	assert_memory_equal(&s, &zero, sizeof(s));
	assert_int_equal(wsc_stats_summary(NULL, 3, &s), -EINVAL);
	assert_int_equal(wsc_stats_summary(&one, 1, NULL), -EINVAL);
}

/* The 128-bit helpers on their own, at the edges. */
static void test_u128_helpers(void **state)
{
	u128 big = ((u128)0x123456789abcdefull << 64) | 0xfedcba9876543210ull;
	u128 max = ~(u128)0;
	uint64_t r;

	(void)state;
	assert_true(wsc_u128_div(big, 1) == big);
	assert_true(wsc_u128_div(big, 1000) == big / 1000);
	assert_true(wsc_u128_div(max, 3) == max / 3);
	assert_true(wsc_u128_div(max, UINT64_MAX) == max / UINT64_MAX);
	assert_true(wsc_u128_div(12345, 10) == 1234);
	assert_int_equal(wsc_u128_sqrt(0), 0);
	assert_int_equal(wsc_u128_sqrt(1), 1);
	assert_int_equal(wsc_u128_sqrt(3), 1);
	assert_int_equal(wsc_u128_sqrt(4), 2);
	assert_true(wsc_u128_sqrt(max) == UINT64_MAX);
	for (r = 1; r < 100000; r += 7) {
		u128 sq = (u128)r * r;

		assert_true(wsc_u128_sqrt(sq) == r);
		assert_true(wsc_u128_sqrt(sq - 1) == r - 1);
		assert_true(wsc_u128_sqrt(sq + 2 * r) == r);
	}
	r = 0xfffffffffull;
	assert_true(wsc_u128_sqrt((u128)r * r) == r);
	assert_true(wsc_u128_sqrt((u128)r * r - 1) == r - 1);
}

/* @v lies in the bucket wsc_hist_index() gives it. */
static void assert_in_bucket(uint64_t v)
{
	unsigned int i = wsc_hist_index(v);

	if (i >= WSC_HIST_BUCKETS)
		fail_msg("%llu: index %u out of %u buckets",
			 (unsigned long long)v, i, WSC_HIST_BUCKETS);
	if (wsc_hist_low(i) > v || v > wsc_hist_high(i))
		fail_msg("%llu: bucket %u holds [%llu, %llu]",
			 (unsigned long long)v, i,
			 (unsigned long long)wsc_hist_low(i),
			 (unsigned long long)wsc_hist_high(i));
}

static void test_hist_small_values(void **state)
{
	uint64_t v;

	(void)state;
	for (v = 0; v <= 100000; v++)
		assert_in_bucket(v);
}

static void test_hist_powers_of_two(void **state)
{
	unsigned int k;

	(void)state;
	for (k = 0; k < 64; k++) {
		uint64_t p = (uint64_t)1 << k;

		assert_in_bucket(p);
		assert_in_bucket(p - 1);
		assert_in_bucket(p + 1);
		assert_in_bucket(p + (p >> 1));
		assert_in_bucket(p | (p - 1));	/* 2^(k+1) - 1 */
	}
	assert_in_bucket(UINT64_MAX);
	assert_in_bucket(UINT64_MAX - 1);
	assert_int_equal(wsc_hist_index(UINT64_MAX), WSC_HIST_BUCKETS - 1);
}

/* The buckets tile [0, UINT64_MAX] in order, each no wider than 1/32. */
static void test_hist_buckets_contiguous(void **state)
{
	unsigned int i;

	(void)state;
	assert_int_equal(wsc_hist_low(0), 0);
	assert_true(wsc_hist_high(WSC_HIST_BUCKETS - 1) == UINT64_MAX);
	for (i = 0; i < WSC_HIST_BUCKETS; i++) {
		uint64_t low = wsc_hist_low(i), high = wsc_hist_high(i);

		assert_true(low <= high);
		assert_int_equal(wsc_hist_index(low), i);
		assert_int_equal(wsc_hist_index(high), i);
		if (i + 1 < WSC_HIST_BUCKETS && high + 1 != wsc_hist_low(i + 1))
			fail_msg("bucket %u ends at %llu, %u starts at %llu", i,
				 (unsigned long long)high, i + 1,
				 (unsigned long long)wsc_hist_low(i + 1));
		/* Width (high - low + 1) at most low / 32 above 32. */
		if (low >= WSC_HIST_SUB && (high - low) >= low / WSC_HIST_SUB)
			fail_msg("bucket %u: [%llu, %llu] wider than 1/%u", i,
				 (unsigned long long)low,
				 (unsigned long long)high, WSC_HIST_SUB);
		if (low < WSC_HIST_SUB)
			assert_true(low == high);
	}
}

/* Merging into powers of two: bucket k holds [2^k, 2^(k+1) - 1]. */
static void test_hist_log2_merge(void **state)
{
	unsigned int i, prev = 0;

	(void)state;
	for (i = 0; i < WSC_HIST_BUCKETS; i++) {
		uint64_t low = wsc_hist_low(i), high = wsc_hist_high(i);
		unsigned int k = wsc_hist_log2(i);

		assert_true(k < 64);
		if (low <= 1) {
			/* 0 and 1 share power-of-two bucket 0. */
			assert_int_equal(k, 0);
		} else {
			uint64_t top = k == 63 ? UINT64_MAX :
					((uint64_t)1 << (k + 1)) - 1;

			if (low < (uint64_t)1 << k || high > top)
				fail_msg("bucket %u [%llu, %llu] is not inside 2^%u..2^%u-1",
					 i, (unsigned long long)low,
					 (unsigned long long)high, k, k + 1);
		}
		/* Every power of two is reached, in order. */
		assert_true(k == prev || k == prev + 1);
		prev = k;
	}
	assert_int_equal(prev, 63);
	assert_int_equal(wsc_hist_log2(wsc_hist_index(1000)), 9);
	assert_int_equal(wsc_hist_log2(wsc_hist_index(1023)), 9);
	assert_int_equal(wsc_hist_log2(wsc_hist_index(1024)), 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_vectors),
		cmocka_unit_test(test_summary_compute_sorted),
		cmocka_unit_test(test_summary_agrees_with_statistics),
		cmocka_unit_test(test_summary_empty_and_bad),
		cmocka_unit_test(test_u128_helpers),
		cmocka_unit_test(test_hist_small_values),
		cmocka_unit_test(test_hist_powers_of_two),
		cmocka_unit_test(test_hist_buckets_contiguous),
		cmocka_unit_test(test_hist_log2_merge),
	};

	return cmocka_run_group_tests_name("latency lab arithmetic", tests,
					   NULL, NULL);
}
