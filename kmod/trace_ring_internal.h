/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace's io_uring requests (trace_ring.c), for trace_ctl.c, which
 * gives a trace that asks for them their table and their probes, and
 * reads what they lost.  trace_ring.c uses trace.c's table of tasks and
 * its rows (trace_internal.h); trace.c knows nothing of it.
 */
#ifndef _WSC_TRACE_RING_INTERNAL_H
#define _WSC_TRACE_RING_INTERNAL_H

#include <linux/types.h>

struct netlink_ext_ack;
struct wsc_trace_report;
struct wsc_trace_session;

void wsc_trace_ring_find_tracepoints(void);
int wsc_trace_ring_alloc(struct wsc_trace_session *t,
			 struct netlink_ext_ack *extack);
void wsc_trace_ring_free(struct wsc_trace_session *t);
int wsc_trace_ring_attach(struct wsc_trace_session *t);
void wsc_trace_ring_detach(struct wsc_trace_session *t);
void wsc_trace_ring_read_counts(struct wsc_trace_session *t,
				struct wsc_trace_report *st);

#endif /* _WSC_TRACE_RING_INTERNAL_H */
