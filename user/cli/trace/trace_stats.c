// SPDX-License-Identifier: MIT
/*
 * wsc trace: the figures of a row (mean, percentiles) from the kernel's
 * counts and log-linear buckets, and the order of the rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The rank of the q-quantile among @total calls: ceil(q * total), kept in
 * 1..total.  q is the binary fraction nearest the decimal meant, so
 * q * total can land a hair above the whole number meant, and ceil() would
 * then pick the next call: ignore such dust.
 */
static uint64_t quantile_rank(double q, uint64_t total)
{
	double x = q * (double)total;
	uint64_t rank;

	if (!(x > 1.0))		/* also a NaN q */
		return 1;
	rank = (uint64_t)ceil(x - 1e-6);
	return rank > total ? total : rank;
}

uint64_t trace_quantile(const struct trace_bucket *b, size_t n, double q,
			uint64_t max_ns)
{
	uint64_t total = 0, rank, seen = 0, mid;
	size_t i;

	for (i = 0; i < n; i++)
		total += b[i].count;
	if (!total)
		return 0;
	rank = quantile_rank(q, total);
	for (i = 0; i < n; i++) {
		seen += b[i].count;
		if (seen >= rank)
			break;
	}
	mid = b[i].low_ns + (b[i].high_ns - b[i].low_ns) / 2;
	/* The top bucket's midpoint can lie above the longest call. */
	return mid > max_ns ? max_ns : mid;
}

void trace_row_finish(struct trace_row *r)
{
	size_t i;

	r->hist_calls = 0;
	for (i = 0; i < r->nr_buckets; i++)
		r->hist_calls += r->buckets[i].count;
	r->mean_ns = r->calls ? r->total_ns / r->calls : 0;
	r->p50_ns = trace_quantile(r->buckets, r->nr_buckets, 0.5, r->max_ns);
	r->p99_ns = trace_quantile(r->buckets, r->nr_buckets, 0.99, r->max_ns);
}

void trace_report_finish(struct trace_report *r)
{
	size_t i;

	r->total_ns = 0;
	r->total_calls = 0;
	r->total_errors = 0;
	for (i = 0; i < r->nr_rows; i++) {
		r->total_ns += r->rows[i].total_ns;
		r->total_calls += r->rows[i].calls;
		r->total_errors += r->rows[i].errors;
	}
}

static const char *const sort_names[] = {
	[TRACE_SORT_TOTAL]	= "total",
	[TRACE_SORT_CALLS]	= "calls",
	[TRACE_SORT_ERRORS]	= "errors",
	[TRACE_SORT_MEAN]	= "mean",
	[TRACE_SORT_P50]	= "p50",
	[TRACE_SORT_P99]	= "p99",
	[TRACE_SORT_MAX]	= "max",
	[TRACE_SORT_NAME]	= "name",
	[TRACE_SORT_NR]		= "nr",
};

int trace_parse_sort(const char *s, enum trace_sort *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sort_names); i++) {
		if (!strcmp(s, sort_names[i])) {
			*out = (enum trace_sort)i;
			return 0;
		}
	}
	return -1;
}

/* The figure a row is sorted by, for the keys that sort largest first. */
static uint64_t sort_figure(const struct trace_row *r, enum trace_sort key)
{
	switch (key) {
	case TRACE_SORT_CALLS:	return r->calls;
	case TRACE_SORT_ERRORS:	return r->errors;
	case TRACE_SORT_MEAN:	return r->mean_ns;
	case TRACE_SORT_P50:	return r->p50_ns;
	case TRACE_SORT_P99:	return r->p99_ns;
	case TRACE_SORT_MAX:	return r->max_ns;
	default:		return r->total_ns;
	}
}

/* < 0 when @a goes before @b; ties fall to the number, then to 0. */
static int row_cmp(const struct trace_row *a, const struct trace_row *b,
		   enum trace_sort key)
{
	uint64_t fa, fb;
	int c;

	if (key == TRACE_SORT_NAME) {
		c = strcmp(a->name, b->name);
		if (c)
			return c;
	} else if (key != TRACE_SORT_NR) {
		fa = sort_figure(a, key);
		fb = sort_figure(b, key);
		if (fa != fb)
			return fa > fb ? -1 : 1;
	}
	if (a->nr != b->nr)
		return a->nr < b->nr ? -1 : 1;
	return 0;
}

/*
 * An insertion sort, because qsort() promises no stability: rows that
 * compare equal (the same number twice, which the kernel never sends) keep
 * the order they came in, so the output never depends on the C library.
 * A few hundred rows at most: quadratic is a few milliseconds at worst.
 */
void trace_sort_rows(struct trace_report *r, enum trace_sort key)
{
	struct trace_row *rows = r->rows, row;
	size_t i, j;

	for (i = 1; i < r->nr_rows; i++) {
		row = rows[i];
		for (j = i; j > 0 && row_cmp(&row, &rows[j - 1], key) < 0; j--)
			rows[j] = rows[j - 1];
		rows[j] = row;
	}
}

void trace_report_free(struct trace_report *r)
{
	size_t i;

	for (i = 0; i < r->nr_rows; i++) {
		free(r->rows[i].buckets);
		r->rows[i].buckets = NULL;
		r->rows[i].nr_buckets = 0;
	}
	free(r->rows);
	r->rows = NULL;
	r->nr_rows = 0;
}
