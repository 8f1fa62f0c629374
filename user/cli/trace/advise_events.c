// SPDX-License-Identifier: MIT
/*
 * wsc trace --advise, while and after the trace: the calibration and the
 * gap before it starts, the events drained from the kernel every
 * ADVISE_DRAIN_NS while it runs (so that its rings of
 * ADVISE_RING_EVENTS per CPU seldom fill) and once more at the end, then
 * the analysis.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "advise_calib.h"

int advise_begin(const struct advise_opts *o, struct advise_report *a)
{
	memset(a, 0, sizeof(*a));
	if (advise_calibration(o->recalibrate, &a->calib))
		return -1;
	a->gap_default = !o->gap_set;
	a->gap_ns = o->gap_set ? o->gap_ns : advise_default_gap(a->calib.gap_floor_ns);
	return 0;
}

/* One array of events from the kernel, kept while there is room. */
static int events_take(void *ctx, const struct wsc_trace_event *ev, size_t n)
{
	struct advise_events *e = ctx;
	size_t room = ADVISE_EVENTS_MAX - e->n;

	if (n > room) {
		e->dropped += n - room;
		n = room;
	}
	if (advise_grow(&e->ev, &e->cap, e->n + n, sizeof(*ev),
			ADVISE_EVENTS_MAX))
		return -ENOMEM;
	memcpy(e->ev + e->n, ev, n * sizeof(*ev));
	e->n += n;
	return 0;
}

int advise_events_drain(struct wsc_trace *tr, struct advise_events *e)
{
	uint64_t lost = 0;
	int ret = wsc_trace_events(tr, events_take, e, &lost);

	if (ret < 0) {
		fprintf(stderr, "wsc trace: --advise: cannot read the events: %s\n",
			wsc_trace_error(tr)[0] ? wsc_trace_error(tr) :
			strerror(-ret));
		return ret;
	}
	e->lost = lost;
	return 0;
}

int advise_end(struct wsc_trace *tr, struct advise_events *e,
	       struct advise_report *a)
{
	if (advise_events_drain(tr, e))
		return -1;
	a->lost_events = e->lost;
	a->events_dropped = e->dropped;
	if (advise_analyse(e->ev, e->n, a)) {
		fprintf(stderr, "wsc trace: --advise: out of memory for %zu events\n",
			e->n);
		return -1;
	}
	return 0;
}

void advise_events_free(struct advise_events *e)
{
	free(e->ev);
	memset(e, 0, sizeof(*e));
}
