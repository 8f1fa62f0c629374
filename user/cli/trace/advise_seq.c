// SPDX-License-Identifier: MIT
/*
 * wsc trace --advise: the recurring sequences.  Runs that made the same
 * calls in the same order with the same references are one sequence,
 * counted; the sequences are listed most saving first.  A long run reads
 * folded: a block of calls repeated back to back is shown once with its
 * count, "(openat -> newfstatat -> read -> close) x 10".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "trace.h"

/* Blocks longer than this are not looked for when folding a run. */
#define FOLD_PERIOD_MAX		16

/* Same calls, same references: 0. */
static int run_order(const void *a, const void *b, void *ctx)
{
	const struct advise_run *x = a, *y = b;
	const struct advise_ref *refs = ctx, *rx, *ry;
	size_t i;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	for (i = 0; i < x->len; i++)
		if (x->ev[i].nr != y->ev[i].nr)
			return x->ev[i].nr < y->ev[i].nr ? -1 : 1;
	if (x->nr_refs != y->nr_refs)
		return x->nr_refs < y->nr_refs ? -1 : 1;
	rx = refs + x->ref0;
	ry = refs + y->ref0;
	for (i = 0; i < x->nr_refs; i++) {
		if (rx[i].call != ry[i].call)
			return rx[i].call < ry[i].call ? -1 : 1;
		if (rx[i].arg != ry[i].arg)
			return rx[i].arg < ry[i].arg ? -1 : 1;
		if (rx[i].source != ry[i].source)
			return rx[i].source < ry[i].source ? -1 : 1;
	}
	return 0;
}

/* Most saving first, then the most frequent, then the longest. */
static int seq_order(const void *a, const void *b)
{
	const struct advise_seq *x = a, *y = b;

	if (x->saving_ns != y->saving_ns)
		return x->saving_ns > y->saving_ns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	return memcmp(x->nrs, y->nrs, x->len * sizeof(*x->nrs));
}

/* A new sequence from @run, counted once. */
static int seq_make(struct advise_seq *s, const struct advise_run *run,
		    const struct advise_ref *refs)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->nrs = malloc(run->len * sizeof(*s->nrs));
	s->refs = malloc((run->nr_refs ? run->nr_refs : 1) * sizeof(*s->refs));
	if (!s->nrs || !s->refs)
		return -ENOMEM;
	for (i = 0; i < run->len; i++)
		s->nrs[i] = run->ev[i].nr;
	memcpy(s->refs, refs + run->ref0, run->nr_refs * sizeof(*s->refs));
	s->len = run->len;
	s->nr_refs = run->nr_refs;
	s->count = 1;
	return 0;
}

int advise_sequences(struct advise_run *runs, size_t n,
		     const struct advise_ref *refs, struct advise_report *r)
{
	const struct advise_costs *c = &r->calib.costs;
	size_t i;

	if (!n)
		return 0;
	qsort_r(runs, n, sizeof(*runs), run_order, (void *)refs);
	r->seqs = calloc(n, sizeof(*r->seqs));
	if (!r->seqs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct advise_seq *s;

		if (i && !run_order(&runs[i - 1], &runs[i], (void *)refs)) {
			r->seqs[r->nr_seqs - 1].count++;
			continue;
		}
		s = &r->seqs[r->nr_seqs++];
		if (seq_make(s, &runs[i], refs))
			return -ENOMEM;
	}
	for (i = 0; i < r->nr_seqs; i++) {
		struct advise_seq *s = &r->seqs[i];
		double saving = advise_run_saving(c, s->len);

		s->worth = saving > 0;
		s->saving_ns = s->worth ? saving * (double)s->count : 0;
	}
	qsort(r->seqs, r->nr_seqs, sizeof(*r->seqs), seq_order);
	return 0;
}

const char *advise_call_name(uint16_t nr, char *buf, size_t len)
{
	const char *name = trace_syscall_name(nr);

	if (name)
		return name;
	snprintf(buf, len, "syscall_%u", nr);
	return buf;
}

/* A string that fills up to its end, then says "..." once. */
struct text {
	char *buf;
	size_t len, pos;
	bool cut;
};

static void text_add(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->cut)
		return;
	if (t->pos + n + sizeof("...") > t->len) {
		t->cut = true;
		if (t->pos + sizeof("...") <= t->len)
			memcpy(t->buf + t->pos, "...", sizeof("..."));
		return;
	}
	memcpy(t->buf + t->pos, s, n + 1);
	t->pos += n;
}

/* The block at @nrs repeated most calls' worth: its period and count. */
static void best_repeat(const uint16_t *nrs, size_t n, size_t *period,
			size_t *count)
{
	size_t p, k, cover = 0;

	*period = *count = 1;
	for (p = 1; p <= FOLD_PERIOD_MAX && 2 * p <= n; p++) {
		for (k = 1; (k + 1) * p <= n &&
		     !memcmp(nrs, nrs + k * p, p * sizeof(*nrs)); k++)
			;
		if (k >= 2 && p * k > cover) {
			cover = p * k;
			*period = p;
			*count = k;
		}
	}
}

static void fold(struct text *t, const uint16_t *nrs, size_t n)
{
	char num[32], name[32];
	size_t i = 0, period, count;

	while (i < n && !t->cut) {
		if (i)
			text_add(t, " -> ");
		best_repeat(nrs + i, n - i, &period, &count);
		if (period > 1)
			text_add(t, "(");
		if (period > 1)
			fold(t, nrs + i, period);
		else
			text_add(t, advise_call_name(nrs[i], name, sizeof(name)));
		if (period > 1)
			text_add(t, ")");
		if (count > 1) {
			snprintf(num, sizeof(num), " x %zu", count);
			text_add(t, num);
		}
		i += period * count;
	}
}

void advise_seq_summary(const uint16_t *nrs, size_t n, char *buf, size_t len)
{
	struct text t = { buf, len, 0, false };

	if (!len)
		return;
	buf[0] = '\0';
	fold(&t, nrs, n);
}

void advise_ref_text(const struct advise_seq *s, const struct advise_ref *ref,
		     char *buf, size_t len)
{
	char a[32], b[32];

	snprintf(buf, len, "%s#%u.arg%u = %s#%u",
		 advise_call_name(s->nrs[ref->call], a, sizeof(a)), ref->call,
		 ref->arg, advise_call_name(s->nrs[ref->source], b, sizeof(b)),
		 ref->source);
}
