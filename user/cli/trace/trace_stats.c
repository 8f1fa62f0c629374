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
	r->total_off_ns = 0;
	r->total_wrapped = 0;
	for (i = 0; i < r->nr_rows; i++) {
		/* Ring requests overlap the calls that wait for them. */
		if (r->rows[i].ring)
			continue;
		r->total_wrapped += r->rows[i].wrapped;
		r->total_ns += r->rows[i].total_ns;
		r->total_off_ns += r->rows[i].off_ns;
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

/* The index of @s among the @n @names, or -1. */
static int name_index(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return (int)i;
	return -1;
}

int trace_parse_sort(const char *s, enum trace_sort *out)
{
	int i = name_index(sort_names, ARRAY_SIZE(sort_names), s);

	if (i < 0)
		return -1;
	*out = (enum trace_sort)i;
	return 0;
}

static const char *const time_names[] = {
	[TRACE_TIME_CPU]	= "cpu",
	[TRACE_TIME_WALL]	= "wall",
	[TRACE_TIME_OFF]	= "off",
};

int trace_parse_time(const char *s, enum trace_time *out)
{
	int i = name_index(time_names, ARRAY_SIZE(time_names), s);

	if (i < 0)
		return -1;
	*out = (enum trace_time)i;
	return 0;
}

const char *trace_time_name(enum trace_time t)
{
	return (size_t)t < ARRAY_SIZE(time_names) ? time_names[t] : "cpu";
}

int trace_parse_by(const char *s, enum trace_by *out)
{
	if (!strcmp(s, "process"))
		*out = TRACE_BY_PROCESS;
	else if (!strcmp(s, "thread"))
		*out = TRACE_BY_THREAD;
	else
		return -1;
	return 0;
}

uint64_t trace_time_of(enum trace_time t, uint64_t total_ns, uint64_t off_ns)
{
	/* Off-CPU time is inside the calls: never above their total. */
	if (off_ns > total_ns)
		off_ns = total_ns;
	switch (t) {
	case TRACE_TIME_WALL:	return total_ns;
	case TRACE_TIME_OFF:	return off_ns;
	default:		return total_ns - off_ns;
	}
}

/* The figure a row is sorted by, for the keys that sort largest first. */
static uint64_t sort_figure(const struct trace_row *r, enum trace_sort key,
			    enum trace_time t)
{
	switch (key) {
	case TRACE_SORT_CALLS:	return r->calls;
	case TRACE_SORT_ERRORS:	return r->errors;
	case TRACE_SORT_MEAN:	return r->mean_ns;
	case TRACE_SORT_P50:	return r->p50_ns;
	case TRACE_SORT_P99:	return r->p99_ns;
	case TRACE_SORT_MAX:	return r->max_ns;
	default:		return trace_time_of(t, r->total_ns, r->off_ns);
	}
}

/* < 0 when @a goes before @b; ties fall to the number, then to 0. */
static int row_cmp(const struct trace_row *a, const struct trace_row *b,
		   enum trace_sort key, enum trace_time t)
{
	uint64_t fa, fb;
	int c;

	/* The system calls first, then the ring requests (--ring). */
	if (a->ring != b->ring)
		return a->ring ? 1 : -1;
	if (key == TRACE_SORT_NAME) {
		c = strcmp(a->name, b->name);
		if (c)
			return c;
	} else if (key != TRACE_SORT_NR) {
		fa = sort_figure(a, key, t);
		fb = sort_figure(b, key, t);
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
		for (j = i; j > 0 &&
		     row_cmp(&row, &rows[j - 1], key, r->time) < 0; j--)
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
		free(r->rows[i].errnos);
		r->rows[i].errnos = NULL;
		r->rows[i].nr_errnos = 0;
	}
	free(r->rows);
	r->rows = NULL;
	r->nr_rows = 0;
	free(r->tasks);
	r->tasks = NULL;
	r->nr_tasks = 0;
}
