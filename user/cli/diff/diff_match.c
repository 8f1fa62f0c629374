// SPDX-License-Identifier: MIT
/*
 * wsc diff's comparison: the rows of two reports matched by name, each
 * pair judged against the thresholds, and the pairs put in the order the
 * table and the JSON give them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

/* The row an absent side stands for: nothing of anything. */
static const struct diff_row none;

int diff_time_value(const char *time)
{
	if (!strcmp(time, "cpu"))
		return DIFF_V_ON;
	if (!strcmp(time, "wall"))
		return DIFF_V_WALL;
	if (!strcmp(time, "off"))
		return DIFF_V_OFF;
	return -1;
}

enum diff_value diff_metric_value(enum diff_metric m, enum diff_value time_value)
{
	switch (m) {
	case DIFF_M_CALLS:
		return DIFF_V_CALLS;
	case DIFF_M_ERRORS:
		return DIFF_V_ERRORS;
	case DIFF_M_P50:
		return DIFF_V_P50;
	case DIFF_M_P99:
		return DIFF_V_P99;
	default:
		return time_value;
	}
}

double diff_change(const struct diff_pair *p, enum diff_value v)
{
	return p->now->v[v] - p->base->v[v];
}

double diff_change_pct(const struct diff_pair *p, enum diff_value v)
{
	double b = p->base->v[v], d = diff_change(p, v);

	if (b == 0)
		return d == 0 ? NAN : d > 0 ? INFINITY : -INFINITY;
	return d * 100 / b;
}

double diff_errno_count(const struct diff_row *row, const char *name)
{
	size_t i;

	for (i = 0; i < row->nr_errnos; i++)
		if (!strcmp(row->errnos[i].name, name))
			return row->errnos[i].count;
	return 0;
}

const char *diff_pair_errno(const struct diff_pair *p, size_t k)
{
	size_t i;

	if (k < p->base->nr_errnos)
		return p->base->errnos[k].name;
	k -= p->base->nr_errnos;
	/* Then the new side's, but for those the base has. */
	for (i = 0; i < p->now->nr_errnos; i++) {
		const char *name = p->now->errnos[i].name;
		bool seen = false;
		size_t j;

		for (j = 0; j < p->base->nr_errnos && !seen; j++)
			seen = !strcmp(p->base->errnos[j].name, name);
		if (!seen && !k--)
			return name;
	}
	return NULL;
}

/* Whether any errno of @now grew past the errors' limits. */
static bool errno_grew(const struct diff_thresholds *t,
		       const struct diff_row *base, const struct diff_row *now)
{
	size_t i;

	for (i = 0; i < now->nr_errnos; i++)
		if (diff_exceeds(t, DIFF_M_ERRORS,
				 diff_errno_count(base, now->errnos[i].name),
				 now->errnos[i].count))
			return true;
	return false;
}

static bool same_errnos(const struct diff_row *a, const struct diff_row *b)
{
	size_t i;

	for (i = 0; i < a->nr_errnos; i++)
		if (diff_errno_count(b, a->errnos[i].name) != a->errnos[i].count)
			return false;
	for (i = 0; i < b->nr_errnos; i++)
		if (diff_errno_count(a, b->errnos[i].name) != b->errnos[i].count)
			return false;
	return true;
}

/*
 * The metrics of @p past their limits.  A row on one side only has no
 * latency to compare with: only its calls and errors are judged.
 */
static void judge(struct diff_pair *p, const struct diff_thresholds *t,
		  enum diff_value time_value)
{
	int m;
	enum diff_value v;

	p->regressed = 0;
	for (m = 0; m < DIFF_NR_METRICS; m++) {
		bool timed = m != DIFF_M_CALLS && m != DIFF_M_ERRORS;

		if (timed && p->side != DIFF_BOTH)
			continue;
		if ((m == DIFF_M_P50 || m == DIFF_M_P99) &&
		    !(p->base->has_pct && p->now->has_pct))
			continue;
		v = diff_metric_value(m, time_value);
		if (diff_exceeds(t, m, p->base->v[v], p->now->v[v]) ||
		    (m == DIFF_M_ERRORS && errno_grew(t, p->base, p->now)))
			p->regressed |= 1u << m;
	}
}

static void settle(struct diff_pair *p, const struct diff_thresholds *t,
		   enum diff_value time_value)
{
	enum diff_value v;

	p->unchanged = same_errnos(p->base, p->now);
	for (v = 0; v < DIFF_NR_VALUES; v++)
		if (p->base->v[v] != p->now->v[v])
			p->unchanged = false;
	p->impact = fabs(diff_change(p, time_value));
	judge(p, t, time_value);
}

static int by_impact(const void *a, const void *b)
{
	const struct diff_pair *x = a, *y = b;
	double cx = fabs(diff_change(x, DIFF_V_CALLS));
	double cy = fabs(diff_change(y, DIFF_V_CALLS));

	if (!x->regressed != !y->regressed)
		return x->regressed ? -1 : 1;
	if (x->impact != y->impact)
		return x->impact > y->impact ? -1 : 1;
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(x->base != &none ? x->base->name : x->now->name,
		      y->base != &none ? y->base->name : y->now->name);
}

static const struct diff_row *find(const struct diff_report *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_rows; i++)
		if (!strcmp(r->rows[i].name, name))
			return &r->rows[i];
	return NULL;
}

int diff_compare(struct diff_result *res, const struct diff_report *base,
		 const struct diff_report *now, const struct diff_thresholds *t,
		 enum diff_value time_value)
{
	const struct diff_row *match;
	struct diff_pair *p;
	size_t i;

	memset(res, 0, sizeof(*res));
	res->time_value = time_value;
	res->pairs = calloc(base->nr_rows + now->nr_rows + 1, sizeof(*res->pairs));
	if (!res->pairs)
		return -1;
	for (i = 0; i < base->nr_rows; i++) {
		p = &res->pairs[res->nr++];
		match = find(now, base->rows[i].name);
		p->base = &base->rows[i];
		p->now = match ? match : &none;
		p->side = match ? DIFF_BOTH : DIFF_ONLY_BASE;
	}
	for (i = 0; i < now->nr_rows; i++) {
		if (find(base, now->rows[i].name))
			continue;
		p = &res->pairs[res->nr++];
		p->base = &none;
		p->now = &now->rows[i];
		p->side = DIFF_ONLY_NEW;
	}
	for (i = 0; i < res->nr; i++) {
		settle(&res->pairs[i], t, time_value);
		res->regressions += !!res->pairs[i].regressed;
		res->unchanged += res->pairs[i].unchanged;
	}
	qsort(res->pairs, res->nr, sizeof(*res->pairs), by_impact);
	res->total.base = &base->total;
	res->total.now = &now->total;
	res->total.side = DIFF_BOTH;
	/* A bench has no total: its variants are not parts of one whole. */
	if (base->kind == DIFF_TRACE) {
		settle(&res->total, t, time_value);
		res->regressions += !!res->total.regressed;
	}
	return 0;
}

void diff_result_free(struct diff_result *res)
{
	free(res->pairs);
	res->pairs = NULL;
	res->nr = 0;
}

size_t diff_context(const struct diff_report *base, const struct diff_report *now,
		    unsigned int *which, size_t nr)
{
	unsigned int c;
	size_t n = 0;

	for (c = 0; c < DIFF_NR_CTX && n < nr; c++)
		if (c != DIFF_CTX_DATE && strcmp(base->ctx[c], now->ctx[c]))
			which[n++] = c;
	return n;
}

const char *diff_ns_text(char *buf, size_t len, double ns)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" } };
	double a = fabs(ns);
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double x = a / units[i].scale;

		if (x < 1)
			continue;
		/* Three figures: 1.14s, 12.3ms, 566us. */
		snprintf(buf, len, "%s%.*f%s", ns < 0 ? "-" : "",
			 x < 9.995 ? 2 : x < 99.95 ? 1 : 0, x, units[i].unit);
		return buf;
	}
	snprintf(buf, len, "%s%.0fns", ns < 0 ? "-" : "", a);
	return buf;
}
