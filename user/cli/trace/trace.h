/* SPDX-License-Identifier: MIT */
/*
 * wsc trace: per-syscall latency histograms of a process tree or a cgroup,
 * counted by wsc.ko (Documentation/trace.md).
 *
 *   cmd_trace.c    options, starting the target, waiting, fetching
 *   trace_names.c  system call numbers, names (as strace and the
 *                  headers spell them) and paper 001's groups
 *   trace_stats.c  mean and percentiles from the log-linear buckets,
 *                  sorting
 *   trace_out.c    the table, the ASCII histograms, JSON and CSV
 */
#ifndef WSC_CLI_TRACE_H
#define WSC_CLI_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libwsc.h"

/* One non-empty log-linear bucket: [low_ns, high_ns] held count calls. */
struct trace_bucket {
	uint64_t low_ns;
	uint64_t high_ns;
	uint64_t count;
};

/**
 * struct trace_row - one system call of the report
 * @nr:         x86-64 number
 * @name:       "read", "newfstatat", ...; "syscall_N" when unknown
 * @group:      paper 001's group: "memory", "signal", "ipc", "file",
 *              "user data", "locking" or "other"
 * @calls:      calls finished
 * @errors:     of them, failed
 * @total_ns:   summed latency
 * @max_ns:     longest (exact)
 * @mean_ns:    @total_ns / @calls (exact, rounded down)
 * @p50_ns:     from the buckets: within a bucket's width (<= 3%)
 * @p99_ns:     likewise
 * @buckets:    ascending, non-empty (malloc'd)
 * @nr_buckets: entries in @buckets
 * @hist_calls: calls in the buckets; below @calls only when the kernel's
 *              histogram pool ran out (status lost_hist)
 */
struct trace_row {
	uint32_t nr;
	char name[32];
	const char *group;
	uint64_t calls;
	uint64_t errors;
	uint64_t total_ns;
	uint64_t max_ns;
	uint64_t mean_ns;
	uint64_t p50_ns;
	uint64_t p99_ns;
	struct trace_bucket *buckets;
	size_t nr_buckets;
	uint64_t hist_calls;
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
 * @has_exit:    a command was run: @exit_status is its wait status
 * @exit_status: as from waitpid()
 */
struct trace_report {
	struct wsc_trace_status status;
	char target[256];
	struct trace_row *rows;
	size_t nr_rows;
	uint64_t total_ns;
	uint64_t total_calls;
	uint64_t total_errors;
	bool has_exit;
	int exit_status;
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
/* Paper 001's group of @name (see struct trace_row); "other" if none. */
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
/* Largest first for figures, alphabetical for name, ascending for nr. */
void trace_sort_rows(struct trace_report *r, enum trace_sort key);
void trace_report_free(struct trace_report *r);

/* trace_out.c */
/* The header (target, duration, tasks, lost, ...) and the table; with
 * @hist an ASCII power-of-two histogram under each row. */
void trace_print_table(FILE *f, const struct trace_report *r, bool hist);
void trace_print_json(FILE *f, const struct trace_report *r);
void trace_print_csv(FILE *f, const struct trace_report *r);

#endif /* WSC_CLI_TRACE_H */
