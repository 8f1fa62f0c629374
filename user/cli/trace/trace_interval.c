// SPDX-License-Identifier: MIT
/*
 * wsc trace --interval: what happened between two fetches of a trace.
 *
 * The kernel's counts only grow, so an interval's are the difference of
 * two fetches, a histogram's bucket by bucket (every row shares one
 * log-linear grid: equal low ends are the same bucket).  The intervals
 * of a trace, the last one ending at the final fetch, add up exactly to
 * the whole.  Only the longest call is not a count: when the cumulative
 * max grew, the interval holds that call and its max is exact; when it
 * did not, the interval's longest call is known only to lie in the
 * highest bucket that grew, and the top of that bucket is reported as an
 * upper bound.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* @a - @b, 0 rather than below (a count never shrinks; a clock may). */
static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

const struct trace_row *trace_report_row(const struct trace_report *r,
					 uint32_t nr)
{
	size_t i;

	for (i = 0; r && i < r->nr_rows; i++)
		if (r->rows[i].nr == nr)
			return &r->rows[i];
	return NULL;
}

uint64_t trace_row_bucket(const struct trace_row *p, uint64_t low_ns)
{
	size_t i;

	for (i = 0; p && i < p->nr_buckets; i++)
		if (p->buckets[i].low_ns == low_ns)
			return p->buckets[i].count;
	return 0;
}

uint64_t trace_row_errno(const struct trace_row *p, uint32_t err)
{
	size_t i;

	for (i = 0; p && i < p->nr_errnos; i++)
		if (p->errnos[i].err == err)
			return p->errnos[i].count;
	return 0;
}

/* @c - @p (@p may be NULL: the call is new) into @o. */
static int diff_row(const struct trace_row *c, const struct trace_row *p,
		    struct trace_row *o)
{
	uint64_t n;
	size_t i;

	*o = *c;
	o->buckets = NULL;
	o->nr_buckets = 0;
	o->errnos = NULL;
	o->nr_errnos = 0;
	o->calls = minus(c->calls, p ? p->calls : 0);
	o->errors = minus(c->errors, p ? p->errors : 0);
	o->wrapped = minus(c->wrapped, p ? p->wrapped : 0);
	o->total_ns = minus(c->total_ns, p ? p->total_ns : 0);
	o->off_ns = minus(c->off_ns, p ? p->off_ns : 0);
	if (c->nr_buckets) {
		o->buckets = calloc(c->nr_buckets, sizeof(*o->buckets));
		if (!o->buckets)
			return -ENOMEM;
	}
	for (i = 0; i < c->nr_buckets; i++) {
		n = minus(c->buckets[i].count, trace_row_bucket(p, c->buckets[i].low_ns));
		if (n) {
			o->buckets[o->nr_buckets] = c->buckets[i];
			o->buckets[o->nr_buckets++].count = n;
		}
	}
	if (c->nr_errnos) {
		o->errnos = calloc(c->nr_errnos, sizeof(*o->errnos));
		if (!o->errnos)
			return -ENOMEM;
	}
	for (i = 0; i < c->nr_errnos; i++) {
		n = minus(c->errnos[i].count, trace_row_errno(p, c->errnos[i].err));
		if (n) {
			o->errnos[o->nr_errnos].err = c->errnos[i].err;
			o->errnos[o->nr_errnos++].count = n;
		}
	}
	o->max_bound = false;
	if (p && c->max_ns <= p->max_ns) {
		/* Not longer than the highest bucket that grew, nor the max. */
		o->max_bound = true;
		o->max_ns = o->nr_buckets ?
			o->buckets[o->nr_buckets - 1].high_ns : 0;
		if (o->max_ns > c->max_ns)
			o->max_ns = c->max_ns;
	}
	trace_row_finish(o);
	return 0;
}

int trace_report_diff(const struct trace_report *cur,
		      const struct trace_report *prev,
		      struct trace_report *out)
{
	const struct trace_row *p;
	struct trace_row row;
	size_t i;

	*out = *cur;
	out->rows = NULL;
	out->nr_rows = 0;
	out->tasks = NULL;
	out->nr_tasks = 0;
	out->status.duration_ns = minus(cur->status.duration_ns,
					prev ? prev->status.duration_ns : 0);
	if (cur->nr_rows) {
		out->rows = calloc(cur->nr_rows, sizeof(*out->rows));
		if (!out->rows)
			return -ENOMEM;
	}
	for (i = 0; i < cur->nr_rows; i++) {
		p = trace_report_row(prev, cur->rows[i].nr);
		if (diff_row(&cur->rows[i], p, &row)) {
			free(row.buckets);
			free(row.errnos);
			trace_report_free(out);
			return -ENOMEM;
		}
		if (!row.calls && !row.hist_calls) {
			free(row.buckets);
			free(row.errnos);
			continue;
		}
		out->rows[out->nr_rows++] = row;
	}
	trace_report_finish(out);
	return 0;
}

int trace_report_copy(const struct trace_report *r, struct trace_report *out)
{
	return trace_report_diff(r, NULL, out);
}
