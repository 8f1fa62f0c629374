/* SPDX-License-Identifier: MIT */
/*
 * libwsc: batches of system calls in one kernel entry through /dev/wsc.
 *
 *	struct wsc_batch *b;
 *	int src, dst, rd;
 *
 *	wsc_batch_create(&b, WSC_BATCH_FALLBACK);
 *	src = wsc_prep_openat(b, AT_FDCWD, "in", O_RDONLY, 0);
 *	dst = wsc_prep_openat(b, AT_FDCWD, "out", O_WRONLY | O_CREAT, 0644);
 *	rd = wsc_prep_read(b, 0, buf, sizeof(buf));
 *	wsc_entry_ref(b, rd, 0, src);			// fd = src's result
 *	...
 *	wsc_batch_submit(b);				// one kernel entry
 *	wsc_batch_result(b, rd);			// bytes read
 *
 * Entries are numbered from 0 since the batch was created or last reset;
 * every wsc_prep_*() returns the new entry's number or -errno.  Every
 * other function returns 0 (or a count) on success and -errno on failure.
 * A batch is not thread-safe: give each thread its own.
 */
#ifndef LIBWSC_H
#define LIBWSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/wsc.h>
#include "wsc_summary_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct wsc_batch;
struct iovec;
struct msghdr;
struct pollfd;
struct sockaddr;
struct stat;
struct statx;
struct timespec;

/* wsc_batch_create() flags */
enum wsc_batch_flags {
	/* Time every call: wsc_batch_duration() then has the duration. */
	WSC_BATCH_TIMING	= 1u << 0,
	/* Without /dev/wsc, run the calls conventionally instead of failing. */
	WSC_BATCH_FALLBACK	= 1u << 1,
	/* Always run conventionally (the baseline of a comparison). */
	WSC_BATCH_CONVENTIONAL	= 1u << 2,
	/* Collect mode from the start, at WSC_DEFAULT_THRESHOLD. */
	WSC_BATCH_COLLECT	= 1u << 3,
	/* Submissions below the break-even run as plain calls (1.1). */
	WSC_BATCH_BREAK_EVEN	= 1u << 4,
};

/* Default collect-mode threshold: the WSC paper flushed at 8 calls. */
#define WSC_DEFAULT_THRESHOLD	8

int wsc_batch_create(struct wsc_batch **bp, unsigned int flags);
void wsc_batch_destroy(struct wsc_batch *b);

/* True when calls go to /dev/wsc, false when they run conventionally. */
bool wsc_batch_is_native(const struct wsc_batch *b);

/*
 * Collect mode: with a threshold T > 0, the batch submits its T pending
 * entries by itself when the next entry is queued (the WSC paper's
 * mechanism, which flushed at 8); wsc_batch_submit() flushes the rest.
 * Results of collected entries are there once they have been submitted.
 * 0 (the default without WSC_BATCH_COLLECT) submits only when asked.
 */
int wsc_batch_set_threshold(struct wsc_batch *b, unsigned int threshold);

/*
 * WSC_BATCH_BREAK_EVEN: a submission of fewer entries than the break-even
 * runs as plain calls (as where the module refuses, the same results),
 * a larger one through /dev/wsc, so that a program may batch everywhere.
 * The break-even is this machine's, from the calibration that
 * `wsc trace --advise` stores (wsc_break_even()), unless
 * wsc_batch_set_break_even() gives one: 0 always wraps,
 * WSC_BREAK_EVEN_NEVER never does.  Without either the flag changes
 * nothing.  wsc_batch_set_break_even() is -EINVAL without the flag.
 */
int wsc_batch_set_break_even(struct wsc_batch *b, unsigned int n);
/*
 * The calibrated break-even, read once per process ($WSC_CALIBRATION, or
 * the stored calibration of this kernel); 0 when there is none,
 * WSC_BREAK_EVEN_NEVER when no batch up to 1024 calls pays.
 */
unsigned int wsc_break_even(void);
#define WSC_BREAK_EVEN_NEVER	0xffffffffu

/*
 * Run every pending entry.  Resumes by itself after a signal, so that on
 * success every pending entry has a result.  Returns the number of
 * entries run, or -errno when the kernel refused the batch (nothing of it
 * ran; wsc_batch_error_index() names the entry at fault).
 */
int wsc_batch_submit(struct wsc_batch *b);

/* Forget every entry and result; numbering starts again at 0. */
void wsc_batch_reset(struct wsc_batch *b);

/* Entries queued since creation or reset, and how many have a result. */
unsigned int wsc_batch_count(const struct wsc_batch *b);
unsigned int wsc_batch_completed(const struct wsc_batch *b);

/* Entry at fault in the last refused submission, or WSC_NO_INDEX. */
unsigned int wsc_batch_error_index(const struct wsc_batch *b);

/*
 * How many times submissions entered the kernel through /dev/wsc (one
 * WSC_IOC_SUBMIT ioctl each, a refused one included); 0 when every call
 * ran plain, each its own system call: wsc_batch_conventional_calls().
 */
unsigned long wsc_batch_kernel_entries(const struct wsc_batch *b);

/*
 * Where an observer follows system calls one by one (a seccomp filter,
 * audit, a tracer, syscall user dispatch) or the administrator has
 * not let this user run them wrapped, the module refuses the batch and
 * libwsc runs it as plain system calls, from where the module stopped,
 * with the same results.  Always: no flag is needed.
 *
 * wsc_batch_refused(): the enum wsc_refusal reasons the module gave the
 * last time it refused this batch's calls, 0 if it never did.
 * wsc_batch_conventional_calls(): how many entries ran as plain system
 * calls, refused, without /dev/wsc (WSC_BATCH_FALLBACK) or by choice
 * (WSC_BATCH_CONVENTIONAL).
 */
unsigned int wsc_batch_refused(const struct wsc_batch *b);
unsigned long wsc_batch_conventional_calls(const struct wsc_batch *b);
/* "disabled", "seccomp", "audit", "ptrace", "user-dispatch", "tracepoint". */
const char *wsc_refusal_name(unsigned int reason);

/*
 * The result of an entry: the call's return value, -ECANCELED when its
 * chain stopped before it, or -EAGAIN while it has not run yet.
 */
int64_t wsc_batch_result(const struct wsc_batch *b, unsigned int entry);
/* Its duration in ns with WSC_BATCH_TIMING, else 0. */
uint64_t wsc_batch_duration(const struct wsc_batch *b, unsigned int entry);

/* Queue a call by number; the wsc_prep_*() below are typed forms of it. */
int wsc_prep_syscall(struct wsc_batch *b, unsigned int nr,
		     const uint64_t args[WSC_MAX_ARGS]);
/* The no-op: runs no handler and returns @value (0, or -errno to fail). */
int wsc_prep_nop(struct wsc_batch *b, int64_t value);

/* Argument @arg of @entry becomes the result of the earlier @source. */
int wsc_entry_ref(struct wsc_batch *b, int entry, unsigned int arg,
		  int source);
/* Set WSC_ENTRY_* flags (IGNORE_FAILURE, NEW_CHAIN) on an entry. */
int wsc_entry_set_flags(struct wsc_batch *b, int entry, unsigned int flags);

/* One typed wsc_prep_*() per allowlisted call, arguments as in libc. */
int wsc_prep_read(struct wsc_batch *b, int fd, void *buf, size_t count);
int wsc_prep_write(struct wsc_batch *b, int fd, const void *buf,
		   size_t count);
int wsc_prep_pread64(struct wsc_batch *b, int fd, void *buf, size_t count,
		     off_t offset);
int wsc_prep_pwrite64(struct wsc_batch *b, int fd, const void *buf,
		      size_t count, off_t offset);
int wsc_prep_readv(struct wsc_batch *b, int fd, const struct iovec *iov,
		   int iovcnt);
int wsc_prep_writev(struct wsc_batch *b, int fd, const struct iovec *iov,
		    int iovcnt);
int wsc_prep_open(struct wsc_batch *b, const char *path, int flags,
		  mode_t mode);
int wsc_prep_openat(struct wsc_batch *b, int dirfd, const char *path,
		    int flags, mode_t mode);
int wsc_prep_close(struct wsc_batch *b, int fd);
int wsc_prep_lseek(struct wsc_batch *b, int fd, off_t offset, int whence);
int wsc_prep_fstat(struct wsc_batch *b, int fd, struct stat *st);
int wsc_prep_newfstatat(struct wsc_batch *b, int dirfd, const char *path,
			struct stat *st, int flags);
int wsc_prep_statx(struct wsc_batch *b, int dirfd, const char *path,
		   int flags, unsigned int mask, struct statx *stx);
int wsc_prep_access(struct wsc_batch *b, const char *path, int mode);
int wsc_prep_faccessat(struct wsc_batch *b, int dirfd, const char *path,
		       int mode);
int wsc_prep_dup(struct wsc_batch *b, int fd);
int wsc_prep_dup2(struct wsc_batch *b, int oldfd, int newfd);
int wsc_prep_dup3(struct wsc_batch *b, int oldfd, int newfd, int flags);
int wsc_prep_fcntl(struct wsc_batch *b, int fd, int cmd, unsigned long arg);
int wsc_prep_getdents64(struct wsc_batch *b, int fd, void *dirp,
			size_t count);
int wsc_prep_fsync(struct wsc_batch *b, int fd);
int wsc_prep_fdatasync(struct wsc_batch *b, int fd);
int wsc_prep_unlink(struct wsc_batch *b, const char *path);
int wsc_prep_unlinkat(struct wsc_batch *b, int dirfd, const char *path,
		      int flags);
int wsc_prep_mkdir(struct wsc_batch *b, const char *path, mode_t mode);
int wsc_prep_mkdirat(struct wsc_batch *b, int dirfd, const char *path,
		     mode_t mode);
int wsc_prep_rename(struct wsc_batch *b, const char *oldpath,
		    const char *newpath);
int wsc_prep_renameat(struct wsc_batch *b, int olddirfd, const char *oldpath,
		      int newdirfd, const char *newpath);
int wsc_prep_brk(struct wsc_batch *b, void *addr);
int wsc_prep_mmap(struct wsc_batch *b, void *addr, size_t length, int prot,
		  int flags, int fd, off_t offset);
int wsc_prep_munmap(struct wsc_batch *b, void *addr, size_t length);
int wsc_prep_mprotect(struct wsc_batch *b, void *addr, size_t length,
		      int prot);
int wsc_prep_madvise(struct wsc_batch *b, void *addr, size_t length,
		     int advice);
/* The kernel's sigaction ABI: struct kernel_sigaction, sigsetsize 8. */
int wsc_prep_rt_sigaction(struct wsc_batch *b, int sig, const void *act,
			  void *oldact, size_t sigsetsize);
int wsc_prep_rt_sigprocmask(struct wsc_batch *b, int how, const void *set,
			    void *oldset, size_t sigsetsize);
int wsc_prep_pipe2(struct wsc_batch *b, int fds[2], int flags);
int wsc_prep_sendto(struct wsc_batch *b, int fd, const void *buf, size_t len,
		    int flags, const struct sockaddr *to, unsigned int tolen);
int wsc_prep_recvfrom(struct wsc_batch *b, int fd, void *buf, size_t len,
		      int flags, struct sockaddr *from, unsigned int *fromlen);
int wsc_prep_sendmsg(struct wsc_batch *b, int fd, const struct msghdr *msg,
		     int flags);
int wsc_prep_recvmsg(struct wsc_batch *b, int fd, struct msghdr *msg,
		     int flags);
int wsc_prep_poll(struct wsc_batch *b, struct pollfd *fds, unsigned int nfds,
		  int timeout);
int wsc_prep_ppoll(struct wsc_batch *b, struct pollfd *fds, unsigned int nfds,
		   const struct timespec *timeout, const void *sigmask,
		   size_t sigsetsize);
int wsc_prep_futex(struct wsc_batch *b, uint32_t *uaddr, int op,
		   uint32_t val, const struct timespec *timeout,
		   uint32_t *uaddr2, uint32_t val3);
int wsc_prep_getpid(struct wsc_batch *b);
int wsc_prep_getppid(struct wsc_batch *b);
int wsc_prep_gettid(struct wsc_batch *b);
int wsc_prep_nanosleep(struct wsc_batch *b, const struct timespec *req,
		       struct timespec *rem);

/* The device itself. */

/* Open /dev/wsc (or $WSC_DEVICE); returns an fd or -errno. */
int wsc_device_open(void);
int wsc_device_version(int fd, struct wsc_version *v);
/* Why the calling thread's batches would be refused now; the switch. */
int wsc_device_policy(int fd, struct wsc_policy *p);
/* Row @index of the loaded module's allowlist; -ENOENT past the end. */
int wsc_device_call_info(int fd, unsigned int index,
			 struct wsc_call_info *info);

/* The allowlist this library was built with (what the fallback runs). */
bool wsc_call_allowed(unsigned int nr);
/* Name of an allowlisted call ("nop" for WSC_NR_NOP), or NULL. */
const char *wsc_call_name(unsigned int nr);
/* Number of a call by name, or -ENOENT. */
int wsc_call_number(const char *name);
/* "memory", "signal", "ipc", "file", "userdata", "locking", "other". */
const char *wsc_group_name(unsigned int group);

/* Statistics every command shares. */

/* Sort ascending, in place. */
void wsc_stats_sort(double *v, size_t n);
/* Quantile @q (0..1) of sorted data, interpolating between closest ranks. */
double wsc_stats_quantile_sorted(const double *v, size_t n, double q);
/* Median; sorts @v in place.  NAN for no data. */
double wsc_stats_median(double *v, size_t n);
/* Least squares y = intercept + slope * x; -EINVAL for n < 2, -EDOM when
 * every x is equal. */
int wsc_stats_fit_line(const double *x, const double *y, size_t n,
		       double *intercept, double *slope);

/*
 * Summarise raw samples in nanoseconds: sorts @samples in place, then
 * computes struct wsc_summary (wsc_summary_types.h) with the code the
 * module runs, so that both sides give the same digits.  Returns 0, or
 * -EINVAL.
 */
int wsc_stats_summary(uint64_t *samples, size_t n, struct wsc_summary *out);

/*
 * The latency lab: the module's experiments (wsc_experiments.h), run and
 * read back over the generic netlink family "syscall_lat".  A struct
 * wsc_lat is a connection to that family for the lab's commands; the
 * trace's commands take their own handle, struct wsc_trace (below).
 *
 *	struct wsc_lat *lat;
 *	struct wsc_lat_stats st;
 *
 *	wsc_lat_open(&lat);			// -ENOENT: wsc.ko not loaded
 *	wsc_lat_run(lat, "spinlock", 100000, NULL, 0, &st);
 *	printf("%s\n", wsc_lat_error(lat));	// the kernel's reason, if any
 *	wsc_lat_close(lat);
 *
 * A handle is not thread-safe: give each thread its own.  Running and
 * resetting need CAP_SYS_ADMIN (-EPERM otherwise).
 */
struct wsc_lat;

/**
 * struct wsc_lat_stats - one experiment's result
 * @experiment:  its name
 * @iterations:  samples asked for (@sum.count + @errors when complete)
 * @warmup:      iterations each CPU ran and discarded first
 * @nr_cpus:     CPUs of the run, one per role, in @cpu
 * @block_ops:   operations per timed block; 0 when no block estimate
 * @run_id:      the run's number since the module was loaded
 * @duration_ns: wall time of the run
 * @errors:      samples refused (negative)
 * @timer_ps:    median cost of a back-to-back ktime_get_ns() pair
 * @block_ps:    per-operation cost from timed blocks; 0 when absent
 * @sum:         statistics of the raw samples, in picoseconds
 */
struct wsc_lat_stats {
	char experiment[WSC_LAT_NAME_MAX + 1];
	uint32_t iterations;
	uint32_t warmup;
	uint32_t nr_cpus;
	uint32_t cpu[WSC_LAT_MAX_ROLES];
	uint32_t block_ops;
	uint64_t run_id;
	uint64_t duration_ns;
	uint64_t errors;
	uint64_t timer_ps;
	uint64_t block_ps;
	struct wsc_summary sum;
};

/* Connect; -ENOENT when the family is missing (wsc.ko not loaded). */
int wsc_lat_open(struct wsc_lat **out);
void wsc_lat_close(struct wsc_lat *lat);

/*
 * Why the last request failed, in the kernel's words (its extended ack)
 * or the library's; "" when there is nothing to say.
 */
const char *wsc_lat_error(const struct wsc_lat *lat);

/*
 * Run @experiment and wait for it (seconds to minutes).  @iterations 0
 * asks for the kernel's default; @cpus gives one CPU per role, or none
 * (@nr_cpus 0) for the first online CPUs.  -EBUSY while another run is in
 * progress; -ECANCELED when a signal to the caller stopped it (nothing is
 * kept); -EINVAL for CPUs that do not fit the experiment.
 */
int wsc_lat_run(struct wsc_lat *lat, const char *experiment,
		uint32_t iterations, const uint32_t *cpus,
		unsigned int nr_cpus, struct wsc_lat_stats *out);

/* The last result of @experiment; -ENODATA when it has none. */
int wsc_lat_stats_get(struct wsc_lat *lat, const char *experiment,
		      struct wsc_lat_stats *out);

/*
 * Call @fn for every raw sample of @experiment's last result, in the
 * order taken, index 0, 1, ...; returns how many, or -errno (-EPROTO if
 * the kernel's messages skipped an index).  A non-zero return from @fn
 * stops the calls: negative is returned as is, positive as -ECANCELED.
 */
int wsc_lat_samples(struct wsc_lat *lat, const char *experiment,
		    int (*fn)(void *ctx, uint64_t index, uint64_t ns),
		    void *ctx);

/*
 * Call @fn for every non-empty histogram bucket of @experiment's last
 * result (wsc_hist.h), per CPU; returns how many, or -errno, as above.
 */
int wsc_lat_hist(struct wsc_lat *lat, const char *experiment,
		 int (*fn)(void *ctx, uint32_t cpu, uint64_t low_ns,
			   uint64_t high_ns, uint64_t count),
		 void *ctx);

/* Forget @experiment's result, or every result when it is NULL. */
int wsc_lat_reset(struct wsc_lat *lat, const char *experiment);

/*
 * The trace: per-syscall latency histograms of a process tree or a
 * cgroup, counted in the kernel (Documentation/trace.md), over the same
 * generic netlink family as the lab but through a handle of its own.
 *
 *	struct wsc_trace *tr;
 *
 *	wsc_trace_open(&tr);			// -ENOENT: wsc.ko not loaded
 *	wsc_trace_start(tr, pid, NULL);		// or (tr, 0, "/my.slice")
 *	...					// the workload runs
 *	wsc_trace_stop(tr);
 *	wsc_trace_fetch(tr, fn, ctx);		// one call per system call
 *	printf("%s\n", wsc_trace_error(tr));	// the kernel's reason, if any
 *	wsc_trace_close(tr);
 *
 * A handle is not thread-safe: give each thread its own.  Starting,
 * stopping, fetching and resetting need CAP_SYS_ADMIN or CAP_PERFMON.
 */
struct wsc_trace;

/**
 * struct wsc_trace_status - what the trace is and what it lost
 * @state:       enum wsc_trace_state (WSC_TRACE_IDLE: nothing else is set)
 * @end:         enum wsc_trace_end
 * @id:          the trace's number since the module was loaded
 * @pid:         the target process, or 0
 * @cgroup:      the target cgroup's path, or ""
 * @duration_ns: from the start to the end, or to now while active
 * @tasks:       tasks followed since the start
 * @live:        tasks followed now
 * @task_slots:  tasks the kernel can follow at once
 * @hist_slots:  histograms per CPU (distinct calls per CPU)
 * @lost_tasks:  tasks of the tree not followed: no free slot
 * @lost_calls:  calls of a cgroup's tasks not counted: no free slot
 * @lost_exits:  calls whose exit was never seen
 * @lost_hist:   calls counted but in no histogram
 * @foreign:     32-bit or unknown calls, not counted
 * @unmatched:   exits of calls entered before the start
 * @unfinished:  calls in progress when the trace ended
 * @all:         the trace follows every task of the machine (but its
 *               starter's process): no @pid, no @cgroup
 * @failed:      only failed calls are counted
 * @err:         only calls failing with this errno are counted, or 0
 * @filtered:    calls seen but left out by the trace's filters
 * @lost_errnos: failed calls counted, but in no per-errno count
 * @lost_records: tasks followed, but with no per-task record
 */
struct wsc_trace_status {
	uint32_t state;
	uint32_t end;
	uint64_t id;
	uint32_t pid;
	char cgroup[WSC_TRACE_CGROUP_MAX + 1];
	uint64_t duration_ns;
	uint64_t tasks;
	uint32_t live;
	uint32_t task_slots;
	uint32_t hist_slots;
	uint64_t lost_tasks;
	uint64_t lost_calls;
	uint64_t lost_exits;
	uint64_t lost_hist;
	uint64_t foreign;
	uint64_t unmatched;
	uint64_t unfinished;
	bool all;
	bool failed;
	uint32_t err;
	uint64_t filtered;
	uint64_t lost_errnos;
	uint64_t lost_records;
};

/**
 * struct wsc_trace_call - one system call of a trace
 * @nr:         its x86-64 number
 * @calls:      calls finished
 * @errors:     of them, failed (returned -4095..-1)
 * @total_ns:   summed latency, entry to exit; for the ioctl(2) of a wsc
 *              batch, its own time: the calls it ran count in their own
 *              rows (@wrapped), not again here
 * @max_ns:     the longest
 * @nr_buckets: non-empty log-linear buckets (wsc_hist.h), ascending
 * @buckets:    @nr_buckets triples {low_ns, high_ns, count}; valid during
 *              the callback only
 * @off_ns:     of @total_ns, the time its task spent off the CPU (blocked
 *              or waiting for a CPU) inside these calls; the rest,
 *              @total_ns - @off_ns, is on-CPU time
 * @nr_errnos:  distinct errnos in @errnos
 * @errnos:     @nr_errnos pairs {errno, count}, ascending; valid during
 *              the callback only
 * @wrapped:    of @calls, those a wsc batch ran (0 from a module that
 *              does not say)
 * @ring:       (1.1) the row is not a system call's but the io_uring
 *              requests of opcode @op (wsc_trace_set_ring()): @calls
 *              requests completed, @errors of them with a negative
 *              result, latency from submission to completion, all of it
 *              @off_ns (time in flight, not CPU time of the task); @nr
 *              is then WSC_TRACE_NR_MAX + @op, so that rows stay
 *              distinct and in order by @nr, ring rows last
 * @op:         (1.1) with @ring, the opcode (IORING_OP_*); else 0
 */
struct wsc_trace_call {
	uint32_t nr;
	uint64_t calls;
	uint64_t errors;
	uint64_t total_ns;
	uint64_t max_ns;
	size_t nr_buckets;
	const uint64_t (*buckets)[3];
	uint64_t off_ns;
	size_t nr_errnos;
	const uint64_t (*errnos)[2];
	uint64_t wrapped;
	bool ring;
	uint32_t op;
};

/**
 * struct wsc_trace_spec - what a trace follows and counts
 * @pid:     a process and its descendants, or 0
 * @cgroup:  a cgroup v2 path (as for wsc_trace_start()), or NULL
 * @all:     every task of the machine but the caller's process; exactly
 *           one of @pid, @cgroup and @all
 * @calls:   a bitmap of WSC_TRACE_NR_MAX bits (bit n: word n / 64, bit
 *           n % 64): only these system calls are counted; NULL for all
 * @failed:  count only calls that fail
 * @err:     count only calls that fail with this errno (1..4095), or 0
 */
struct wsc_trace_spec {
	uint32_t pid;
	const char *cgroup;
	bool all;
	const uint64_t *calls;
	bool failed;
	uint32_t err;
};

/**
 * struct wsc_trace_task - one task a trace followed
 * @tid:      its thread id, in the starter's pid namespace
 * @pid:      its process (thread group) id
 * @ppid:     its parent process when it joined the trace
 * @comm:     its command name (after its last execve)
 * @calls:    its calls counted
 * @errors:   of them, failed
 * @total_ns: their summed latency
 * @off_ns:   of it, off the CPU
 */
struct wsc_trace_task {
	uint32_t tid;
	uint32_t pid;
	uint32_t ppid;
	char comm[16];
	uint64_t calls;
	uint64_t errors;
	uint64_t total_ns;
	uint64_t off_ns;
};

/* Connect; -ENOENT when the family is missing (wsc.ko not loaded). */
int wsc_trace_open(struct wsc_trace **out);
void wsc_trace_close(struct wsc_trace *tr);

/*
 * Why the last request failed, in the kernel's words (its extended ack)
 * or the library's; "" when there is nothing to say.
 */
const char *wsc_trace_error(const struct wsc_trace *tr);

/*
 * Start tracing process @pid and its descendants, or cgroup @cgroup
 * (a path below the cgroup v2 root as the caller sees it, e.g.
 * "/system.slice"; pass @pid 0).  -EBUSY while a trace is active;
 * -ESRCH, -ENOENT, -ENOTDIR, -EINVAL for a bad target.
 */
int wsc_trace_start(struct wsc_trace *tr, uint32_t pid, const char *cgroup);
/*
 * Start a trace of @spec's target with its filters.  The handle's later
 * commands are about this trace; it is stopped and freed at
 * wsc_trace_close().  Up to WSC_TRACE_MAX traces run at once (-EBUSY
 * beyond); -EINVAL for a bad spec, with wsc_trace_error() saying why.
 */
int wsc_trace_begin(struct wsc_trace *tr, const struct wsc_trace_spec *spec);
/* Detach, keeping the counts; 0 too when it had ended by itself. */
int wsc_trace_stop(struct wsc_trace *tr);
/* What the trace is and what it lost; open to every user. */
int wsc_trace_status(struct wsc_trace *tr, struct wsc_trace_status *out);
/*
 * Call @fn once per system call the trace saw, in number order; returns
 * how many, or -errno (-ENODATA: no trace).  A non-zero return from @fn
 * stops the calls, as in wsc_lat_samples().
 */
int wsc_trace_fetch(struct wsc_trace *tr,
		    int (*fn)(void *ctx, const struct wsc_trace_call *call),
		    void *ctx);
/*
 * Call @fn once per task the trace followed, in the order they joined;
 * returns how many, or -errno.  Tasks beyond the kernel's records are
 * counted in wsc_trace_status()'s lost_records.
 */
int wsc_trace_tasks(struct wsc_trace *tr,
		    int (*fn)(void *ctx, const struct wsc_trace_task *task),
		    void *ctx);
/* Free the counts; -EBUSY while the trace is active. */
int wsc_trace_reset(struct wsc_trace *tr);
/*
 * (1.1) Count the io_uring requests of the traced tasks too, in the
 * traces this handle starts from now on: each request under its opcode,
 * from submission to completion, fetched as rows with @ring set
 * (struct wsc_trace_call).  Off by default, so that a 1.0 caller never
 * meets such a row.  A start then fails with -EOPNOTSUPP on a kernel
 * without io_uring's tracepoints.
 */
int wsc_trace_set_ring(struct wsc_trace *tr, bool on);
/*
 * (1.1) Ask the trace's status: 1 if it counts io_uring requests, with
 * *@lost the requests it could not count and *@pending those whose
 * completion it has not seen (yet); 0 if it does not count them (both
 * 0); -errno.  Either pointer may be NULL.
 */
int wsc_trace_ring_counts(struct wsc_trace *tr, uint64_t *lost,
			  uint64_t *pending);
/* (1.1) io_uring opcode @op's name without IORING_OP_ ("READ"), or NULL. */
const char *wsc_ring_op_name(uint32_t op);

/*
 * Events (1.1): one struct wsc_trace_event (include/uapi/linux/wsc.h) per
 * counted call, for the order of each thread's calls, the gaps between
 * them, their arguments and results.
 *
 * Before starting: record events, @per_cpu at most per CPU between two
 * drains (1..WSC_TRACE_EVENTS_MAX); 0 turns recording off (the default).
 * Applies to the next start on this handle.  -EINVAL when too many.
 */
int wsc_trace_set_events(struct wsc_trace *tr, uint32_t per_cpu);
/*
 * Drain the events recorded so far (while the trace runs or after it
 * stopped, until it is reset): @fn gets them in arrays of @n, valid
 * during the call only, in no order across CPUs (sort by tid, then
 * enter_ns).  @lost (may be NULL) gets the events dropped since the
 * start because a ring was full.  Returns the events drained, or -errno
 * (-ENODATA: the trace records none; -EPERM: another handle's trace).
 * A non-zero return from @fn stops: negative is returned as is,
 * positive as -ECANCELED; the rest of that drain is discarded.
 */
int wsc_trace_events(struct wsc_trace *tr,
		     int (*fn)(void *ctx, const struct wsc_trace_event *ev,
			       size_t n),
		     void *ctx, uint64_t *lost);

/* The library's version, e.g. "1.0.0". */
const char *wsc_version(void);

#ifdef __cplusplus
}
#endif

#endif /* LIBWSC_H */
