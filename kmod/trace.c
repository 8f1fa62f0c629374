// SPDX-License-Identifier: GPL-2.0
/*
 * The trace: per-syscall latency histograms of a process tree, a cgroup
 * or the whole machine, taken from the raw_syscalls tracepoints while, and
 * only while, a trace is active.  This file holds a trace's probes, its
 * table of followed tasks and its readers; trace_ctl.c starts, stops and
 * frees traces, several at once, each with probes of its own.
 *
 * The hard part is pairing a sys_enter with its sys_exit: a task may
 * sleep inside the call and come back on another CPU, so the entry time
 * cannot sit in per-CPU storage.  It sits in a per-task slot instead, in
 * an open-addressed table keyed by the task_struct.  A slot is written by
 * its own task's probes, and by the scheduler's switch of that task (the
 * time it spends off the CPU inside a call), never by two CPUs at once,
 * so the pairing needs no atomics: the probes read the table without
 * locks, find their own slot, and add the finished call to the current
 * CPU's row for that system call and to the task's own record.  Slots
 * are claimed when a task joins the trace (the start of a process-tree
 * trace, a fork inside the tree, or the first call of a task in a traced
 * cgroup or machine) and given back when it exits; those are the only
 * paths that use an atomic or a lock, and none of them is per system
 * call.
 *
 * Memory is bounded and allocated at the start: WSC_TRACE_SLOTS tasks at
 * once, WSC_TRACE_RECORDS per-task records, and per possible CPU one row
 * per system call, a table of (call, errno) counts and a pool of
 * trace_hists histograms, handed out to a CPU's rows as calls first show
 * up there.  A task, a record, an errno or a histogram that does not fit
 * is counted as lost (a lost task's own descendants are then not
 * followed, and not counted apart).  Documentation/trace.md has the
 * figures and the limits.
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
#include <linux/netlink.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

#include <wsc_hist.h>

#include "wsc.h"
#include "trace_internal.h"
#include "trace_events.h"

unsigned int wsc_trace_hists = 64;
module_param_named(trace_hists, wsc_trace_hists, uint, 0444);
MODULE_PARM_DESC(trace_hists,
		 "latency histograms per CPU in a trace, one per distinct system call seen on that CPU (at least 1, at most the number of system calls; default 64; 15 KiB each)");

/* The tracepoints, found by name once at load; NULL if the kernel lacks one. */
static struct tracepoint *wsc_tp_sys_enter, *wsc_tp_sys_exit,
			 *wsc_tp_fork, *wsc_tp_exit, *wsc_tp_switch;

/* ---- the table of followed tasks ---- */

/*
 * Can @tsk hold a slot?  False is certain; true means "look": a task
 * whose hash another followed task shares is looked up in vain.
 */
static __always_inline bool wsc_trace_may_follow(struct wsc_trace_session *t,
						 struct task_struct *tsk)
{
	return test_bit(hash_ptr(tsk, WSC_TRACE_SLOT_BITS), t->homes);
}

/* @tsk's slot, or NULL.  Lock-free: only @tsk's own key can match. */
struct wsc_trace_slot *wsc_trace_find(struct wsc_trace_session *t,
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

/* Copy @tsk's name: it may be changing, so the copy is ended by hand. */
static void wsc_trace_take_comm(struct wsc_trace_record *rec,
				struct task_struct *tsk)
{
	memcpy(rec->comm, tsk->comm, sizeof(rec->comm));
	rec->comm[sizeof(rec->comm) - 1] = '\0';
}

/*
 * The next per-task record for @tsk, filled in, or NULL when they ran
 * out.  Records are never given back: a task's figures outlive it.
 */
static struct wsc_trace_record *wsc_trace_take_record(struct wsc_trace_session *t,
						      struct task_struct *tsk)
{
	s64 i = atomic64_inc_return(&t->followed) - 1;
	struct wsc_trace_record *rec;

	if (i >= WSC_TRACE_RECORDS)
		return NULL;
	rec = &t->tasks[i];
	rec->calls = 0;
	rec->errors = 0;
	rec->total_ns = 0;
	rec->off_ns = 0;
	rec->tid = task_pid_nr_ns(tsk, t->pidns);
	rec->tgid = task_tgid_nr_ns(tsk, t->pidns);
	rcu_read_lock();
	rec->ppid = task_tgid_nr_ns(rcu_dereference(tsk->real_parent),
				    t->pidns);
	rcu_read_unlock();
	wsc_trace_take_comm(rec, tsk);
	return rec;
}

/*
 * Claim a free slot for @tsk, which must not have one; NULL when the
 * probe window is full.  The slot is made ready before its key is
 * published, so a lookup never sees a half-made slot.
 */
static struct wsc_trace_slot *wsc_trace_claim(struct wsc_trace_session *t,
					      struct task_struct *tsk)
{
	unsigned int home = hash_ptr(tsk, WSC_TRACE_SLOT_BITS), i = home, n;
	struct wsc_trace_slot *s;
	unsigned long key;

	/* A slot a line: no two tasks' probes ever write one line. */
	BUILD_BUG_ON(sizeof(struct wsc_trace_slot) > L1_CACHE_BYTES);
	for (n = 0; n < WSC_TRACE_PROBES; n++, i = (i + 1) & WSC_TRACE_SLOT_MASK) {
		key = READ_ONCE(t->keys[i]);
		if (key != WSC_TRACE_KEY_EMPTY && key != WSC_TRACE_KEY_GONE)
			continue;
		if (cmpxchg(&t->keys[i], key, WSC_TRACE_KEY_BUSY) != key)
			continue;
		s = &t->slots[i];
		for (n = 0; n < ARRAY_SIZE(s->call); n++) {
			s->call[n].enter_ns = 0;
			s->call[n].off_ns = 0;
			s->call[n].nr = WSC_TRACE_NO_CALL;
			s->call[n].nested_ns = 0;
		}
		s->out_ns = 0;
		/* Counted (in the record's index) before anyone can give it back. */
		s->task = wsc_trace_take_record(t, tsk);
		atomic_inc(&t->live);
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
static bool wsc_trace_unlist(struct wsc_trace_session *t, struct task_struct *tsk,
			     struct wsc_trace_slot *s)
{
	unsigned int i = s - t->slots;

	return cmpxchg(&t->keys[i], (unsigned long)tsk, WSC_TRACE_KEY_BUSY) ==
	       (unsigned long)tsk;
}

/* Free slot @s, taken out by wsc_trace_unlist(). */
static void wsc_trace_drop(struct wsc_trace_session *t, struct wsc_trace_slot *s)
{
	WSC_DEBUG_ON(READ_ONCE(t->keys[s - t->slots]) != WSC_TRACE_KEY_BUSY);
	/*
	 * The owner's reads of the slot come before the key says it is
	 * free: a claim that sees GONE (its cmpxchg) then rewrites the slot
	 * only after them.
	 */
	smp_store_release(&t->keys[s - t->slots], WSC_TRACE_KEY_GONE);
	/*
	 * A process tree's trace ends when its last task has gone; ending
	 * detaches probes, which sleeps: trace_ctl.c's work does it.
	 */
	if (atomic_dec_and_test(&t->live) && !t->cgrp && !t->all)
		schedule_work(&t->end_work);
}

/*
 * Follow @tsk, a task of the traced process tree: at the start, or when a
 * followed task forks it.
 */
static void wsc_trace_follow(struct wsc_trace_session *t, struct task_struct *tsk)
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

/*
 * Is @tsk @root's process or a descendant of it, and not the starter's
 * process or one of its descendants below @root?  Under RCU.  The
 * starter is left out as from a cgroup's trace: `wsc trace -p $$` would
 * otherwise count the tracer's own polling as the shell's.  A process
 * that names itself as the target is followed: it asked to be.
 */
static bool wsc_trace_in_tree(struct wsc_trace_session *t, struct task_struct *tsk,
			      struct task_struct *root)
{
	struct task_struct *q = tsk;

	for (;;) {
		if (same_thread_group(q, root))
			return true;
		if (task_tgid(q) == t->starter)
			return false;
		if (q == &init_task || q->pid <= 1)
			return false;
		q = rcu_dereference(q->real_parent);
	}
}

/**
 * wsc_trace_follow_tree() - follow every thread of @root's process and of
 * its descendants
 * @t:    a trace of a process tree, its task probes attached
 * @root: the target process
 *
 * The fork probe is already attached: a child forked while this walk
 * runs is either claimed by that probe (its parent already had a slot)
 * or already on the task list when its parent is claimed here, so the
 * walk reaches it further on.
 */
void wsc_trace_follow_tree(struct wsc_trace_session *t, struct task_struct *root)
{
	struct task_struct *p, *thr;

	rcu_read_lock();
	for_each_process_thread(p, thr) {
		if (wsc_trace_in_tree(t, thr, root))
			wsc_trace_follow(t, thr);
	}
	rcu_read_unlock();
}

/*
 * Does @tsk belong to a cgroup's or the machine's trace?  Its starter
 * never does: a tracer polling its trace would count itself.
 */
bool wsc_trace_wants(struct wsc_trace_session *t, struct task_struct *tsk)
{
	bool in = true;

	if (task_tgid(tsk) == t->starter)
		return false;
	if (t->cgrp) {
		rcu_read_lock();
		in = cgroup_is_descendant(task_dfl_cgroup(tsk), t->cgrp);
		rcu_read_unlock();
	}
	return in;
}

/* ---- the probes ---- */

static __always_inline bool wsc_trace_counted(u32 nr)
{
	return nr < NR_syscalls;
}

/* Count one failure of @nr with @err in this CPU's table. */
static void wsc_trace_count_errno(struct wsc_trace_cpu *c, unsigned int nr,
				  unsigned int err)
{
	u32 key = nr << 12 | err, i = hash_32(key, WSC_TRACE_ERRNO_BITS), n;
	struct wsc_trace_errno *e;

	BUILD_BUG_ON(WSC_TRACE_ERRNO_MAX >= 1 << 12);
	for (n = 0; n < WSC_TRACE_ERRNO_PROBES; n++) {
		e = &c->errnos[(i + n) % WSC_TRACE_ERRNO_SLOTS];
		if (e->key == key) {
			WRITE_ONCE(e->count, e->count + 1);
			return;
		}
		if (!e->key) {
			WRITE_ONCE(e->count, 1);
			/*
			 * The count before the key: a fetch that sees the key
			 * (the acquire in wsc_trace_errno_on() and
			 * wsc_trace_errno_next()) sees a count.
			 */
			smp_store_release(&e->key, key);
			return;
		}
	}
	c->lost_errnos++;
}

/**
 * wsc_trace_count() - count one finished call or ring request
 * @t:      its trace
 * @rec:    its task's record, or NULL
 * @which:  WSC_TRACE_WRAPPED when a wsc batch ran it
 * @nr:     its row: a system call number, or a ring request's
 *          (WSC_TRACE_RING_ROW + opcode)
 * @ns:     its latency
 * @off_ns: of it, switched out
 * @ret:    what it returned
 *
 * Adds it to this CPU's row and to @rec.  In a probe, preemption off.
 */
void wsc_trace_count(struct wsc_trace_session *t, struct wsc_trace_record *rec,
		     unsigned int which, unsigned int nr, u64 ns, u64 off_ns,
		     long ret)
{
	struct wsc_trace_cpu *c = wsc_trace_this_cpu(t);
	bool failed = IS_ERR_VALUE(ret);
	struct wsc_trace_row *row;
	u64 *hist;

	if (WARN_ON_ONCE(nr >= WSC_TRACE_ROWS))
		return;
	/* A switch-in's clock read may come after the exit's: clamp. */
	off_ns = min(off_ns, ns);
	row = &c->row[nr];
	hist = row->hist;

	row->calls++;
	row->errors += failed;
	row->wrapped += which == WSC_TRACE_WRAPPED;
	row->total_ns += ns;
	row->off_ns += off_ns;
	if (ns > row->max_ns)
		row->max_ns = ns;
	if (failed)
		wsc_trace_count_errno(c, nr, -ret);
	if (rec) {
		WRITE_ONCE(rec->calls, rec->calls + 1);
		WRITE_ONCE(rec->errors, rec->errors + failed);
		WRITE_ONCE(rec->total_ns, rec->total_ns + ns);
		WRITE_ONCE(rec->off_ns, rec->off_ns + off_ns);
	}
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
 * a, b and the ioctl once each.
 *
 * Each moment of a call counts once, in the innermost call running: a
 * and b their whole latency, the ioctl its own time, its latency less
 * the time of the calls it ran (each moves the ioctl's enter_ns on by
 * its own), so that the rows' times add up to the time the tasks spent
 * in calls.
 */
static __always_inline unsigned int wsc_trace_which(struct pt_regs *regs)
{
	return regs == task_pt_regs(current) ? WSC_TRACE_SYSCALL :
					       WSC_TRACE_WRAPPED;
}

/* @c's own time until @now: its latency less that of the calls it ran. */
static __always_inline u64 wsc_trace_own_ns(const struct wsc_trace_inflight *c,
					    u64 now)
{
	/* Clock reads on different CPUs may disagree by a little: clamp. */
	return now > c->enter_ns ? now - c->enter_ns : 0;
}

/*
 * A call ran nested in @c for @ns (a wrapped call in a batch's ioctl):
 * move @c's entry on, and note by how much, so that its event can give
 * the real entry.  Never 0 once a call ran: that marks a batch's ioctl.
 */
static __always_inline void wsc_trace_nest(struct wsc_trace_inflight *c, u64 ns)
{
	c->enter_ns += ns;
	c->nested_ns = min_t(u64, (u64)c->nested_ns + max_t(u64, ns, 1), U32_MAX);
}

/* @ns as time since @t started: an event's clock. */
static __always_inline u64 wsc_trace_since(const struct wsc_trace_session *t,
					   u64 ns)
{
	return ns > t->started_ns ? ns - t->started_ns : 0;
}

/*
 * Record one counted call of @nr, of @which kind, that @c held, exited
 * at @now with @ret and @regs (its own registers: a wrapped call's are
 * the batch's copy), in this CPU's ring of @t.  With preemption off.
 */
static void wsc_trace_record(struct wsc_trace_session *t,
			     const struct wsc_trace_slot *s, unsigned int which,
			     unsigned int nr, const struct wsc_trace_inflight *c,
			     u64 now, long ret, struct pt_regs *regs)
{
	unsigned long args[WSC_MAX_ARGS];
	struct wsc_trace_event *e;
	unsigned int i;

	e = wsc_trace_events_reserve(t->events);
	if (!e)
		return;
	syscall_get_arguments(current, regs, args);
	e->enter_ns = wsc_trace_since(t, c->enter_ns - c->nested_ns);
	e->exit_ns = wsc_trace_since(t, now);
	e->ret = ret;
	for (i = 0; i < WSC_MAX_ARGS; i++)
		e->args[i] = args[i];
	/* The record's is the same number, looked up once. */
	e->tid = s->task ? s->task->tid : task_pid_nr_ns(current, t->pidns);
	e->nr = nr;
	if (which == WSC_TRACE_WRAPPED)
		e->flags = WSC_TRACE_EVENT_WRAPPED;
	else if (nr == __NR_ioctl && c->nested_ns)
		e->flags = WSC_TRACE_EVENT_BATCH;
	else
		e->flags = 0;
	wsc_trace_events_commit(t->events);
}

static void wsc_trace_sys_enter(struct wsc_trace_session *t, struct pt_regs *regs,
				long id)
{
	struct wsc_trace_slot *s;
	struct wsc_trace_inflight *c;
	unsigned int which;

	if (wsc_trace_joins_on_call(t)) {
		/* A task that left the cgroup is no longer counted. */
		if (!wsc_trace_wants(t, current))
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

	which = wsc_trace_which(regs);
	c = &s->call[which];
	if (unlikely(wsc_trace_counted(c->nr)))
		wsc_trace_this_cpu(t)->lost_exits++;
	if (unlikely(id < 0 || id >= NR_syscalls || in_compat_syscall())) {
		c->nr = WSC_TRACE_FOREIGN_CALL;
		wsc_trace_this_cpu(t)->foreign++;
		return;
	}
	if (t->calls && !test_bit(id, t->calls)) {
		c->nr = WSC_TRACE_SKIPPED_CALL;
		wsc_trace_this_cpu(t)->filtered++;
		/*
		 * No clock read: a filtered call costs the lookup alone -
		 * unless it is wrapped in a counted ioctl, whose own time
		 * leaves it out all the same.
		 */
		if (which == WSC_TRACE_WRAPPED &&
		    wsc_trace_counted(s->call[WSC_TRACE_SYSCALL].nr))
			c->enter_ns = ktime_get_ns();
		return;
	}
	c->nr = id;
	c->off_ns = 0;
	c->nested_ns = 0;
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
static void wsc_trace_no_entry(struct wsc_trace_session *t, struct pt_regs *regs,
			       long ret, struct wsc_trace_slot *s)
{
	long nr;

	/* An untraced task of a process tree's trace: the common case. */
	if (!wsc_trace_joins_on_call(t) && !s)
		return;
	/* 32-bit calls are not ours to judge: counted as foreign at entry. */
	if (in_compat_syscall())
		return;
	nr = syscall_get_nr(current, regs);
	if (ret == 0 && (nr == __NR_clone || nr == __NR_clone3 ||
			 nr == __NR_fork || nr == __NR_vfork))
		return;
	if (!s && !wsc_trace_wants(t, current))
		return;
	wsc_trace_this_cpu(t)->unmatched++;
}

static void wsc_trace_sys_exit(struct wsc_trace_session *t, struct pt_regs *regs,
			       long ret)
{
	struct wsc_trace_slot *s = NULL;
	struct wsc_trace_inflight *c = NULL;
	unsigned int which = 0, nr;
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
	if (s) {
		which = wsc_trace_which(regs);
		c = &s->call[which];
	}
	if (unlikely(!c || c->nr == WSC_TRACE_NO_CALL)) {
		wsc_trace_no_entry(t, regs, ret, s);
		return;
	}
	nr = c->nr;
	c->nr = WSC_TRACE_NO_CALL;
	/* The wrapped call's time is not its ioctl's: move the ioctl's on. */
	if (which == WSC_TRACE_WRAPPED && nr != WSC_TRACE_FOREIGN_CALL &&
	    wsc_trace_counted(s->call[WSC_TRACE_SYSCALL].nr))
		wsc_trace_nest(&s->call[WSC_TRACE_SYSCALL], now - c->enter_ns);
	if (unlikely(!wsc_trace_counted(nr)))
		return;
	/* exec gives the task its new name. */
	if (!ret && s->task && (nr == __NR_execve || nr == __NR_execveat))
		wsc_trace_take_comm(s->task, current);
	if (!wsc_trace_result_wanted(t, ret)) {
		wsc_trace_this_cpu(t)->filtered++;
		return;
	}
	wsc_trace_count(t, s->task, which, nr, wsc_trace_own_ns(c, now),
			c->off_ns, ret);
	if (unlikely(t->events))
		wsc_trace_record(t, s, which, nr, c, now, ret, regs);
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
	struct wsc_trace_session *t = data;

	/*
	 * Pairs with the barrier in wsc_trace_follow(): either the start's
	 * walk, which claims a parent and then looks at the task list, finds
	 * the child there, or this probe finds the parent's slot.
	 */
	smp_mb();
	/* A cgroup's tasks join at their first call. */
	if (!wsc_trace_joins_on_call(t) && wsc_trace_find(t, parent))
		wsc_trace_follow(t, child);
}

static void wsc_trace_task_exit(struct wsc_trace_session *t, struct task_struct *p)
{
	u64 now = ktime_get_ns();
	struct wsc_trace_slot *s;
	struct wsc_trace_inflight *c;
	unsigned int i;

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
		c = &s->call[i];
		if (!wsc_trace_counted(READ_ONCE(c->nr)))
			continue;
		if (!wsc_trace_result_wanted(t, 0)) {
			wsc_trace_this_cpu(t)->filtered++;
			continue;
		}
		wsc_trace_count(t, s->task, i, c->nr, wsc_trace_own_ns(c, now),
				c->off_ns, 0);
		if (unlikely(t->events))
			wsc_trace_record(t, s, i, c->nr, c, now, 0,
					 task_pt_regs(p));
	}
	wsc_trace_drop(t, s);
}

static void wsc_trace_on_exit(void *data, WSC_EXIT_PROBE_ARGS)
{
	wsc_trace_probe_begin();
	wsc_trace_task_exit(data, p);
	wsc_trace_probe_end();
}

/* Is the task of @s inside a call that is being counted? */
static bool wsc_trace_in_call(const struct wsc_trace_slot *s)
{
	return wsc_trace_counted(READ_ONCE(s->call[WSC_TRACE_SYSCALL].nr)) ||
	       wsc_trace_counted(READ_ONCE(s->call[WSC_TRACE_WRAPPED].nr));
}

/*
 * The scheduler's switch: a followed task that leaves the CPU inside a
 * counted call notes when; when it comes back, the time away is added
 * to the innermost call it is inside (a wrapped call, not its batch's
 * ioctl, which leaves the wrapped calls' time out of its own).  That is
 * the call's off-CPU time: blocked, or runnable and waiting for a CPU.
 * Runs with the runqueue locked and interrupts off; @prev is the task
 * leaving, and @next is not running, so each slot is written by its own
 * task's switch alone.
 */
static void wsc_trace_on_switch(void *data, bool preempt,
				struct task_struct *prev,
				struct task_struct *next,
				unsigned int prev_state)
{
	struct wsc_trace_session *t = data;
	struct wsc_trace_slot *s;
	struct wsc_trace_inflight *c;
	u64 now = 0;

	if (wsc_trace_may_follow(t, prev)) {
		s = wsc_trace_find(t, prev);
		if (s && wsc_trace_in_call(s)) {
			now = ktime_get_ns();
			s->out_ns = now;
		}
	}
	if (!wsc_trace_may_follow(t, next))
		return;
	s = wsc_trace_find(t, next);
	if (!s || !s->out_ns)
		return;
	if (!now)
		now = ktime_get_ns();
	/* Inside a wrapped call, even one left out: none of it is the ioctl's. */
	c = &s->call[WSC_TRACE_WRAPPED];
	if (c->nr == WSC_TRACE_NO_CALL)
		c = &s->call[WSC_TRACE_SYSCALL];
	if (wsc_trace_counted(c->nr))
		c->off_ns += now - s->out_ns;
	s->out_ns = 0;
}

/* ---- attaching and detaching ---- */

struct wsc_trace_probe {
	struct tracepoint **tp;
	void *fn;
};

/*
 * In the order they are attached: tasks are tracked before calls are
 * seen, switches before calls begin, and exits before entries, so a call
 * entered while attached is never missing its exit.  Detached in the
 * reverse order.
 */
static const struct wsc_trace_probe wsc_trace_probes[] = {
	{ &wsc_tp_exit,		wsc_trace_on_exit },
	{ &wsc_tp_fork,		wsc_trace_on_fork },
	{ &wsc_tp_switch,	wsc_trace_on_switch },
	{ &wsc_tp_sys_exit,	wsc_trace_on_sys_exit },
	{ &wsc_tp_sys_enter,	wsc_trace_on_sys_enter },
};

unsigned int wsc_trace_nr_probes(void)
{
	return ARRAY_SIZE(wsc_trace_probes);
}

/**
 * wsc_trace_detach() - detach probes [@from, @to)
 * @t:    their trace
 * @from: the first
 * @to:   past the last
 *
 * A probe that began before may still be running when this returns:
 * tracepoint_synchronize_unregister() waits for it (a grace period, tens
 * of milliseconds under emulation), and @t is freed only after one
 * (wsc_trace_free()).  Sleeps.
 */
void wsc_trace_detach(struct wsc_trace_session *t, unsigned int from, unsigned int to)
{
	while (to-- > from)
		WARN_ON_ONCE(tracepoint_probe_unregister(*wsc_trace_probes[to].tp,
							 wsc_trace_probes[to].fn,
							 t));
}

/**
 * wsc_trace_attach() - attach probes [@from, @to), all or none
 * @t:    their trace, their data
 * @from: the first
 * @to:   past the last
 *
 * Return: 0 or the tracepoints' -errno.
 */
int wsc_trace_attach(struct wsc_trace_session *t, unsigned int from, unsigned int to)
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

/**
 * wsc_trace_count_unfinished() - calls in progress in a detached trace
 * @t: a trace whose probes no longer run, so its slots hold still
 *
 * Return: the count.
 */
u64 wsc_trace_count_unfinished(struct wsc_trace_session *t)
{
	unsigned int i, n;
	u64 open = 0;

	for (i = 0; i < WSC_TRACE_SLOTS; i++) {
		if (READ_ONCE(t->keys[i]) <= WSC_TRACE_KEY_BUSY)
			continue;
		for (n = 0; n < ARRAY_SIZE(t->slots[i].call); n++)
			open += wsc_trace_counted(t->slots[i].call[n].nr);
	}
	return open;
}

/* ---- reading a trace ---- */

/**
 * wsc_trace_row() - system call @nr's figures in @t, every CPU summed
 * @t:   a referenced trace
 * @nr:  below wsc_trace_nr_rows()
 * @sum: filled in
 *
 * Return: true if @nr was seen at all.
 */
bool wsc_trace_row(struct wsc_trace_session *t, unsigned int nr,
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
		sum->wrapped += READ_ONCE(row->wrapped);
		sum->total_ns += READ_ONCE(row->total_ns);
		sum->off_ns += READ_ONCE(row->off_ns);
		max = READ_ONCE(row->max_ns);
		if (max > sum->max_ns)
			sum->max_ns = max;
	}
	return sum->calls != 0;
}

/**
 * wsc_trace_bucket() - calls of @nr in log-linear bucket @i, CPUs summed
 * @t:  a referenced trace
 * @nr: below wsc_trace_nr_rows()
 * @i:  below WSC_HIST_BUCKETS
 *
 * Return: the count.
 */
u64 wsc_trace_bucket(struct wsc_trace_session *t, unsigned int nr, unsigned int i)
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

/* CPU @cpu's count of @key, or 0. */
static u64 wsc_trace_errno_on(struct wsc_trace_session *t, unsigned int cpu, u32 key)
{
	const struct wsc_trace_errno *e;
	u32 i = hash_32(key, WSC_TRACE_ERRNO_BITS), n, k;

	for (n = 0; n < WSC_TRACE_ERRNO_PROBES; n++) {
		e = &t->cpu[cpu]->errnos[(i + n) % WSC_TRACE_ERRNO_SLOTS];
		/* Pairs with the release in wsc_trace_count_errno(). */
		k = smp_load_acquire(&e->key);
		if (k == key)
			return READ_ONCE(e->count);
		if (!k)
			return 0;
	}
	return 0;
}

/**
 * wsc_trace_errno_next() - the next errno system call @nr failed with
 * @t:     a referenced trace
 * @nr:    below wsc_trace_nr_rows()
 * @pos:   where the walk stands: 0 at first, then as left by this call
 * @err:   the errno
 * @count: its failures, every CPU summed
 *
 * Each errno comes once, in no particular order, without allocating:
 * an entry is reported where it first appears over the CPUs' tables.
 *
 * Return: false when there are no more.
 */
bool wsc_trace_errno_next(struct wsc_trace_session *t, unsigned int nr,
			  unsigned int *pos, u32 *err, u64 *count)
{
	unsigned int cpu, i, c, seen;
	u32 key;

	for (; *pos < nr_cpu_ids * WSC_TRACE_ERRNO_SLOTS; (*pos)++) {
		cpu = *pos / WSC_TRACE_ERRNO_SLOTS;
		i = *pos % WSC_TRACE_ERRNO_SLOTS;
		if (!cpu_possible(cpu))
			continue;
		/* Pairs with the release in wsc_trace_count_errno(). */
		key = smp_load_acquire(&t->cpu[cpu]->errnos[i].key);
		if (!key || key >> 12 != nr)
			continue;
		/* Reported already, from an earlier CPU's table? */
		seen = 0;
		for (c = 0; c < cpu && !seen; c++)
			seen = cpu_possible(c) && wsc_trace_errno_on(t, c, key);
		if (seen)
			continue;
		*err = key & (BIT(12) - 1);
		*count = 0;
		for_each_possible_cpu(c)
			*count += wsc_trace_errno_on(t, c, key);
		(*pos)++;
		return true;
	}
	return false;
}

/**
 * wsc_trace_task_at() - the record of the @i-th task to join @t
 * @t: a referenced trace
 * @i: from 0
 *
 * Return: the record (read it as it may change), or NULL past the last.
 */
const struct wsc_trace_record *wsc_trace_task_at(struct wsc_trace_session *t,
						 unsigned int i)
{
	u64 n = min_t(u64, atomic64_read(&t->followed), WSC_TRACE_RECORDS);

	return i < n ? &t->tasks[i] : NULL;
}

/**
 * wsc_trace_read_counts() - what trace @t is, and what it has lost so far
 * @t:  a referenced trace
 * @st: its fields but those that change as @t ends (trace_ctl.c's) are
 *      filled in; the loss counts are added to; @st->cgroup points into @t
 *
 * While @t is active the per-CPU counts are read as they change: a
 * snapshot, not an atomic one.  No lock is taken.
 */
void wsc_trace_read_counts(struct wsc_trace_session *t,
			   struct wsc_trace_report *st)
{
	const struct wsc_trace_cpu *c;
	unsigned int cpu;
	u64 followed;

	st->id = t->id;
	st->pid = t->pid;
	st->cgroup = t->cgroup;
	st->all = t->all;
	st->failed = t->failed;
	st->err = t->err;
	followed = atomic64_read(&t->followed);
	st->tasks = followed;
	st->lost_records = followed > WSC_TRACE_RECORDS ?
			   followed - WSC_TRACE_RECORDS : 0;
	st->live = atomic_read(&t->live);
	st->task_slots = WSC_TRACE_SLOTS;
	st->hist_slots = t->hists;
	st->lost_tasks = atomic64_read(&t->lost_tasks);
	for_each_possible_cpu(cpu) {
		c = t->cpu[cpu];
		st->lost_calls += READ_ONCE(c->lost_calls);
		st->lost_exits += READ_ONCE(c->lost_exits);
		st->lost_hist += READ_ONCE(c->lost_hist);
		st->lost_errnos += READ_ONCE(c->lost_errnos);
		st->foreign += READ_ONCE(c->foreign);
		st->unmatched += READ_ONCE(c->unmatched);
		st->filtered += READ_ONCE(c->filtered);
	}
	if (t->events) {
		st->events = t->events->per_cpu;
		st->lost_events = wsc_trace_events_lost(t->events);
	}
}

/** wsc_trace_nr_calls() - how many system call numbers a trace counts */
unsigned int wsc_trace_nr_calls(void)
{
	return NR_syscalls;
}

/**
 * wsc_trace_nr_rows() - how many rows trace @t has
 * @t: a referenced trace
 *
 * Return: wsc_trace_nr_calls(), then, if @t counts io_uring requests,
 * one more per opcode: row wsc_trace_nr_calls() + n is opcode n's.
 */
unsigned int wsc_trace_nr_rows(struct wsc_trace_session *t)
{
	return t->ring ? WSC_TRACE_ROWS : NR_syscalls;
}

/**
 * wsc_trace_available() - does this kernel have every tracepoint a trace
 * needs?
 * @extack: where a "no" is explained, or NULL
 *
 * Return: true if so.
 */
bool wsc_trace_available(struct netlink_ext_ack *extack)
{
	if (wsc_tp_sys_enter && wsc_tp_sys_exit && wsc_tp_fork && wsc_tp_exit &&
	    wsc_tp_switch)
		return true;
	NL_SET_ERR_MSG(extack,
		       "this kernel lacks the raw_syscalls, sched_process or sched_switch tracepoints");
	return false;
}

static void wsc_trace_match_tp(struct tracepoint *tp, void *unused)
{
	static const struct {
		const char *name;
		struct tracepoint **tp;
	} wanted[] = {
		{ "sys_enter",		&wsc_tp_sys_enter },
		{ "sys_exit",		&wsc_tp_sys_exit },
		{ "sched_process_fork",	&wsc_tp_fork },
		{ "sched_process_exit",	&wsc_tp_exit },
		{ "sched_switch",	&wsc_tp_switch },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wanted); i++)
		if (!strcmp(tp->name, wanted[i].name))
			*wanted[i].tp = tp;
}

/**
 * wsc_trace_find_tracepoints() - find the tracepoints; nothing is attached
 *
 * A kernel without them still loads the module: starting a trace then
 * fails with a message.  (kmod/syscall_tp.c finds raw_syscalls' two for
 * itself, for the batch path, which does not depend on the trace.)
 *
 * Return: 0, or -EINVAL for a bad trace_hists parameter.
 */
int wsc_trace_find_tracepoints(void)
{
	if (wsc_trace_hists < 1 || wsc_trace_hists > NR_syscalls) {
		pr_err("trace_hists=%u: it must be 1..%u\n", wsc_trace_hists,
		       NR_syscalls);
		return -EINVAL;
	}
	for_each_kernel_tracepoint(wsc_trace_match_tp, NULL);
	if (!wsc_trace_available(NULL))
		pr_warn("raw_syscalls, sched_process or sched_switch tracepoints not found: tracing unavailable\n");
	return 0;
}
