// SPDX-License-Identifier: MIT
/*
 * The figures of a set of samples, in one shape for every command that
 * measures (wsc klat, wsc bench): the same columns in a table, the same
 * keys in JSON, each as raw and net of the clock's cost (a figure net of
 * the clock says what the measured code costs, a raw one what a program
 * pays; both are kept).  The figures themselves come from wsc_summary.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"

uint64_t sub_floor(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static const char *const report_cols[REPORT_NR_COLS] = {
	"count", "mean", "median", "stddev", "min", "max", "ci95 lo..hi",
	"p50", "p95", "p99",
};

/* One row's figures as strings, @off (the clock's cost) taken off. */
static void report_cells(const struct wsc_summary *s, uint64_t off,
			 char cell[REPORT_NR_COLS][REPORT_CELL])
{
	enum { COUNT, MEAN, MEDIAN, STDDEV, MIN, MAX, CI95, P50, P95, P99 };
	const uint64_t v[REPORT_NR_COLS] = {
		[MEAN] = sub_floor(s->mean_ps, off),
		[MEDIAN] = sub_floor(s->median_ps, off),
		[STDDEV] = s->stddev_ps,	/* a shift leaves the spread */
		[MIN] = sub_floor(s->min_ps, off),
		[MAX] = sub_floor(s->max_ps, off),
		[P50] = sub_floor(s->p50_ps, off),
		[P95] = sub_floor(s->p95_ps, off),
		[P99] = sub_floor(s->p99_ps, off),
	};
	unsigned int c;

	for (c = 0; c < REPORT_NR_COLS; c++)
		snprintf(cell[c], REPORT_CELL, PS_FMT, PS_ARG(v[c]));
	snprintf(cell[COUNT], REPORT_CELL, "%llu", (unsigned long long)s->count);
	snprintf(cell[CI95], REPORT_CELL, PS_FMT ".." PS_FMT,
		 PS_ARG(sub_floor(s->ci95_lo_ps, off)),
		 PS_ARG(sub_floor(s->ci95_hi_ps, off)));
}

void report_table(FILE *f, const char *label_col, const struct report_row *rows,
		  unsigned int n, const char *extra_col)
{
	char (*cell)[REPORT_NR_COLS][REPORT_CELL] = calloc(n, sizeof(*cell));
	size_t width[REPORT_NR_COLS], lw = strlen(label_col), ew = 0;
	unsigned int c, r;

	if (!cell) {
		fprintf(f, "# (no memory for the table)\n");
		return;
	}
	if (extra_col)
		ew = strlen(extra_col);
	for (r = 0; r < n; r++) {
		report_cells(rows[r].sum, rows[r].off_ps, cell[r]);
		if (strlen(rows[r].label) > lw)
			lw = strlen(rows[r].label);
		if (extra_col && strlen(rows[r].extra) > ew)
			ew = strlen(rows[r].extra);
	}
	for (c = 0; c < REPORT_NR_COLS; c++) {
		width[c] = strlen(report_cols[c]);
		for (r = 0; r < n; r++)
			if (strlen(cell[r][c]) > width[c])
				width[c] = strlen(cell[r][c]);
	}
	fprintf(f, "%-*s", (int)lw, label_col);
	for (c = 0; c < REPORT_NR_COLS; c++)
		fprintf(f, "  %*s", (int)width[c], report_cols[c]);
	if (extra_col)
		fprintf(f, "  %*s", (int)ew, extra_col);
	fprintf(f, "\n");
	for (r = 0; r < n; r++) {
		fprintf(f, "%-*s", (int)lw, rows[r].label);
		for (c = 0; c < REPORT_NR_COLS; c++)
			fprintf(f, "  %*s", (int)width[c], cell[r][c]);
		if (extra_col)
			fprintf(f, "  %*s", (int)ew, rows[r].extra);
		fprintf(f, "\n");
	}
	free(cell);
}

void report_put_figures(struct json_object *o, const struct wsc_summary *s,
			uint64_t timer_ps)
{
	struct json_object *ci95 = json_object_new_array();

	json_put(o, "mean_ns", json_new_ps_as_ns(s->mean_ps));
	json_put(o, "median_ns", json_new_ps_as_ns(s->median_ps));
	json_put(o, "stddev_ns", json_new_ps_as_ns(s->stddev_ps));
	json_put(o, "min_ns", json_new_ps_as_ns(s->min_ps));
	json_put(o, "max_ns", json_new_ps_as_ns(s->max_ps));
	json_object_array_add(ci95, json_new_ps_as_ns(s->ci95_lo_ps));
	json_object_array_add(ci95, json_new_ps_as_ns(s->ci95_hi_ps));
	json_put(o, "ci95_ns", ci95);
	json_put(o, "p50_ns", json_new_ps_as_ns(s->p50_ps));
	json_put(o, "p95_ns", json_new_ps_as_ns(s->p95_ps));
	json_put(o, "p99_ns", json_new_ps_as_ns(s->p99_ps));
	json_put(o, "timer_ns", json_new_ps_as_ns(timer_ps));
	json_put(o, "net_mean_ns",
		 json_new_ps_as_ns(sub_floor(s->mean_ps, timer_ps)));
	json_put(o, "net_median_ns",
		 json_new_ps_as_ns(sub_floor(s->median_ps, timer_ps)));
	json_put(o, "net_p99_ns",
		 json_new_ps_as_ns(sub_floor(s->p99_ps, timer_ps)));
}

double speedup_of(double baseline, double time)
{
	if (!(baseline > 0) || !(time > 0) || !isfinite(baseline) ||
	    !isfinite(time))
		return NAN;
	return baseline / time;
}

const char *speedup_words(char *buf, size_t len, double speedup)
{
	if (!isfinite(speedup) || speedup <= 0)
		snprintf(buf, len, "n/a");
	else if (speedup >= 1)
		snprintf(buf, len, "%.2fx faster", speedup);
	else
		snprintf(buf, len, "%.2fx slower", 1 / speedup);
	return buf;
}

/* @speedup in words, then @fmt with the range in the same direction. */
static const char *speedup_words_range(char *buf, size_t len, double speedup,
				       double lo, double hi, const char *fmt)
{
	size_t n;

	speedup_words(buf, len, speedup);
	n = strlen(buf);
	if (!isfinite(speedup) || speedup <= 0 || !(lo > 0) || !(hi > 0) ||
	    !isfinite(lo) || !isfinite(hi) || n >= len)
		return buf;
	if (speedup >= 1)
		snprintf(buf + n, len - n, fmt, lo, hi);
	else
		snprintf(buf + n, len - n, fmt, 1 / hi, 1 / lo);
	return buf;
}

const char *speedup_words_spread(char *buf, size_t len, double speedup,
				 double lo, double hi)
{
	return speedup_words_range(buf, len, speedup, lo, hi, " [%.2f-%.2f]");
}

const char *speedup_words_rounds(char *buf, size_t len, double speedup,
				 double lo, double hi)
{
	return speedup_words_range(buf, len, speedup, lo, hi,
				   ", rounds %.2f-%.2f");
}
