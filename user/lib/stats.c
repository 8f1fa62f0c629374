// SPDX-License-Identifier: MIT
/*
 * Statistics shared by every command: exact order statistics of raw
 * samples, the least-squares line the batch benchmarks fit, and the
 * integer summary the module computes too (wsc_summary.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"
#include "wsc_summary.h"

static int wsc_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void wsc_stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), wsc_cmp_double);
}

double wsc_stats_quantile_sorted(const double *v, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (n == 0 || q < 0 || q > 1)
		return NAN;
	/* Linear interpolation between closest ranks (R's type 7). */
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + frac * (v[lo + 1] - v[lo]);
}

double wsc_stats_median(double *v, size_t n)
{
	wsc_stats_sort(v, n);
	return wsc_stats_quantile_sorted(v, n, 0.5);
}

int wsc_stats_fit_line(const double *x, const double *y, size_t n,
		       double *intercept, double *slope)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0;
	size_t i;

	if (n < 2)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= (double)n;
	my /= (double)n;
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (sxx == 0)
		return -EDOM;
	*slope = sxy / sxx;
	*intercept = my - *slope * mx;
	return 0;
}

static int wsc_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int wsc_stats_summary(uint64_t *samples, size_t n, struct wsc_summary *out)
{
	if (!out || (n && !samples))
		return -EINVAL;
	if (n)
		qsort(samples, n, sizeof(*samples), wsc_cmp_u64);
	/* uint64_t and __u64 are both 64-bit unsigned: the same bytes. */
	wsc_summary_compute((const __u64 *)samples, n, out);
	return 0;
}
