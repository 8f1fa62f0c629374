/* SPDX-License-Identifier: MIT */
/*
 * wsc trace: per-syscall latency histograms of a process tree or a cgroup,
 * counted by wsc.ko (Documentation/trace.md).
 *
 *   cmd_trace.c    the command, whose files trace_cmd.h lists: options,
 *                  the command spawned, the trace's life, fetching,
 *                  where the report goes
 *   trace_names.c  system call numbers, names (as strace and the
 *                  headers spell them) and the Nature of System Calls
 *                  paper's groups (Documentation/papers.md)
 *   trace_stats.c  mean and percentiles from the log-linear buckets,
 *                  sorting
 *   trace_view.c   what every writer says alike: states, losses,
 *                  shares, the rows shown, errno names, times
 *   trace_header.c the report's head: target, end, losses, filters
 *   trace_table.c  the table, the ASCII histograms, groups, errnos
 *   trace_tasks.c  the table per process or thread (--by)
 *   trace_json.c   the report as JSON (json-c), whole or per interval
 *   trace_csv.c    the rows and the tasks as CSV
 *   trace_filter.c what -e, --errno and the durations on the command
 *                  line mean
 *   trace_interval.c  one interval's figures from two fetches (--interval)
 */
#ifndef WSC_CLI_TRACE_H
#define WSC_CLI_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libwsc.h"

struct advise_report;

/* Words of a system call bitmap (WSC_TRACE_NR_MAX bits). */
#define TRACE_CALL_WORDS	(WSC_TRACE_NR_MAX / 64)

/* One non-empty log-linear bucket: [low_ns, high_ns] held count calls. */
struct trace_bucket {
	uint64_t low_ns;
	uint64_t high_ns;
	uint64_t count;
};

/* How often a system call failed with one errno. */
struct trace_errno {
	uint32_t err;
	uint64_t count;
};

/* What the "time" and "share" columns and the default sort mean. */
enum trace_time {
	TRACE_TIME_CPU,		/* default: on the CPU inside the calls */
	TRACE_TIME_WALL,	/* entry to exit */
	TRACE_TIME_OFF,		/* off the CPU: blocked or waiting */
};

/* Why wsc ended a trace that had not ended by itself. */
enum trace_stop {
	TRACE_STOP_NONE,	/* it ended by itself, or is still running */
	TRACE_STOP_SIGNAL,	/* a signal to wsc (Ctrl-C) */
	TRACE_STOP_DURATION,	/* --duration passed */
};

/* The breakdown per task after the system calls (--by). */
enum trace_by {
	TRACE_BY_NONE,
	TRACE_BY_PROCESS,
	TRACE_BY_THREAD,
};

/**
 * struct trace_row - one system call of the report
 * @nr:         x86-64 number
 * @name:       "read", "newfstatat", ...; "syscall_N" when unknown
 * @group:      the Nature of System Calls paper's group (Documentation/
 *              papers.md): "memory", "signal", "ipc", "file", "userdata",
 *              "locking" or "other", as wsc info spells them
 * @calls:      calls finished
 * @errors:     of them, failed
 * @wrapped:    of them, run by a wsc batch (each counted once, here; the
 *              batch's ioctl(2) counts its own time only)
 * @total_ns:   summed latency (wall clock: entry to exit; a batch's
 *              ioctl: its own time, without the calls it ran)
 * @off_ns:     of it, off the CPU (blocked or waiting for a CPU); the
 *              rest is on-CPU time
 * @max_ns:     longest (exact, unless @max_bound)
 * @max_bound:  @max_ns is an upper bound (an interval's, see
 *              trace_report_diff())
 * @mean_ns:    @total_ns / @calls (exact, rounded down)
 * @p50_ns:     from the buckets: within a bucket's width (<= 3%)
 * @p99_ns:     likewise
 * @buckets:    ascending, non-empty (malloc'd)
 * @nr_buckets: entries in @buckets
 * @hist_calls: calls in the buckets; below @calls only when the kernel's
 *              histogram pool ran out (status lost_hist)
 * @errnos:     {errno, count} of the failed calls, ascending (malloc'd)
 * @nr_errnos:  entries in @errnos
 * @ring:       the row is the io_uring requests of opcode @op (--ring),
 *              not a system call: @name "ring:READ", @group "io_uring",
 *              @nr WSC_TRACE_NR_MAX + @op (struct wsc_trace_call); its
 *              latency is submission to completion, all of it off-CPU;
 *              left out of the report's totals and groups, which stay
 *              the system calls'
 * @op:         with @ring, the opcode (IORING_OP_*)
 */
struct trace_row {
	uint32_t nr;
	char name[32];
	const char *group;
	uint64_t calls;
	uint64_t errors;
	uint64_t wrapped;
	uint64_t total_ns;
	uint64_t off_ns;
	uint64_t max_ns;
	bool max_bound;
	uint64_t mean_ns;
	uint64_t p50_ns;
	uint64_t p99_ns;
	struct trace_bucket *buckets;
	size_t nr_buckets;
	uint64_t hist_calls;
	struct trace_errno *errnos;
	size_t nr_errnos;
	bool ring;
	uint32_t op;
};

/**
 * struct trace_report - what one wsc trace run found
 * @status:      the kernel's status at the end
 * @target:      what was traced, for people: "pid 123",
 *               "cgroup /my.slice", "command: make -C proj"
 * @rows:        one per system call seen
 * @nr_rows:     entries in @rows
 * @total_ns:    sum of the rows' @total_ns (the denominator of "share")
 * @total_calls: sum of the rows' @calls
 * @total_errors: sum of the rows' @errors
 * @total_off_ns: sum of the rows' @off_ns
 * @total_wrapped: sum of the rows' @wrapped
 * @stop:        why wsc stopped the trace (the kernel says only "stopped")
 * @stop_signal: with TRACE_STOP_SIGNAL, the signal
 * @has_exit:    a command was run: @exit_status is its wait status
 * @exit_status: as from waitpid()
 * @filter:      the filters, for people ("" when none): "-e open,read"
 * @tasks:       the tasks followed, in join order (malloc'd)
 * @nr_tasks:    entries in @tasks
 * @time:        what "time" and "share" mean (--time)
 * @by:          the per-task table printed (--by)
 * @top:         rows shown in the table and the JSON; 0: all (--top)
 * @batching:    what batching would save (--advise), or NULL
 * @ring:        the trace counted io_uring requests (--ring)
 * @ring_lost:   with @ring, requests it could not count
 * @ring_pending: with @ring, requests whose completion it never saw
 */
struct trace_report {
	struct wsc_trace_status status;
	char target[256];
	struct trace_row *rows;
	size_t nr_rows;
	uint64_t total_ns;
	uint64_t total_calls;
	uint64_t total_errors;
	uint64_t total_off_ns;
	uint64_t total_wrapped;
	enum trace_stop stop;
	int stop_signal;
	bool has_exit;
	int exit_status;
	char filter[256];
	struct wsc_trace_task *tasks;
	size_t nr_tasks;
	enum trace_time time;
	enum trace_by by;
	size_t top;
	const struct advise_report *batching;
	bool ring;
	uint64_t ring_lost;
	uint64_t ring_pending;
};

enum trace_sort {
	TRACE_SORT_TOTAL,	/* default: where the time went */
	TRACE_SORT_CALLS,
	TRACE_SORT_ERRORS,
	TRACE_SORT_MEAN,
	TRACE_SORT_P50,
	TRACE_SORT_P99,
	TRACE_SORT_MAX,
	TRACE_SORT_NAME,
	TRACE_SORT_NR,
};

/* trace_names.c */
/* The name of system call @nr, or NULL when this build does not know it. */
const char *trace_syscall_name(uint32_t nr);
/* The number of @name, or -1. */
int trace_syscall_nr(const char *name);
/*
 * The Nature of System Calls paper's group of @name (see struct
 * trace_row); "other" if none.
 */
const char *trace_syscall_group(const char *name);

/* trace_stats.c */
/*
 * The value below which a fraction @q (0 < q <= 1) of the @n buckets'
 * counts lie: the bucket holding the ceil(q * total)-th call, reported
 * as its midpoint (clamped to @max_ns, which is exact).  0 when empty.
 */
uint64_t trace_quantile(const struct trace_bucket *b, size_t n, double q,
			uint64_t max_ns);
/* Fill @r's mean_ns, p50_ns, p99_ns and hist_calls from its fields. */
void trace_row_finish(struct trace_row *r);
/* Fill @r's totals from its rows. */
void trace_report_finish(struct trace_report *r);
/* "total", "calls", ... as in enum trace_sort; -1 for anything else. */
int trace_parse_sort(const char *s, enum trace_sort *out);
/* "cpu", "wall", "off"; -1 for anything else. */
int trace_parse_time(const char *s, enum trace_time *out);
const char *trace_time_name(enum trace_time t);
/* "process", "thread"; -1 for anything else. */
int trace_parse_by(const char *s, enum trace_by *out);
/* The time --time @t means, of a call's (or a task's) totals. */
uint64_t trace_time_of(enum trace_time t, uint64_t total_ns, uint64_t off_ns);
/*
 * Largest first for figures, alphabetical for name, ascending for nr;
 * "total" sorts by the time r->time means.
 */
void trace_sort_rows(struct trace_report *r, enum trace_sort key);
void trace_report_free(struct trace_report *r);

/* trace_view.c */
#define TRACE_TIME_LEN		16	/* "123.4us" and the like */
#define TRACE_TABLE_COLS	100	/* every line fits a terminal this wide */

/* What the kernel missed: the figures are too small by these. */
uint64_t trace_lost_events(const struct wsc_trace_status *s);
/* "idle", "active", "ended"; "none", "stopped", "target exited". */
const char *trace_state_name(uint32_t state);
const char *trace_end_name(uint32_t end);
/* "" for 1, "s" otherwise: "1 task", "2 tasks". */
const char *trace_plural(uint64_t n);
/* @part as a percentage of @whole, 0 when there is no whole. */
double trace_share_pct(uint64_t part, uint64_t whole);
/*
 * @ns for people, to 3 significant digits: "812ns", "12.3us", "4.56ms",
 * "1.23s" (TRACE_TIME_LEN bytes are enough).
 */
const char *trace_fmt_time(char *buf, size_t len, uint64_t ns);
/* "ENOENT", or "E123" for a number glibc has no name for. */
const char *trace_errno_name(char *buf, size_t len, uint32_t err);
/* The time --time means of @row, and of the whole report. */
uint64_t trace_row_time(const struct trace_report *r,
			const struct trace_row *row);
uint64_t trace_report_time(const struct trace_report *r);
/* @row's share of trace_report_time() in percent; 0 for a ring row. */
double trace_row_share(const struct trace_report *r,
		       const struct trace_row *row);
/* The rows shown: --top's first ones, or all. */
size_t trace_shown_rows(const struct trace_report *r);

/*
 * A line of items that wraps before TRACE_TABLE_COLS, its next lines
 * indented by @indent: the "not counted" figures, the groups, a call's
 * errnos.  trace_wrap_item() writes @sep (not before the first item),
 * then the item; on a new line when it would not fit.
 */
struct trace_wrap {
	FILE *f;
	int col;
	int indent;
	bool first;
};
void trace_wrap_begin(struct trace_wrap *w, FILE *f, const char *head,
		      int indent);
__attribute__((format(printf, 3, 4)))
void trace_wrap_item(struct trace_wrap *w, const char *sep, const char *fmt, ...);
void trace_wrap_end(struct trace_wrap *w);

/* trace_header.c: target, duration, end, tasks, losses, filters. */
void trace_print_header(FILE *f, const struct trace_report *r);
/*
 * trace_table.c: the header, the table (r->top rows), the errnos of the
 * failed calls and, with r->by, the tasks; with @hist an ASCII
 * power-of-two histogram under each row.
 */
void trace_print_table(FILE *f, const struct trace_report *r, bool hist);
/* trace_tasks.c: the table per process or thread, with r->by. */
void trace_print_tasks(FILE *f, const struct trace_report *r);
/**
 * struct trace_task_sum - one line of a --by table
 * @t:       the thread (--by thread), or the process's figures with its
 *           leader's (or first thread's) tid, ppid and comm
 * @threads: threads summed
 */
struct trace_task_sum {
	struct wsc_trace_task t;
	unsigned int threads;
};
/*
 * @r's tasks, per thread or summed per process (@by_process), in join
 * order: @n of them (malloc'd), or NULL.
 */
struct trace_task_sum *trace_sum_tasks(const struct trace_report *r,
				       bool by_process, size_t *n);

/* trace_json.c */
void trace_print_json(FILE *f, const struct trace_report *r);
/* The JSON of trace_print_json() on one line (JSON lines, --interval). */
void trace_print_json_line(FILE *f, const struct trace_report *r);

/* trace_csv.c: one line per row; one line per task (--csv-tasks). */
void trace_print_csv(FILE *f, const struct trace_report *r);
void trace_print_tasks_csv(FILE *f, const struct trace_report *r);

/**
 * struct trace_interval - where one interval lies in the trace
 * @k:       its number, from 1
 * @start_ns: its start, from the start of the trace
 * @end_ns:  its end
 * @last:    it ends at the final fetch, after the trace stopped
 */
struct trace_interval {
	unsigned int k;
	uint64_t start_ns;
	uint64_t end_ns;
	bool last;
};
/* trace_table.c: an interval's table (a short header, the rows, the total). */
void trace_print_interval(FILE *f, const struct trace_report *r,
			  const struct trace_interval *iv);
/* trace_json.c: an interval as one line: "interval", "start_s", ... */
void trace_print_interval_json(FILE *f, const struct trace_report *r,
			       const struct trace_interval *iv);

/* trace_filter.c */
/*
 * Add one -e LIST to the bitmap @calls (TRACE_CALL_WORDS words): names,
 * numbers, %groups, "all", comma-separated, after an optional "trace=";
 * a leading '!' adds every number the list does not name.  0, or -1 with
 * the first item not understood in @bad.
 */
int trace_parse_calls(const char *list, uint64_t *calls, char *bad,
		      size_t bad_len);
/*
 * The calls of the Nature of System Calls paper's group @name ("file",
 * "userdata", ...), or -1.
 */
int trace_group_calls(const char *name, uint64_t *calls);
/* "ENOENT" (any case) or 1..4095; 0 or -1. */
int trace_parse_errno(const char *s, uint32_t *err);
/*
 * Seconds, fractions allowed ("0.5", "2", "1e-3"), in [@min_s, @max_s],
 * to ns; NaN, infinities, signs, blanks and trailing junk are refused.
 * 0 or -1.
 */
int trace_parse_seconds(const char *s, double min_s, double max_s,
			uint64_t *ns);

/* trace_interval.c */
/*
 * @cur - @prev into @out (fresh rows, errnos and buckets, @cur's
 * status, target and views, no tasks): the calls, errors, times, errnos and
 * buckets that came in between, rows with no call left out.  A row's
 * max is exact when it grew, else an upper bound (max_bound): the top of
 * the highest bucket that grew.  0 or -ENOMEM.
 */
int trace_report_diff(const struct trace_report *cur,
		      const struct trace_report *prev,
		      struct trace_report *out);
/* @r's row of system call @nr, or NULL. */
const struct trace_row *trace_report_row(const struct trace_report *r,
					 uint32_t nr);
/* The count of @row's bucket that begins at @low_ns; 0 if none or no row. */
uint64_t trace_row_bucket(const struct trace_row *row, uint64_t low_ns);
/* The count of @row's errno @err; 0 if none or no row. */
uint64_t trace_row_errno(const struct trace_row *row, uint32_t err);
/* A deep copy of @r's rows (not its tasks).  0 or -ENOMEM. */
int trace_report_copy(const struct trace_report *r, struct trace_report *out);

#endif /* WSC_CLI_TRACE_H */
