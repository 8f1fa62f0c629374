// SPDX-License-Identifier: GPL-2.0
/*
 * Traces' lives: up to WSC_TRACE_MAX at once, each started by a netlink
 * socket and belonging to it.  Starting allocates the trace and attaches
 * its probes (trace.c); stopping detaches them and keeps the counts; the
 * trace is freed by a reset, by its owner's next start, or when its
 * owner's socket is closed, whichever comes first, so that a tracer that
 * dies (kill -9 included) leaves nothing attached and nothing allocated.
 *
 * While a trace is active the module holds a reference on itself: its
 * probes sit on every task's system call path, and `rmmod wsc` answers
 * EBUSY instead of pulling them out from under the tracer.
 */
#include <linux/bitmap.h>
#include <linux/cgroup.h>
#include <linux/err.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include <wsc_hist.h>

#include "wsc.h"
#include "trace_internal.h"
#include "trace_events.h"
#include "trace_ring_internal.h"

/* The traces, active or ended, in no order; and traces since load. */
static DEFINE_MUTEX(wsc_trace_mutex);
static struct wsc_trace_session *wsc_traces[WSC_TRACE_MAX];
/* Traces on the list: a netlink socket's close looks no further at 0. */
static atomic_t wsc_trace_listed = ATOMIC_INIT(0);
static u64 wsc_trace_count_started;

static void wsc_trace_end_fn(struct work_struct *work);

/* ---- a trace's memory ---- */

/* Frees traces: each waits for its probes' grace period first. */
static struct workqueue_struct *wsc_trace_wq;

static void wsc_trace_free_fn(struct work_struct *work)
{
	struct wsc_trace_session *t = container_of(work, struct wsc_trace_session, free_work);
	unsigned int cpu;

	/*
	 * A trace's probes may be detached without waiting (see
	 * wsc_trace_finish()): one that began before may still be running,
	 * so the wait is here, where nobody waits for it.
	 */
	tracepoint_synchronize_unregister();
	/*
	 * No probe runs now, so none queues its end again; one queued
	 * before found the trace listed, and is done (or cancelled) here.
	 */
	cancel_work_sync(&t->end_work);
	if (t->cpu) {
		for_each_possible_cpu(cpu) {
			if (!t->cpu[cpu])
				continue;
			kvfree(t->cpu[cpu]->pool);
			kvfree(t->cpu[cpu]);
		}
		kfree(t->cpu);
	}
	wsc_trace_events_free(t->events);
	wsc_trace_ring_free(t);
	kvfree(t->tasks);
	kvfree(t->slots);
	kvfree(t->keys);
	bitmap_free(t->homes);
	bitmap_free(t->calls);
	if (t->cgrp)
		cgroup_put(t->cgrp);
	put_pid(t->starter);
	if (t->pidns)
		put_pid_ns(t->pidns);
	kfree(t->cgroup);
	kfree(t);
}

/* The last reference is gone: free it in the background (it waits). */
static void wsc_trace_free(struct kref *ref)
{
	struct wsc_trace_session *t = container_of(ref, struct wsc_trace_session, ref);

	queue_work(wsc_trace_wq, &t->free_work);
}

static struct wsc_trace_session *wsc_trace_alloc(void)
{
	struct wsc_trace_cpu *c;
	struct wsc_trace_session *t;
	unsigned int cpu;

	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	kref_init(&t->ref);
	INIT_WORK(&t->free_work, wsc_trace_free_fn);
	INIT_WORK(&t->end_work, wsc_trace_end_fn);
	raw_spin_lock_init(&t->follow_lock);
	t->hists = wsc_trace_hists;
	t->keys = kvcalloc(WSC_TRACE_SLOTS, sizeof(*t->keys),
			   GFP_KERNEL_ACCOUNT);
	t->homes = bitmap_zalloc(WSC_TRACE_SLOTS, GFP_KERNEL_ACCOUNT);
	/* Not cleared: a claim fills a slot and its record before use. */
	t->slots = kvmalloc_array(WSC_TRACE_SLOTS, sizeof(*t->slots),
				  GFP_KERNEL_ACCOUNT);
	t->tasks = kvmalloc_array(WSC_TRACE_RECORDS, sizeof(*t->tasks),
				  GFP_KERNEL_ACCOUNT);
	t->cpu = kcalloc(nr_cpu_ids, sizeof(*t->cpu), GFP_KERNEL_ACCOUNT);
	if (!t->keys || !t->homes || !t->slots || !t->tasks || !t->cpu)
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
	t->starter = get_pid(task_tgid(current));
	t->pidns = get_pid_ns(task_active_pid_ns(current));
	return t;

err_free:
	kref_put(&t->ref, wsc_trace_free);
	return NULL;
}

/* ---- the list ---- */

static bool wsc_trace_owned_by(const struct wsc_trace_session *t,
			       const struct wsc_trace_owner *who)
{
	return who && t->owner_net == who->net &&
	       t->owner_portid == who->portid;
}

/*
 * The trace a command means: the one numbered @id; without a number, the
 * newest that @who started, or else the newest of all.  Under the mutex.
 */
static struct wsc_trace_session *wsc_trace_by_id(u64 id,
						 const struct wsc_trace_owner *who)
{
	struct wsc_trace_session *t, *mine = NULL, *newest = NULL;
	unsigned int i;

	lockdep_assert_held(&wsc_trace_mutex);
	for (i = 0; i < WSC_TRACE_MAX; i++) {
		t = wsc_traces[i];
		if (!t)
			continue;
		if (id) {
			if (t->id == id)
				return t;
			continue;
		}
		if (wsc_trace_owned_by(t, who) && (!mine || t->id > mine->id))
			mine = t;
		if (!newest || t->id > newest->id)
			newest = t;
	}
	return mine ?: newest;
}

/*
 * The trace a STOP or a RESET from @who is about: @who's newest without a
 * number; with one, that trace, which must be @who's own unless @admin
 * (CAP_SYS_ADMIN): a user who may trace may not end another's trace.
 * NULL with *@err set when there is none (-ENOENT; the message is the
 * caller's when no number was given) or it is not @who's to end (-EPERM).
 * Under the mutex.
 */
static struct wsc_trace_session *wsc_trace_to_end(u64 id,
						  const struct wsc_trace_owner *who,
						  bool admin,
						  struct netlink_ext_ack *extack,
						  int *err)
{
	struct wsc_trace_session *t, *mine = NULL;
	unsigned int i;

	lockdep_assert_held(&wsc_trace_mutex);
	if (id) {
		t = wsc_trace_by_id(id, who);
		if (!t) {
			NL_SET_ERR_MSG(extack, "there is no trace of that number");
			*err = -ENOENT;
		} else if (!admin && !wsc_trace_owned_by(t, who)) {
			NL_SET_ERR_MSG(extack,
				       "that trace is another socket's: ending it needs CAP_SYS_ADMIN");
			*err = -EPERM;
			t = NULL;
		}
		return t;
	}
	for (i = 0; i < WSC_TRACE_MAX; i++) {
		t = wsc_traces[i];
		if (t && wsc_trace_owned_by(t, who) && (!mine || t->id > mine->id))
			mine = t;
	}
	if (!mine)
		*err = -ENOENT;
	return mine;
}

/* Take @t off the list and drop the list's reference.  Under the mutex. */
static void wsc_trace_unlist_trace(struct wsc_trace_session *t)
{
	unsigned int i;

	lockdep_assert_held(&wsc_trace_mutex);
	for (i = 0; i < WSC_TRACE_MAX; i++)
		if (wsc_traces[i] == t)
			wsc_traces[i] = NULL;
	atomic_dec(&wsc_trace_listed);
	kref_put(&t->ref, wsc_trace_free);
}

/*
 * End the active trace @t; under the mutex.  Its probes are detached
 * without waiting for one still running (the free waits, and so does a
 * STOP, outside the mutex): a process tree whose tasks have all gone
 * has no count left to change, and a trace whose owner has gone is read
 * by nobody.  Sleeps.
 */
static void wsc_trace_finish(struct wsc_trace_session *t, u32 end)
{
	lockdep_assert_held(&wsc_trace_mutex);
	wsc_trace_ring_detach(t);
	wsc_trace_detach(t, 0, wsc_trace_nr_probes());
	t->ended_ns = ktime_get_ns();
	t->state = WSC_TRACE_ENDED;
	t->end = end;
	t->unfinished = wsc_trace_count_unfinished(t);
	/*
	 * Its probes are gone: the module may be unloaded again.  One still
	 * finishing is waited for by the free, and the module's exit waits
	 * for every free.
	 */
	module_put(THIS_MODULE);
}

/*
 * A process tree's trace has lost its last task: queued by the exit
 * probe (trace.c), which cannot sleep, to end the trace here.  The trace
 * is alive: its free cancels this work first (wsc_trace_free_fn()).
 */
static void wsc_trace_end_fn(struct work_struct *work)
{
	struct wsc_trace_session *t = container_of(work,
						   struct wsc_trace_session,
						   end_work);

	mutex_lock(&wsc_trace_mutex);
	/* Checked again: a stop may have come first. */
	if (t->state == WSC_TRACE_ACTIVE && !t->cgrp && !t->all &&
	    !atomic_read(&t->live))
		wsc_trace_finish(t, WSC_TRACE_END_EXITED);
	mutex_unlock(&wsc_trace_mutex);
}

/* ---- starting ---- */

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

static int wsc_trace_target_cgroup(struct wsc_trace_session *t, const char *path,
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

/*
 * The spec's call set as a bitmap of this kernel's numbers.  Numbers past
 * them are left out: a set may be written for a newer kernel, or be the
 * complement of a few calls; but a set that names none of this kernel's
 * calls counts nothing, which is a mistake, not a trace.
 */
static int wsc_trace_set_filters(struct wsc_trace_session *t,
				 const struct wsc_trace_request *spec,
				 struct netlink_ext_ack *extack)
{
	unsigned int n, bits = spec->call_set_len * BITS_PER_BYTE;

	t->failed = spec->failed;
	t->err = spec->err;
	if (!spec->call_set)
		return 0;
	t->calls = bitmap_zalloc(NR_syscalls, GFP_KERNEL_ACCOUNT);
	if (!t->calls)
		return -ENOMEM;
	for (n = 0; n < bits; n++) {
		if (n < NR_syscalls &&
		    (spec->call_set[n / BITS_PER_BYTE] & BIT(n % BITS_PER_BYTE)))
			__set_bit(n, t->calls);
	}
	if (bitmap_empty(t->calls, NR_syscalls)) {
		NL_SET_ERR_MSG(extack,
			       "the call set names no system call this kernel has");
		return -EINVAL;
	}
	return 0;
}

/*
 * Make room for a trace of @who: its own ended trace goes (a new start
 * replaces it), its active one refuses.  Returns a free index, or -errno.
 * Under the mutex.
 */
static int wsc_trace_make_room(const struct wsc_trace_owner *who,
			       struct netlink_ext_ack *extack)
{
	struct wsc_trace_session *t;
	int i, free = -1;

	lockdep_assert_held(&wsc_trace_mutex);
	for (i = 0; i < WSC_TRACE_MAX; i++) {
		t = wsc_traces[i];
		if (t && wsc_trace_owned_by(t, who)) {
			if (t->state == WSC_TRACE_ACTIVE) {
				NL_SET_ERR_MSG(extack,
					       "this socket's trace is already active: stop it first");
				return -EBUSY;
			}
			wsc_trace_unlist_trace(t);
		}
		if (!wsc_traces[i] && free < 0)
			free = i;
	}
	if (free < 0) {
		NL_SET_ERR_MSG(extack,
			       "the most traces at once (" __stringify(WSC_TRACE_MAX) ") are running: end one first");
		return -EBUSY;
	}
	return free;
}

/**
 * wsc_trace_session_start() - start tracing a process tree, a cgroup or the machine
 * @spec:   what to follow and count
 * @who:    the socket starting it, which will own it
 * @extack: where a refusal is explained
 *
 * Drops @who's previous trace, if it has ended: a socket owns one trace.
 *
 * Return: the new trace, referenced (wsc_trace_session_put()), or an ERR_PTR:
 * -EBUSY (too many traces, or @who's is active), -ESRCH, -ENOENT,
 * -ENOTDIR, -EINVAL for a bad target or filter, -EOPNOTSUPP,
 * -ESHUTDOWN (the module is being unloaded), -ENOMEM.
 */
struct wsc_trace_session *wsc_trace_session_start(const struct wsc_trace_request *spec,
						  const struct wsc_trace_owner *who,
						  struct netlink_ext_ack *extack)
{
	struct task_struct *root = NULL;
	struct wsc_trace_session *t;
	int err, slot;

	if (!wsc_trace_available(extack))
		return ERR_PTR(-EOPNOTSUPP);
	/* Allocated before the mutex: other traces' commands need not wait. */
	t = wsc_trace_alloc();
	if (!t)
		return ERR_PTR(-ENOMEM);
	err = wsc_trace_set_filters(t, spec, extack);
	if (err)
		goto put_trace;
	if (spec->events) {
		t->events = wsc_trace_events_alloc(spec->events);
		if (!t->events) {
			err = -ENOMEM;
			goto put_trace;
		}
	}
	if (spec->ring) {
		err = wsc_trace_ring_alloc(t, extack);
		if (err)
			goto put_trace;
	}
	if (spec->cgroup) {
		err = wsc_trace_target_cgroup(t, spec->cgroup, extack);
		if (err)
			goto put_trace;
	} else if (spec->all) {
		t->all = true;
	} else {
		root = wsc_trace_target_task(spec->pid, extack);
		if (IS_ERR(root)) {
			err = PTR_ERR(root);
			goto put_trace;
		}
		t->pid = spec->pid;
	}
	t->owner_net = who->net;
	t->owner_portid = who->portid;

	mutex_lock(&wsc_trace_mutex);
	slot = wsc_trace_make_room(who, extack);
	if (slot < 0) {
		err = slot;
		goto unlock;
	}
	if (!try_module_get(THIS_MODULE)) {
		NL_SET_ERR_MSG(extack, "the module is being unloaded");
		err = -ESHUTDOWN;
		goto unlock;
	}
	t->id = wsc_trace_count_started + 1;
	t->started_ns = ktime_get_ns();
	err = wsc_trace_attach(t, 0, WSC_TRACE_TASK_PROBES);
	if (err)
		goto put_module;
	if (root) {
		wsc_trace_follow_tree(t, root);
		if (!atomic_read(&t->live)) {
			NL_SET_ERR_MSG(extack, "the process is exiting");
			err = -ESRCH;
			goto detach_tasks;
		}
	}
	err = wsc_trace_attach(t, WSC_TRACE_TASK_PROBES,
			       wsc_trace_nr_probes());
	if (err)
		goto detach_tasks;
	/* Last: a request's submitter is found among the tasks followed. */
	if (t->ring) {
		err = wsc_trace_ring_attach(t);
		if (err)
			goto detach_calls;
	}

	t->state = WSC_TRACE_ACTIVE;
	wsc_trace_count_started++;
	/* The list's reference, and the caller's. */
	kref_get(&t->ref);
	wsc_traces[slot] = t;
	atomic_inc(&wsc_trace_listed);
	mutex_unlock(&wsc_trace_mutex);
	if (root)
		put_task_struct(root);
	return t;

detach_calls:
	wsc_trace_detach(t, WSC_TRACE_TASK_PROBES, wsc_trace_nr_probes());
detach_tasks:
	wsc_trace_detach(t, 0, WSC_TRACE_TASK_PROBES);
put_module:
	module_put(THIS_MODULE);
unlock:
	mutex_unlock(&wsc_trace_mutex);
	if (root)
		put_task_struct(root);
put_trace:
	kref_put(&t->ref, wsc_trace_free);
	return ERR_PTR(err);
}

/* ---- the other commands ---- */

/**
 * wsc_trace_session_stop() - detach a trace, keeping its counts
 * @id:     the trace's number, or 0 for @who's newest
 * @who:    the socket asking
 * @admin:  it may stop another socket's trace (CAP_SYS_ADMIN)
 * @extack: where a refusal is explained
 *
 * Return: 0 (also when the trace had already ended), -ENOENT when there
 * is no such trace, -EPERM when it is another's and @admin is false.
 */
int wsc_trace_session_stop(u64 id, const struct wsc_trace_owner *who, bool admin,
			   struct netlink_ext_ack *extack)
{
	struct wsc_trace_session *t;
	bool stopped;
	int err = 0;

	mutex_lock(&wsc_trace_mutex);
	t = wsc_trace_to_end(id, who, admin, extack, &err);
	if (!t && !id)
		NL_SET_ERR_MSG(extack, "there is no trace to stop");
	stopped = t && t->state == WSC_TRACE_ACTIVE;
	if (stopped) {
		wsc_trace_finish(t, WSC_TRACE_END_STOPPED);
		kref_get(&t->ref);
	}
	mutex_unlock(&wsc_trace_mutex);
	if (!stopped)
		return err;
	/*
	 * Until no probe of it runs, so that its counts are final when the
	 * stop returns; outside the mutex, which other traces' commands and
	 * every netlink socket's close take, so that they do not wait.
	 */
	tracepoint_synchronize_unregister();
	mutex_lock(&wsc_trace_mutex);
	t->unfinished = wsc_trace_count_unfinished(t);
	mutex_unlock(&wsc_trace_mutex);
	wsc_trace_session_put(t);
	return 0;
}

/**
 * wsc_trace_session_reset() - free an ended trace's counts
 * @id:     the trace's number, or 0 for @who's newest
 * @who:    the socket asking
 * @admin:  it may reset another socket's trace (CAP_SYS_ADMIN)
 * @extack: where a refusal is explained
 *
 * Return: 0 (also when @who has nothing), -EBUSY while active, -ENOENT
 * for a number that names no trace, -EPERM for another's without @admin.
 */
int wsc_trace_session_reset(u64 id, const struct wsc_trace_owner *who, bool admin,
			    struct netlink_ext_ack *extack)
{
	struct wsc_trace_session *t;
	int err = 0;

	mutex_lock(&wsc_trace_mutex);
	t = wsc_trace_to_end(id, who, admin, extack, &err);
	/* Nothing of its own to reset is no error for a socket. */
	if (!id && err == -ENOENT)
		err = 0;
	if (t && t->state == WSC_TRACE_ACTIVE) {
		NL_SET_ERR_MSG(extack,
			       "the trace is active: stop it before resetting");
		err = -EBUSY;
	} else if (t) {
		wsc_trace_unlist_trace(t);
	}
	mutex_unlock(&wsc_trace_mutex);
	return err;
}

/**
 * wsc_trace_session_get() - a trace, referenced
 * @id:  its number; 0 for the newest trace @who started, or else the
 *       newest of all
 * @who: the socket asking, or NULL for "the newest of all"
 *
 * Return: the trace (release it with wsc_trace_session_put()), or NULL if none.
 */
struct wsc_trace_session *wsc_trace_session_get(u64 id, const struct wsc_trace_owner *who)
{
	struct wsc_trace_session *t;

	mutex_lock(&wsc_trace_mutex);
	t = wsc_trace_by_id(id, who);
	if (t)
		kref_get(&t->ref);
	mutex_unlock(&wsc_trace_mutex);
	return t;
}

/** wsc_trace_session_put() - drop a reference from wsc_trace_session_get() */
void wsc_trace_session_put(struct wsc_trace_session *t)
{
	kref_put(&t->ref, wsc_trace_free);
}

/**
 * wsc_trace_session_report() - what trace @t is, and what it has lost
 * @t:  a referenced trace
 * @st: filled in; @st->cgroup points into @t
 *
 * Its state, end, duration and unfinished calls, which change as it
 * ends, are read under the list's mutex; its counts as they change
 * (wsc_trace_read_counts()).
 */
void wsc_trace_session_report(struct wsc_trace_session *t,
			      struct wsc_trace_report *st)
{
	memset(st, 0, sizeof(*st));
	mutex_lock(&wsc_trace_mutex);
	st->state = t->state;
	st->end = t->end;
	st->duration_ns = (t->state == WSC_TRACE_ACTIVE ? ktime_get_ns() :
			   t->ended_ns) - t->started_ns;
	st->unfinished = t->unfinished;
	mutex_unlock(&wsc_trace_mutex);
	wsc_trace_read_counts(t, st);
	wsc_trace_ring_read_counts(t, st);
}

/**
 * wsc_trace_session_owned() - did @who start @t?
 * @t:   a referenced trace
 * @who: the socket asking
 *
 * Return: true if @t is @who's: only its owner may drain its events.
 */
bool wsc_trace_session_owned(const struct wsc_trace_session *t,
			     const struct wsc_trace_owner *who)
{
	return wsc_trace_owned_by(t, who);
}

/* ---- owners ---- */

/*
 * A netlink socket is being closed: its traces go with it.  Runs in the
 * closing task, which may sleep here (the chain is a blocking one).
 */
static int wsc_trace_on_release(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	const struct netlink_notify *n = ptr;
	struct wsc_trace_owner who;
	struct wsc_trace_session *t;
	unsigned int i;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC)
		return NOTIFY_DONE;
	/*
	 * The common case: no trace at all, so no mutex taken.  A socket's
	 * own START has listed its trace before the socket can be closed.
	 */
	if (!atomic_read(&wsc_trace_listed))
		return NOTIFY_DONE;
	who.net = n->net;
	who.portid = n->portid;
	mutex_lock(&wsc_trace_mutex);
	for (i = 0; i < WSC_TRACE_MAX; i++) {
		t = wsc_traces[i];
		if (!t || !wsc_trace_owned_by(t, &who))
			continue;
		if (t->state == WSC_TRACE_ACTIVE)
			wsc_trace_finish(t, WSC_TRACE_END_STOPPED);
		wsc_trace_unlist_trace(t);
	}
	mutex_unlock(&wsc_trace_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block wsc_trace_release_nb = {
	.notifier_call = wsc_trace_on_release,
};

/**
 * wsc_trace_init() - find the tracepoints and watch for owners closing
 *
 * Return: 0 or -errno.
 */
int wsc_trace_init(void)
{
	int err;

	err = wsc_trace_find_tracepoints();
	if (err)
		return err;
	wsc_trace_ring_find_tracepoints();
	/* Unbound: a free may run anywhere (7.x asks every queue to say so). */
	wsc_trace_wq = alloc_workqueue("wsc_trace", WQ_UNBOUND, 0);
	if (!wsc_trace_wq)
		return -ENOMEM;
	err = netlink_register_notifier(&wsc_trace_release_nb);
	if (err)
		destroy_workqueue(wsc_trace_wq);
	return err;
}

/**
 * wsc_trace_exit() - end and free every trace
 *
 * Called after the netlink family is gone, so nothing starts a new one;
 * none is active (each holds the module), unless the module's own load
 * is being undone.
 */
void wsc_trace_exit(void)
{
	struct wsc_trace_session *t;
	unsigned int i;

	netlink_unregister_notifier(&wsc_trace_release_nb);
	mutex_lock(&wsc_trace_mutex);
	for (i = 0; i < WSC_TRACE_MAX; i++) {
		t = wsc_traces[i];
		if (!t)
			continue;
		if (t->state == WSC_TRACE_ACTIVE)
			wsc_trace_finish(t, WSC_TRACE_END_STOPPED);
		wsc_trace_unlist_trace(t);
	}
	mutex_unlock(&wsc_trace_mutex);
	/*
	 * Every free, each after its grace period, before the code goes;
	 * each waits for its trace's end work too (wsc_trace_free_fn()).
	 */
	destroy_workqueue(wsc_trace_wq);
}
