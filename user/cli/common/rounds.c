// SPDX-License-Identifier: MIT
/*
 * Medians over rounds, their spread, and a robust line (rounds.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/rounds.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n sorted values; the mean of the middle two when even. */
static double sorted_median(const double *v, size_t n)
{
	if (n % 2)
		return v[n / 2];
	/* inf + inf is inf; inf + finite is inf: both as wanted. */
	return v[n / 2 - 1] / 2 + v[n / 2] / 2;
}

void spread_of(const double *x, size_t n, struct spread *s)
{
	double v[ROUNDS_MAX];
	size_t i, k = 0;

	for (i = 0; i < n && k < ROUNDS_MAX; i++)
		if (!isnan(x[i]))
			v[k++] = x[i];
	if (!k) {
		s->median = s->min = s->max = NAN;
		return;
	}
	qsort(v, k, sizeof(v[0]), cmp_double);
	s->median = sorted_median(v, k);
	s->min = v[0];
	s->max = v[k - 1];
}

#define FIT_MAX_POINTS	64

int fit_theil_sen(const double *x, const double *y, size_t n,
		  double *intercept, double *slope)
{
	double slopes[FIT_MAX_POINTS * (FIT_MAX_POINTS - 1) / 2];
	double rest[FIT_MAX_POINTS];
	size_t i, j, k = 0;

	if (n < 2 || n > FIT_MAX_POINTS)
		return -EINVAL;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (x[j] != x[i])
				slopes[k++] = (y[j] - y[i]) / (x[j] - x[i]);
	if (!k)
		return -EDOM;
	qsort(slopes, k, sizeof(slopes[0]), cmp_double);
	*slope = sorted_median(slopes, k);
	for (i = 0; i < n; i++)
		rest[i] = y[i] - *slope * x[i];
	qsort(rest, n, sizeof(rest[0]), cmp_double);
	*intercept = sorted_median(rest, n);
	return 0;
}

void json_number(FILE *f, int decimals, double v)
{
	struct json_object *o = json_new_fixed(decimals, v);

	json_emit_value(f, o);
}

void json_spread(FILE *f, int decimals, const struct spread *s)
{
	json_emit_value(f, json_new_spread(decimals, s));
}
