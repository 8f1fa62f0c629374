/* SPDX-License-Identifier: MIT */
/*
 * Figures that a noisy host cannot swing: a benchmark measures in rounds,
 * computes each figure once per round, and reports the median over the
 * rounds with their spread; a line through a few noisy points is fitted
 * with Theil-Sen, not least squares.
 */
#ifndef WSC_CLI_ROUNDS_H
#define WSC_CLI_ROUNDS_H

#include <stddef.h>
#include <stdio.h>

/* Rounds a benchmark runs unless told otherwise, and at most. */
#define ROUNDS_DEFAULT	5
#define ROUNDS_MAX	100

/**
 * struct spread - one figure over the rounds
 * @median: the median over the rounds (the reported figure)
 * @min, @max: the smallest and the largest round
 *
 * A round's figure may be infinite (a break-even that no batch size
 * reaches): it sorts above every finite one, so @max, and @median when at
 * least half the rounds are, can be INFINITY.  NaN rounds are left out;
 * with none left every field is NaN.
 */
struct spread {
	double median;
	double min;
	double max;
};

void spread_of(const double *x, size_t n, struct spread *s);

/*
 * Theil-Sen: the slope is the median of the slopes between every pair of
 * points with different x, the intercept the median of y - slope * x.
 * A point in error moves it only as far as one of many pairwise slopes
 * goes.  -EINVAL for n < 2 or more than 64 points, -EDOM when every x is
 * equal.
 */
int fit_theil_sen(const double *x, const double *y, size_t n,
		  double *intercept, double *slope);

/*
 * "%.*f" of a finite value, else "null"; "[min, max]" of a spread: one
 * value as JSON in a line of text (json.h's json_new_fixed() and
 * json_new_spread() are the same values for a JSON document).
 */
void json_number(FILE *f, int decimals, double v);
void json_spread(FILE *f, int decimals, const struct spread *s);

#endif /* WSC_CLI_ROUNDS_H */
