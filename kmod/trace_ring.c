// SPDX-License-Identifier: GPL-2.0
/*
 * The trace's io_uring requests: each request a traced task hands to a
 * ring is counted under its opcode, in the same kind of row as a system
 * call (trace.c's rows past WSC_TRACE_RING_ROW), with its latency from
 * its submission to its completion.  Only traces that ask for it (the
 * start's TRACE_RING flag) attach these probes: a trace without it, and
 * a program that does not use io_uring, pay nothing.
 *
 * A request is submitted in its task (io_uring_enter) or in the ring's
 * SQPOLL thread, and completes wherever its work ends: the submitting
 * task, an io-wq worker, task_work, another CPU.  So the submission
 * cannot leave its time in a per-task slot: it is kept in a table of
 * requests in flight, open-addressed and keyed by the request's
 * address, each entry claimed with a cmpxchg as the trace's task slots
 * are, and taken back by the request's last completion.  A request that
 * finds no free entry, or whose address is submitted again before its
 * completion was seen (a completion that never passes the tracepoint:
 * IOSQE_CQE_SKIP_SUCCESS, an overflowed completion queue), is counted as
 * lost, never silently.
 *
 * Who a request counts for: the task that submitted it, if the trace
 * follows it; a request an io thread submits (an SQPOLL thread, with
 * PF_IO_WORKER) counts for its process, through its thread group's
 * leader.  A cgroup's or the machine's trace counts the requests of
 * every task it wants, followed yet or not.  Ring requests count in the
 * rows only, not in the tasks' records, which their own tasks alone
 * write (trace.c): a completion runs anywhere.
 */
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/io_uring_types.h>
#include <linux/mm.h>
#include <linux/netlink.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include "wsc.h"
#include "trace_internal.h"
#include "trace_ring_internal.h"

#define WSC_TRACE_RING_BITS	12
#define WSC_TRACE_RING_SLOTS	(1u << WSC_TRACE_RING_BITS)
#define WSC_TRACE_RING_MASK	(WSC_TRACE_RING_SLOTS - 1)
/* Entries one lookup looks at: a request hashed past a full run is lost. */
#define WSC_TRACE_RING_PROBES	32

/**
 * struct wsc_trace_ring_req - one request in flight
 * @submit_ns: ktime_get_ns() at its submission
 * @row:       its row: WSC_TRACE_RING_ROW + its opcode
 */
struct wsc_trace_ring_req {
	u64 submit_ns;
	u32 row;
};

/**
 * struct wsc_trace_ring - a trace's io_uring requests in flight
 * @keys: WSC_TRACE_RING_SLOTS keys: a request's address or WSC_TRACE_KEY_*
 * @reqs: the requests of @keys
 * @lost: requests submitted and never counted: no free entry, a
 *        completion never seen, or one seen in interrupt context
 */
struct wsc_trace_ring {
	unsigned long *keys;
	struct wsc_trace_ring_req *reqs;
	atomic64_t lost;
};

/* Found by name at load; NULL on a kernel without io_uring. */
static struct tracepoint *wsc_tp_ring_submit, *wsc_tp_ring_complete;

/* @req's entry, or -1.  Lock-free: only @req's own key can match. */
static int wsc_trace_ring_find(struct wsc_trace_ring *r, const void *req)
{
	unsigned int i = hash_ptr(req, WSC_TRACE_RING_BITS), n;
	unsigned long key;

	for (n = 0; n < WSC_TRACE_RING_PROBES; n++, i = (i + 1) & WSC_TRACE_RING_MASK) {
		/* Pairs with the release in wsc_trace_ring_submit(). */
		key = smp_load_acquire(&r->keys[i]);
		if (key == (unsigned long)req)
			return i;
		if (key == WSC_TRACE_KEY_EMPTY)
			return -1;
	}
	return -1;
}

/*
 * Take @req's entry @i out of the table (WSC_TRACE_KEY_BUSY); false if
 * another CPU took it first.
 */
static bool wsc_trace_ring_take(struct wsc_trace_ring *r, int i, const void *req)
{
	return cmpxchg(&r->keys[i], (unsigned long)req, WSC_TRACE_KEY_BUSY) ==
	       (unsigned long)req;
}

/* An entry for @req, made BUSY, or -1 when the probe window is full. */
static int wsc_trace_ring_claim(struct wsc_trace_ring *r, const void *req)
{
	unsigned int i = hash_ptr(req, WSC_TRACE_RING_BITS), n;
	unsigned long key;
	int old;

	/*
	 * Still listed: the request that had this address before completed
	 * without passing the tracepoint.  It was never counted: lost.
	 */
	old = wsc_trace_ring_find(r, req);
	if (old >= 0 && wsc_trace_ring_take(r, old, req)) {
		atomic64_inc(&r->lost);
		return old;
	}
	for (n = 0; n < WSC_TRACE_RING_PROBES; n++, i = (i + 1) & WSC_TRACE_RING_MASK) {
		key = READ_ONCE(r->keys[i]);
		if (key != WSC_TRACE_KEY_EMPTY && key != WSC_TRACE_KEY_GONE)
			continue;
		if (cmpxchg(&r->keys[i], key, WSC_TRACE_KEY_BUSY) == key)
			return i;
	}
	return -1;
}

/*
 * Does @t count the requests @tsk submits?  An io thread's (SQPOLL)
 * count for its process: its group leader's slot, when it has none of
 * its own.
 */
static bool wsc_trace_ring_counts_for(struct wsc_trace_session *t,
				      struct task_struct *tsk)
{
	if (wsc_trace_find(t, tsk))
		return true;
	if (tsk->flags & PF_IO_WORKER) {
		tsk = tsk->group_leader;
		if (wsc_trace_find(t, tsk))
			return true;
	}
	return wsc_trace_joins_on_call(t) && wsc_trace_wants(t, tsk);
}

static void wsc_trace_ring_submit(struct wsc_trace_session *t, struct io_kiocb *req)
{
	struct wsc_trace_ring *r = t->ring;
	unsigned int op = READ_ONCE(req->opcode);
	int i;

	if (!wsc_trace_ring_counts_for(t, current))
		return;
	/* io_init_req() refused any other before the tracepoint. */
	if (WARN_ON_ONCE(op >= WSC_TRACE_RING_OPS))
		return;
	i = wsc_trace_ring_claim(r, req);
	if (i < 0) {
		atomic64_inc(&r->lost);
		return;
	}
	r->reqs[i].row = WSC_TRACE_RING_ROW + op;
	/* Last: the lookups above are not part of the request's time. */
	r->reqs[i].submit_ns = ktime_get_ns();
	/* Publishes the entry: pairs with the acquire in wsc_trace_ring_find(). */
	smp_store_release(&r->keys[i], (unsigned long)req);
}

static void wsc_trace_ring_on_submit(void *data, WSC_RING_SUBMIT_PROBE_ARGS)
{
	wsc_trace_probe_begin();
	wsc_trace_ring_submit(data, req);
	wsc_trace_probe_end();
}

/*
 * A completion of @req, which returned @res with CQE flags @cflags.  A
 * multishot request (IORING_CQE_F_MORE: more to come) counts once, at
 * its last completion, with the time from its submission to it.
 */
static void wsc_trace_ring_complete(struct wsc_trace_session *t, void *req,
				    int res, unsigned int cflags)
{
	struct wsc_trace_ring *r = t->ring;
	u64 now, ns;
	u32 row;
	int i;

	/* An auxiliary CQE (a multishot's, a message's) names no request. */
	if (!req || (cflags & IORING_CQE_F_MORE))
		return;
	now = ktime_get_ns();
	i = wsc_trace_ring_find(r, req);
	if (i < 0 || !wsc_trace_ring_take(r, i, req))
		return;
	row = r->reqs[i].row;
	ns = now > r->reqs[i].submit_ns ? now - r->reqs[i].submit_ns : 0;
	/* Read before it is free: pairs with the cmpxchg of a claim. */
	smp_store_release(&r->keys[i], WSC_TRACE_KEY_GONE);
	/*
	 * A CPU's rows are written with preemption off, not interrupts: a
	 * completion in interrupt context could interrupt a probe halfway
	 * through the same row.  None is known to come there (io_uring
	 * posts CQEs from task context); if one does, it is lost, not
	 * miscounted.
	 */
	if (unlikely(!in_task())) {
		atomic64_inc(&r->lost);
		return;
	}
	if (!wsc_trace_result_wanted(t, res)) {
		wsc_trace_this_cpu(t)->filtered++;
		return;
	}
	/* Time in flight, none of it the task's CPU time: all "off". */
	wsc_trace_count(t, NULL, WSC_TRACE_SYSCALL, row, ns, ns, res);
}

#ifdef WSC_HAVE_IO_URING_COMPLETE_CQE
static void wsc_trace_ring_on_complete(void *data, struct io_ring_ctx *ctx,
				       void *req, struct io_uring_cqe *cqe)
{
	wsc_trace_probe_begin();
	wsc_trace_ring_complete(data, req, cqe->res, cqe->flags);
	wsc_trace_probe_end();
}
#else
static void wsc_trace_ring_on_complete(void *data, void *ctx, void *req,
				       u64 user_data, int res, unsigned int cflags,
				       u64 extra1, u64 extra2)
{
	wsc_trace_probe_begin();
	wsc_trace_ring_complete(data, req, res, cflags);
	wsc_trace_probe_end();
}
#endif

/**
 * wsc_trace_ring_attach() - attach @t's ring probes
 * @t: a trace with a ring table, its other probes attached
 *
 * Completions first, so that no request submitted while attached misses
 * its completion's probe.
 *
 * Return: 0 or the tracepoints' -errno.
 */
int wsc_trace_ring_attach(struct wsc_trace_session *t)
{
	int err;

	err = tracepoint_probe_register(wsc_tp_ring_complete,
					wsc_trace_ring_on_complete, t);
	if (err)
		return err;
	err = tracepoint_probe_register(wsc_tp_ring_submit,
					wsc_trace_ring_on_submit, t);
	if (err)
		WARN_ON_ONCE(tracepoint_probe_unregister(wsc_tp_ring_complete,
							 wsc_trace_ring_on_complete,
							 t));
	return err;
}

/**
 * wsc_trace_ring_detach() - detach @t's ring probes, if it has them
 * @t: the trace
 *
 * As wsc_trace_detach(): a probe may still be running on return.
 */
void wsc_trace_ring_detach(struct wsc_trace_session *t)
{
	if (!t->ring)
		return;
	WARN_ON_ONCE(tracepoint_probe_unregister(wsc_tp_ring_submit,
						 wsc_trace_ring_on_submit, t));
	WARN_ON_ONCE(tracepoint_probe_unregister(wsc_tp_ring_complete,
						 wsc_trace_ring_on_complete, t));
}

/**
 * wsc_trace_ring_alloc() - give @t a table of requests in flight
 * @t:      a trace being started
 * @extack: where a kernel without io_uring's tracepoints is explained
 *
 * Return: 0, -EOPNOTSUPP or -ENOMEM.
 */
int wsc_trace_ring_alloc(struct wsc_trace_session *t,
			 struct netlink_ext_ack *extack)
{
	struct wsc_trace_ring *r;

	if (!wsc_tp_ring_submit || !wsc_tp_ring_complete) {
		NL_SET_ERR_MSG(extack,
			       "this kernel lacks io_uring's tracepoints (" WSC_RING_SUBMIT_TP ", io_uring_complete)");
		return -EOPNOTSUPP;
	}
	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	r->keys = kvcalloc(WSC_TRACE_RING_SLOTS, sizeof(*r->keys),
			   GFP_KERNEL_ACCOUNT);
	r->reqs = kvcalloc(WSC_TRACE_RING_SLOTS, sizeof(*r->reqs),
			   GFP_KERNEL_ACCOUNT);
	atomic64_set(&r->lost, 0);
	t->ring = r;
	return r->keys && r->reqs ? 0 : -ENOMEM;
}

/**
 * wsc_trace_ring_free() - free @t's table, once no probe of it can run
 * @t: the trace being freed
 */
void wsc_trace_ring_free(struct wsc_trace_session *t)
{
	if (!t->ring)
		return;
	kvfree(t->ring->reqs);
	kvfree(t->ring->keys);
	kfree(t->ring);
	t->ring = NULL;
}

/**
 * wsc_trace_ring_read_counts() - what @t's ring requests lost so far
 * @t:  a referenced trace
 * @st: its ring fields are filled in
 *
 * The requests pending are read as they change; once the trace has
 * ended, they are those whose completion was never seen.
 */
void wsc_trace_ring_read_counts(struct wsc_trace_session *t,
				struct wsc_trace_report *st)
{
	unsigned int i;

	st->ring = t->ring;
	if (!t->ring)
		return;
	st->ring_lost = atomic64_read(&t->ring->lost);
	st->ring_pending = 0;
	for (i = 0; i < WSC_TRACE_RING_SLOTS; i++)
		st->ring_pending += READ_ONCE(t->ring->keys[i]) > WSC_TRACE_KEY_BUSY;
}

static void wsc_trace_ring_match_tp(struct tracepoint *tp, void *unused)
{
	if (!strcmp(tp->name, WSC_RING_SUBMIT_TP))
		wsc_tp_ring_submit = tp;
	else if (!strcmp(tp->name, "io_uring_complete"))
		wsc_tp_ring_complete = tp;
}

/**
 * wsc_trace_ring_find_tracepoints() - find io_uring's tracepoints
 *
 * A kernel without them (no CONFIG_IO_URING) still traces: a trace that
 * asks for ring requests is refused (wsc_trace_ring_alloc()).
 */
void wsc_trace_ring_find_tracepoints(void)
{
	for_each_kernel_tracepoint(wsc_trace_ring_match_tp, NULL);
}
