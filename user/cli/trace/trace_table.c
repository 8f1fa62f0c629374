// SPDX-License-Identifier: MIT
/*
 * wsc trace's report for people: the table of system calls with its
 * total, ASCII histograms on request, the groups' shares and the errnos
 * of the failed calls (after trace_header.c's head, before
 * trace_tasks.c's tasks).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define HIST_BAR	40	/* the longest histogram bar, in '#' */
#define HIST_HASHES	"########################################"
_Static_assert(sizeof(HIST_HASHES) == HIST_BAR + 1, "a bar of HIST_BAR '#'");
#define POW2_BUCKETS	64	/* [2^k, 2^(k+1)) for k in 0..63 */

/* The power-of-two bucket of a log-linear one: 0 and 1 share bucket 0. */
static unsigned int pow2_index(uint64_t low_ns)
{
	return low_ns > 1 ? 63 - (unsigned int)__builtin_clzll(low_ns) : 0;
}

static int cmp_bucket_low(const void *a, const void *b)
{
	const struct trace_bucket *x = a, *y = b;

	return x->low_ns < y->low_ns ? -1 : x->low_ns > y->low_ns;
}

/*
 * Every system call row's buckets added up, for the total row's
 * percentiles (ring requests are not in the total).  All rows share one
 * log-linear grid, so equal low ends are the same bucket.  NULL when
 * empty or out of memory.
 */
static struct trace_bucket *merge_buckets(const struct trace_report *r,
					  size_t *n)
{
	struct trace_bucket *all;
	size_t i, j, k = 0;

	for (i = 0; i < r->nr_rows; i++)
		k += r->rows[i].ring ? 0 : r->rows[i].nr_buckets;
	*n = 0;
	all = k ? malloc(k * sizeof(*all)) : NULL;
	if (!all)
		return NULL;
	for (i = 0, k = 0; i < r->nr_rows; i++)
		for (j = 0; !r->rows[i].ring && j < r->rows[i].nr_buckets; j++)
			all[k++] = r->rows[i].buckets[j];
	qsort(all, k, sizeof(*all), cmp_bucket_low);
	for (i = 1, j = 0; i < k; i++) {
		if (all[i].low_ns == all[j].low_ns)
			all[j].count += all[i].count;
		else
			all[++j] = all[i];
	}
	*n = j + 1;
	return all;
}

/* The total row: like a row, its percentiles over every call. */
static void total_row(const struct trace_report *r, struct trace_row *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "total");
	t->group = "";
	t->calls = r->total_calls;
	t->errors = r->total_errors;
	t->total_ns = r->total_ns;
	t->off_ns = r->total_off_ns;
	for (i = 0; i < r->nr_rows; i++) {
		if (r->rows[i].ring)
			continue;
		if (r->rows[i].max_ns > t->max_ns)
			t->max_ns = r->rows[i].max_ns;
		t->max_bound |= r->rows[i].max_bound;
	}
	t->buckets = merge_buckets(r, &t->nr_buckets);
	trace_row_finish(t);
}

#define TIME_COL	7	/* "123.4us" and "off-cpu" */
#define SHARE_COL	6	/* "100.0%" */
#define MAX_COL		8	/* "<=12.3ms": an interval's bound */

/* The columns that grow with their contents, and the gap between all. */
struct table_widths {
	int name;
	int calls;
	int errors;
	int gap;
};

/*
 * The legend: what the time columns are.  on-cpu + off-cpu is the time
 * the tasks spent in the calls, entry to exit; a column of that sum would
 * repeat one of the two under the default --time cpu.
 */
static void print_columns(FILE *f, const struct table_widths *w,
			  enum trace_time t)
{
	int g = w->gap;

	fprintf(f, "on-cpu + off-cpu = time in the calls; share: of the time %s"
		" (--time %s)\nmean, p50, p99, max: one call, entry to exit\n",
		t == TRACE_TIME_WALL ? "in them" :
		t == TRACE_TIME_OFF ? "off the CPU" : "on the CPU",
		trace_time_name(t));
	fprintf(f, "%-*s%*s%*s%*s%*s%*s%*s%*s%*s%*s\n", w->name, "syscall",
		g + w->calls, "calls", g + w->errors, "errors",
		g + TIME_COL, "on-cpu", g + TIME_COL, "off-cpu",
		g + SHARE_COL, "share", g + TIME_COL, "mean", g + TIME_COL,
		"p50", g + TIME_COL, "p99", g + MAX_COL, "max");
}

static void print_row(FILE *f, const struct table_widths *w,
		      const struct trace_report *r, const struct trace_row *row)
{
	char mean[TRACE_TIME_LEN], p50[TRACE_TIME_LEN], p99[TRACE_TIME_LEN];
	char max[TRACE_TIME_LEN + 2], on[TRACE_TIME_LEN], off[TRACE_TIME_LEN], share[16];
	int g = w->gap;

	trace_fmt_time(max + 2, sizeof(max) - 2, row->max_ns);
	if (row->max_bound)
		memcpy(max, "<=", 2);
	/* A ring request's time is not in the calls' total: no share. */
	if (row->ring)
		snprintf(share, sizeof(share), "-");
	else
		snprintf(share, sizeof(share), "%.1f%%",
			 trace_row_share(r, row));
	fprintf(f, "%-*s%*" PRIu64 "%*" PRIu64 "%*s%*s%*s%*s%*s%*s%*s\n",
		w->name, row->name, g + w->calls, row->calls,
		g + w->errors, row->errors,
		g + TIME_COL, trace_fmt_time(on, sizeof(on),
			trace_time_of(TRACE_TIME_CPU, row->total_ns, row->off_ns)),
		g + TIME_COL, trace_fmt_time(off, sizeof(off),
			trace_time_of(TRACE_TIME_OFF, row->total_ns, row->off_ns)),
		g + SHARE_COL, share,
		g + TIME_COL, trace_fmt_time(mean, sizeof(mean), row->mean_ns),
		g + TIME_COL, trace_fmt_time(p50, sizeof(p50), row->p50_ns),
		g + TIME_COL, trace_fmt_time(p99, sizeof(p99), row->p99_ns),
		g + MAX_COL, row->max_bound ? max : max + 2);
}

/* "[1.02us, 2.05us)": power-of-two bucket @k; bucket 0 also holds 0. */
static void pow2_label(char *buf, size_t len, unsigned int k)
{
	char lo[TRACE_TIME_LEN], hi[TRACE_TIME_LEN];
	uint64_t low = k ? (uint64_t)1 << k : 0;
	uint64_t high = k < 63 ? (uint64_t)1 << (k + 1) : UINT64_MAX;

	snprintf(buf, len, "[%s, %s)", trace_fmt_time(lo, sizeof(lo), low),
		 trace_fmt_time(hi, sizeof(hi), high));
}

/*
 * The row's calls in power-of-two buckets, from the lowest non-empty to
 * the highest, one line each (empty ones just the range), the bars
 * scaled to the fullest bucket.
 */
static void print_hist(FILE *f, const struct trace_row *row)
{
	uint64_t pow2[POW2_BUCKETS] = { 0 }, top = 0;
	unsigned int k, lo = POW2_BUCKETS, hi = 0, bar;
	char label[2 * TRACE_TIME_LEN + 8];
	size_t i;

	for (i = 0; i < row->nr_buckets; i++) {
		k = pow2_index(row->buckets[i].low_ns);
		pow2[k] += row->buckets[i].count;
	}
	for (k = 0; k < POW2_BUCKETS; k++) {
		if (!pow2[k])
			continue;
		lo = k < lo ? k : lo;
		hi = k;
		top = pow2[k] > top ? pow2[k] : top;
	}
	for (k = lo; k <= hi && top; k++) {
		pow2_label(label, sizeof(label), k);
		if (!pow2[k]) {
			fprintf(f, "    %s\n", label);
			continue;
		}
		/* Rounded up: a bucket with any calls shows at least one '#'. */
		bar = (unsigned int)ceil(HIST_BAR * (double)pow2[k] /
					 (double)top);
		fprintf(f, "    %-20s %-*.*s %" PRIu64 "\n", label, HIST_BAR,
			bar, HIST_HASHES, pow2[k]);
	}
}

/* Digits of @n, and at least @min. */
static int digits(uint64_t n, int min)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d > min ? d : min;
}

/*
 * Wide enough for every row and the total; two spaces between columns,
 * or one when that is what keeps the table within TRACE_TABLE_COLS (a name as
 * long as sched_get_priority_max needs it).
 */
static void table_widths(const struct trace_report *r, struct table_widths *w)
{
	int fixed = 5 * TIME_COL + SHARE_COL + MAX_COL, len;
	size_t i;

	w->name = (int)strlen("syscall");
	for (i = 0; i < r->nr_rows; i++) {
		len = (int)strlen(r->rows[i].name);
		w->name = len > w->name ? len : w->name;
	}
	w->calls = digits(r->total_calls, (int)strlen("calls"));
	w->errors = digits(r->total_errors, (int)strlen("errors"));
	w->gap = 2;
	if (w->name + w->calls + w->errors + fixed + 9 * w->gap > TRACE_TABLE_COLS)
		w->gap = 1;
}

static void print_left_out(FILE *f, const struct trace_report *r)
{
	uint64_t calls = 0;
	size_t i, n = trace_shown_rows(r);

	if (n == r->nr_rows)
		return;
	for (i = n; i < r->nr_rows; i++)
		calls += r->rows[i].calls;
	fprintf(f, "... %zu more system call%s (%" PRIu64 " call%s) not shown "
		"(--top %zu)\n", r->nr_rows - n, trace_plural(r->nr_rows - n), calls,
		trace_plural(calls), r->top);
}

/* One group of the Nature of System Calls paper and its share. */
struct group_share {
	const char *name;
	uint64_t ns;
	uint64_t calls;
};

static int cmp_group_share(const void *a, const void *b)
{
	const struct group_share *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * The time --time names, per group of the Nature of System Calls paper
 * (Documentation/papers.md), largest first, wrapped within TRACE_TABLE_COLS.
 * Every row counts, --top's hidden ones too, as in the total.
 */
static void print_groups(FILE *f, const struct trace_report *r)
{
	struct group_share g[16];
	size_t i, j, n = 0;
	struct trace_wrap w;

	for (i = 0; i < r->nr_rows; i++) {
		if (r->rows[i].ring)
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(g[j].name, r->rows[i].group))
				break;
		if (j == n) {
			if (n == sizeof(g) / sizeof(g[0]))
				continue;
			g[n++] = (struct group_share){ .name = r->rows[i].group };
		}
		g[j].ns += trace_row_time(r, &r->rows[i]);
		g[j].calls += r->rows[i].calls;
	}
	if (!n)
		return;
	qsort(g, n, sizeof(*g), cmp_group_share);
	trace_wrap_begin(&w, f, "by group: ", 10);
	for (i = 0; i < n; i++)
		trace_wrap_item(&w, ", ", "%s %.1f%% (%" PRIu64 " call%s)", g[i].name,
			  trace_share_pct(g[i].ns, trace_report_time(r)), g[i].calls,
			  trace_plural(g[i].calls));
	trace_wrap_end(&w);
}

/* The rows (--top's first), the left-out line and the total row. */
static void print_rows(FILE *f, const struct trace_report *r, bool hist)
{
	struct table_widths w;
	struct trace_row total;
	size_t i;

	table_widths(r, &w);
	print_columns(f, &w, r->time);
	for (i = 0; i < trace_shown_rows(r); i++) {
		print_row(f, &w, r, &r->rows[i]);
		if (hist)
			print_hist(f, &r->rows[i]);
	}
	print_left_out(f, r);
	if (r->ring)
		fputs("ring:OP rows: io_uring requests, submission to completion,"
		      " all off-CPU; not in the total\n", f);
	total_row(r, &total);
	if (hist && r->nr_rows)
		fputc('\n', f);	/* not under the last row's histogram */
	print_row(f, &w, r, &total);
	free(total.buckets);
	print_groups(f, r);
}

/* "openat  ENOENT 12  EACCES 1": each shown row with errors, by errno. */
static void print_errnos(FILE *f, const struct trace_report *r)
{
	const struct trace_row *row;
	char name[32];
	bool any = false;
	struct trace_wrap w;
	size_t i, j;
	int width = 7;

	for (i = 0; i < trace_shown_rows(r); i++)
		if (r->rows[i].nr_errnos && (int)strlen(r->rows[i].name) > width)
			width = (int)strlen(r->rows[i].name);
	for (i = 0; i < trace_shown_rows(r); i++) {
		row = &r->rows[i];
		if (!row->errors)
			continue;
		if (!any)
			fputs("\nerrors by errno:\n", f);
		any = true;
		trace_wrap_begin(&w, f, "", width + 2);
		trace_wrap_item(&w, "", "%-*s", width, row->name);
		for (j = 0; j < row->nr_errnos; j++)
			trace_wrap_item(&w, "  ", "%s %" PRIu64,
				  trace_errno_name(name, sizeof(name),
						   row->errnos[j].err),
				  row->errnos[j].count);
		if (!row->nr_errnos)
			trace_wrap_item(&w, "  ", "(no errno counted)");
		trace_wrap_end(&w);
	}
}

void trace_print_table(FILE *f, const struct trace_report *r, bool hist)
{
	trace_print_header(f, r);
	print_rows(f, r, hist);
	print_errnos(f, r);
	trace_print_tasks(f, r);
}

void trace_print_interval(FILE *f, const struct trace_report *r,
			  const struct trace_interval *iv)
{
	fprintf(f, "interval %u: %.3fs to %.3fs: %" PRIu64 " call%s, %" PRIu64
		" error%s%s\n", iv->k, (double)iv->start_ns / 1e9,
		(double)iv->end_ns / 1e9, r->total_calls,
		trace_plural(r->total_calls), r->total_errors,
		trace_plural(r->total_errors), iv->last ? " (the last)" : "");
	print_rows(f, r, false);
	print_errnos(f, r);
	fputc('\n', f);
}
