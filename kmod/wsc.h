/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces between the files of wsc.ko.
 */
#ifndef _WSC_H
#define _WSC_H

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <linux/seq_file.h>
#include <linux/thread_info.h>
#include <asm/syscall.h>
#include <linux/kref.h>
#include <net/genetlink.h>
#include <uapi/linux/wsc.h>

#include "compat.h"

#include "wsc_experiments.h"
#include "wsc_hist.h"
#include "wsc_summary.h"

struct netlink_ext_ack;

/*
 * WSC_DEBUG_ON(cond): an invariant the code around it establishes, checked
 * only by the debug build (`make module-debug`, which sets
 * CONFIG_WSC_DEBUG, see kmod/Kbuild).  There a broken one warns once with
 * a backtrace, which tools/vm-run reports as a failed run, and the macro's
 * value is the condition's.  The normal build compiles the check out and the macro is
 * false, so the batch loop and the trace's probes pay nothing for it; the
 * condition is still type-checked.
 */
#ifdef WSC_DEBUG
#define WSC_DEBUG_ON(cond)	WARN_ON_ONCE(cond)
#else
#define WSC_DEBUG_ON(cond)	({ BUILD_BUG_ON_INVALID(cond); false; })
#endif

/* symbols.c: the handlers of the allowlisted calls, found once at load. */
int wsc_symbols_init(void);
sys_call_ptr_t wsc_syscall_handler(unsigned int nr);
const char *wsc_handler_name(unsigned int nr);
bool wsc_callable(const char *name, unsigned long start);

/*
 * syscall_tp.c: raw_syscalls:sys_enter and sys_exit fired for each
 * wrapped call, while someone is attached to them.
 */
struct tracepoint;
void wsc_syscall_tp_init(struct tracepoint *enter, struct tracepoint *exit);
bool wsc_syscall_tp_enter(struct pt_regs *regs, u32 nr);
void wsc_syscall_tp_exit(struct pt_regs *regs, u32 nr, long ret);

/*
 * Is anyone attached to the syscall tracepoints?  The flag the kernel's
 * own entry code tests (syscall_regfunc() sets it on every task), in
 * @work, the task's syscall work bits the batch loop read once for this
 * and for wsc_policy_changed(): a batch pays what a system call pays.
 */
static __always_inline bool wsc_syscall_tp_watched(unsigned long work)
{
	return work & SYSCALL_WORK_SYSCALL_TRACEPOINT;
}

/* calls.c: the allowlist. */

/**
 * struct wsc_call - one allowlisted system call
 * @nr:    x86-64 system call number, or WSC_NR_NOP
 * @name:  name as in the syscall table, without the sys_ prefix
 * @group: enum wsc_group
 * @flags: WSC_CALL_* flags
 */
struct wsc_call {
	unsigned int nr;
	const char *name;
	u8 group;
	u8 flags;
};

/*
 * What the batch loop needs per system call number, packed so that one
 * cache line covers four numbers.  @fn is NULL for a number that is not
 * allowed; @slot is the row in wsc_calls[] and in the statistics.
 */
struct wsc_dispatch {
	sys_call_ptr_t fn;
	u16 slot;
};

#define WSC_SLOT_NOP		0

extern const struct wsc_call wsc_calls[];
extern const unsigned int wsc_nr_calls;
extern struct wsc_dispatch wsc_dispatch[NR_syscalls];

int wsc_calls_init(void);
const char *wsc_calls_group_name(unsigned int group);

/* stats.c: per-CPU counts and latency of wrapped calls. */

/**
 * struct wsc_call_stats - what one CPU saw of one allowlisted call
 * @calls:    entries run (cancelled ones are not counted)
 * @errors:   entries whose result was a failure
 * @timed:    calls timed (only batches with WSC_SUBMIT_TIMING are)
 * @total_ns: sum of the timed durations
 * @max_ns:   longest timed duration
 */
struct wsc_call_stats {
	u64 calls;
	u64 errors;
	u64 timed;
	u64 total_ns;
	u64 max_ns;
};

/**
 * struct wsc_stats - one CPU's statistics
 * @batches: submissions run
 * @call:    one row per allowlisted call, indexed like wsc_calls[]
 */
struct wsc_stats {
	u64 batches;
	struct wsc_call_stats call[];
};

extern struct wsc_stats __percpu *wsc_stats;

int wsc_stats_init(void);
void wsc_stats_exit(void);
void wsc_stats_sum_call(unsigned int slot, struct wsc_call_stats *sum);
u64 wsc_stats_sum_batches(void);

/* batch.c: validate and run one submission. */

/**
 * struct wsc_submission - a submission copied into the kernel
 * @ent:   the entries, copied in once
 * @res:   the results, copied out once
 * @regs:  the registers handlers are called with: the argument
 *         registers, orig_ax and ax set for each call; under them zeros,
 *         or, once a syscall tracepoint's probe is to see them, the
 *         ioctl's own user frame (kmod/batch.c, wsc_regs_frame())
 * @count: entries in @ent
 * @flags: WSC_SUBMIT_* flags
 * @policy_gen: wsc_policy_snapshot() before the submission was checked
 */
struct wsc_submission {
	struct wsc_entry *ent;
	struct wsc_result *res;
	struct pt_regs *regs;
	u32 count;
	u32 flags;
	unsigned int policy_gen;
};

int wsc_batch_validate(const struct wsc_submission *b, u32 *error_index);
long wsc_batch_run(struct wsc_submission *b);

/*
 * The kernel's internal restart codes, which its signal code turns into a
 * restart or -EINTR on the way out of a system call.  They never reach
 * userspace in a result.
 */
static __always_inline bool wsc_is_restart(long ret)
{
	return ret == -ERESTARTSYS || ret == -ERESTARTNOINTR ||
	       ret == -ERESTARTNOHAND || ret == -ERESTART_RESTARTBLOCK;
}
int wsc_batch_copy_out(const struct wsc_submission *b,
		       struct wsc_result __user *ures, u32 done);

/* submit.c: WSC_IOC_SUBMIT, from the ioctl's argument to its results. */

struct wsc_buf;

/**
 * struct wsc_file - what one open of /dev/wsc keeps
 * @spare: the last submission's working memory, kept for the next; NULL
 *         before the first and while a submission holds it
 */
struct wsc_file {
	struct wsc_buf *spare;
};

long wsc_submit(struct file *file, struct wsc_submit __user *argp);
void wsc_submit_release(struct wsc_file *wf);
int wsc_submit_init(void);
void wsc_submit_exit(void);

/* policy.c: the administrator's switch, the refusal's reasons (policy.h). */
long wsc_ioctl_policy(void __user *argp);

/* device.c: /dev/wsc. */
int wsc_device_init(void);
void wsc_device_exit(void);

/* lab.c: the latency lab's runs and results (experiments in lab_exp.c). */

/**
 * struct wsc_lat_request - what to run
 * @exp:        enum wsc_experiment_id
 * @iterations: samples to take, 1..WSC_LAT_MAX_ITERATIONS
 * @nr_cpus:    CPUs in @cpu, equal to the experiment's roles
 * @cpu:        the CPU of each role
 */
struct wsc_lat_request {
	unsigned int exp;
	u32 iterations;
	u32 nr_cpus;
	u32 cpu[WSC_LAT_MAX_ROLES];
};

/**
 * struct wsc_lat_figures - what a run found, apart from its samples
 * @req:         what was run
 * @run_id:      counts runs since the module was loaded, from 1
 * @warmup:      iterations run and discarded per role before measuring
 * @block_ops:   operations per block of the block timing, 0 when the
 *               experiment sleeps
 * @errors:      samples refused (a negative wake-up latency)
 * @duration_ns: wall time of the run
 * @timer_ps:    median cost of a ktime_get_ns() pair on the CPU that took
 *               the samples, measured in this run
 * @block_ps:    per-operation cost from blocks of @block_ops operations
 *               timed together (median over blocks); 0 if @block_ops is 0
 * @sum:         statistics of the samples kept
 */
struct wsc_lat_figures {
	struct wsc_lat_request req;
	u64 run_id;
	u32 warmup;
	u32 block_ops;
	u64 errors;
	u64 duration_ns;
	u64 timer_ps;
	u64 block_ps;
	struct wsc_summary sum;
};

/**
 * struct wsc_lat_result - the outcome of one run, kept until the next run
 * of the same experiment or a reset; readers hold a reference
 * @ref:        wsc_lat_get() and wsc_lat_put()
 * @fig:        what it found
 * @samples:    @fig.sum.count samples in nanoseconds, in the order they
 *              were taken, role 0's first (vmalloc'd)
 * @role_count: how many of @samples each role took
 * @hist:       per role (so per CPU), WSC_HIST_BUCKETS counters
 */
struct wsc_lat_result {
	struct kref ref;
	struct wsc_lat_figures fig;
	u64 *samples;
	u64 role_count[WSC_LAT_MAX_ROLES];
	u64 *hist[WSC_LAT_MAX_ROLES];
};

/**
 * struct wsc_lat_status - what the lab is doing now
 * @running:    a run is in progress; the other fields describe it
 * @req:        what is running
 * @run_id:     its run id
 * @started_ns: ktime_get_ns() when it started
 */
struct wsc_lat_status {
	bool running;
	struct wsc_lat_request req;
	u64 run_id;
	u64 started_ns;
};

/**
 * struct wsc_experiment - one experiment of include/wsc_experiments.h
 * @name:  its name
 * @roles: CPUs it needs
 * @flags: WSC_EXPF_*
 * @what:  one line of description
 */
struct wsc_experiment {
	const char *name;
	u8 roles;
	u8 flags;
	const char *what;
};

extern const struct wsc_experiment wsc_experiments[WSC_NR_EXPERIMENTS];

int wsc_lab_init(void);
void wsc_lab_exit(void);
int wsc_lat_find(const char *name);
int wsc_lab_run(const struct wsc_lat_request *req,
		struct wsc_lat_result **result, struct netlink_ext_ack *extack);
struct wsc_lat_result *wsc_lat_get(unsigned int exp);
void wsc_lat_put(struct wsc_lat_result *r);
int wsc_lab_reset(int exp, struct netlink_ext_ack *extack);
void wsc_lat_snapshot(struct wsc_lat_status *st,
		      struct wsc_lat_result *result[WSC_NR_EXPERIMENTS]);

/*
 * trace.c and trace_ctl.c: per-syscall latency histograms of a process
 * tree, a cgroup or the machine, several traces at once.
 */

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
 */
struct wsc_trace_request {
	pid_t pid;
	const char *cgroup;
	bool all;
	const u8 *call_set;
	unsigned int call_set_len;
	bool failed;
	u32 err;
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

struct wsc_trace_record;

int wsc_trace_init(void);
void wsc_trace_exit(void);
int wsc_trace_find_tracepoints(void);
struct wsc_trace_session *wsc_trace_session_start(const struct wsc_trace_request *spec,
						  const struct wsc_trace_owner *who,
						  struct netlink_ext_ack *extack);
int wsc_trace_session_stop(u64 id, const struct wsc_trace_owner *who, bool admin,
			   struct netlink_ext_ack *extack);
int wsc_trace_session_reset(u64 id, const struct wsc_trace_owner *who, bool admin,
			    struct netlink_ext_ack *extack);
struct wsc_trace_session *wsc_trace_session_get(u64 id, const struct wsc_trace_owner *who);
void wsc_trace_session_put(struct wsc_trace_session *t);
void wsc_trace_when(struct wsc_trace_session *t, struct wsc_trace_report *st);
void wsc_trace_session_report(struct wsc_trace_session *t, struct wsc_trace_report *st);
bool wsc_trace_row(struct wsc_trace_session *t, unsigned int nr,
		   struct wsc_trace_sum *sum);
u64 wsc_trace_bucket(struct wsc_trace_session *t, unsigned int nr, unsigned int i);
bool wsc_trace_errno_next(struct wsc_trace_session *t, unsigned int nr,
			  unsigned int *pos, u32 *err, u64 *count);
const struct wsc_trace_record *wsc_trace_task_at(struct wsc_trace_session *t,
						 unsigned int i);
unsigned int wsc_trace_nr_calls(void);

/*
 * genl.c: the generic netlink family "syscall_lat", with the lab's
 * handlers in genl_lab.c and the trace's in genl_trace.c (genl.h).
 */
int wsc_genl_init(void);
void wsc_genl_exit(void);

/* proc.c: /proc/syscall_lat. */
int wsc_proc_init(void);
void wsc_proc_exit(void);

#endif /* _WSC_H */
