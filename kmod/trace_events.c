// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's events: one struct wsc_trace_event per counted call, for
 * userspace to see the order of each thread's calls, the gaps between
 * them, their arguments and results (Documentation/trace.md, "Events").
 *
 * Each possible CPU has a ring of its own, allocated at the start and
 * freed with the trace.  Its producer is the probes of trace.c on that
 * CPU, which run with preemption off and never from an interrupt, so
 * one at a time; its consumer is a TRACE_EVENTS dump, one at a time
 * under @drain_lock.  So the ring needs no lock and no atomic: the
 * producer owns @head, the consumer @tail, and each publishes its own
 * with a release that the other's acquire pairs with.  A ring of n
 * events has n + 1 slots, one always empty, so that head == tail means
 * empty and never full.  A full ring drops the event and counts it.
 */
#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/topology.h>

#include "wsc.h"
#include "trace_internal.h"
#include "trace_events.h"

/**
 * struct wsc_trace_ring - one CPU's events
 * @head:  the slot the next event goes to; the producer's
 * @slots: events it holds, plus the one kept empty
 * @lost:  events dropped because it was full; written by the producer
 * @tail:  the oldest event not drained; the consumer's, on a line of its
 *         own so that draining does not take the producer's line away
 * @ev:    @slots events
 */
struct wsc_trace_ring {
	u32 head;
	u32 slots;
	u64 lost;
	u32 tail ____cacheline_aligned;
	struct wsc_trace_event ev[];
};

/* The slot after @i. */
static __always_inline u32 wsc_trace_ring_next(const struct wsc_trace_ring *r,
					       u32 i)
{
	return i + 1 == r->slots ? 0 : i + 1;
}

/**
 * wsc_trace_events_alloc() - rings of @per_cpu events for every possible CPU
 * @per_cpu: 1..WSC_TRACE_EVENTS_MAX
 *
 * Charged to the caller's memory cgroup, as the rest of a trace is.
 *
 * Return: the rings, or NULL.
 */
struct wsc_trace_events *wsc_trace_events_alloc(u32 per_cpu)
{
	struct wsc_trace_events *ev;
	struct wsc_trace_ring *r;
	unsigned int cpu;

	if (WARN_ON_ONCE(!per_cpu || per_cpu > WSC_TRACE_EVENTS_MAX))
		return NULL;
	ev = kzalloc(struct_size(ev, ring, nr_cpu_ids), GFP_KERNEL_ACCOUNT);
	if (!ev)
		return NULL;
	ev->per_cpu = per_cpu;
	mutex_init(&ev->drain_lock);
	for_each_possible_cpu(cpu) {
		/* The events are written before they are read: not cleared. */
		r = kvmalloc_node(struct_size(r, ev, per_cpu + 1),
				  GFP_KERNEL_ACCOUNT, cpu_to_node(cpu));
		if (!r)
			goto err_free;
		r->head = 0;
		r->tail = 0;
		r->lost = 0;
		r->slots = per_cpu + 1;
		ev->ring[cpu] = r;
	}
	return ev;

err_free:
	wsc_trace_events_free(ev);
	return NULL;
}

/** wsc_trace_events_free() - free @ev (may be NULL), whose probes are gone */
void wsc_trace_events_free(struct wsc_trace_events *ev)
{
	unsigned int cpu;

	if (!ev)
		return;
	for_each_possible_cpu(cpu)
		kvfree(ev->ring[cpu]);
	mutex_destroy(&ev->drain_lock);
	kfree(ev);
}

/**
 * wsc_trace_events_reserve() - this CPU's next free event
 * @ev: the trace's rings
 *
 * For a probe, preemption off, until its wsc_trace_events_commit().
 *
 * Return: the event to fill in, or NULL when the ring is full (counted).
 */
struct wsc_trace_event *wsc_trace_events_reserve(struct wsc_trace_events *ev)
{
	struct wsc_trace_ring *r = ev->ring[smp_processor_id()];
	u32 head = r->head;

	WSC_DEBUG_ON(preemptible());
	/*
	 * Pairs with the release in wsc_trace_drain_take(): the slot the
	 * consumer gave back has been read before it is written again.
	 */
	if (wsc_trace_ring_next(r, head) == smp_load_acquire(&r->tail)) {
		WRITE_ONCE(r->lost, r->lost + 1);
		return NULL;
	}
	return &r->ev[head];
}

/** wsc_trace_events_commit() - publish the event just reserved and filled */
void wsc_trace_events_commit(struct wsc_trace_events *ev)
{
	struct wsc_trace_ring *r = ev->ring[smp_processor_id()];

	/* The event before the head: pairs with wsc_trace_drain_ready(). */
	smp_store_release(&r->head, wsc_trace_ring_next(r, r->head));
}

/** wsc_trace_events_lost() - events dropped on every CPU since the start */
u64 wsc_trace_events_lost(struct wsc_trace_events *ev)
{
	unsigned int cpu;
	u64 lost = 0;

	for_each_possible_cpu(cpu)
		lost += READ_ONCE(ev->ring[cpu]->lost);
	return lost;
}

/* ---- draining, for the TRACE_EVENTS dump (trace.h) ---- */

/**
 * wsc_trace_drain_begin() - become @t's one consumer
 * @t: a referenced trace
 *
 * Return: 0 with the drain lock held (wsc_trace_drain_end()), -ENODATA
 * when @t records no events, -EINTR when a fatal signal came first.
 */
int wsc_trace_drain_begin(struct wsc_trace_session *t)
{
	if (!t->events)
		return -ENODATA;
	return mutex_lock_killable(&t->events->drain_lock);
}

/** wsc_trace_drain_end() - let the next drain of @t in */
void wsc_trace_drain_end(struct wsc_trace_session *t)
{
	mutex_unlock(&t->events->drain_lock);
}

/**
 * wsc_trace_drain_ready() - events of CPU @cpu waiting in @t
 * @t:   a trace whose drain lock the caller holds
 * @cpu: a possible CPU
 *
 * Return: how many; more may come, none go but by wsc_trace_drain_take().
 */
unsigned int wsc_trace_drain_ready(struct wsc_trace_session *t, unsigned int cpu)
{
	const struct wsc_trace_ring *r = t->events->ring[cpu];
	/* Pairs with the release in wsc_trace_events_commit(). */
	u32 head = smp_load_acquire(&r->head), tail = r->tail;

	lockdep_assert_held(&t->events->drain_lock);
	return head >= tail ? head - tail : head + r->slots - tail;
}

/**
 * wsc_trace_drain_take() - move the oldest @n events of CPU @cpu to @to
 * @t:   a trace whose drain lock the caller holds
 * @cpu: a possible CPU
 * @to:  room for @n events
 * @n:   at most what wsc_trace_drain_ready() said
 */
void wsc_trace_drain_take(struct wsc_trace_session *t, unsigned int cpu,
			  struct wsc_trace_event *to, unsigned int n)
{
	struct wsc_trace_ring *r = t->events->ring[cpu];
	u32 tail = r->tail, first = min(n, r->slots - tail);

	lockdep_assert_held(&t->events->drain_lock);
	memcpy(to, &r->ev[tail], first * sizeof(*to));
	memcpy(to + first, r->ev, (n - first) * sizeof(*to));
	tail += n;
	if (tail >= r->slots)
		tail -= r->slots;
	/* The copies before the slots are given back to the producer. */
	smp_store_release(&r->tail, tail);
}

/**
 * wsc_trace_drain_lost() - events @t dropped since its start, or 0
 * @t: a referenced trace
 *
 * Return: the sum over every CPU.
 */
u64 wsc_trace_drain_lost(struct wsc_trace_session *t)
{
	return t->events ? wsc_trace_events_lost(t->events) : 0;
}
