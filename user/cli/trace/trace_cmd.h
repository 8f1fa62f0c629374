/* SPDX-License-Identifier: MIT */
/*
 * wsc trace, the command (cmd_trace.c is its entry point): what its files
 * share.  One concern a file:
 *
 *   trace_args.c     the command line: options, usage, the target named
 *   trace_signals.c  SIGINT and SIGTERM: they end the trace
 *   trace_spawn.c    the command: found in PATH, started stopped until
 *                    the trace has begun, signals passed on, reaped
 *   trace_session.c  the trace's life: begun on the target, waited for,
 *                    stopped and read back
 *   trace_live.c     --interval: each interval's figures while tracing
 *   trace_fetch.c    the kernel's rows and tasks into a report
 *   trace_output.c   where the report goes (-o, --csv, --csv-tasks,
 *                    --openmetrics) and in which form
 *
 * The report itself (trace.h) knows nothing of these.
 */
#ifndef WSC_CLI_TRACE_CMD_H
#define WSC_CLI_TRACE_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "advise.h"
#include "common/csv.h"
#include "trace.h"

/* Longest --duration and --interval: a day; shortest: 1 ms and 10 ms. */
#define TRACE_MAX_SECONDS	86400
#define TRACE_MIN_DURATION	0.001
#define TRACE_MIN_INTERVAL	0.01

/* What the command line asked for (trace_args.c). */
struct trace_opts {
	uint32_t pid;
	const char *cgroup;
	bool all;
	char **cmd;
	uint64_t duration_ns;
	uint64_t interval_ns;
	uint64_t top;
	bool json;
	bool hist;
	bool cold;
	enum trace_sort sort;
	enum trace_time time;
	enum trace_by by;
	const char *out;
	const char *csv;
	const char *csv_tasks;
	const char *openmetrics;
	bool advise;			/* --advise */
	struct advise_opts advise_opts;	/* --gap, --recalibrate */
	bool have_calls;
	uint64_t calls[TRACE_CALL_WORDS];
	char calls_text[200];
	bool failed;
	uint32_t err;
	bool ring;
	const char *target_arg;		/* "-p 123", for messages */
	char target_buf[64];
};

/*
 * trace_args.c: parse the command line into @o; 0, or the exit code
 * (EXIT_USAGE) with the reason said.  -h prints the usage and exits.
 */
int trace_parse(int argc, char **argv, struct trace_opts *o);
/* The cgroup path as the kernel wants it: below the cgroup2 root. */
void trace_cgroup_path(const char *arg, char *out, size_t len);
/* What @o says about the report: its target, filter and views. */
void trace_describe(const struct trace_opts *o, const char *cgroup,
		    struct trace_report *r);

/* trace_signals.c: SIGINT and SIGTERM caught; the last one, or 0. */
void trace_catch_signals(void);
int trace_caught_signal(void);

/* trace_spawn.c */
/* @name as execvp() would find it, here; 0, or -1 said. */
int trace_resolve(const char *name, char *out, size_t len);
/* --cold: drop the page cache; 0, or -1 said. */
int trace_drop_caches(void);
/*
 * The command forked and stopped before its exec: its pid, with the
 * pipe its exec failure comes back on in @exec_err; -1 with errno, or
 * -2 when it died before (said).
 */
pid_t trace_spawn(const char *file, char **cmd, int *exec_err);
/* A signal caught by wsc goes on to @pid, once (@sent: the last sent). */
void trace_pass_signal(pid_t pid, int *sent);
/* The command's wait status, waiting out signals to wsc; 0 or -1. */
int trace_reap(pid_t pid, int *status);

/* trace_fetch.c: every call counted so far into @r, which has no rows. */
int trace_fetch_rows(struct wsc_trace *tr, struct trace_report *r);
/* Every task followed into @r, in join order. */
int trace_fetch_tasks(struct wsc_trace *tr, struct trace_report *r);

/**
 * struct trace_live - the intervals of --interval
 * @o:        the options
 * @f:        where they are printed
 * @prev:     the figures of the previous fetch (none at first)
 * @k:        intervals printed
 * @begin_ns: when the trace started (clock_now_ns())
 * @last_ns:  when the previous fetch was, from @begin_ns
 * @next_ns:  when the next one is due (clock_now_ns())
 * @events:   --advise: the events, drained every ADVISE_DRAIN_NS (NULL:
 *            none)
 * @drain_ns: when the next drain is due (clock_now_ns())
 * @om:       --openmetrics FILE, rewritten at each one (NULL: none)
 */
struct trace_live {
	const struct trace_opts *o;
	FILE *f;
	struct csv_out *om;
	struct trace_report prev;
	unsigned int k;
	uint64_t begin_ns;
	uint64_t last_ns;
	uint64_t next_ns;
	struct advise_events *events;
	uint64_t drain_ns;
};

/* trace_live.c */
/* The trace has begun: the first interval starts now. */
void trace_live_begin(struct trace_live *lv);
/*
 * Print the interval from the previous fetch to @cur (fetched at @end_ns
 * from the start); @cur becomes the previous unless @last.
 */
int trace_live_print(struct trace_live *lv, struct trace_report *cur,
		     uint64_t end_ns, bool last);
/* An interval is due: fetch the live figures and print what is new. */
int trace_live_tick(struct wsc_trace *tr, struct trace_live *lv,
		    uint64_t now);

/* trace_session.c: the trace's life; each 0, or -1 said. */
/*
 * Run the command under the trace (@spec gets its pid); fills @r and its
 * exit status.  127 when the command cannot be run.
 */
int trace_command(struct wsc_trace *tr, struct wsc_trace_spec *spec,
		  struct trace_live *lv, struct trace_report *r);
/* A process, a cgroup or the machine, until it ends or is stopped. */
int trace_target(struct wsc_trace *tr, struct wsc_trace_spec *spec,
		 struct trace_live *lv, struct trace_report *r,
		 const char *cgroup);
/* Stop (if still active), then read the status, every call and task. */
int trace_collect(struct wsc_trace *tr, struct trace_report *r);

/* trace_output.c */
/* Where the report goes: stderr, stdout (-o -) or a file (-o FILE). */
struct trace_sink {
	FILE *f;
	const char *path;	/* NULL: not a file of ours */
	bool created;		/* by us: removed when nothing is written */
};

/* -o FILE, -o - or stderr; a file is created now.  0, or -1 said. */
int trace_sink_open(struct trace_sink *s, const char *path);
/* Close; a file created for a report never written goes.  0 or -1. */
int trace_sink_close(struct trace_sink *s, bool written);
/* --csv FILE or --csv-tasks FILE (@opt): FILE.tmp now.  0, or -1 said. */
int trace_csv_open(struct csv_out *c, const char *opt, const char *path);
/* The report (after --interval's last interval), the CSV files. */
int trace_output(struct trace_live *lv, struct trace_report *r,
		 struct csv_out *csv, struct csv_out *csv_tasks);

#endif /* WSC_CLI_TRACE_CMD_H */
