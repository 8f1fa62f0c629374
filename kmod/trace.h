/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace, as the rest of the module sees it: per-syscall latency
 * histograms of a process tree, a cgroup or the machine, several trace
 * sessions at once.  trace_ctl.c starts, stops, resets and hands out
 * sessions; trace.c holds their probes and reads their counts.  What the
 * two share is in trace_internal.h, theirs alone: here a session is an
 * opaque struct wsc_trace_session.
 */
#ifndef _WSC_TRACE_H
#define _WSC_TRACE_H

#include <linux/sched.h>
#include <linux/types.h>

struct net;
struct netlink_ext_ack;
struct wsc_trace_session;

/**
 * struct wsc_trace_owner - the netlink socket a trace belongs to
 * @net:    its network namespace (compared, never followed)
 * @portid: its port id
 */
struct wsc_trace_owner {
	const struct net *net;
	u32 portid;
};

/**
 * struct wsc_trace_request - what a trace follows and counts
 * @pid:          a process and its descendants, or 0
 * @cgroup:       a cgroup v2 path, or NULL
 * @all:          every task but the starter's process
 * @call_set:     bit n (of byte n / 8) for each call number to count, or
 *                NULL for every call
 * @call_set_len: bytes in @call_set
 * @failed:       count failed calls only
 * @err:          count only calls failing with -@err, or 0
 * @events:       record an event per counted call, this many per CPU
 *                between two drains (1..WSC_TRACE_EVENTS_MAX), or 0
 * @ring:         count the io_uring requests its tasks submit too
 */
struct wsc_trace_request {
	pid_t pid;
	const char *cgroup;
	bool all;
	const u8 *call_set;
	unsigned int call_set_len;
	bool failed;
	u32 err;
	u32 events;
	bool ring;
};

/**
 * struct wsc_trace_report - what a trace is and what it lost
 * @state:       enum wsc_trace_state
 * @end:         enum wsc_trace_end
 * @id:          counts traces since load, from 1
 * @pid:         the target process as its starter named it, or 0
 * @cgroup:      the target cgroup's path, or NULL
 * @all:         the target is the machine
 * @failed:      only failed calls are counted
 * @err:         only calls failing with -@err are counted, or 0
 * @duration_ns: from the start to the end (or to now, while active)
 * @tasks:       tasks followed since the start
 * @live:        tasks followed now
 * @task_slots:  tasks that can be followed at once
 * @hist_slots:  histograms per CPU
 * @lost_tasks:  tasks of the tree not followed: no free slot
 * @lost_calls:  calls of a cgroup's tasks not counted: no free slot
 * @lost_exits:  calls whose exit was never seen
 * @lost_hist:   calls counted but in no histogram: the CPU's pool ran out
 * @lost_errnos: failed calls counted but in no per-errno count
 * @lost_records: tasks followed but with no per-task record
 * @foreign:     32-bit or out-of-range calls, not counted
 * @unmatched:   exits of calls entered before the start
 * @unfinished:  calls still in progress at the end
 * @filtered:    calls the filters left out
 * @events:      events each CPU's ring holds, or 0: no events recorded
 * @lost_events: events dropped because their CPU's ring was full
 * @ring:        io_uring requests are counted too
 * @ring_lost:   io_uring requests submitted but not counted
 * @ring_pending: io_uring requests submitted whose completion was not
 *               seen (yet)
 */
struct wsc_trace_report {
	u32 state;
	u32 end;
	u64 id;
	pid_t pid;
	const char *cgroup;
	bool all;
	bool failed;
	u32 err;
	u64 duration_ns;
	u64 tasks;
	u32 live;
	u32 task_slots;
	u32 hist_slots;
	u64 lost_tasks;
	u64 lost_calls;
	u64 lost_exits;
	u64 lost_hist;
	u64 lost_errnos;
	u64 lost_records;
	u64 foreign;
	u64 unmatched;
	u64 unfinished;
	u64 filtered;
	u32 events;
	u64 lost_events;
	bool ring;
	u64 ring_lost;
	u64 ring_pending;
};

/**
 * struct wsc_trace_sum - one system call's figures, every CPU summed
 * @calls:    calls finished
 * @errors:   of them, failed (-4095..-1)
 * @wrapped:  of them, run by a wsc batch
 * @total_ns: summed latency (a batch's ioctl: its own, without its calls)
 * @off_ns:   of it, off the CPU
 * @max_ns:   longest latency
 */
struct wsc_trace_sum {
	u64 calls;
	u64 errors;
	u64 wrapped;
	u64 total_ns;
	u64 off_ns;
	u64 max_ns;
};

/**
 * struct wsc_trace_record - what one followed task did, kept after it exits
 * @calls:    calls counted
 * @errors:   of them, failed
 * @total_ns: their summed latency
 * @off_ns:   of it, switched out
 * @tid:      the task, in the starter's pid namespace
 * @tgid:     its process
 * @ppid:     its parent process when it joined
 * @comm:     its name when it joined, or after its last execve
 *
 * Written by its task alone (its probes); read by a fetch as it changes.
 */
struct wsc_trace_record {
	u64 calls;
	u64 errors;
	u64 total_ns;
	u64 off_ns;
	pid_t tid;
	pid_t tgid;
	pid_t ppid;
	char comm[TASK_COMM_LEN];
};

/* trace_ctl.c: sessions' lives, and the lookup by number or owner. */
int wsc_trace_init(void);
void wsc_trace_exit(void);
struct wsc_trace_session *
wsc_trace_session_start(const struct wsc_trace_request *req,
			const struct wsc_trace_owner *who,
			struct netlink_ext_ack *extack);
int wsc_trace_session_stop(u64 id, const struct wsc_trace_owner *who,
			   bool admin, struct netlink_ext_ack *extack);
int wsc_trace_session_reset(u64 id, const struct wsc_trace_owner *who,
			    bool admin, struct netlink_ext_ack *extack);
struct wsc_trace_session *
wsc_trace_session_get(u64 id, const struct wsc_trace_owner *who);
void wsc_trace_session_put(struct wsc_trace_session *t);
void wsc_trace_session_report(struct wsc_trace_session *t,
			      struct wsc_trace_report *st);
bool wsc_trace_session_owned(const struct wsc_trace_session *t,
			     const struct wsc_trace_owner *who);

/* trace.c: a referenced session's counts, read as they change. */
bool wsc_trace_row(struct wsc_trace_session *t, unsigned int nr,
		   struct wsc_trace_sum *sum);
u64 wsc_trace_bucket(struct wsc_trace_session *t, unsigned int nr,
		     unsigned int i);
bool wsc_trace_errno_next(struct wsc_trace_session *t, unsigned int nr,
			  unsigned int *pos, u32 *err, u64 *count);
const struct wsc_trace_record *
wsc_trace_task_at(struct wsc_trace_session *t, unsigned int i);
unsigned int wsc_trace_nr_calls(void);
unsigned int wsc_trace_nr_rows(struct wsc_trace_session *t);

/*
 * trace_events.c: draining a referenced session's events, one drain at
 * a time: begin, then per CPU ready and take, then end.
 */
struct wsc_trace_event;
int wsc_trace_drain_begin(struct wsc_trace_session *t);
unsigned int wsc_trace_drain_ready(struct wsc_trace_session *t,
				   unsigned int cpu);
void wsc_trace_drain_take(struct wsc_trace_session *t, unsigned int cpu,
			  struct wsc_trace_event *to, unsigned int n);
void wsc_trace_drain_end(struct wsc_trace_session *t);
u64 wsc_trace_drain_lost(struct wsc_trace_session *t);

#endif /* _WSC_TRACE_H */
