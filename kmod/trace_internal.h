/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace's insides, shared by trace.c (the probes, the table of
 * followed tasks, the readers) and trace_ctl.c (starting, stopping,
 * owners, lifetime), and by no other file: the rest of the module sees
 * the trace through trace.h, where a session is opaque.
 *
 * trace_ctl.c uses trace.c, never the other way: the probes and the
 * readers know nothing of the list of sessions, its mutex or its
 * owners.  A probe that finds a process tree emptied queues the
 * session's @end_work, which trace_ctl.c set up; the fields of a report
 * that change as a session ends are read by trace_ctl.c, under its mutex.
 */
#ifndef _WSC_TRACE_INTERNAL_H
#define _WSC_TRACE_INTERNAL_H

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/kref.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <asm/unistd.h>
#include <uapi/linux/io_uring.h>

#include "wsc.h"
#include "trace.h"

struct netlink_ext_ack;
struct wsc_trace_events;

#define WSC_TRACE_SLOT_BITS	14
#define WSC_TRACE_SLOTS		(1u << WSC_TRACE_SLOT_BITS)
#define WSC_TRACE_SLOT_MASK	(WSC_TRACE_SLOTS - 1)
/* Slots one lookup looks at: a task hashed past a full run is not followed. */
#define WSC_TRACE_PROBES	32

/* Per-task records a trace keeps, in the order tasks join it. */
#define WSC_TRACE_RECORDS	4096

/*
 * A CPU's rows: one per system call number, then, from WSC_TRACE_RING_ROW
 * on, one per io_uring opcode of this kernel (trace_ring.c), whose
 * requests count in rows of the same kind.
 */
#define WSC_TRACE_RING_ROW	NR_syscalls
#define WSC_TRACE_RING_OPS	IORING_OP_LAST
#define WSC_TRACE_ROWS		(WSC_TRACE_RING_ROW + WSC_TRACE_RING_OPS)

/* Each CPU's (call, errno) counters, and how far a lookup looks. */
#define WSC_TRACE_ERRNO_BITS	8
#define WSC_TRACE_ERRNO_SLOTS	(1u << WSC_TRACE_ERRNO_BITS)
#define WSC_TRACE_ERRNO_PROBES	16

/* Keys that are not tasks: a task_struct is never at these addresses. */
#define WSC_TRACE_KEY_EMPTY	0UL	/* never used: a lookup stops here */
#define WSC_TRACE_KEY_GONE	1UL	/* its task exited: free, a lookup goes on */
#define WSC_TRACE_KEY_BUSY	2UL	/* being claimed */

/*
 * struct wsc_trace_inflight.nr when the task is not inside a counted call:
 * every value at or above NR_syscalls means "not counted".
 */
#define WSC_TRACE_NO_CALL	U32_MAX
#define WSC_TRACE_FOREIGN_CALL	(U32_MAX - 1)	/* a 32-bit or unknown call */
#define WSC_TRACE_SKIPPED_CALL	(U32_MAX - 2)	/* left out by the filter */

/**
 * struct wsc_trace_inflight - a call in progress
 * @enter_ns: ktime_get_ns() at its entry, moved later by the time of
 *            each call that ran nested in it (a batch's ioctl: its
 *            wrapped calls, which count under their own names), so that
 *            the time since is always its own
 * @off_ns:   time its task has spent switched out since its entry,
 *            outside any call nested in it
 * @nr:       its number, or one of WSC_TRACE_*_CALL
 * @nested_ns: how far @enter_ns was moved on, at most U32_MAX (in the
 *            padding after @nr): an event's entry is @enter_ns less it;
 *            non-zero once a call ran nested in it (a batch's ioctl)
 *
 * Two of them and the rest of a slot fill one cache line.
 */
struct wsc_trace_inflight {
	u64 enter_ns;
	u64 off_ns;
	u32 nr;
	u32 nested_ns;
};

/* Which of a slot's calls a tracepoint's registers are about. */
#define WSC_TRACE_SYSCALL	0	/* the task's system call */
#define WSC_TRACE_WRAPPED	1	/* a wrapped call inside it */

/**
 * struct wsc_trace_slot - one followed task; a cache line of its own, so
 * that tasks on different CPUs never write the same line
 * @call:   the system call in progress, and a wrapped call that a wsc
 *          batch runs inside it (an ioctl of /dev/wsc): the two nest,
 *          each paired with its own exit (wsc_trace_which())
 * @out_ns: when its task was switched out inside a counted call, or 0
 * @task:   its record, or NULL when the records ran out
 *
 * The key is the task_struct pointer alone: a slot is always given back
 * at its task's exit probe, before the task_struct can be freed and its
 * address reused.  (Not its start_time: an exec from a thread other than
 * the leader takes the leader's.)
 */
struct wsc_trace_slot {
	struct wsc_trace_inflight call[2];
	u64 out_ns;
	struct wsc_trace_record *task;
} ____cacheline_aligned;

/**
 * struct wsc_trace_row - what one CPU saw of one system call
 * @calls:    calls that returned on this CPU (or never returned: exit)
 * @errors:   of them, those that returned -4095..-1
 * @wrapped:  of them, those a wsc batch ran
 * @total_ns: their summed latency: their own time, the calls a batch's
 *            ioctl ran left out of it (they count in their own rows)
 * @off_ns:   of it, the time their tasks were switched out
 * @max_ns:   the longest
 * @hist:     WSC_HIST_BUCKETS counters from the CPU's pool, NULL until
 *            the call first returns here (or when the pool ran out)
 */
struct wsc_trace_row {
	u64 calls;
	u64 errors;
	u64 wrapped;
	u64 total_ns;
	u64 off_ns;
	u64 max_ns;
	u64 *hist;
};

/**
 * struct wsc_trace_errno - one CPU's count of one call failing one way
 * @key:   (call number << 12) | errno, or 0 for a free entry
 * @count: the failures
 */
struct wsc_trace_errno {
	u32 key;
	u64 count;
};

/**
 * struct wsc_trace_cpu - one CPU's part of a trace, written only there
 * @lost_exits: entries that found the previous call of their task still
 *              open: an exit was never seen
 * @lost_hist:  calls counted whose latency found no histogram
 * @lost_calls: calls of a traced cgroup's task that found no free slot
 * @lost_errnos: failed calls counted, whose errno found no free entry
 * @foreign:    32-bit (compat) or out-of-range calls, not counted
 * @unmatched:  exits of calls that began before the trace did
 * @filtered:   calls the trace's filters left out
 * @hists_used: histograms of @pool handed out
 * @pool:       trace_hists histograms
 * @errnos:     the (call, errno) counters, open addressing
 * @row:        one per system call number, then one per io_uring
 *              opcode (WSC_TRACE_ROWS)
 */
struct wsc_trace_cpu {
	u64 lost_exits;
	u64 lost_hist;
	u64 lost_calls;
	u64 lost_errnos;
	u64 foreign;
	u64 unmatched;
	u64 filtered;
	unsigned int hists_used;
	u64 *pool;
	struct wsc_trace_errno errnos[WSC_TRACE_ERRNO_SLOTS];
	struct wsc_trace_row row[WSC_TRACE_ROWS];
};

/**
 * struct wsc_trace_session - one trace, from its start until its owner resets it,
 * starts another or closes its socket, and as long as a reader holds a
 * reference
 * @cgrp:     the target cgroup (referenced), or NULL
 * @all:      the target is every task but the starter's process
 * @starter:  the starter's process (referenced), left out of a cgroup's
 *            or the machine's trace so that it does not count itself
 * @pidns:    the starter's pid namespace (referenced): the records' pids
 * @calls:    NR_syscalls bits, the calls counted; NULL: every call
 * @failed:   count failed calls only
 * @err:      count only calls failing with -@err; 0: any
 * @keys:     WSC_TRACE_SLOTS keys: a task_struct pointer or WSC_TRACE_KEY_*
 * @homes:    WSC_TRACE_SLOTS bits: bit h is set once a task whose hash is
 *            h has held a slot, and stays set until the trace is freed;
 *            a task whose bit is clear has no slot, which is the one test
 *            an untraced task's system call pays
 * @slots:    the slots of @keys
 * @tasks:    WSC_TRACE_RECORDS records, handed out as tasks join
 * @cpu:      per possible CPU (nr_cpu_ids pointers)
 * @events:   the rings of a trace that records events (trace_events.h),
 *            or NULL: the one test an exit pays when it records none
 * @hists:    histograms in each CPU's pool
 * @ring:     its io_uring requests in flight (trace_ring.c), or NULL
 *            when it does not count them
 * @follow_lock: serialises claims of process-tree slots, so the start's
 *               walk and a fork cannot both claim one task; raw, as the
 *               fork probe takes it with preemption disabled
 * @live:     tasks holding a slot
 * @followed: tasks that ever held one (and records handed out, capped)
 * @lost_tasks: tasks of the tree that found no free slot
 * @end_work: ends a process tree's trace once its last task has gone:
 *            queued by the exit probe that finds it so, run by
 *            trace_ctl.c (detaching probes sleeps, which a probe cannot)
 * @ref:      the list of traces holds one reference; each reader (a dump,
 *            a status, a read of /proc/syscall_lat) holds another
 * @free_work: frees it once no probe can be running (wsc_trace_free())
 * @id:       counts traces since the module was loaded, from 1
 * @owner_net:  the network namespace of the socket that started it
 * @owner_portid: that socket's port id; the trace dies with it
 * @state:    enum wsc_trace_state
 * @end:      enum wsc_trace_end
 * @pid:      the target process as the starter named it, or 0
 * @cgroup:   the target cgroup's path as given, or NULL
 * @started_ns: ktime_get_ns() when it was attached
 * @ended_ns: ktime_get_ns() when it was detached
 * @unfinished: calls still in progress when it was detached
 *
 * @cgrp to @hists are fixed before the probes are attached and read by
 * them; @follow_lock to @end_work change as tasks join and leave; @id
 * to @cgroup are fixed once the trace is listed; @state, @end,
 * @ended_ns and @unfinished change under the list's mutex.
 */
struct wsc_trace_session {
	struct cgroup *cgrp;
	bool all;
	struct pid *starter;
	struct pid_namespace *pidns;
	unsigned long *calls;
	bool failed;
	u32 err;
	unsigned long *keys;
	unsigned long *homes;
	struct wsc_trace_slot *slots;
	struct wsc_trace_record *tasks;
	struct wsc_trace_cpu **cpu;
	struct wsc_trace_events *events;
	unsigned int hists;
	struct wsc_trace_ring *ring;

	/* Written at fork and exit: off the line every probe reads. */
	raw_spinlock_t follow_lock ____cacheline_aligned_in_smp;
	atomic_t live;
	atomic64_t followed;
	atomic64_t lost_tasks;
	struct work_struct end_work;

	struct kref ref;
	struct work_struct free_work;
	u64 id;
	const struct net *owner_net;
	u32 owner_portid;
	u32 state;
	u32 end;
	pid_t pid;
	char *cgroup;
	u64 started_ns;
	u64 ended_ns;
	u64 unfinished;
};

/*
 * The probes' per-CPU part.  Every probe holds preemption off for its
 * whole body (see wsc_trace_probe_begin()), so the CPU cannot change
 * between finding its part and updating it.
 */
static inline struct wsc_trace_cpu *wsc_trace_this_cpu(struct wsc_trace_session *t)
{
	WSC_DEBUG_ON(preemptible());
	return t->cpu[smp_processor_id()];
}

/*
 * Tracepoint probes used to run with preemption disabled; since 6.13 the
 * system call tracepoints may fault and run preemptible (under tasks-trace
 * RCU), and 7.x runs the others under an SRCU guard.  A probe that was
 * preempted halfway could then finish on another CPU and update a part
 * that CPU is updating too.  So each probe turns preemption off itself:
 * cheap where it already is off, and the same code on every kernel.
 */
static __always_inline void wsc_trace_probe_begin(void)
{
	preempt_disable_notrace();
}

static __always_inline void wsc_trace_probe_end(void)
{
	preempt_enable_notrace();
}

/* Tasks join at their first call, not through the tree. */
static __always_inline bool wsc_trace_joins_on_call(struct wsc_trace_session *t)
{
	return t->cgrp || t->all;
}

/* Does the trace's errno filter let a call that returned @ret count? */
static __always_inline bool wsc_trace_result_wanted(struct wsc_trace_session *t,
						    long ret)
{
	if (t->err)
		return ret == -(long)t->err;
	return !t->failed || IS_ERR_VALUE(ret);
}

/* trace.c, for trace_ring.c: the table of tasks, and counting in a row. */
struct wsc_trace_slot *wsc_trace_find(struct wsc_trace_session *t,
				      struct task_struct *tsk);
bool wsc_trace_wants(struct wsc_trace_session *t, struct task_struct *tsk);
void wsc_trace_count(struct wsc_trace_session *t, struct wsc_trace_record *rec,
		     unsigned int which, unsigned int row, u64 ns, u64 off_ns,
		     long ret);

/* trace.c, for trace_ctl.c (and nothing the other way) */
extern unsigned int wsc_trace_hists;
int wsc_trace_find_tracepoints(void);
bool wsc_trace_available(struct netlink_ext_ack *extack);
void wsc_trace_follow_tree(struct wsc_trace_session *t,
			   struct task_struct *root);
int wsc_trace_attach(struct wsc_trace_session *t, unsigned int from,
		     unsigned int to);
void wsc_trace_detach(struct wsc_trace_session *t, unsigned int from,
		      unsigned int to);
unsigned int wsc_trace_nr_probes(void);
u64 wsc_trace_count_unfinished(struct wsc_trace_session *t);
void wsc_trace_read_counts(struct wsc_trace_session *t,
			   struct wsc_trace_report *st);

/* The probes before this index follow tasks; attached first. */
#define WSC_TRACE_TASK_PROBES	2

#endif /* _WSC_TRACE_INTERNAL_H */
