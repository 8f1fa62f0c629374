/* SPDX-License-Identifier: MIT */
/*
 * wsc diff inside: two reports read (diff_load.c), their rows matched
 * and judged against the thresholds (diff_match.c, diff_threshold.c),
 * then said as a table (diff_table.c) or as JSON (diff_json.c).
 *
 * A trace report's rows are its system calls, keyed by name; a bench
 * report's are its variants, keyed by "CALL VARIANT".  Every figure is
 * kept as a double: a trace's are whole nanoseconds and counts, a
 * bench's nanoseconds with decimals.
 */
#ifndef WSC_CLI_DIFF_H
#define WSC_CLI_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum diff_kind { DIFF_TRACE, DIFF_BENCH };

/*
 * The figures of a row.  A bench variant has no on/off split: its
 * DIFF_V_CALLS is its samples, DIFF_V_ERRORS the samples it refused,
 * DIFF_V_WALL its median (the same as its p50).
 */
enum diff_value {
	DIFF_V_CALLS, DIFF_V_ERRORS, DIFF_V_WALL, DIFF_V_ON, DIFF_V_OFF,
	DIFF_V_P50, DIFF_V_P99, DIFF_NR_VALUES
};

/* What a threshold limits; "time" is the time --time names. */
enum diff_metric {
	DIFF_M_CALLS, DIFF_M_ERRORS, DIFF_M_TIME, DIFF_M_P50, DIFF_M_P99,
	DIFF_NR_METRICS
};

struct diff_errno {
	char name[24];
	double count;
};

/**
 * struct diff_row - one system call, or one bench variant, of one report
 * @name:      the key the two reports' rows are matched by
 * @v:         its figures, enum diff_value
 * @has_pct:   p50 and p99 are known (a trace's total has none)
 * @errnos:    its errors by errno name (a trace's)
 */
struct diff_row {
	char name[64];
	double v[DIFF_NR_VALUES];
	bool has_pct;
	struct diff_errno *errnos;
	size_t nr_errnos;
};

/* What a report says it was measured on: diff_report.ctx. */
enum {
	DIFF_CTX_TARGET, DIFF_CTX_FILTER, DIFF_CTX_RUN, DIFF_CTX_KERNEL,
	DIFF_CTX_VERSION, DIFF_CTX_CPU, DIFF_CTX_EMULATION, DIFF_CTX_TIME,
	DIFF_CTX_DATE, DIFF_NR_CTX
};
/* "target", "filter", "run", "kernel", "wsc", "cpu", "emulation", "time", "date". */
extern const char *const diff_ctx_names[DIFF_NR_CTX];

/**
 * struct diff_report - what wsc diff reads of one file
 * @path:        as given (a bench's may be a folder of wsc bench --all)
 * @kind:        trace or bench
 * @rows:        its rows, @nr_rows of them
 * @total:       a trace's totals (calls, errors, times; no percentiles)
 * @time:        a trace's --time: "cpu", "wall" or "off"
 * @ctx:         what it was measured on, each a string or "" when the
 *               report does not say
 * @lost:        events the kernel could not count (a trace's "lost")
 * @left_out:    rows --top left out of it, and their calls
 * @interrupted: a bench run cut short
 */
struct diff_report {
	const char *path;
	enum diff_kind kind;
	struct diff_row *rows;
	size_t nr_rows;
	struct diff_row total;
	char time[8];
	char ctx[DIFF_NR_CTX][128];
	double lost;
	double left_out, calls_left_out;
	bool interrupted;
};

/*
 * Read @path ("-": standard input) into @r, zeroed: 0, or -1 with the
 * reason in @why (a sentence without the file's name).
 */
int diff_load(struct diff_report *r, const char *path, char *why, size_t len);
/* Parse one report from @text, as diff_load() does from a file. */
int diff_load_text(struct diff_report *r, const char *text, char *why,
		   size_t len);
void diff_report_free(struct diff_report *r);

/**
 * struct diff_limit - one threshold: a metric may grow by at most this
 * @metric:   what it limits
 * @relative: @value is a percentage of the base's figure; else an amount
 *            (calls, errors, or nanoseconds)
 * @value:    the limit
 */
struct diff_limit {
	enum diff_metric metric;
	bool relative;
	double value;
};

#define DIFF_MAX_LIMITS	32

/**
 * struct diff_thresholds - the limits in force
 * @lim:   the limits, @n of them; several of one metric must all be
 *         passed for that metric to regress
 * @named: the command line named this metric: its defaults are gone
 */
struct diff_thresholds {
	struct diff_limit lim[DIFF_MAX_LIMITS];
	size_t n;
	bool named[DIFF_NR_METRICS];
};

/* "calls", "errors", "time", "p50", "p99". */
extern const char *const diff_metric_names[DIFF_NR_METRICS];

/*
 * One --threshold argument into @t: "METRIC=LIMIT[,METRIC=LIMIT...]" or
 * "none".  LIMIT is N% (of the base's figure), a count for calls and
 * errors, a time with its unit (ns, us, ms, s) for time, p50 and p99, or
 * "off".  0, or -1 with the mistake in @why.
 */
int diff_threshold_parse(struct diff_thresholds *t, const char *arg,
			 char *why, size_t len);
/* The defaults of @kind added for every metric the command line left alone. */
void diff_threshold_defaults(struct diff_thresholds *t, enum diff_kind kind);
/* "5%", "0", "2ms": @l's limit as the command line would give it. */
const char *diff_limit_text(char *buf, size_t len, const struct diff_limit *l);

/*
 * Whether growing from @base to @now passes every limit @t has for @m
 * (and it has one).
 */
bool diff_exceeds(const struct diff_thresholds *t, enum diff_metric m,
		  double base, double now);

/* Which side a matched row is on. */
enum diff_side { DIFF_BOTH, DIFF_ONLY_BASE, DIFF_ONLY_NEW };

/**
 * struct diff_pair - a row of the comparison
 * @base, @now: the two reports' rows; an absent one is all zero
 * @side:       where the row was found
 * @regressed:  bit (1 << enum diff_metric) for each metric past its limits
 * @unchanged:  every figure and errno count equal
 * @impact:     what the order sorts by: the change of the time compared
 */
struct diff_pair {
	const struct diff_row *base, *now;
	enum diff_side side;
	unsigned int regressed;
	bool unchanged;
	double impact;
};

/**
 * struct diff_result - two reports compared
 * @pairs:       every row of either report, in impact order, @nr of them
 * @total:       the totals (a trace's; a bench's is left zero)
 * @time_value:  the figure "time" compares (DIFF_V_ON, _WALL or _OFF)
 * @regressions: pairs with any metric past its limits, the total's counted
 * @unchanged:   pairs that did not change at all
 */
struct diff_result {
	struct diff_pair *pairs;
	size_t nr;
	struct diff_pair total;
	enum diff_value time_value;
	size_t regressions;
	size_t unchanged;
};

/* "cpu", "wall" or "off" to the figure it compares; -1 for anything else. */
int diff_time_value(const char *time);

/*
 * Match @base's and @now's rows by name, judge each (and the totals)
 * against @t, and order them: the regressions first, then by the size of
 * the change of the time compared, then of the calls, then by name.
 * 0, or -1 when out of memory.
 */
int diff_compare(struct diff_result *res, const struct diff_report *base,
		 const struct diff_report *now, const struct diff_thresholds *t,
		 enum diff_value time_value);
void diff_result_free(struct diff_result *res);

/* A pair's figure on each side, and the change. */
double diff_change(const struct diff_pair *p, enum diff_value v);
/* The change as a percentage of the base; infinite from 0, NaN for 0 to 0. */
double diff_change_pct(const struct diff_pair *p, enum diff_value v);
/* @row's count of errno @name, 0 when it has none. */
double diff_errno_count(const struct diff_row *row, const char *name);
/* The @k-th errno of either side of @p, each once (the base's first); NULL past the last. */
const char *diff_pair_errno(const struct diff_pair *p, size_t k);
/* The figure metric @m compares. */
enum diff_value diff_metric_value(enum diff_metric m, enum diff_value time_value);

/* The figures of a duration in ns in at most 6 characters: "566us", "1.14s". */
const char *diff_ns_text(char *buf, size_t len, double ns);

/*
 * The context that differs between the reports (the date always does,
 * and is left out): the DIFF_CTX_* of each into @which, at most @nr;
 * returns how many.
 */
size_t diff_context(const struct diff_report *base, const struct diff_report *now,
		    unsigned int *which, size_t nr);

/**
 * struct diff_view - how the comparison is said
 * @top:         at most this many changed rows in the table (0: all)
 * @thresholds:  in force
 */
struct diff_view {
	size_t top;
	const struct diff_thresholds *thresholds;
};

void diff_print_table(FILE *f, const struct diff_report *base,
		      const struct diff_report *now, const struct diff_result *res,
		      const struct diff_view *view);
void diff_print_json(FILE *f, const struct diff_report *base,
		     const struct diff_report *now, const struct diff_result *res,
		     const struct diff_view *view);

#endif /* WSC_CLI_DIFF_H */
