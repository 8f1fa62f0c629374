/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR MIT) */
/*
 * wsc: wrapped system calls - the ABI of /dev/wsc.
 *
 * One ioctl runs a batch of system calls in one kernel entry, each through
 * the running kernel's own handler, in the caller's context.
 *
 * Commands (magic WSC_IOC_MAGIC, 0xB8):
 *
 *   WSC_IOC_VERSION   _IOR  0  struct wsc_version
 *       ABI version and limits.
 *
 *   WSC_IOC_CALL_INFO _IOWR 1  struct wsc_call_info
 *       One row of the allowlist, chosen by @index (0, 1, ...); -ENOENT past
 *       the last row.
 *
 *   WSC_IOC_POLICY    _IOR  3  struct wsc_policy
 *       Whether the calling thread's batches would run wrapped now, and if
 *       not why (enum wsc_refusal); the administrator's switch.
 *
 *   WSC_IOC_SUBMIT    _IOWR 2  struct wsc_submit
 *       Run @count entries of @entries in order and write one struct
 *       wsc_result per entry to @results.
 *
 *       First, before anything is read: a caller that an observer could
 *       not follow inside a batch, or that the administrator has not let
 *       use wsc, is refused with -EOPNOTSUPP and @error_index
 *       WSC_NO_INDEX, and nothing has run.  -EOPNOTSUPP means exactly
 *       that and nothing else: run these calls as plain system calls
 *       (libwsc does, by itself).  @refused says why (enum wsc_refusal,
 *       as WSC_IOC_POLICY would): a seccomp filter or strict mode; audit
 *       enabled and this task audited; ptrace's system-call tracing,
 *       SYSEMU or system-call single-stepping; syscall user dispatch;
 *       a probe on the syscall tracepoints where this kernel's cannot be
 *       fired for wrapped calls; the module parameters disabled and group.
 *       Each is asked again before every call of the batch: one that
 *       appears while it runs stops it before its next call.
 *
 *       Returns the number of result slots written, N.  N < @count only when
 *       a signal arrived between two calls (or what stops a batch as one
 *       does: a TIF_NOTIFY_SIGNAL notification such as io_uring's completion
 *       work, or one of the observers above appearing, such as a seccomp
 *       filter installed by another thread): entries [N, @count) have not
 *       run and may be submitted again (libwsc does that for you; the
 *       resubmission may be refused as above).  A call that was interrupted before it had any effect
 *       (-ERESTARTSYS and its kin) counts as not run.
 *
 *       Before anything runs, the whole batch is validated; if any entry is
 *       malformed the ioctl fails with -errno, writes the entry's index (or
 *       WSC_NO_INDEX for a header error) to @error_index and nothing has run:
 *         -EINVAL  @count is 0, an entry's reserved field is non-zero,
 *                  an unknown flag is set, @entries or @results is not a multiple of
 *                  8 (the arrays hold 64-bit fields), or a reference does
 *                  not point to an earlier entry;
 *         -E2BIG   @count exceeds WSC_MAX_ENTRIES;
 *         -ENOSYS  a system call number is not on the allowlist;
 *         -EFAULT  @entries or @results cannot be accessed.
 *
 *       Then, still before anything runs, every page of @results is probed
 *       for writing (-EFAULT if one cannot be written): the probe reads
 *       @results' first byte and the first byte of every later page the
 *       array spans and writes each back unchanged.  Slots that hold no
 *       result (past N after a short return, all of them after a refusal
 *       or an interrupted first entry) keep what the caller left there,
 *       unless another thread wrote them while the probe ran.
 *
 * Execution rules:
 *   - A result is a failure when it lies in [-4095, -1], as for any system
 *     call.  A failure stops the chain: the following entries are not run
 *     and report -ECANCELED, until an entry flagged WSC_ENTRY_NEW_CHAIN.
 *     WSC_ENTRY_IGNORE_FAILURE on an entry keeps its own failure from
 *     stopping the chain.
 *   - Bit k of @ref_mask makes argument k the result of entry @args[k],
 *     which must be an earlier entry of the same batch.  If that entry
 *     failed, the referencing entry does not run and fails with -ECANCELED.
 *   - WSC_NR_NOP runs no handler and returns @args[0]: with 0 it measures
 *     the mechanism itself, with a negative errno it injects a failure.
 *   - With WSC_SUBMIT_TIMING each result also carries the call's duration.
 *   - Each entry sees what it would see after the earlier calls returned to
 *     user space: what a call leaves for that return as task work, such as
 *     the final release of a file (close, dup2/dup3 over a descriptor,
 *     munmap of a file mapping), runs before the next call.  A read after
 *     closing a pipe's other end returns 0, a write -EPIPE.  The rest of
 *     the return path (rseq, cgroup throttling) runs once, at the end.
 */
#ifndef _UAPI_LINUX_WSC_H
#define _UAPI_LINUX_WSC_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define WSC_DEVICE_NAME		"wsc"
#define WSC_ABI_VERSION		1

/* Most entries in one submission. */
#define WSC_MAX_ENTRIES		1024
/* Arguments per call, as in the x86-64 system call convention. */
#define WSC_MAX_ARGS		6
/* Not a system call: returns args[0] without entering a handler. */
#define WSC_NR_NOP		0xffffu

/* struct wsc_entry.flags */
enum wsc_entry_flags {
	/* This entry's failure does not stop the chain. */
	WSC_ENTRY_IGNORE_FAILURE	= 1u << 0,
	/* This entry starts a new chain: earlier failures do not cancel it. */
	WSC_ENTRY_NEW_CHAIN		= 1u << 1,

	WSC_ENTRY_ALL_FLAGS		= WSC_ENTRY_IGNORE_FAILURE |
					  WSC_ENTRY_NEW_CHAIN,
};

/* struct wsc_submit.flags */
enum wsc_submit_flags {
	/* Time every call with ktime_get_ns; fills wsc_result.duration_ns. */
	WSC_SUBMIT_TIMING		= 1u << 0,

	WSC_SUBMIT_ALL_FLAGS		= WSC_SUBMIT_TIMING,
};

/* Groups of paper 001's Table 3, plus the mechanism itself. */
enum wsc_group {
	WSC_GROUP_NONE		= 0,	/* the no-op entry */
	WSC_GROUP_MEMORY	= 1,
	WSC_GROUP_SIGNAL	= 2,
	WSC_GROUP_IPC		= 3,
	WSC_GROUP_FILE		= 4,
	WSC_GROUP_USERDATA	= 5,
	WSC_GROUP_LOCKING	= 6,
	WSC_GROUP_OTHER		= 7,	/* process identity, time */
	WSC_GROUP_COUNT
};

/* struct wsc_call_info.flags */
enum wsc_call_flags {
	/* May sleep for an unbounded time (waits on another party). */
	WSC_CALL_MAY_BLOCK	= 1u << 0,
	/* Returns a new file descriptor. */
	WSC_CALL_RETURNS_FD	= 1u << 1,
};

/**
 * struct wsc_entry - one system call of a batch
 * @nr:       x86-64 system call number, or WSC_NR_NOP
 * @flags:    WSC_ENTRY_* flags
 * @ref_mask: bit k set: @args[k] holds the index of an earlier entry
 *            whose result is passed as argument k
 * @reserved: must be zero
 * @args:     the arguments, in the system call's order
 */
struct wsc_entry {
	__u32 nr;
	__u16 flags;
	__u8 ref_mask;
	__u8 reserved;
	__u64 args[WSC_MAX_ARGS];
};

/**
 * struct wsc_result - what one entry returned
 * @ret:         the handler's return value, -ECANCELED for an entry that
 *               did not run because its chain had stopped
 * @duration_ns: time spent in the handler with WSC_SUBMIT_TIMING, else 0
 */
struct wsc_result {
	__s64 ret;
	__u64 duration_ns;
};

/**
 * struct wsc_submit - argument of WSC_IOC_SUBMIT
 * @entries:     user pointer to @count struct wsc_entry
 * @results:     user pointer to @count struct wsc_result
 * @count:       number of entries, 1..WSC_MAX_ENTRIES
 * @flags:       WSC_SUBMIT_* flags
 * @error_index: out: on a validation error, the offending entry, or
 *               WSC_NO_INDEX when the error is not tied to one entry
 * @refused:     out: on -EOPNOTSUPP, the enum wsc_refusal reasons the
 *               caller was refused for; otherwise left as it was.  Its
 *               value on entry is ignored (a module older than wsc 1.0
 *               required 0 and never wrote it: 0 after a refusal means
 *               "ask WSC_IOC_POLICY")
 */
struct wsc_submit {
	__u64 entries;
	__u64 results;
	__u32 count;
	__u32 flags;
	__u32 error_index;
	__u32 refused;
};

#define WSC_NO_INDEX		0xffffffffu

/**
 * struct wsc_version - argument of WSC_IOC_VERSION
 * @abi_version: WSC_ABI_VERSION of the loaded module
 * @max_entries: WSC_MAX_ENTRIES of the loaded module
 * @nr_calls:    rows in the allowlist (WSC_IOC_CALL_INFO indexes)
 * @entry_flags: the WSC_ENTRY_* flags the module accepts
 * @submit_flags: the WSC_SUBMIT_* flags the module accepts
 * @reserved:    zero
 */
struct wsc_version {
	__u32 abi_version;
	__u32 max_entries;
	__u32 nr_calls;
	__u32 entry_flags;
	__u32 submit_flags;
	__u32 reserved[3];
};

#define WSC_CALL_NAME_LEN	24

/**
 * struct wsc_call_info - argument of WSC_IOC_CALL_INFO
 * @index:    in: which row, 0..nr_calls-1
 * @nr:       out: system call number (WSC_NR_NOP for the no-op row)
 * @group:    out: enum wsc_group
 * @flags:    out: WSC_CALL_* flags
 * @name:     out: NUL-terminated name, e.g. "read"
 */
struct wsc_call_info {
	__u32 index;
	__u32 nr;
	__u32 group;
	__u32 flags;
	char name[WSC_CALL_NAME_LEN];
};

/*
 * Why WSC_IOC_SUBMIT refuses a caller (-EOPNOTSUPP): each is something a
 * wrapped call would slip past, or the administrator's choice.
 */
enum wsc_refusal {
	/* The module parameters: disabled=2, or disabled=1 outside group. */
	WSC_REFUSED_DISABLED		= 1u << 0,
	/* A seccomp filter or strict mode: it sees only the ioctl. */
	WSC_REFUSED_SECCOMP		= 1u << 1,
	/* Audit enabled and following this task, rules or not. */
	WSC_REFUSED_AUDIT		= 1u << 2,
	/* ptrace: system-call tracing, SYSEMU or system-call single-step. */
	WSC_REFUSED_PTRACE		= 1u << 3,
	/* Syscall user dispatch (PR_SET_SYSCALL_USER_DISPATCH). */
	WSC_REFUSED_USER_DISPATCH	= 1u << 4,
	/*
	 * A syscall tracepoint has a probe and this module cannot fire the
	 * tracepoints for wrapped calls on this kernel (its load said so).
	 */
	WSC_REFUSED_TRACEPOINT		= 1u << 5,

	WSC_REFUSED_ALL			= WSC_REFUSED_DISABLED |
					  WSC_REFUSED_SECCOMP |
					  WSC_REFUSED_AUDIT |
					  WSC_REFUSED_PTRACE |
					  WSC_REFUSED_USER_DISPATCH |
					  WSC_REFUSED_TRACEPOINT,
};

/* struct wsc_policy.disabled: the module parameter "disabled". */
enum wsc_disabled {
	WSC_DISABLED_NONE	= 0,	/* every user */
	WSC_DISABLED_GROUP	= 1,	/* CAP_SYS_ADMIN or the group only */
	WSC_DISABLED_ALL	= 2,	/* nobody */
};

/* struct wsc_policy.group when no group is set. */
#define WSC_NO_GROUP		0xffffffffu

/**
 * struct wsc_policy - argument of WSC_IOC_POLICY
 * @refused:  out: the enum wsc_refusal reasons that apply to the calling
 *            thread now; 0 when its batches would run wrapped
 * @disabled: out: enum wsc_disabled, the module parameter "disabled"
 * @group:    out: the module parameter "group", a GID of the initial user
 *            namespace, or WSC_NO_GROUP
 * @reserved: zero
 */
struct wsc_policy {
	__u32 refused;
	__u32 disabled;
	__u32 group;
	__u32 reserved[5];
};

#define WSC_IOC_MAGIC		0xB8
#define WSC_IOC_VERSION		_IOR(WSC_IOC_MAGIC, 0, struct wsc_version)
#define WSC_IOC_CALL_INFO	_IOWR(WSC_IOC_MAGIC, 1, struct wsc_call_info)
#define WSC_IOC_SUBMIT		_IOWR(WSC_IOC_MAGIC, 2, struct wsc_submit)
#define WSC_IOC_POLICY		_IOR(WSC_IOC_MAGIC, 3, struct wsc_policy)

/*
 * The latency lab and the trace: generic netlink family WSC_LAT_GENL_NAME
 * ("syscall_lat"), version WSC_LAT_GENL_VERSION.
 * Documentation/netlink/syscall_lat.yaml is the full description, from
 * which tools/gen-netlink generates the part of this header between the
 * "generated" markers.  One attribute set per object, each numbered
 * from 1: a request of the lab names an experiment (enum
 * wsc_lat_experiment_attr), its answers are results
 * (wsc_lat_result_attr); the trace's requests and status are trace
 * attributes (wsc_lat_trace_attr), its rows are calls (wsc_lat_call_attr)
 * and tasks (wsc_lat_task_attr); a call row nests errnos
 * (wsc_lat_errno_attr), a result or a call row buckets
 * (wsc_lat_bucket_attr).  A request whose genlmsghdr.version is not
 * WSC_LAT_GENL_VERSION is refused with -EPROTO; Documentation/abi.md says
 * what 1.x may change (attributes appended to a set, new commands).
 *
 *   WSC_LAT_CMD_RUN          do    CAP_SYS_ADMIN
 *       in:  EXPERIMENT_NAME, EXPERIMENT_ITERATIONS (default
 *            WSC_LAT_DEFAULT_ITERATIONS), EXPERIMENT_CPU (repeated, one
 *            per role of the experiment; default the first online CPUs)
 *       out: a result message (below) once the run has finished.
 *       -EBUSY while another run is in progress; -ECANCELED if the caller
 *       is signalled (the run is stopped, nothing is kept; not -EINTR,
 *       which netlink_rcv_skb() would take for "a dump has started");
 *       -ESHUTDOWN if the module is being unloaded; -ENOENT for an
 *       unknown experiment; -EINVAL for a CPU out of range, offline,
 *       given twice or a wrong number of CPUs; -EPERM without
 *       CAP_SYS_ADMIN.
 *   WSC_LAT_CMD_GET_STATS    do    in: EXPERIMENT_NAME   out: a result message
 *                            dump  out: one result message per experiment
 *                                  that has a result
 *       -ENODATA (do) when the experiment has no result.
 *   WSC_LAT_CMD_GET_SAMPLES  dump  in: EXPERIMENT_NAME
 *       out: messages of RESULT_FIRST_INDEX and repeated RESULT_SAMPLE, in
 *       the order the samples were taken (role 0's first).
 *   WSC_LAT_CMD_GET_HIST     dump  in: EXPERIMENT_NAME
 *       out: messages of repeated RESULT_BUCKET, the non-empty log-linear
 *       buckets of each CPU.
 *   WSC_LAT_CMD_RESET        do    CAP_SYS_ADMIN   in: EXPERIMENT_NAME
 *       (optional; without it every result) - frees the results and raw
 *       samples.
 *
 * Every refusal carries an extended-ack message.  A refused dump (no such
 * experiment, no result: -ENODATA) reports its errno and message in the
 * NLMSG_DONE that ends it, because on 6.1 a dump's start has no extack.
 *
 * A result message carries RESULT_EXPERIMENT, ITERATIONS, CPU (repeated),
 * COUNT, ERRORS, WARMUP, the statistics of the raw samples in picoseconds
 * (integer arithmetic keeps three decimals of a nanosecond): MEAN_PS,
 * MEDIAN_PS, STDDEV_PS (sample standard deviation), MIN_PS, MAX_PS,
 * CI95_LO_PS and CI95_HI_PS (mean +- 1.96 standard errors), P50_PS,
 * P95_PS, P99_PS; TIMER_PS (median cost of a back-to-back ktime_get_ns()
 * pair measured on the same CPU in the same run), BLOCK_PS (per-operation
 * cost from blocks of BLOCK_OPS operations timed together; absent where
 * the experiment sleeps), RUN_ID and DURATION_NS.
 *
 * The trace: per-syscall latency histograms of a process tree, a cgroup
 * or the whole machine, from the raw_syscalls tracepoints
 * (Documentation/trace.md).  Up to WSC_TRACE_MAX traces exist at once,
 * each with its own target, filters and counts.  A trace belongs to the
 * netlink socket that started it: when that socket is closed the trace
 * is stopped and freed.  The other commands name a trace by TRACE_ID;
 * without it they mean the newest trace the socket started (STATUS,
 * FETCH and TASKS: or else the newest trace of all).  STOP and RESET of
 * another socket's trace need CAP_SYS_ADMIN.  Every trace command's
 * request is of the trace set (WSC_LAT_A_TRACE_*).
 *
 *   WSC_LAT_CMD_TRACE_START  do    CAP_SYS_ADMIN or CAP_PERFMON
 *       in:  exactly one target: TRACE_PID (a process, its threads and
 *            every descendant, followed through fork and clone),
 *            TRACE_CGROUP (a path on the cgroup v2 hierarchy as the
 *            caller's cgroup namespace sees it, e.g. "/system.slice";
 *            every task in it or below) or TRACE_ALL (every task); the
 *            caller's own process is never counted in a cgroup or
 *            machine-wide trace.  Filters, all optional: TRACE_CALL_SET
 *            (a bitmap, bit n of byte n / 8 for number n, at most
 *            WSC_TRACE_NR_MAX bits: count only those calls; numbers past
 *            the kernel's last call are ignored), TRACE_FAILED
 *            (count only calls that return -4095..-1), TRACE_ERRNO (count
 *            only calls that return -TRACE_ERRNO).  TRACE_EVENTS
 *            (u32, optional): record an event per counted call, at most
 *            this many per CPU between two drains (TRACE_EVENTS below);
 *            0 or absent records none.
 *       out: a status message of the new trace (its TRACE_ID).
 *       -EBUSY while WSC_TRACE_MAX traces exist, or while this socket's
 *       previous trace is active; -ESRCH for no such process (or one
 *       that is exiting); -ENOENT/-ENOTDIR for a bad cgroup path;
 *       -EINVAL for two targets, none, a kernel thread, or a call set
 *       with none of the kernel's calls; -ERANGE for an errno out of
 *       range (1..WSC_TRACE_ERRNO_MAX) or TRACE_EVENTS over
 *       WSC_TRACE_EVENTS_MAX.  Starting drops
 *       this socket's previous trace.  While a trace is active the module
 *       cannot be unloaded.
 *   WSC_LAT_CMD_TRACE_STOP   do    CAP_SYS_ADMIN or CAP_PERFMON
 *       Detaches; the counts stay until the next start, a reset or the
 *       owner's close.  A trace that has already ended is left as it is;
 *       -ENOENT when there is no such trace; -EPERM for another socket's
 *       without CAP_SYS_ADMIN.
 *   WSC_LAT_CMD_TRACE_STATUS do    out: one status message: TRACE_STATE,
 *       and unless idle TRACE_ID, TRACE_PID, TRACE_CGROUP or TRACE_ALL,
 *       TRACE_END, TRACE_DURATION_NS (so far, while active), TRACE_TASKS,
 *       TRACE_LIVE, TRACE_TASK_SLOTS, TRACE_HIST_SLOTS, the TRACE_LOST_*,
 *       TRACE_FOREIGN, TRACE_UNMATCHED, TRACE_UNFINISHED and
 *       TRACE_FILTERED counts, and the filters it was started with;
 *       for a trace that records events, TRACE_EVENTS and
 *       TRACE_LOST_EVENTS.
 *   WSC_LAT_CMD_TRACE_FETCH  dump  out: per system call that was seen, a
 *       call row: CALL_NR, CALL_COUNT, CALL_ERRORS, CALL_TOTAL_NS,
 *       CALL_OFF_NS, CALL_MAX_NS, CALL_WRAPPED, CALL_ERRNOs (ERRNO_VALUE,
 *       ERRNO_COUNT) and CALL_BUCKETs (BUCKET_LOW_NS, HIGH_NS, COUNT: the
 *       non-empty log-linear buckets, every CPU merged, no CPU
 *       attribute); a call with more buckets than fit goes on in messages
 *       of CALL_NR and CALL_BUCKETs only.  -ENODATA (in NLMSG_DONE) when
 *       there is no trace.  While the trace is active the figures are a
 *       live snapshot.
 *   WSC_LAT_CMD_TRACE_TASKS  dump  CAP_SYS_ADMIN or CAP_PERFMON
 *       out: per task the trace followed, in the order they joined, a
 *       task record: TASK_TID, TASK_TGID, TASK_PPID (pids in the
 *       starter's pid namespace), TASK_COMM, TASK_CALLS, TASK_ERRORS,
 *       TASK_TOTAL_NS and TASK_OFF_NS.
 *   WSC_LAT_CMD_TRACE_RESET  do    CAP_SYS_ADMIN or CAP_PERFMON
 *       Frees the counts; -EBUSY while the trace is active; -EPERM for
 *       another socket's without CAP_SYS_ADMIN.
 *   WSC_LAT_CMD_TRACE_EVENTS dump  CAP_SYS_ADMIN or CAP_PERFMON, the
 *       trace's own socket only (-EPERM)
 *       Drains the events of a trace started with TRACE_EVENTS (the
 *       capacity of each CPU's ring, 1..WSC_TRACE_EVENTS_MAX): messages
 *       of TRACE_EVENT_ARRAY, an array of struct wsc_trace_event (below)
 *       from one CPU in the order the calls exited, then a message of
 *       TRACE_LOST_EVENTS, the events dropped since the start because a
 *       ring was full.  Draining consumes.  -ENODATA (in NLMSG_DONE)
 *       when the socket has no trace or its trace records no events.
 */

/**
 * struct wsc_trace_event - one counted system call of a trace that
 * records events (WSC_LAT_CMD_TRACE_EVENTS)
 * @enter_ns: its entry, ns since the trace started (ktime_get_ns()); for
 *            the ioctl of a wsc batch (WSC_TRACE_EVENT_BATCH) exact
 *            unless the calls it ran took over 2^32 ns in all, and then
 *            later than the entry by the excess
 * @exit_ns:  its exit, same clock and origin
 * @ret:      its result
 * @args:     its six argument registers, read at its exit
 * @tid:      its thread, in the pid namespace of the trace's starter
 * @nr:       its x86-64 number
 * @flags:    WSC_TRACE_EVENT_* flags
 *
 * Only the calls the trace counts (those its filters let through, 64-bit)
 * make events.  One CPU's events come in the order the calls exited;
 * across CPUs in no order: sort by (@tid, @enter_ns).
 */
struct wsc_trace_event {
	__u64 enter_ns;
	__u64 exit_ns;
	__s64 ret;
	__u64 args[6];
	__u32 tid;
	__u16 nr;
	__u16 flags;
};

/* struct wsc_trace_event.flags */
#define WSC_TRACE_EVENT_WRAPPED	(1u << 0)	/* run by a wsc batch, inside its ioctl */
#define WSC_TRACE_EVENT_BATCH	(1u << 1)	/* the ioctl of a wsc batch itself */

/* Generated by tools/gen-netlink from Documentation/netlink/syscall_lat.yaml: do not edit. */
#define WSC_LAT_GENL_NAME		"syscall_lat"
#define WSC_LAT_GENL_VERSION		2

/* Longest experiment name, without the terminating NUL. */
#define WSC_LAT_NAME_MAX		31
/* Iterations of a RUN without an iterations attribute. */
#define WSC_LAT_DEFAULT_ITERATIONS	1000000
#define WSC_LAT_MAX_ITERATIONS		10000000
#define WSC_LAT_MAX_ROLES		2	/* CPUs an experiment uses at most. */
/* Longest cgroup path of a trace, without the terminating NUL. */
#define WSC_TRACE_CGROUP_MAX		4095
#define WSC_TRACE_MAX			8	/* Traces that can exist at once. */
#define WSC_TRACE_NR_MAX		1024	/* Bits of a trace's call-set. */
#define WSC_TRACE_ERRNO_MAX		4095	/* Largest errno a system call returns. */
/* Most events a trace records per CPU between two drains. */
#define WSC_TRACE_EVENTS_MAX		262144

/* What a trace is doing (its state). */
enum wsc_trace_state {
	WSC_TRACE_IDLE = 0,
	WSC_TRACE_ACTIVE = 1,
	WSC_TRACE_ENDED = 2,
};

/* How a trace ended (its end): none while active, stopped, or every traced task exited. */
enum wsc_trace_end {
	WSC_TRACE_END_NONE = 0,
	WSC_TRACE_END_STOPPED = 1,
	WSC_TRACE_END_EXITED = 2,
};

enum wsc_lat_cmd {
	WSC_LAT_CMD_UNSPEC,
	WSC_LAT_CMD_RUN,
	WSC_LAT_CMD_GET_STATS,
	WSC_LAT_CMD_GET_SAMPLES,
	WSC_LAT_CMD_GET_HIST,
	WSC_LAT_CMD_RESET,
	WSC_LAT_CMD_TRACE_START,
	WSC_LAT_CMD_TRACE_STOP,
	WSC_LAT_CMD_TRACE_STATUS,
	WSC_LAT_CMD_TRACE_FETCH,
	WSC_LAT_CMD_TRACE_RESET,
	WSC_LAT_CMD_TRACE_TASKS,
	WSC_LAT_CMD_TRACE_EVENTS,

	__WSC_LAT_CMD_MAX,
	WSC_LAT_CMD_MAX = __WSC_LAT_CMD_MAX - 1
};

/* What the lab's requests name: an experiment, and for RUN how to run it. */
enum wsc_lat_experiment_attr {
	WSC_LAT_A_EXPERIMENT_UNSPEC,
	WSC_LAT_A_EXPERIMENT_NAME,		/* string */
	WSC_LAT_A_EXPERIMENT_ITERATIONS,	/* u32 */
	WSC_LAT_A_EXPERIMENT_CPU,		/* u32, repeated */

	__WSC_LAT_A_EXPERIMENT_MAX,
	WSC_LAT_A_EXPERIMENT_MAX = __WSC_LAT_A_EXPERIMENT_MAX - 1
};

/*
 * The result of an experiment's last run: what ran (experiment, iterations,
 * cpu), its statistics (RUN and GET_STATS), its raw samples (GET_SAMPLES)
 * or its histogram buckets (GET_HIST).
 */
enum wsc_lat_result_attr {
	WSC_LAT_A_RESULT_UNSPEC,
	WSC_LAT_A_RESULT_PAD,			/* pad */
	WSC_LAT_A_RESULT_EXPERIMENT,		/* string */
	WSC_LAT_A_RESULT_ITERATIONS,		/* u32 */
	WSC_LAT_A_RESULT_CPU,			/* u32, repeated */
	WSC_LAT_A_RESULT_COUNT,			/* u64 */
	WSC_LAT_A_RESULT_ERRORS,		/* u64 */
	WSC_LAT_A_RESULT_WARMUP,		/* u32 */
	WSC_LAT_A_RESULT_MEAN_PS,		/* u64 */
	WSC_LAT_A_RESULT_MEDIAN_PS,		/* u64 */
	WSC_LAT_A_RESULT_STDDEV_PS,		/* u64 */
	WSC_LAT_A_RESULT_MIN_PS,		/* u64 */
	WSC_LAT_A_RESULT_MAX_PS,		/* u64 */
	WSC_LAT_A_RESULT_CI95_LO_PS,		/* u64 */
	WSC_LAT_A_RESULT_CI95_HI_PS,		/* u64 */
	WSC_LAT_A_RESULT_P50_PS,		/* u64 */
	WSC_LAT_A_RESULT_P95_PS,		/* u64 */
	WSC_LAT_A_RESULT_P99_PS,		/* u64 */
	WSC_LAT_A_RESULT_TIMER_PS,		/* u64 */
	WSC_LAT_A_RESULT_BLOCK_PS,		/* u64 */
	WSC_LAT_A_RESULT_BLOCK_OPS,		/* u32 */
	WSC_LAT_A_RESULT_RUN_ID,		/* u64 */
	WSC_LAT_A_RESULT_DURATION_NS,		/* u64 */
	WSC_LAT_A_RESULT_FIRST_INDEX,		/* u64 */
	WSC_LAT_A_RESULT_SAMPLE,		/* u64, repeated */
	WSC_LAT_A_RESULT_BUCKET,		/* nest of wsc_lat_bucket_attr, repeated */

	__WSC_LAT_A_RESULT_MAX,
	WSC_LAT_A_RESULT_MAX = __WSC_LAT_A_RESULT_MAX - 1
};

/*
 * A trace: what trace-start asks for (a target, filters), what the other
 * trace commands name it by (id), and its status.
 */
enum wsc_lat_trace_attr {
	WSC_LAT_A_TRACE_UNSPEC,
	WSC_LAT_A_TRACE_PAD,			/* pad */
	WSC_LAT_A_TRACE_ID,			/* u64 */
	WSC_LAT_A_TRACE_PID,			/* u32 */
	WSC_LAT_A_TRACE_CGROUP,			/* string */
	WSC_LAT_A_TRACE_ALL,			/* flag */
	WSC_LAT_A_TRACE_CALL_SET,		/* binary */
	WSC_LAT_A_TRACE_FAILED,			/* flag */
	WSC_LAT_A_TRACE_ERRNO,			/* u32 */
	WSC_LAT_A_TRACE_STATE,			/* u32: enum wsc_trace_state */
	WSC_LAT_A_TRACE_END,			/* u32: enum wsc_trace_end */
	WSC_LAT_A_TRACE_DURATION_NS,		/* u64 */
	WSC_LAT_A_TRACE_TASKS,			/* u64 */
	WSC_LAT_A_TRACE_LIVE,			/* u32 */
	WSC_LAT_A_TRACE_TASK_SLOTS,		/* u32 */
	WSC_LAT_A_TRACE_HIST_SLOTS,		/* u32 */
	WSC_LAT_A_TRACE_LOST_TASKS,		/* u64 */
	WSC_LAT_A_TRACE_LOST_CALLS,		/* u64 */
	WSC_LAT_A_TRACE_LOST_EXITS,		/* u64 */
	WSC_LAT_A_TRACE_LOST_HIST,		/* u64 */
	WSC_LAT_A_TRACE_LOST_ERRNOS,		/* u64 */
	WSC_LAT_A_TRACE_LOST_RECORDS,		/* u64 */
	WSC_LAT_A_TRACE_FOREIGN,		/* u64 */
	WSC_LAT_A_TRACE_UNMATCHED,		/* u64 */
	WSC_LAT_A_TRACE_UNFINISHED,		/* u64 */
	WSC_LAT_A_TRACE_FILTERED,		/* u64 */
	WSC_LAT_A_TRACE_EVENTS,			/* u32 */
	WSC_LAT_A_TRACE_LOST_EVENTS,		/* u64 */
	WSC_LAT_A_TRACE_EVENT_ARRAY,		/* binary */
	WSC_LAT_A_TRACE_RING,			/* flag */
	WSC_LAT_A_TRACE_RING_LOST,		/* u64 */
	WSC_LAT_A_TRACE_RING_PENDING,		/* u64 */

	__WSC_LAT_A_TRACE_MAX,
	WSC_LAT_A_TRACE_MAX = __WSC_LAT_A_TRACE_MAX - 1
};

/* One system call's row of a trace (trace-fetch). */
enum wsc_lat_call_attr {
	WSC_LAT_A_CALL_UNSPEC,
	WSC_LAT_A_CALL_PAD,			/* pad */
	WSC_LAT_A_CALL_NR,			/* u32 */
	WSC_LAT_A_CALL_COUNT,			/* u64 */
	WSC_LAT_A_CALL_ERRORS,			/* u64 */
	WSC_LAT_A_CALL_TOTAL_NS,		/* u64 */
	WSC_LAT_A_CALL_OFF_NS,			/* u64 */
	WSC_LAT_A_CALL_MAX_NS,			/* u64 */
	WSC_LAT_A_CALL_WRAPPED,			/* u64 */
	WSC_LAT_A_CALL_ERRNO,			/* nest of wsc_lat_errno_attr, repeated */
	WSC_LAT_A_CALL_BUCKET,			/* nest of wsc_lat_bucket_attr, repeated */
	WSC_LAT_A_CALL_RING_OP,			/* u32 */

	__WSC_LAT_A_CALL_MAX,
	WSC_LAT_A_CALL_MAX = __WSC_LAT_A_CALL_MAX - 1
};

/* One task a trace followed (trace-tasks). */
enum wsc_lat_task_attr {
	WSC_LAT_A_TASK_UNSPEC,
	WSC_LAT_A_TASK_PAD,			/* pad */
	WSC_LAT_A_TASK_TID,			/* u32 */
	WSC_LAT_A_TASK_TGID,			/* u32 */
	WSC_LAT_A_TASK_PPID,			/* u32 */
	WSC_LAT_A_TASK_COMM,			/* string */
	WSC_LAT_A_TASK_CALLS,			/* u64 */
	WSC_LAT_A_TASK_ERRORS,			/* u64 */
	WSC_LAT_A_TASK_TOTAL_NS,		/* u64 */
	WSC_LAT_A_TASK_OFF_NS,			/* u64 */

	__WSC_LAT_A_TASK_MAX,
	WSC_LAT_A_TASK_MAX = __WSC_LAT_A_TASK_MAX - 1
};

/* One errno's count in a call row. */
enum wsc_lat_errno_attr {
	WSC_LAT_A_ERRNO_UNSPEC,
	WSC_LAT_A_ERRNO_PAD,			/* pad */
	WSC_LAT_A_ERRNO_VALUE,			/* u32 */
	WSC_LAT_A_ERRNO_COUNT,			/* u64 */

	__WSC_LAT_A_ERRNO_MAX,
	WSC_LAT_A_ERRNO_MAX = __WSC_LAT_A_ERRNO_MAX - 1
};

/* One non-empty bucket of a log-linear histogram (include/wsc_hist.h). */
enum wsc_lat_bucket_attr {
	WSC_LAT_A_BUCKET_UNSPEC,
	WSC_LAT_A_BUCKET_PAD,			/* pad */
	WSC_LAT_A_BUCKET_CPU,			/* u32 */
	WSC_LAT_A_BUCKET_LOW_NS,		/* u64 */
	WSC_LAT_A_BUCKET_HIGH_NS,		/* u64 */
	WSC_LAT_A_BUCKET_COUNT,			/* u64 */

	__WSC_LAT_A_BUCKET_MAX,
	WSC_LAT_A_BUCKET_MAX = __WSC_LAT_A_BUCKET_MAX - 1
};
/* End of the generated part. */

#endif /* _UAPI_LINUX_WSC_H */
