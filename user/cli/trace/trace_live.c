// SPDX-License-Identifier: MIT
/*
 * wsc trace --interval: while the trace runs, every SEC seconds the
 * figures of the interval since the previous fetch.
 */
#include <errno.h>
#include <string.h>

#include "common/clock.h"
#include "trace_cmd.h"
#include "trace_openmetrics.h"

void trace_live_begin(struct trace_live *lv)
{
	lv->begin_ns = clock_now_ns();
	lv->next_ns = lv->begin_ns + lv->o->interval_ns;
}

/*
 * Print the interval from the previous fetch to @cur (fetched at
 * @end_ns from the start); @cur becomes the previous unless @last.
 */
int trace_live_print(struct trace_live *lv, struct trace_report *cur,
			    uint64_t end_ns, bool last)
{
	struct trace_interval iv = { .k = ++lv->k, .start_ns = lv->last_ns,
				     .end_ns = end_ns, .last = last };
	struct trace_report d;

	if (trace_report_diff(cur, &lv->prev, &d))
		return -ENOMEM;
	trace_sort_rows(&d, lv->o->sort);
	if (lv->o->json)
		trace_print_interval_json(lv->f, &d, &iv);
	else
		trace_print_interval(lv->f, &d, &iv);
	fflush(lv->f);
	trace_report_free(&d);
	lv->last_ns = end_ns;
	if (!last) {
		trace_report_free(&lv->prev);
		lv->prev = *cur;
		memset(cur, 0, sizeof(*cur));
	}
	return 0;
}

/* An interval is due: fetch the live figures and print what is new. */
int trace_live_tick(struct wsc_trace *tr, struct trace_live *lv,
			   uint64_t now)
{
	struct trace_report cur = lv->prev;
	int err;

	/* The views (--time, --top) as the whole report's; no rows yet. */
	cur.rows = NULL;
	cur.nr_rows = 0;
	cur.tasks = NULL;
	cur.nr_tasks = 0;
	/* "lost" so far, for the interval's JSON. */
	err = wsc_trace_status(tr, &cur.status);
	if (!err)
		err = trace_fetch_rows(tr, &cur);
	/* --openmetrics: the counts so far (the tasks' with --by). */
	if (!err && lv->om && cur.by != TRACE_BY_NONE)
		err = trace_fetch_tasks(tr, &cur);
	if (!err && lv->om)
		err = trace_om_write(lv->om, &cur);
	if (!err)
		err = trace_live_print(lv, &cur, now - lv->begin_ns, false);
	trace_report_free(&cur);
	while (lv->next_ns <= now)
		lv->next_ns += lv->o->interval_ns;
	return err;
}
