/* SPDX-License-Identifier: MIT */
/*
 * The wsc command: shared declarations of its subcommands.
 */
#ifndef WSC_CLI_H
#define WSC_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>

#include "wsc_summary.h"

/* Exit codes: 0 success, 1 the work failed, 2 the command line was wrong. */
#define EXIT_USAGE	2

struct wsc_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_klat(int argc, char **argv);
int cmd_cp(int argc, char **argv);
int cmd_ls(int argc, char **argv);
int cmd_trace(int argc, char **argv);
/* wsc bench fit: the fixed and per-call costs of a batch (bench_fit.c) */
int bench_fit(int argc, char **argv);

/* args.c: strict parsing; each prints what is wrong and returns -1. */
int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
	      uint64_t *out);
int parse_cpu(const char *opt, const char *s, int *cpu);
/* "A[,B...]": at most @max CPUs, each in range (not checked online). */
int parse_cpu_list(const char *opt, const char *s, int *cpus,
		   unsigned int max, unsigned int *n);
/* A CPU that sysfs reports offline (CPU 0 often has no "online" file). */
bool cpu_offline(int cpu);
void usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* env.c: what a result was measured on (METHOD.md, rule 7). */
void env_print_json(FILE *f);

/* The whole command line, for the environment record. */
extern int cli_argc;
extern char **cli_argv;
void env_print_text(FILE *f);
bool env_perf_counters_available(void);
bool env_preempt_rt(void);
/* What the lab's spinlock experiments measure on a PREEMPT_RT kernel. */
#define ENV_RT_SPINLOCK_NOTE \
	"PREEMPT_RT: spinlock_t sleeps; the lab's spinlock experiments take it with interrupts on, and a contended sample includes the sleep"

/* Pin the calling thread to one CPU. */
int pin_to_cpu(int cpu);

/**
 * struct csv_out - a --csv file being written (csv.c)
 * @f:    the open FILE.tmp, or NULL
 * @path: FILE
 * @tmp:  FILE.tmp
 *
 * csv_open() refuses an empty name, a directory, a path too long or an
 * unwritable one with a usage error (returns EXIT_USAGE); csv_commit()
 * renames FILE.tmp to FILE unless @failed (or closing fails) and returns
 * 0 or 1; csv_abort() removes FILE.tmp.  Both are no-ops without a file.
 */
struct csv_out {
	FILE *f;
	const char *path;
	char tmp[4096];
};

int csv_open(struct csv_out *c, const char *cmd, const char *path);
int csv_commit(struct csv_out *c, const char *cmd, int failed);
void csv_abort(struct csv_out *c);

/* Values in ps printed as ns with three decimals, exactly. */
#define PS_FMT		"%" PRIu64 ".%03" PRIu64
#define PS_ARG(ps)	(uint64_t)(ps) / 1000, (uint64_t)(ps) % 1000

/* @a - @b, or 0 when @b is larger. */
uint64_t sub_floor(uint64_t a, uint64_t b);

/**
 * struct report_row - one row of a statistics table (report.c)
 * @label:  first column ("raw", "wrapped-8 net", ...)
 * @sum:    the figures, in picoseconds
 * @off_ps: taken off every location figure (the clock's cost on a net
 *          row), floored at 0; the spread is left as it is
 * @extra:  the optional last column's text
 */
struct report_row {
	const char *label;
	const struct wsc_summary *sum;
	uint64_t off_ps;
	const char *extra;
};

#define REPORT_NR_COLS	10
#define REPORT_CELL	48

/* The table every measuring command prints: count, mean ... p99, in ns. */
void report_table(FILE *f, const char *label_col, const struct report_row *rows,
		  unsigned int n, const char *extra_col);
/* The same figures as JSON keys, "mean_ns" through "net_p99_ns". */
void report_json_figures(FILE *f, const struct wsc_summary *s,
			 uint64_t timer_ps);

/* Print a JSON string with the escapes it needs. */
void json_string(FILE *f, const char *s);

#endif /* WSC_CLI_H */
