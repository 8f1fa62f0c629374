// SPDX-License-Identifier: GPL-2.0
/*
 * The trace: per-syscall latency histograms of a process tree or a cgroup,
 * taken from the raw_syscalls tracepoints while, and only while, a trace
 * is active.
 *
 * The hard part is pairing a sys_enter with its sys_exit: a task may
 * sleep inside the call and come back on another CPU, so the entry time
 * cannot sit in per-CPU storage.  It sits in a per-task slot instead, in
 * an open-addressed table keyed by the task_struct.  Only the task itself
 * ever writes its slot's call fields, so the pairing needs no atomics:
 * the probes read the table without locks, find their own slot, and add
 * the finished call to the current CPU's row for that system call.  Slots
 * are claimed when a task joins the trace (the start of a process-tree
 * trace, a fork inside the tree, or the first call of a task in a traced
 * cgroup) and given back when it exits; those are the only paths that
 * use an atomic or a lock, and none of them is per system call.
 *
 * Memory is bounded and allocated at the start: WSC_TRACE_SLOTS tasks at
 * once, and per possible CPU one row per system call plus a pool of
 * trace_hists histograms, handed out to a CPU's rows as calls first show
 * up there.  A task or a histogram that does not fit is counted as lost
 * (a lost task's own descendants are then not followed, and not counted
 * apart).  Documentation/trace.md has the figures and the limits.
 */
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/cgroup.h>
#include <linux/compat.h>
#include <linux/err.h>
#include <linux/hash.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

#include "wsc.h"

#define WSC_TRACE_SLOT_BITS	14
#define WSC_TRACE_SLOTS		(1u << WSC_TRACE_SLOT_BITS)
#define WSC_TRACE_SLOT_MASK	(WSC_TRACE_SLOTS - 1)
/* Slots one lookup looks at: a task hashed past a full run is not followed. */
#define WSC_TRACE_PROBES	32

/* Keys that are not tasks: a task_struct is never at these addresses. */
#define WSC_TRACE_KEY_EMPTY	0UL	/* never used: a lookup stops here */
#define WSC_TRACE_KEY_GONE	1UL	/* its task exited: free, a lookup goes on */
#define WSC_TRACE_KEY_BUSY	2UL	/* being claimed */

/* struct wsc_trace_call.nr when the task is not inside a counted call. */
#define WSC_TRACE_NO_CALL	U32_MAX
#define WSC_TRACE_FOREIGN_CALL	(U32_MAX - 1)	/* a 32-bit or unknown call */

static unsigned int trace_hists = 64;
module_param(trace_hists, uint, 0444);
MODULE_PARM_DESC(trace_hists,
		 "latency histograms per CPU in a trace, one per distinct system call seen on that CPU (at least 1, at most the number of system calls; default 64; 15 KiB each)");

/**
 * struct wsc_trace_call - a call in progress
 * @enter_ns: ktime_get_ns() at its entry
 * @nr:       its number, WSC_TRACE_FOREIGN_CALL for a 32-bit or unknown
 *            one, or WSC_TRACE_NO_CALL when there is none
 */
struct wsc_trace_call {
	u64 enter_ns;
	u32 nr;
};

/* Which of a slot's calls a tracepoint's registers are about. */
#define WSC_TRACE_SYSCALL	0	/* the task's system call */
#define WSC_TRACE_WRAPPED	1	/* a wrapped call inside it */

/**
 * struct wsc_trace_slot - one followed task; a cache line of its own, so
 * that tasks on different CPUs never write the same line
 * @call: the system call in progress, and a wrapped call that a wsc batch
 *        runs inside it (an ioctl of /dev/wsc): the two nest, each paired
 *        with its own exit (wsc_trace_which())
 *
 * The key is the task_struct pointer alone: a slot is always given back
 * at its task's exit probe, before the task_struct can be freed and its
 * address reused.  (Not its start_time: an exec from a thread other than
 * the leader takes the leader's.)
 */
struct wsc_trace_slot {
	struct wsc_trace_call call[2];
} ____cacheline_aligned;

/**
 * struct wsc_trace_row - what one CPU saw of one system call
 * @calls:    calls that returned on this CPU (or never returned: exit)
 * @errors:   of them, those that returned -4095..-1
 * @total_ns: their summed latency
 * @max_ns:   the longest
 * @hist:     WSC_HIST_BUCKETS counters from the CPU's pool, NULL until
 *            the call first returns here (or when the pool ran out)
 */
struct wsc_trace_row {
	u64 calls;
	u64 errors;
	u64 total_ns;
	u64 max_ns;
	u64 *hist;
};

/**
 * struct wsc_trace_cpu - one CPU's part of a trace, written only there
 * @lost_exits: entries that found the previous call of their task still
 *              open: an exit was never seen
 * @lost_hist:  calls counted whose latency found no histogram
 * @lost_calls: calls of a traced cgroup's task that found no free slot
 * @foreign:    32-bit (compat) or out-of-range calls, not counted
 * @unmatched:  exits of calls that began before the trace did
 * @hists_used: histograms of @pool handed out
 * @pool:       trace_hists histograms
 * @row:        one per system call number
 */
struct wsc_trace_cpu {
	u64 lost_exits;
	u64 lost_hist;
	u64 lost_calls;
	u64 foreign;
	u64 unmatched;
	unsigned int hists_used;
	u64 *pool;
	struct wsc_trace_row row[NR_syscalls];
};

/**
 * struct wsc_trace - one trace, from its start until the next start or
 * a reset, and as long as a reader holds a reference
 * @cgrp:     the target cgroup (referenced), or NULL for a process tree
 * @keys:     WSC_TRACE_SLOTS keys: a task_struct pointer or WSC_TRACE_KEY_*
 * @homes:    WSC_TRACE_SLOTS bits: bit h is set once a task whose hash is
 *            h has held a slot, and stays set until the trace is freed;
 *            a task whose bit is clear has no slot, which is the one test
 *            an untraced task's system call pays
 * @slots:    the slots of @keys
 * @cpu:      per possible CPU (nr_cpu_ids pointers)
 * @hists:    histograms in each CPU's pool
 * @follow_lock: serialises claims of process-tree slots, so the start's
 *               walk and a fork cannot both claim one task; raw, as the
 *               fork probe takes it with preemption disabled
 * @live:     tasks holding a slot
 * @followed: tasks that ever held one
 * @lost_tasks: tasks of the tree that found no free slot
 * @ref:      wsc_trace_cur holds one reference; each reader (a dump, a
 *            status, a read of /proc/syscall_lat) holds another
 * @id:       counts traces since the module was loaded, from 1
 * @state:    enum wsc_trace_state
 * @end:      enum wsc_trace_end
 * @pid:      the target process as the starter named it, or 0
 * @cgroup:   the target cgroup's path as given, or NULL
 * @started_ns: ktime_get_ns() when it was attached
 * @ended_ns: ktime_get_ns() when it was detached
 * @unfinished: calls still in progress when it was detached
 *
 * @cgrp to @hists are fixed before the probes are attached and read by
 * them; @follow_lock to @lost_tasks change as tasks join and leave; @id,
 * @pid and @cgroup are fixed once the trace is published; @state, @end,
 * @ended_ns and @unfinished change under wsc_trace_mutex.
 */
struct wsc_trace {
	struct cgroup *cgrp;
	unsigned long *keys;
	unsigned long *homes;
	struct wsc_trace_slot *slots;
	struct wsc_trace_cpu **cpu;
	unsigned int hists;

	/* Written at fork and exit: off the line every probe reads. */
	raw_spinlock_t follow_lock ____cacheline_aligned_in_smp;
	atomic_t live;
	atomic64_t followed;
	atomic64_t lost_tasks;

	struct kref ref;
	u64 id;
	u32 state;
	u32 end;
	pid_t pid;
	char *cgroup;
	u64 started_ns;
	u64 ended_ns;
	u64 unfinished;
};

/* The tracepoints, found by name once at load; NULL if the kernel lacks one. */
static struct tracepoint *wsc_tp_sys_enter, *wsc_tp_sys_exit,
			 *wsc_tp_fork, *wsc_tp_exit;

/* The current trace (active or ended), or NULL; and traces since load. */
static DEFINE_MUTEX(wsc_trace_mutex);
static struct wsc_trace *wsc_trace_cur;
static u64 wsc_trace_count_started;

static void wsc_trace_end_fn(struct work_struct *work);
static DECLARE_WORK(wsc_trace_end_work, wsc_trace_end_fn);

/* ---- the table of followed tasks ---- */

/*
 * Can @tsk hold a slot?  False is certain; true means "look": a task
 * whose hash another followed task shares is looked up in vain.
 */
static __always_inline bool wsc_trace_may_follow(struct wsc_trace *t,
						 struct task_struct *tsk)
{
	return test_bit(hash_ptr(tsk, WSC_TRACE_SLOT_BITS), t->homes);
}

/* @tsk's slot, or NULL.  Lock-free: only @tsk's own key can match. */
static struct wsc_trace_slot *wsc_trace_find(struct wsc_trace *t,
					     struct task_struct *tsk)
{
	unsigned int i = hash_ptr(tsk, WSC_TRACE_SLOT_BITS), n;
	unsigned long key;

	/*
	 * The bit is set before the key is published (wsc_trace_claim()):
	 * a clear bit is a key not yet published, as a key not found is.
	 */
	if (!test_bit(i, t->homes))
		return NULL;
	for (n = 0; n < WSC_TRACE_PROBES; n++, i = (i + 1) & WSC_TRACE_SLOT_MASK) {
		/* Pairs with the release in wsc_trace_claim(). */
		key = smp_load_acquire(&t->keys[i]);
		if (key == (unsigned long)tsk)
			return &t->slots[i];
		if (key == WSC_TRACE_KEY_EMPTY)
			return NULL;
	}
	return NULL;
}

/*
 * Claim a free slot for @tsk, which must not have one; NULL when the
 * probe window is full.  The slot is made ready before its key is
 * published, so a lookup never sees a half-made slot.
 */
static struct wsc_trace_slot *wsc_trace_claim(struct wsc_trace *t,
					      struct task_struct *tsk)
{
	unsigned int home = hash_ptr(tsk, WSC_TRACE_SLOT_BITS), i = home, n;
	struct wsc_trace_slot *s;
	unsigned long key;

	for (n = 0; n < WSC_TRACE_PROBES; n++, i = (i + 1) & WSC_TRACE_SLOT_MASK) {
		key = READ_ONCE(t->keys[i]);
		if (key != WSC_TRACE_KEY_EMPTY && key != WSC_TRACE_KEY_GONE)
			continue;
		if (cmpxchg(&t->keys[i], key, WSC_TRACE_KEY_BUSY) != key)
			continue;
		s = &t->slots[i];
		for (n = 0; n < ARRAY_SIZE(s->call); n++) {
			s->call[n].enter_ns = 0;
			s->call[n].nr = WSC_TRACE_NO_CALL;
		}
		/* Counted before anyone can give it back. */
		atomic_inc(&t->live);
		atomic64_inc(&t->followed);
		set_bit(home, t->homes);
		/*
		 * Publishes the slot made ready above, and the home bit: pairs
		 * with the acquire in wsc_trace_find().  The exit probe's
		 * barrier pairs with the one in wsc_trace_follow() for the bit
		 * as for the key: it is written first.
		 */
		smp_store_release(&t->keys[i], (unsigned long)tsk);
		return s;
	}
	return NULL;
}

/*
 * Take @tsk's slot @s out of the table.  Both the exit probe and the
 * start's walk may try (see wsc_trace_follow()): the one whose cmpxchg
 * wins owns the slot, may read its fields, and must wsc_trace_drop() it.
 */
static bool wsc_trace_unlist(struct wsc_trace *t, struct task_struct *tsk,
			     struct wsc_trace_slot *s)
{
	unsigned int i = s - t->slots;

	return cmpxchg(&t->keys[i], (unsigned long)tsk, WSC_TRACE_KEY_BUSY) ==
	       (unsigned long)tsk;
}

/* Free slot @s, taken out by wsc_trace_unlist(). */
static void wsc_trace_drop(struct wsc_trace *t, struct wsc_trace_slot *s)
{
	WSC_DEBUG_ON(READ_ONCE(t->keys[s - t->slots]) != WSC_TRACE_KEY_BUSY);
	/*
	 * The owner's reads of the slot come before the key says it is
	 * free: a claim that sees GONE (its cmpxchg) then rewrites the slot
	 * only after them.
	 */
	smp_store_release(&t->keys[s - t->slots], WSC_TRACE_KEY_GONE);
	/* A process tree's trace ends when its last task has gone. */
	if (atomic_dec_and_test(&t->live) && !t->cgrp)
		schedule_work(&wsc_trace_end_work);
}

/*
 * Follow @tsk, a task of the traced process tree: at the start, or when a
 * followed task forks it.
 */
static void wsc_trace_follow(struct wsc_trace *t, struct task_struct *tsk)
{
	struct wsc_trace_slot *s;

	raw_spin_lock(&t->follow_lock);
	s = wsc_trace_find(t, tsk);
	if (s) {
		/* The walk and the fork probe both saw this child. */
		raw_spin_unlock(&t->follow_lock);
		return;
	}
	s = wsc_trace_claim(t, tsk);
	raw_spin_unlock(&t->follow_lock);
	if (!s) {
		atomic64_inc(&t->lost_tasks);
		return;
	}
	/*
	 * A task that was already exiting may have passed its exit probe
	 * before its key was published, and would hold its slot forever.
	 * It sets PF_EXITING before that probe, which looks for its key
	 * after a full barrier; with this barrier between publishing and
	 * looking at the flag, one side always sees the other.
	 */
	smp_mb();
	if ((READ_ONCE(tsk->flags) & PF_EXITING) && wsc_trace_unlist(t, tsk, s))
		wsc_trace_drop(t, s);
}

/* Is @tsk @root's process or a descendant of it?  Under RCU. */
static bool wsc_trace_in_tree(struct task_struct *tsk,
			      struct task_struct *root)
{
	struct task_struct *q = tsk;

	for (;;) {
		if (same_thread_group(q, root))
			return true;
		if (q == &init_task || q->pid <= 1)
			return false;
		q = rcu_dereference(q->real_parent);
	}
}

/*
 * Follow every thread of @root's process and of its descendants.  The
 * fork probe is already attached: a child forked while this walk runs is
 * either claimed by that probe (its parent already had a slot) or already
 * on the task list when its parent is claimed here, so the walk reaches
 * it further on.
 */
static void wsc_trace_follow_tree(struct wsc_trace *t,
				  struct task_struct *root)
{
	struct task_struct *p, *thr;

	rcu_read_lock();
	for_each_process_thread(p, thr) {
		if (wsc_trace_in_tree(thr, root))
			wsc_trace_follow(t, thr);
	}
	rcu_read_unlock();
}

static bool wsc_trace_in_cgroup(struct wsc_trace *t, struct task_struct *tsk)
{
	bool in;

	rcu_read_lock();
	in = cgroup_is_descendant(task_dfl_cgroup(tsk), t->cgrp);
	rcu_read_unlock();
	return in;
}

/* ---- the probes ---- */

/*
 * The probes' per-CPU part.  Every probe holds preemption off for its
 * whole body (see wsc_trace_probe_begin()), so the CPU cannot change
 * between finding its part and updating it.
 */
static struct wsc_trace_cpu *wsc_trace_this_cpu(struct wsc_trace *t)
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

/* Add one finished call of @nr that took @ns and returned @ret. */
static void wsc_trace_count(struct wsc_trace *t, unsigned int nr, u64 ns,
			    long ret)
{
	struct wsc_trace_cpu *c = wsc_trace_this_cpu(t);
	struct wsc_trace_row *row;
	u64 *hist;

	if (WARN_ON_ONCE(nr >= NR_syscalls))
		return;
	row = &c->row[nr];
	hist = row->hist;

	row->calls++;
	row->errors += IS_ERR_VALUE(ret);
	row->total_ns += ns;
	if (ns > row->max_ns)
		row->max_ns = ns;
	if (unlikely(!hist)) {
		/* Never past the pool, whatever came before. */
		if (c->hists_used >= t->hists) {
			c->lost_hist++;
			return;
		}
		hist = c->pool + (size_t)c->hists_used++ * WSC_HIST_BUCKETS;
		/* A fetch on another CPU may be reading it. */
		WRITE_ONCE(row->hist, hist);
	}
	hist[wsc_hist_index(ns)]++;
}

/*
 * A real system call passes the tracepoints with its task's own saved
 * registers; a call wrapped in a wsc batch passes them with the registers
 * the batch built for it (kmod/syscall_tp.c), between the entry and the
 * exit of the batch's ioctl.  Telling the two apart by the registers
 * needs no state shared with the batch, and pairs each with its own exit:
 * enter(ioctl), enter(a), exit(a), enter(b), exit(b), exit(ioctl) counts
 * a, b and the ioctl once each, with their own latencies.
 */
static __always_inline unsigned int wsc_trace_which(struct pt_regs *regs)
{
	return regs == task_pt_regs(current) ? WSC_TRACE_SYSCALL :
					       WSC_TRACE_WRAPPED;
}

static void wsc_trace_sys_enter(struct wsc_trace *t, struct pt_regs *regs,
				long id)
{
	struct wsc_trace_slot *s;
	struct wsc_trace_call *c;

	if (t->cgrp) {
		if (!wsc_trace_in_cgroup(t, current))
			return;
		s = wsc_trace_find(t, current);
		if (!s) {
			s = wsc_trace_claim(t, current);
			if (!s) {
				wsc_trace_this_cpu(t)->lost_calls++;
				return;
			}
		}
	} else {
		s = wsc_trace_find(t, current);
		if (!s)
			return;
	}

	c = &s->call[wsc_trace_which(regs)];
	if (unlikely(c->nr != WSC_TRACE_NO_CALL &&
		     c->nr != WSC_TRACE_FOREIGN_CALL))
		wsc_trace_this_cpu(t)->lost_exits++;
	if (unlikely(id < 0 || id >= NR_syscalls || in_compat_syscall())) {
		c->nr = WSC_TRACE_FOREIGN_CALL;
		wsc_trace_this_cpu(t)->foreign++;
		return;
	}
	c->nr = id;
	/* Last, so that the lookup is not part of the call's time. */
	c->enter_ns = ktime_get_ns();
}

static void wsc_trace_on_sys_enter(void *data, struct pt_regs *regs, long id)
{
	wsc_trace_probe_begin();
	wsc_trace_sys_enter(data, regs, id);
	wsc_trace_probe_end();
}

/*
 * An exit with no entry seen: the second return of a fork (the child's,
 * which never entered), a task that left a traced cgroup, or a call that
 * began before the trace did - only the last is unmatched.  So is a call
 * refused before its entry tracepoint (by seccomp or PTRACE_SYSEMU),
 * whose exit still fires.
 */
static void wsc_trace_no_entry(struct wsc_trace *t, struct pt_regs *regs,
			       long ret, struct wsc_trace_slot *s)
{
	long nr;

	/* An untraced task of a process tree's trace: the common case. */
	if (!t->cgrp && !s)
		return;
	/* 32-bit calls are not ours to judge: counted as foreign at entry. */
	if (in_compat_syscall())
		return;
	nr = syscall_get_nr(current, regs);
	if (ret == 0 && (nr == __NR_clone || nr == __NR_clone3 ||
			 nr == __NR_fork || nr == __NR_vfork))
		return;
	if (t->cgrp && !wsc_trace_in_cgroup(t, current))
		return;
	wsc_trace_this_cpu(t)->unmatched++;
}

static void wsc_trace_sys_exit(struct wsc_trace *t, struct pt_regs *regs,
			       long ret)
{
	struct wsc_trace_slot *s = NULL;
	struct wsc_trace_call *c = NULL;
	unsigned int nr;
	u64 now = 0;

	/*
	 * Every task's system calls come here while a trace is active: an
	 * untraced one pays the test of its home bit and nothing more, no
	 * clock read.  A traced one reads the clock before the lookup, so
	 * that the lookup is not part of its call's time.
	 */
	if (wsc_trace_may_follow(t, current)) {
		now = ktime_get_ns();
		s = wsc_trace_find(t, current);
	}
	if (s)
		c = &s->call[wsc_trace_which(regs)];
	if (unlikely(!c || c->nr == WSC_TRACE_NO_CALL)) {
		wsc_trace_no_entry(t, regs, ret, s);
		return;
	}
	nr = c->nr;
	c->nr = WSC_TRACE_NO_CALL;
	if (unlikely(nr == WSC_TRACE_FOREIGN_CALL))
		return;
	wsc_trace_count(t, nr, now - c->enter_ns, ret);
}

static void wsc_trace_on_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	wsc_trace_probe_begin();
	wsc_trace_sys_exit(data, regs, ret);
	wsc_trace_probe_end();
}

/* Touches no per-CPU part: its lock holds preemption off where it matters. */
static void wsc_trace_on_fork(void *data, struct task_struct *parent,
			      struct task_struct *child)
{
	struct wsc_trace *t = data;

	/*
	 * Pairs with the barrier in wsc_trace_follow(): either the start's
	 * walk, which claims a parent and then looks at the task list, finds
	 * the child there, or this probe finds the parent's slot.
	 */
	smp_mb();
	/* A cgroup's tasks join at their first call. */
	if (!t->cgrp && wsc_trace_find(t, parent))
		wsc_trace_follow(t, child);
}

static void wsc_trace_task_exit(struct wsc_trace *t, struct task_struct *p)
{
	u64 now = ktime_get_ns();
	struct wsc_trace_slot *s;
	unsigned int nr, i;

	/* PF_EXITING is set; see wsc_trace_follow(). */
	smp_mb();
	s = wsc_trace_find(t, p);
	/* The start's walk may be giving the same slot back: one of us does. */
	if (!s || !wsc_trace_unlist(t, p, s))
		return;
	/*
	 * exit and exit_group never return: they end here, counted with
	 * the time from their entry to the task's end.  (Neither can be
	 * wrapped: the second call is never open here.)
	 */
	for (i = 0; i < ARRAY_SIZE(s->call); i++) {
		nr = READ_ONCE(s->call[i].nr);
		if (nr < WSC_TRACE_FOREIGN_CALL)
			wsc_trace_count(t, nr,
					now - READ_ONCE(s->call[i].enter_ns), 0);
	}
	wsc_trace_drop(t, s);
}

static void wsc_trace_on_exit(void *data, WSC_EXIT_PROBE_ARGS)
{
	wsc_trace_probe_begin();
	wsc_trace_task_exit(data, p);
	wsc_trace_probe_end();
}

/* ---- attaching and detaching ---- */

struct wsc_trace_probe {
	struct tracepoint **tp;
	void *fn;
};

/*
 * In the order they are attached: tasks are tracked before calls are
 * seen, and exits before entries, so a call entered while attached is
 * never missing its exit.  Detached in the reverse order.
 */
static const struct wsc_trace_probe wsc_trace_probes[] = {
	{ &wsc_tp_exit,		wsc_trace_on_exit },
	{ &wsc_tp_fork,		wsc_trace_on_fork },
	{ &wsc_tp_sys_exit,	wsc_trace_on_sys_exit },
	{ &wsc_tp_sys_enter,	wsc_trace_on_sys_enter },
};

#define WSC_TRACE_TASK_PROBES	2	/* the first two: exit and fork */

/* Detach probes [@from, @to) and wait until none of them runs.  Sleeps. */
static void wsc_trace_detach(struct wsc_trace *t, unsigned int from,
			     unsigned int to)
{
	while (to-- > from)
		WARN_ON_ONCE(tracepoint_probe_unregister(*wsc_trace_probes[to].tp,
							 wsc_trace_probes[to].fn,
							 t));
	tracepoint_synchronize_unregister();
}

/* Attach probes [@from, @to), all or none. */
static int wsc_trace_attach(struct wsc_trace *t, unsigned int from,
			    unsigned int to)
{
	unsigned int i;
	int err;

	for (i = from; i < to; i++) {
		err = tracepoint_probe_register(*wsc_trace_probes[i].tp,
						wsc_trace_probes[i].fn, t);
		if (err) {
			wsc_trace_detach(t, from, i);
			return err;
		}
	}
	return 0;
}

/* End the active trace @t; under wsc_trace_mutex. */
static void wsc_trace_finish(struct wsc_trace *t, u32 end)
{
	unsigned long key;
	unsigned int i, n;

	lockdep_assert_held(&wsc_trace_mutex);
	wsc_trace_detach(t, 0, ARRAY_SIZE(wsc_trace_probes));
	t->ended_ns = ktime_get_ns();
	t->state = WSC_TRACE_ENDED;
	t->end = end;
	/* No probe runs any more: the slots hold still. */
	for (i = 0; i < WSC_TRACE_SLOTS; i++) {
		key = READ_ONCE(t->keys[i]);
		if (key <= WSC_TRACE_KEY_BUSY)
			continue;
		for (n = 0; n < ARRAY_SIZE(t->slots[i].call); n++)
			if (t->slots[i].call[n].nr < WSC_TRACE_FOREIGN_CALL)
				t->unfinished++;
	}
}

static void wsc_trace_end_fn(struct work_struct *work)
{
	struct wsc_trace *t;

	mutex_lock(&wsc_trace_mutex);
	t = wsc_trace_cur;
	/* Checked again: a stop or a new start may have come first. */
	if (t && t->state == WSC_TRACE_ACTIVE && !t->cgrp &&
	    !atomic_read(&t->live))
		wsc_trace_finish(t, WSC_TRACE_END_EXITED);
	mutex_unlock(&wsc_trace_mutex);
}

/* ---- a trace's memory ---- */

static void wsc_trace_free(struct kref *ref)
{
	struct wsc_trace *t = container_of(ref, struct wsc_trace, ref);
	unsigned int cpu;

	if (t->cpu) {
		for_each_possible_cpu(cpu) {
			if (!t->cpu[cpu])
				continue;
			kvfree(t->cpu[cpu]->pool);
			kvfree(t->cpu[cpu]);
		}
		kfree(t->cpu);
	}
	kvfree(t->slots);
	kvfree(t->keys);
	bitmap_free(t->homes);
	if (t->cgrp)
		cgroup_put(t->cgrp);
	kfree(t->cgroup);
	kfree(t);
}

static struct wsc_trace *wsc_trace_alloc(void)
{
	struct wsc_trace_cpu *c;
	struct wsc_trace *t;
	unsigned int cpu;

	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	kref_init(&t->ref);
	raw_spin_lock_init(&t->follow_lock);
	t->hists = trace_hists;
	t->keys = kvcalloc(WSC_TRACE_SLOTS, sizeof(*t->keys),
			   GFP_KERNEL_ACCOUNT);
	t->homes = bitmap_zalloc(WSC_TRACE_SLOTS, GFP_KERNEL_ACCOUNT);
	t->slots = kvcalloc(WSC_TRACE_SLOTS, sizeof(*t->slots),
			    GFP_KERNEL_ACCOUNT);
	t->cpu = kcalloc(nr_cpu_ids, sizeof(*t->cpu), GFP_KERNEL_ACCOUNT);
	if (!t->keys || !t->homes || !t->slots || !t->cpu)
		goto err_free;
	for_each_possible_cpu(cpu) {
		c = kvzalloc_node(sizeof(*c), GFP_KERNEL_ACCOUNT,
				  cpu_to_node(cpu));
		if (!c)
			goto err_free;
		t->cpu[cpu] = c;
		c->pool = kvzalloc_node(array3_size(t->hists, WSC_HIST_BUCKETS,
						    sizeof(u64)),
					GFP_KERNEL_ACCOUNT, cpu_to_node(cpu));
		if (!c->pool)
			goto err_free;
	}
	return t;

err_free:
	wsc_trace_free(&t->ref);
	return NULL;
}

/* ---- the commands ---- */

/* The target process's task, referenced, or an ERR_PTR with a message. */
static struct task_struct *wsc_trace_target_task(pid_t nr,
						 struct netlink_ext_ack *extack)
{
	struct task_struct *tsk;
	struct pid *pid;

	/* In the caller's pid namespace: this runs in its sendmsg(). */
	pid = find_get_pid(nr);
	tsk = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
	put_pid(pid);
	if (!tsk) {
		NL_SET_ERR_MSG(extack, "no such process");
		return ERR_PTR(-ESRCH);
	}
	if (tsk->flags & PF_KTHREAD) {
		put_task_struct(tsk);
		NL_SET_ERR_MSG(extack,
			       "that is a kernel thread: it makes no system calls");
		return ERR_PTR(-EINVAL);
	}
	return tsk;
}

static int wsc_trace_target_cgroup(struct wsc_trace *t, const char *path,
				   struct netlink_ext_ack *extack)
{
	struct cgroup *cgrp;

	/* Relative to the caller's cgroup namespace. */
	cgrp = cgroup_get_from_path(path);
	if (IS_ERR(cgrp)) {
		if (PTR_ERR(cgrp) == -ENOTDIR)
			NL_SET_ERR_MSG(extack,
				       "not a cgroup: the path names a file");
		else
			NL_SET_ERR_MSG(extack,
				       "no such cgroup on the cgroup v2 hierarchy (a path below its root, like /system.slice)");
		return PTR_ERR(cgrp);
	}
	t->cgrp = cgrp;
	t->cgroup = kstrdup(path, GFP_KERNEL_ACCOUNT);
	return t->cgroup ? 0 : -ENOMEM;
}

static bool wsc_trace_available(struct netlink_ext_ack *extack)
{
	if (wsc_tp_sys_enter && wsc_tp_sys_exit && wsc_tp_fork && wsc_tp_exit)
		return true;
	NL_SET_ERR_MSG(extack,
		       "this kernel lacks the raw_syscalls or sched_process tracepoints");
	return false;
}

/**
 * wsc_trace_start() - start tracing a process tree or a cgroup
 * @pid:    the target process in the caller's pid namespace, or 0
 * @cgroup: the target cgroup's path, or NULL; exactly one of the two
 * @extack: where a refusal is explained
 *
 * Drops the previous trace's counts once the new one is attached.
 *
 * Return: 0, -EBUSY while a trace is active, -ESRCH, -ENOENT, -ENOTDIR,
 * -EINVAL for a bad target, -EOPNOTSUPP, -ENOMEM.
 */
int wsc_trace_start(pid_t pid, const char *cgroup,
		    struct netlink_ext_ack *extack)
{
	struct task_struct *root = NULL;
	struct wsc_trace *t, *old;
	int err;

	if (!wsc_trace_available(extack))
		return -EOPNOTSUPP;
	mutex_lock(&wsc_trace_mutex);
	if (wsc_trace_cur && wsc_trace_cur->state == WSC_TRACE_ACTIVE) {
		NL_SET_ERR_MSG(extack,
			       "a trace is already active: stop it first");
		err = -EBUSY;
		goto unlock;
	}
	t = wsc_trace_alloc();
	if (!t) {
		err = -ENOMEM;
		goto unlock;
	}
	if (cgroup) {
		err = wsc_trace_target_cgroup(t, cgroup, extack);
		if (err)
			goto put_trace;
	} else {
		root = wsc_trace_target_task(pid, extack);
		if (IS_ERR(root)) {
			err = PTR_ERR(root);
			goto put_trace;
		}
		t->pid = pid;
	}

	t->id = wsc_trace_count_started + 1;
	t->started_ns = ktime_get_ns();
	err = wsc_trace_attach(t, 0, WSC_TRACE_TASK_PROBES);
	if (err)
		goto put_root;
	if (root) {
		wsc_trace_follow_tree(t, root);
		if (!atomic_read(&t->live)) {
			NL_SET_ERR_MSG(extack, "the process is exiting");
			err = -ESRCH;
			goto detach_tasks;
		}
	}
	err = wsc_trace_attach(t, WSC_TRACE_TASK_PROBES,
			       ARRAY_SIZE(wsc_trace_probes));
	if (err)
		goto detach_tasks;

	t->state = WSC_TRACE_ACTIVE;
	wsc_trace_count_started++;
	old = wsc_trace_cur;
	wsc_trace_cur = t;
	if (old)
		kref_put(&old->ref, wsc_trace_free);
	if (root)
		put_task_struct(root);
	mutex_unlock(&wsc_trace_mutex);
	return 0;

detach_tasks:
	wsc_trace_detach(t, 0, WSC_TRACE_TASK_PROBES);
put_root:
	if (root)
		put_task_struct(root);
put_trace:
	kref_put(&t->ref, wsc_trace_free);
unlock:
	mutex_unlock(&wsc_trace_mutex);
	return err;
}

/**
 * wsc_trace_stop() - detach the active trace, keeping its counts
 * @extack: where a refusal is explained
 *
 * Return: 0 (also when the trace had already ended), or -ENOENT when
 * there is no trace.
 */
int wsc_trace_stop(struct netlink_ext_ack *extack)
{
	int err = 0;

	mutex_lock(&wsc_trace_mutex);
	if (!wsc_trace_cur) {
		NL_SET_ERR_MSG(extack, "there is no trace to stop");
		err = -ENOENT;
	} else if (wsc_trace_cur->state == WSC_TRACE_ACTIVE) {
		wsc_trace_finish(wsc_trace_cur, WSC_TRACE_END_STOPPED);
	}
	mutex_unlock(&wsc_trace_mutex);
	return err;
}

/**
 * wsc_trace_reset() - free the counts of the ended trace
 * @extack: where a refusal is explained
 *
 * Return: 0 (also when there was nothing), or -EBUSY while active.
 */
int wsc_trace_reset(struct netlink_ext_ack *extack)
{
	struct wsc_trace *old = NULL;
	int err = 0;

	mutex_lock(&wsc_trace_mutex);
	if (wsc_trace_cur && wsc_trace_cur->state == WSC_TRACE_ACTIVE) {
		NL_SET_ERR_MSG(extack,
			       "the trace is active: stop it before resetting");
		err = -EBUSY;
	} else {
		old = wsc_trace_cur;
		wsc_trace_cur = NULL;
	}
	mutex_unlock(&wsc_trace_mutex);
	if (old)
		kref_put(&old->ref, wsc_trace_free);
	return err;
}

/**
 * wsc_trace_get() - the current trace, referenced
 *
 * Return: the trace (release it with wsc_trace_put()), or NULL if none.
 */
struct wsc_trace *wsc_trace_get(void)
{
	struct wsc_trace *t;

	mutex_lock(&wsc_trace_mutex);
	t = wsc_trace_cur;
	if (t)
		kref_get(&t->ref);
	mutex_unlock(&wsc_trace_mutex);
	return t;
}

/** wsc_trace_put() - drop a reference from wsc_trace_get() */
void wsc_trace_put(struct wsc_trace *t)
{
	kref_put(&t->ref, wsc_trace_free);
}

/**
 * wsc_trace_status() - what trace @t is, and what it has lost so far
 * @t:  a referenced trace
 * @st: filled in; @st->cgroup points into @t
 *
 * While @t is active the per-CPU counts are read as they change: a
 * snapshot, not an atomic one.
 */
void wsc_trace_status(struct wsc_trace *t, struct wsc_trace_status *st)
{
	const struct wsc_trace_cpu *c;
	unsigned int cpu;

	memset(st, 0, sizeof(*st));
	mutex_lock(&wsc_trace_mutex);
	st->state = t->state;
	st->end = t->end;
	st->duration_ns = (t->state == WSC_TRACE_ACTIVE ? ktime_get_ns() :
			   t->ended_ns) - t->started_ns;
	st->unfinished = t->unfinished;
	mutex_unlock(&wsc_trace_mutex);

	st->id = t->id;
	st->pid = t->pid;
	st->cgroup = t->cgroup;
	st->tasks = atomic64_read(&t->followed);
	st->live = atomic_read(&t->live);
	st->task_slots = WSC_TRACE_SLOTS;
	st->hist_slots = t->hists;
	st->lost_tasks = atomic64_read(&t->lost_tasks);
	for_each_possible_cpu(cpu) {
		c = t->cpu[cpu];
		st->lost_calls += READ_ONCE(c->lost_calls);
		st->lost_exits += READ_ONCE(c->lost_exits);
		st->lost_hist += READ_ONCE(c->lost_hist);
		st->foreign += READ_ONCE(c->foreign);
		st->unmatched += READ_ONCE(c->unmatched);
	}
}

/**
 * wsc_trace_row() - system call @nr's figures in @t, every CPU summed
 * @t:   a referenced trace
 * @nr:  below wsc_trace_nr_calls()
 * @sum: filled in
 *
 * Return: true if @nr was seen at all.
 */
bool wsc_trace_row(struct wsc_trace *t, unsigned int nr,
		   struct wsc_trace_sum *sum)
{
	const struct wsc_trace_row *row;
	unsigned int cpu;
	u64 max;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		row = &t->cpu[cpu]->row[nr];
		sum->calls += READ_ONCE(row->calls);
		sum->errors += READ_ONCE(row->errors);
		sum->total_ns += READ_ONCE(row->total_ns);
		max = READ_ONCE(row->max_ns);
		if (max > sum->max_ns)
			sum->max_ns = max;
	}
	return sum->calls != 0;
}

/**
 * wsc_trace_bucket() - calls of @nr in log-linear bucket @i, CPUs summed
 * @t:  a referenced trace
 * @nr: below wsc_trace_nr_calls()
 * @i:  below WSC_HIST_BUCKETS
 *
 * Return: the count.
 */
u64 wsc_trace_bucket(struct wsc_trace *t, unsigned int nr, unsigned int i)
{
	const u64 *hist;
	unsigned int cpu;
	u64 count = 0;

	for_each_possible_cpu(cpu) {
		hist = READ_ONCE(t->cpu[cpu]->row[nr].hist);
		if (hist)
			count += READ_ONCE(hist[i]);
	}
	return count;
}

/** wsc_trace_nr_calls() - how many system call numbers a trace counts */
unsigned int wsc_trace_nr_calls(void)
{
	return NR_syscalls;
}

static void wsc_trace_lookup(struct tracepoint *tp, void *unused)
{
	static const struct {
		const char *name;
		struct tracepoint **tp;
	} wanted[] = {
		{ "sys_enter",		&wsc_tp_sys_enter },
		{ "sys_exit",		&wsc_tp_sys_exit },
		{ "sched_process_fork",	&wsc_tp_fork },
		{ "sched_process_exit",	&wsc_tp_exit },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wanted); i++)
		if (!strcmp(tp->name, wanted[i].name))
			*wanted[i].tp = tp;
}

/**
 * wsc_trace_init() - find the tracepoints; nothing is attached yet
 *
 * The lookup serves kmod/syscall_tp.c too, which fires raw_syscalls'
 * two for the wrapped calls of a batch.
 * A kernel without them still loads the module: starting a trace then
 * fails with a message.
 *
 * Return: 0, or -EINVAL for a bad trace_hists parameter.
 */
int wsc_trace_init(void)
{
	if (trace_hists < 1 || trace_hists > NR_syscalls) {
		pr_err("trace_hists=%u: it must be 1..%u\n", trace_hists,
		       NR_syscalls);
		return -EINVAL;
	}
	for_each_kernel_tracepoint(wsc_trace_lookup, NULL);
	if (!wsc_trace_available(NULL))
		pr_warn("raw_syscalls or sched_process tracepoints not found: tracing unavailable\n");
	/* The batch loop fires the same two for its wrapped calls. */
	wsc_syscall_tp_init(wsc_tp_sys_enter, wsc_tp_sys_exit);
	return 0;
}

/**
 * wsc_trace_exit() - detach an active trace and free the last one
 *
 * Called after the netlink family is gone, so nothing starts a new one.
 */
void wsc_trace_exit(void)
{
	mutex_lock(&wsc_trace_mutex);
	if (wsc_trace_cur && wsc_trace_cur->state == WSC_TRACE_ACTIVE)
		wsc_trace_finish(wsc_trace_cur, WSC_TRACE_END_STOPPED);
	mutex_unlock(&wsc_trace_mutex);
	/* No probe runs now, so nothing queues it again. */
	cancel_work_sync(&wsc_trace_end_work);
	if (wsc_trace_cur)
		kref_put(&wsc_trace_cur->ref, wsc_trace_free);
	wsc_trace_cur = NULL;
}
