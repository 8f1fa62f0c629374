/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace's events (trace_events.c): one ring of struct wsc_trace_event
 * per possible CPU, filled by the probes of trace.c, drained by a
 * TRACE_EVENTS dump through trace.h.  The trace area's own header: the
 * probes reserve and commit here; nothing outside the area includes it.
 */
#ifndef _WSC_TRACE_EVENTS_H
#define _WSC_TRACE_EVENTS_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <uapi/linux/wsc.h>

struct wsc_trace_ring;

/**
 * struct wsc_trace_events - what a trace that records events keeps
 * @per_cpu:     events each CPU's ring holds
 * @drain_lock:  one drain at a time: each ring has a single consumer
 * @ring:        per possible CPU (nr_cpu_ids pointers)
 */
struct wsc_trace_events {
	u32 per_cpu;
	struct mutex drain_lock;
	struct wsc_trace_ring *ring[];
};

struct wsc_trace_events *wsc_trace_events_alloc(u32 per_cpu);
void wsc_trace_events_free(struct wsc_trace_events *ev);
struct wsc_trace_event *wsc_trace_events_reserve(struct wsc_trace_events *ev);
void wsc_trace_events_commit(struct wsc_trace_events *ev);
u64 wsc_trace_events_lost(struct wsc_trace_events *ev);

#endif /* _WSC_TRACE_EVENTS_H */
