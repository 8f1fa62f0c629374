/* SPDX-License-Identifier: MIT */
/*
 * The figures of a set of samples in one shape for every measuring
 * command: table columns and JSON keys (report.c).
 */
#ifndef WSC_CLI_REPORT_H
#define WSC_CLI_REPORT_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "wsc_summary.h"

struct json_object;

/* Values in ps printed as ns with three decimals, exactly. */
#define PS_FMT		"%" PRIu64 ".%03" PRIu64
#define PS_ARG(ps)	(uint64_t)(ps) / 1000, (uint64_t)(ps) % 1000

/* @a - @b, or 0 when @b is larger. */
uint64_t sub_floor(uint64_t a, uint64_t b);

/**
 * struct report_row - one row of a statistics table
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
/* The same figures as members of @o, "mean_ns" through "net_p99_ns". */
void report_put_figures(struct json_object *o, const struct wsc_summary *s,
			uint64_t timer_ps);

/*
 * The one ratio every command prints: the speedup of a variant over its
 * baseline, baseline time / variant time, so that above 1 is faster.  In
 * words, never a bare number: "2.10x faster", or for a speedup below 1
 * its inverse, "1.30x slower".  "n/a" when there is no ratio (no
 * baseline, no time).
 */
double speedup_of(double baseline, double time);
const char *speedup_words(char *buf, size_t len, double speedup);
/*
 * The same with the lowest and highest round's speedup after it, in the
 * same direction as the words: "2.10x faster [2.01-2.20]", "1.30x slower
 * [1.25-1.41]" (the slowdowns of the fastest and the slowest round).
 */
const char *speedup_words_spread(char *buf, size_t len, double speedup,
				 double lo, double hi);
/*
 * A speedup of all the samples with the rounds' after it, for a figure
 * that is not the median of the rounds' and so need not lie between
 * them (wsc bench's: the medians of every sample): "2.64x slower, rounds
 * 2.66-2.75", the range in the direction of the words as above.
 */
const char *speedup_words_rounds(char *buf, size_t len, double speedup,
				 double lo, double hi);

#endif /* WSC_CLI_REPORT_H */
