// SPDX-License-Identifier: MIT
/*
 * wsc trace --advise: the runs and the model (Documentation/advise.md).
 *
 * A run is what one wrapped batch could have carried: consecutive calls
 * of one thread, each one the allowlist lets into a batch, each entered
 * at most the gap threshold after the previous one exited (the user time
 * between them, as the kernel saw it).  A call the allowlist refuses, a
 * call a batch already ran, a batch's own ioctl or a longer gap ends a
 * run.  advise_model.c prices the runs; advise_seq.c counts them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"

int advise_parse_gap(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 },
	};
	const char *p;
	char *end;
	double v;
	size_t i;

	/* No sign, blank, "inf" or "nan"; no hexadecimal either. */
	if (s[0] < '0' || s[0] > '9')
		return -1;
	v = strtod(s, &end);
	for (p = s; p < end; p++)
		if (!strchr("0123456789.eE+-", *p))
			return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		v *= units[i].mult;
		if (!isfinite(v) || v > (double)ADVISE_GAP_MAX_NS)
			return -2;
		*ns = (uint64_t)llround(v);
		return 0;
	}
	return -1;
}

/* Each thread's calls in the order it made them. */
static int event_order(const void *a, const void *b)
{
	const struct wsc_trace_event *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->enter_ns != y->enter_ns)
		return x->enter_ns < y->enter_ns ? -1 : 1;
	if (x->exit_ns != y->exit_ns)
		return x->exit_ns < y->exit_ns ? -1 : 1;
	return 0;
}

/* The user time between @prev's exit and @e's entry; 0 when they overlap. */
static uint64_t event_gap(const struct wsc_trace_event *prev,
			  const struct wsc_trace_event *e)
{
	return e->enter_ns > prev->exit_ns ? e->enter_ns - prev->exit_ns : 0;
}

/* The runs found so far, and their references in one array. */
struct run_list {
	struct advise_run *runs;
	size_t n, cap;
	struct advise_ref *refs;
	size_t nr_refs, refs_cap;
};

/* The run @ev[0..@len) has ended: kept when two calls or more. */
static int run_end(struct run_list *l, const struct wsc_trace_event *ev,
		   size_t len, struct advise_report *r)
{
	struct advise_run *run;
	int err;

	if (len < 2)
		return 0;
	if (advise_grow(&l->runs, &l->cap, l->n + 1, sizeof(*run), SIZE_MAX))
		return -ENOMEM;
	run = &l->runs[l->n++];
	run->ev = ev;
	run->len = len;
	run->ref0 = l->nr_refs;
	err = advise_run_refs(ev, len, &l->refs, &l->nr_refs, &l->refs_cap);
	run->nr_refs = l->nr_refs - run->ref0;
	r->runs++;
	r->run_calls += len;
	return err;
}

/* Cut @n sorted events into runs. */
static int find_runs(const struct wsc_trace_event *ev, size_t n,
		     struct run_list *l, struct advise_report *r)
{
	size_t i, start = 0, len = 0;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		const struct wsc_trace_event *e = &ev[i];

		if (!i || e->tid != ev[i - 1].tid) {
			err = run_end(l, ev + start, len, r);
			len = 0;
			r->threads++;
		}
		if (e->flags & (WSC_TRACE_EVENT_WRAPPED | WSC_TRACE_EVENT_BATCH) ||
		    !wsc_call_allowed(e->nr)) {
			if (e->flags & WSC_TRACE_EVENT_WRAPPED)
				r->already_wrapped++;
			else if (e->flags & WSC_TRACE_EVENT_BATCH)
				r->batch_ioctls++;
			if (!err)
				err = run_end(l, ev + start, len, r);
			len = 0;
			continue;
		}
		/* In a run, the event before is the run's last call. */
		if (len && event_gap(&ev[i - 1], e) > r->gap_ns) {
			if (!err)
				err = run_end(l, ev + start, len, r);
			len = 0;
		}
		if (!len)
			start = i;
		len++;
	}
	if (!err)
		err = run_end(l, ev + start, len, r);
	return err;
}

int advise_analyse(struct wsc_trace_event *ev, size_t n,
		   struct advise_report *r)
{
	struct run_list l = { 0 };
	size_t i;
	int err;

	r->events = n;
	if (n)
		qsort(ev, n, sizeof(*ev), event_order);
	err = find_runs(ev, n, &l, r);
	if (!err)
		err = advise_sequences(l.runs, l.n, l.refs, r);
	for (i = 0; !err && i < r->nr_seqs; i++) {
		const struct advise_seq *s = &r->seqs[i];

		if (!s->worth)
			continue;
		r->entries_now += s->len * s->count;
		r->entries_batched += advise_batches(s->len) * s->count;
		r->saving_ns += s->saving_ns;
	}
	free(l.runs);
	free(l.refs);
	return err;
}

void advise_report_free(struct advise_report *r)
{
	size_t i;

	for (i = 0; i < r->nr_seqs; i++) {
		free(r->seqs[i].nrs);
		free(r->seqs[i].refs);
	}
	free(r->seqs);
	r->seqs = NULL;
	r->nr_seqs = 0;
}
