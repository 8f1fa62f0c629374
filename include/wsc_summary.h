/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The statistics of a set of latency samples, one implementation shared by
 * the module (for /proc/syscall_lat and netlink) and libwsc (for every
 * command that summarises samples), so both give the same digits.
 *
 * Integer arithmetic only, because the kernel has no floating point:
 * samples are nanoseconds, figures are picoseconds (three decimals of a
 * nanosecond).  Intermediate sums are 128-bit; the division and square
 * root of 128-bit values are written out here because the kernel provides
 * neither.
 *
 *   mean     sum / n, rounded to the nearest picosecond
 *   stddev   sample standard deviation (n - 1 in the denominator), rounded
 *            down; it describes the spread of the samples.  The variance
 *            is floor(sum((x - mean)^2) / (n - 1)) in ps^2, the deviations
 *            taken from the rounded mean
 *   ci95     mean -+ 1.96 standard errors (stddev / sqrt(n)), the normal
 *            approximation, sound for the thousands of samples a run takes;
 *            the half-width is floor(sqrt(3.8416 variance / n))
 *   pXX      linear interpolation between closest ranks (Hyndman and
 *            Fan's type 7, Python's statistics.quantiles(method=
 *            "inclusive"), R's default), exact in picoseconds
 *   median   p50
 *
 * Exact for up to 2^25 samples of less than 2^42 ns (73 minutes) each;
 * beyond that the 128-bit sums may overflow.
 */
#ifndef _WSC_SUMMARY_H
#define _WSC_SUMMARY_H

#include <linux/types.h>

#include "wsc_summary_types.h"

/* @n / @d for a 64-bit @d, by long division (no __udivti3 in the kernel). */
static inline unsigned __int128 wsc_u128_div(unsigned __int128 n, __u64 d)
{
	unsigned __int128 q = 0, r = 0;
	int bit;

	if ((n >> 64) == 0)
		return (__u64)n / d;
	for (bit = 127; bit >= 0; bit--) {
		r = (r << 1) | ((n >> bit) & 1);
		if (r >= d) {
			r -= d;
			q |= (unsigned __int128)1 << bit;
		}
	}
	return q;
}

/* floor(sqrt(@v)), digit by digit. */
static inline __u64 wsc_u128_sqrt(unsigned __int128 v)
{
	unsigned __int128 root = 0, bit = (unsigned __int128)1 << 126;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= root + bit) {
			v -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return (__u64)root;
}

/**
 * wsc_summary_quantile_ps() - a quantile of sorted samples, in picoseconds
 * @sorted: samples in nanoseconds, ascending
 * @n:      how many; at least 1
 * @pct:    the quantile in percent, 0..100
 */
static inline __u64 wsc_summary_quantile_ps(const __u64 *sorted, __u64 n,
					    unsigned int pct)
{
	/* Position (n - 1) * pct / 100 = lo + frac / 100. */
	__u64 pos = (n - 1) * pct, lo = pos / 100, frac = pos % 100;
	__u64 base = sorted[lo] * 1000;

	if (frac == 0)
		return base;
	/* x[lo] + frac / 100 * (x[lo + 1] - x[lo]), in ps: exact. */
	return base + frac * 10 * (sorted[lo + 1] - sorted[lo]);
}

/**
 * wsc_summary_compute() - summarise samples that are already sorted
 * @sorted: samples in nanoseconds, ascending
 * @n:      how many; 0 gives an all-zero summary
 * @s:      the result
 */
static inline void wsc_summary_compute(const __u64 *sorted, __u64 n,
				       struct wsc_summary *s)
{
	unsigned __int128 sum = 0, sq = 0, var;
	__u64 i, half;

	*s = (struct wsc_summary){ .count = n };
	if (n == 0)
		return;

	for (i = 0; i < n; i++)
		sum += sorted[i];
	/* Rounded to the nearest picosecond: (1000 sum + n/2) / n. */
	s->mean_ps = (__u64)wsc_u128_div(sum * 1000 + n / 2, n);

	if (n > 1) {
		for (i = 0; i < n; i++) {
			__u64 x = sorted[i] * 1000;
			__u64 d = x > s->mean_ps ? x - s->mean_ps :
						   s->mean_ps - x;

			sq += (unsigned __int128)d * d;
		}
		var = wsc_u128_div(sq, n - 1);
		s->stddev_ps = wsc_u128_sqrt(var);
		/*
		 * 1.96^2 = 3.8416: the half-width is sqrt(3.8416 var / n),
		 * in one division so that only the result is rounded down.
		 */
		half = wsc_u128_sqrt(wsc_u128_div(var * 38416, 10000 * n));
		s->ci95_lo_ps = s->mean_ps > half ? s->mean_ps - half : 0;
		s->ci95_hi_ps = s->mean_ps + half;
	} else {
		s->ci95_lo_ps = s->mean_ps;
		s->ci95_hi_ps = s->mean_ps;
	}

	s->min_ps = sorted[0] * 1000;
	s->max_ps = sorted[n - 1] * 1000;
	s->p50_ps = wsc_summary_quantile_ps(sorted, n, 50);
	s->p95_ps = wsc_summary_quantile_ps(sorted, n, 95);
	s->p99_ps = wsc_summary_quantile_ps(sorted, n, 99);
	s->median_ps = s->p50_ps;
}

#endif /* _WSC_SUMMARY_H */
