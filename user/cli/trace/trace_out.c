// SPDX-License-Identifier: MIT
/*
 * wsc trace: the report for people (a header saying what was traced and
 * what was lost, a table, ASCII histograms on request) and for programs
 * (JSON with the environment, CSV).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/env.h"
#include "common/json.h"
#include "trace.h"

#define HIST_BAR	40	/* the longest histogram bar, in '#' */
#define HIST_HASHES	"########################################"
_Static_assert(sizeof(HIST_HASHES) == HIST_BAR + 1, "a bar of HIST_BAR '#'");
#define POW2_BUCKETS	64	/* [2^k, 2^(k+1)) for k in 0..63 */
#define TIME_LEN	16	/* "123.4us" and the like */

/* What the kernel missed: the figures are too small by these. */
static uint64_t lost_events(const struct wsc_trace_status *s)
{
	return s->lost_tasks + s->lost_calls + s->lost_exits + s->lost_hist;
}

static const char *state_name(uint32_t state)
{
	switch (state) {
	case WSC_TRACE_IDLE:	return "idle";
	case WSC_TRACE_ACTIVE:	return "active";
	case WSC_TRACE_ENDED:	return "ended";
	}
	return "unknown";
}

static const char *end_name(uint32_t end)
{
	switch (end) {
	case WSC_TRACE_END_NONE:	return "none";
	case WSC_TRACE_END_STOPPED:	return "stopped";
	case WSC_TRACE_END_EXITED:	return "target exited";
	}
	return "unknown";
}

#define TABLE_COLS	100	/* every line fits a terminal this wide */

/*
 * A line of items that wraps before TABLE_COLS, its next lines indented:
 * the "not counted" figures, the groups, a call's errnos.
 */
struct wrap {
	FILE *f;
	int col;
	int indent;
	bool first;
};

static void wrap_begin(struct wrap *w, FILE *f, const char *head, int indent)
{
	w->f = f;
	w->col = fprintf(f, "%s", head);
	w->indent = indent;
	w->first = true;
}

/* @sep, then the item; on a new line when it would not fit. */
static __attribute__((format(printf, 3, 4)))
void wrap_item(struct wrap *w, const char *sep, const char *fmt, ...)
{
	char item[128];
	va_list ap;
	int len;

	va_start(ap, fmt);
	vsnprintf(item, sizeof(item), fmt, ap);
	va_end(ap);
	if (w->first)
		sep = "";
	len = (int)(strlen(sep) + strlen(item));
	if (!w->first && w->col + len > TABLE_COLS) {
		/* The separator's mark ends the line: "a," then "b" below. */
		fprintf(w->f, "%.*s\n%*s", (int)strcspn(sep, " "), sep,
			w->indent, "");
		w->col = w->indent;
		sep = "";
	}
	w->col += fprintf(w->f, "%s%s", sep, item);
	w->first = false;
}

static void wrap_end(struct wrap *w)
{
	fputc('\n', w->f);
}

/* "1 task", "2 tasks". */
static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* @part as a percentage of @whole, 0 when there is no whole. */
static double share_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/*
 * @ns for people, to 3 significant digits: "812ns", "12.3us", "4.56ms",
 * "1.23s".  The unit is chosen after rounding, so 999.7us is "1.00ms".
 */
static const char *fmt_time(char *buf, size_t len, uint64_t ns)
{
	static const char *const units[] = { "us", "ms", "s" };
	double v = (double)ns;
	unsigned int u;
	int decimals;

	if (ns < 1000) {
		snprintf(buf, len, "%" PRIu64 "ns", ns);
		return buf;
	}
	for (u = 0; u < 2; u++) {
		v /= 1000;
		if (v < 999.5)
			break;
	}
	if (u == 2)
		v /= 1000;
	decimals = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
	snprintf(buf, len, "%.*f%s", decimals, v, units[u]);
	return buf;
}

/* The power-of-two bucket of a log-linear one: 0 and 1 share bucket 0. */
static unsigned int pow2_index(uint64_t low_ns)
{
	return low_ns > 1 ? 63 - (unsigned int)__builtin_clzll(low_ns) : 0;
}

static void print_exit(FILE *f, int status)
{
	if (WIFEXITED(status))
		fprintf(f, " (exited with status %d)", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(f, " (killed by signal %d, %s)", WTERMSIG(status),
			strsignal(WTERMSIG(status)));
	else
		fprintf(f, " (wait status %#x)", (unsigned int)status);
}

/* How the trace ended, in words that tell Ctrl-C from --duration. */
static void print_state(FILE *f, const struct trace_report *r)
{
	const struct wsc_trace_status *s = &r->status;

	if (s->state == WSC_TRACE_ACTIVE)
		fputs("still active", f);
	else if (s->state == WSC_TRACE_ENDED && s->end == WSC_TRACE_END_EXITED)
		fputs("ended when every traced task had exited", f);
	else if (r->stop == TRACE_STOP_SIGNAL)
		fprintf(f, "interrupted by SIG%s", sigabbrev_np(r->stop_signal) ?
			sigabbrev_np(r->stop_signal) : "?");
	else if (r->stop == TRACE_STOP_DURATION)
		fputs("stopped after --duration", f);
	else if (s->state == WSC_TRACE_ENDED)
		fprintf(f, "ended: %s", end_name(s->end));
	else
		fputs(state_name(s->state), f);
}

/*
 * What the kernel missed, loudly, and the calls it saw but could not
 * count: each line only when it has something to say.
 */
static void print_losses(FILE *f, const struct wsc_trace_status *s)
{
	uint64_t lost = lost_events(s);
	struct wrap w;

	if (lost) {
		wrap_begin(&w, f, "WARNING: ", 2);
		wrap_item(&w, "", "lost %" PRIu64 ":", lost);
		wrap_item(&w, " ", "%" PRIu64 " task%s not followed,",
			  s->lost_tasks, plural(s->lost_tasks));
		wrap_item(&w, " ", "%" PRIu64 " call%s not counted,",
			  s->lost_calls, plural(s->lost_calls));
		wrap_item(&w, " ", "%" PRIu64 " exit%s never seen,",
			  s->lost_exits, plural(s->lost_exits));
		wrap_item(&w, " ", "%" PRIu64 " call%s in no histogram;",
			  s->lost_hist, plural(s->lost_hist));
		wrap_item(&w, " ", "the figures below miss these");
		wrap_item(&w, " ", "(the kernel follows %" PRIu32 " tasks at "
			  "once and keeps %" PRIu32 " histograms per CPU)",
			  s->task_slots, s->hist_slots);
		wrap_end(&w);
	}
	if (s->unmatched || s->unfinished || s->foreign) {
		wrap_begin(&w, f, "not counted: ", 2);
		if (s->unmatched)
			wrap_item(&w, ", ", "%" PRIu64 " call%s already running "
				  "when the trace began", s->unmatched,
				  plural(s->unmatched));
		if (s->unfinished)
			wrap_item(&w, ", ", "%" PRIu64 " call%s still running "
				  "when it ended", s->unfinished,
				  plural(s->unfinished));
		if (s->foreign)
			wrap_item(&w, ", ", "%" PRIu64 " 32-bit or unknown "
				  "call%s", s->foreign, plural(s->foreign));
		wrap_end(&w);
	}
	if (s->lost_errnos || s->lost_records)
		fprintf(f, "WARNING: breakdowns incomplete: %" PRIu64 " failed "
			"call%s in no per-errno count,\n  %" PRIu64 " task%s with "
			"no per-task record\n", s->lost_errnos,
			plural(s->lost_errnos), s->lost_records,
			plural(s->lost_records));
}

const char *trace_errno_name(char *buf, size_t len, uint32_t err)
{
	const char *name = err <= INT32_MAX ? strerrorname_np((int)err) : NULL;

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "E%" PRIu32, err);
	return buf;
}

/* The filters and what they left out, when there are any. */
static void print_filters(FILE *f, const struct trace_report *r)
{
	const struct wsc_trace_status *s = &r->status;
	char name[32];

	if (!r->filter[0] && !s->failed && !s->err && !s->filtered)
		return;
	fputs("filters:", f);
	if (r->filter[0])
		fprintf(f, " %s;", r->filter);
	if (s->err)
		fprintf(f, " failed with %s only;",
			trace_errno_name(name, sizeof(name), s->err));
	else if (s->failed)
		fputs(" failed calls only;", f);
	fprintf(f, " %" PRIu64 " calls left out\n", s->filtered);
}

static void print_header(FILE *f, const struct trace_report *r)
{
	const struct wsc_trace_status *s = &r->status;
	char dur[TIME_LEN];

	fprintf(f, "target: %s", r->target);
	if (r->has_exit)
		print_exit(f, r->exit_status);
	fprintf(f, "\ntrace %" PRIu64 ": %s, ", s->id,
		fmt_time(dur, sizeof(dur), s->duration_ns));
	print_state(f, r);
	fprintf(f, "; %" PRIu64 " task%s; %" PRIu64 " call%s, %" PRIu64
		" error%s\n", s->tasks, plural(s->tasks), r->total_calls,
		plural(r->total_calls), r->total_errors,
		plural(r->total_errors));
	print_losses(f, s);
	print_filters(f, r);
	if (r->total_wrapped)
		fprintf(f, "wrapped: %" PRIu64 " of the calls ran in wsc batches;"
			" each counts once, in its own row, and the batches'\n"
			"  ioctl row is their own time, without the calls they "
			"ran\n", r->total_wrapped);
	fputc('\n', f);
}

static int cmp_bucket_low(const void *a, const void *b)
{
	const struct trace_bucket *x = a, *y = b;

	return x->low_ns < y->low_ns ? -1 : x->low_ns > y->low_ns;
}

/*
 * Every row's buckets added up, for the total row's percentiles.  All
 * rows share one log-linear grid, so equal low ends are the same bucket.
 * NULL when empty or out of memory.
 */
static struct trace_bucket *merge_buckets(const struct trace_report *r,
					  size_t *n)
{
	struct trace_bucket *all;
	size_t i, j, k = 0;

	for (i = 0; i < r->nr_rows; i++)
		k += r->rows[i].nr_buckets;
	*n = 0;
	all = k ? malloc(k * sizeof(*all)) : NULL;
	if (!all)
		return NULL;
	for (i = 0, k = 0; i < r->nr_rows; i++)
		for (j = 0; j < r->rows[i].nr_buckets; j++)
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

/* The time --time means of @row, and its share of the report's. */
static uint64_t row_time(const struct trace_report *r,
			 const struct trace_row *row)
{
	return trace_time_of(r->time, row->total_ns, row->off_ns);
}

static uint64_t report_time(const struct trace_report *r)
{
	return trace_time_of(r->time, r->total_ns, r->total_off_ns);
}

static void print_row(FILE *f, const struct table_widths *w,
		      const struct trace_report *r, const struct trace_row *row)
{
	char mean[TIME_LEN], p50[TIME_LEN], p99[TIME_LEN];
	char max[TIME_LEN + 2], on[TIME_LEN], off[TIME_LEN], share[16];
	int g = w->gap;

	fmt_time(max + 2, sizeof(max) - 2, row->max_ns);
	if (row->max_bound)
		memcpy(max, "<=", 2);
	snprintf(share, sizeof(share), "%.1f%%",
		 share_pct(row_time(r, row), report_time(r)));
	fprintf(f, "%-*s%*" PRIu64 "%*" PRIu64 "%*s%*s%*s%*s%*s%*s%*s\n",
		w->name, row->name, g + w->calls, row->calls,
		g + w->errors, row->errors,
		g + TIME_COL, fmt_time(on, sizeof(on),
			trace_time_of(TRACE_TIME_CPU, row->total_ns, row->off_ns)),
		g + TIME_COL, fmt_time(off, sizeof(off),
			trace_time_of(TRACE_TIME_OFF, row->total_ns, row->off_ns)),
		g + SHARE_COL, share,
		g + TIME_COL, fmt_time(mean, sizeof(mean), row->mean_ns),
		g + TIME_COL, fmt_time(p50, sizeof(p50), row->p50_ns),
		g + TIME_COL, fmt_time(p99, sizeof(p99), row->p99_ns),
		g + MAX_COL, row->max_bound ? max : max + 2);
}

/* "[1.02us, 2.05us)": power-of-two bucket @k; bucket 0 also holds 0. */
static void pow2_label(char *buf, size_t len, unsigned int k)
{
	char lo[TIME_LEN], hi[TIME_LEN];
	uint64_t low = k ? (uint64_t)1 << k : 0;
	uint64_t high = k < 63 ? (uint64_t)1 << (k + 1) : UINT64_MAX;

	snprintf(buf, len, "[%s, %s)", fmt_time(lo, sizeof(lo), low),
		 fmt_time(hi, sizeof(hi), high));
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
	char label[2 * TIME_LEN + 8];
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
 * or one when that is what keeps the table within TABLE_COLS (a name as
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
	if (w->name + w->calls + w->errors + fixed + 9 * w->gap > TABLE_COLS)
		w->gap = 1;
}

/* The rows shown: --top's first ones, or all. */
static size_t shown_rows(const struct trace_report *r)
{
	return r->top && r->top < r->nr_rows ? r->top : r->nr_rows;
}

static void print_left_out(FILE *f, const struct trace_report *r)
{
	uint64_t calls = 0;
	size_t i, n = shown_rows(r);

	if (n == r->nr_rows)
		return;
	for (i = n; i < r->nr_rows; i++)
		calls += r->rows[i].calls;
	fprintf(f, "... %zu more system call%s (%" PRIu64 " call%s) not shown "
		"(--top %zu)\n", r->nr_rows - n, plural(r->nr_rows - n), calls,
		plural(calls), r->top);
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
 * (Documentation/papers.md), largest first, wrapped within TABLE_COLS.
 * Every row counts, --top's hidden ones too, as in the total.
 */
static void print_groups(FILE *f, const struct trace_report *r)
{
	struct group_share g[16];
	size_t i, j, n = 0;
	struct wrap w;

	for (i = 0; i < r->nr_rows; i++) {
		for (j = 0; j < n; j++)
			if (!strcmp(g[j].name, r->rows[i].group))
				break;
		if (j == n) {
			if (n == sizeof(g) / sizeof(g[0]))
				continue;
			g[n++] = (struct group_share){ .name = r->rows[i].group };
		}
		g[j].ns += row_time(r, &r->rows[i]);
		g[j].calls += r->rows[i].calls;
	}
	if (!n)
		return;
	qsort(g, n, sizeof(*g), cmp_group_share);
	wrap_begin(&w, f, "by group: ", 10);
	for (i = 0; i < n; i++)
		wrap_item(&w, ", ", "%s %.1f%% (%" PRIu64 " call%s)", g[i].name,
			  share_pct(g[i].ns, report_time(r)), g[i].calls,
			  plural(g[i].calls));
	wrap_end(&w);
}

/* The rows (--top's first), the left-out line and the total row. */
static void print_rows(FILE *f, const struct trace_report *r, bool hist)
{
	struct table_widths w;
	struct trace_row total;
	size_t i;

	table_widths(r, &w);
	print_columns(f, &w, r->time);
	for (i = 0; i < shown_rows(r); i++) {
		print_row(f, &w, r, &r->rows[i]);
		if (hist)
			print_hist(f, &r->rows[i]);
	}
	print_left_out(f, r);
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
	struct wrap w;
	size_t i, j;
	int width = 7;

	for (i = 0; i < shown_rows(r); i++)
		if (r->rows[i].nr_errnos && (int)strlen(r->rows[i].name) > width)
			width = (int)strlen(r->rows[i].name);
	for (i = 0; i < shown_rows(r); i++) {
		row = &r->rows[i];
		if (!row->errors)
			continue;
		if (!any)
			fputs("\nerrors by errno:\n", f);
		any = true;
		wrap_begin(&w, f, "", width + 2);
		wrap_item(&w, "", "%-*s", width, row->name);
		for (j = 0; j < row->nr_errnos; j++)
			wrap_item(&w, "  ", "%s %" PRIu64,
				  trace_errno_name(name, sizeof(name),
						   row->errnos[j].err),
				  row->errnos[j].count);
		if (!row->nr_errnos)
			wrap_item(&w, "  ", "(no errno counted)");
		wrap_end(&w);
	}
}

/**
 * struct task_sum - one line of a --by table
 * @t:       the thread (--by thread), or the process's figures with its
 *           leader's (or first thread's) tid, ppid and comm
 * @threads: threads summed
 */
struct task_sum {
	struct wsc_trace_task t;
	unsigned int threads;
};

/* The tasks, per thread or summed per process, in join order. */
static struct task_sum *sum_tasks(const struct trace_report *r, bool by_process,
				  size_t *n)
{
	struct task_sum *sums = calloc(r->nr_tasks ? r->nr_tasks : 1,
				       sizeof(*sums));
	const struct wsc_trace_task *t;
	size_t i, j;

	*n = 0;
	if (!sums)
		return NULL;
	for (i = 0; i < r->nr_tasks; i++) {
		t = &r->tasks[i];
		for (j = 0; by_process && j < *n; j++)
			if (sums[j].t.pid == t->pid)
				break;
		if (!by_process || j == *n) {
			sums[(*n)++] = (struct task_sum){ .t = *t, .threads = 1 };
			continue;
		}
		if (t->tid == t->pid) {	/* the leader names the process */
			sums[j].t.ppid = t->ppid;
			memcpy(sums[j].t.comm, t->comm, sizeof(t->comm));
		}
		sums[j].threads++;
		sums[j].t.calls += t->calls;
		sums[j].t.errors += t->errors;
		sums[j].t.total_ns += t->total_ns;
		sums[j].t.off_ns += t->off_ns;
	}
	return sums;
}

/* Most time (as --time means it) first; equal ones in join order. */
static void sort_tasks(struct task_sum *sums, size_t n, enum trace_time time)
{
	struct task_sum s;
	size_t i, j;

	for (i = 1; i < n; i++) {
		s = sums[i];
		for (j = i; j > 0 && trace_time_of(time, s.t.total_ns, s.t.off_ns) >
		     trace_time_of(time, sums[j - 1].t.total_ns,
				   sums[j - 1].t.off_ns); j--)
			sums[j] = sums[j - 1];
		sums[j] = s;
	}
}

/* --by process or --by thread: a table after the system calls'. */
static void print_tasks(FILE *f, const struct trace_report *r)
{
	bool proc = r->by == TRACE_BY_PROCESS;
	char on[TIME_LEN], off[TIME_LEN], comm[sizeof(r->tasks->comm) + 1];
	struct task_sum *sums;
	uint64_t calls = 0;
	size_t i, n, shown;

	if (r->by == TRACE_BY_NONE)
		return;
	sums = sum_tasks(r, proc, &n);
	if (!sums)
		return;
	sort_tasks(sums, n, r->time);
	fprintf(f, "\nby %s (%zu):\n", proc ? "process" : "thread", n);
	if (proc)
		fprintf(f, "%8s  %8s  %-16s  %7s", "pid", "ppid", "comm",
			"threads");
	else
		fprintf(f, "%8s  %8s  %8s  %-16s", "tid", "pid", "ppid", "comm");
	fprintf(f, "  %10s  %8s  %8s  %8s\n", "calls", "errors", "on-cpu",
		"off-cpu");
	shown = r->top && r->top < n ? r->top : n;
	for (i = 0; i < n; i++) {
		const struct wsc_trace_task *t = &sums[i].t;

		if (i >= shown) {
			calls += t->calls;
			continue;
		}
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(t->comm),
			 t->comm);
		if (proc)
			fprintf(f, "%8" PRIu32 "  %8" PRIu32 "  %-16s  %7u",
				t->pid, t->ppid, comm, sums[i].threads);
		else
			fprintf(f, "%8" PRIu32 "  %8" PRIu32 "  %8" PRIu32
				"  %-16s", t->tid, t->pid, t->ppid, comm);
		fprintf(f, "  %10" PRIu64 "  %8" PRIu64 "  %8s  %8s\n",
			t->calls, t->errors,
			fmt_time(on, sizeof(on), trace_time_of(TRACE_TIME_CPU,
				 t->total_ns, t->off_ns)),
			fmt_time(off, sizeof(off), trace_time_of(TRACE_TIME_OFF,
				 t->total_ns, t->off_ns)));
	}
	if (shown < n)
		fprintf(f, "... %zu more (%" PRIu64 " call%s) not shown "
			"(--top %zu)\n", n - shown, calls, plural(calls),
			r->top);
	if (r->status.lost_records)
		fprintf(f, "WARNING: %" PRIu64 " task%s followed %s no record "
			"here\n", r->status.lost_records,
			plural(r->status.lost_records),
			r->status.lost_records == 1 ? "has" : "have");
	free(sums);
}

void trace_print_table(FILE *f, const struct trace_report *r, bool hist)
{
	print_header(f, r);
	print_rows(f, r, hist);
	print_errnos(f, r);
	print_tasks(f, r);
}

void trace_print_interval(FILE *f, const struct trace_report *r,
			  const struct trace_interval *iv)
{
	fprintf(f, "interval %u: %.3fs to %.3fs: %" PRIu64 " calls, %" PRIu64
		" errors%s\n", iv->k, (double)iv->start_ns / 1e9,
		(double)iv->end_ns / 1e9, r->total_calls, r->total_errors,
		iv->last ? " (the last)" : "");
	print_rows(f, r, false);
	print_errnos(f, r);
	fputc('\n', f);
}

/* "ENOENT", or null for 0. */
static void json_errno(FILE *f, uint32_t err)
{
	char name[32];

	if (err)
		json_string(f, trace_errno_name(name, sizeof(name), err));
	else
		fputs("null", f);
}

static void json_status(FILE *f, const struct wsc_trace_status *s)
{
	fprintf(f, "  \"trace\": {\"id\": %" PRIu64 ", \"state\": \"%s\", "
		"\"end\": \"%s\", \"pid\": %" PRIu32 ", \"cgroup\": ", s->id,
		state_name(s->state), end_name(s->end), s->pid);
	json_string(f, s->cgroup);
	fprintf(f, ",\n    \"duration_ns\": %" PRIu64 ", \"tasks\": %" PRIu64
		", \"live\": %" PRIu32 ", \"task_slots\": %" PRIu32
		", \"hist_slots\": %" PRIu32 ",\n", s->duration_ns, s->tasks,
		s->live, s->task_slots, s->hist_slots);
	fprintf(f, "    \"lost_tasks\": %" PRIu64 ", \"lost_calls\": %" PRIu64
		", \"lost_exits\": %" PRIu64 ", \"lost_hist\": %" PRIu64
		",\n    \"unmatched\": %" PRIu64 ", \"unfinished\": %" PRIu64
		", \"foreign\": %" PRIu64 ",\n", s->lost_tasks, s->lost_calls,
		s->lost_exits, s->lost_hist, s->unmatched, s->unfinished,
		s->foreign);
	fprintf(f, "    \"all\": %s, \"failed\": %s, \"errno\": ",
		s->all ? "true" : "false", s->failed ? "true" : "false");
	json_errno(f, s->err);
	fprintf(f, ", \"filtered\": %" PRIu64 ", \"lost_errnos\": %" PRIu64
		", \"lost_records\": %" PRIu64 "},\n", s->filtered,
		s->lost_errnos, s->lost_records);
}

/* "exit_status" is null and "signal" set when the command was killed. */
static void json_exit(FILE *f, int status)
{
	if (WIFEXITED(status))
		fprintf(f, "  \"exit_status\": %d, \"signal\": null,\n",
			WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(f, "  \"exit_status\": null, \"signal\": %d,\n",
			WTERMSIG(status));
	else
		fputs("  \"exit_status\": null, \"signal\": null,\n", f);
}

static void json_row(FILE *f, const struct trace_report *r,
		     const struct trace_row *row)
{
	char name[32];
	size_t i;

	fputs("    {\"name\": ", f);
	json_string(f, row->name);
	fprintf(f, ", \"nr\": %" PRIu32 ", \"group\": ", row->nr);
	json_string(f, row->group);
	fprintf(f, ", \"calls\": %" PRIu64 ", \"errors\": %" PRIu64
		", \"wrapped\": %" PRIu64 ", \"total_ns\": %" PRIu64
		", \"share\": %.3f,\n     \"on_cpu_ns\": %"
		PRIu64 ", \"off_cpu_ns\": %" PRIu64 ", \"mean_ns\": %"
		PRIu64 ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64
		", \"max_ns\": %" PRIu64 ", \"max_bound\": %s, \"hist_calls\": %"
		PRIu64 ",\n     \"errnos\": {", row->calls, row->errors,
		row->wrapped, row->total_ns, share_pct(row_time(r, row), report_time(r)),
		trace_time_of(TRACE_TIME_CPU, row->total_ns, row->off_ns),
		trace_time_of(TRACE_TIME_OFF, row->total_ns, row->off_ns),
		row->mean_ns, row->p50_ns, row->p99_ns, row->max_ns,
		row->max_bound ? "true" : "false", row->hist_calls);
	for (i = 0; i < row->nr_errnos; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, trace_errno_name(name, sizeof(name),
						row->errnos[i].err));
		fprintf(f, ": %" PRIu64, row->errnos[i].count);
	}
	fputs("},\n     \"hist\": [", f);
	for (i = 0; i < row->nr_buckets; i++)
		fprintf(f, "%s[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]",
			i ? ", " : "", row->buckets[i].low_ns,
			row->buckets[i].high_ns, row->buckets[i].count);
	fputs("]}", f);
}

/* The totals, "time", what --top left out and the rows shown. */
static void json_rows(FILE *f, const struct trace_report *r)
{
	uint64_t calls = 0;
	size_t i;

	for (i = shown_rows(r); i < r->nr_rows; i++)
		calls += r->rows[i].calls;
	fprintf(f, "  \"lost\": %" PRIu64 ",\n  \"total_ns\": %" PRIu64
		", \"on_cpu_ns\": %" PRIu64 ", \"off_cpu_ns\": %" PRIu64
		", \"calls\": %" PRIu64 ", \"errors\": %" PRIu64
		", \"wrapped\": %" PRIu64 ",\n"
		"  \"time\": \"%s\", \"rows_left_out\": %zu, \"calls_left_out\": %"
		PRIu64 ",\n  \"syscalls\": [", lost_events(&r->status),
		r->total_ns,
		trace_time_of(TRACE_TIME_CPU, r->total_ns, r->total_off_ns),
		trace_time_of(TRACE_TIME_OFF, r->total_ns, r->total_off_ns),
		r->total_calls, r->total_errors, r->total_wrapped,
		trace_time_name(r->time),
		r->nr_rows - shown_rows(r), calls);
	for (i = 0; i < shown_rows(r); i++) {
		fputs(i ? ",\n" : "\n", f);
		json_row(f, r, &r->rows[i]);
	}
	fputs(shown_rows(r) ? "\n  ]" : "]", f);
}

static void json_tasks(FILE *f, const struct trace_report *r)
{
	const struct wsc_trace_task *t;
	char comm[sizeof(t->comm) + 1];
	size_t i;

	fputs(",\n  \"tasks\": [", f);
	for (i = 0; i < r->nr_tasks; i++) {
		t = &r->tasks[i];
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(t->comm),
			 t->comm);
		fprintf(f, "%s{\"tid\": %" PRIu32 ", \"pid\": %" PRIu32
			", \"ppid\": %" PRIu32 ", \"comm\": ", i ? ",\n    " :
			"\n    ", t->tid, t->pid, t->ppid);
		json_string(f, comm);
		fprintf(f, ", \"calls\": %" PRIu64 ", \"errors\": %" PRIu64
			", \"total_ns\": %" PRIu64 ", \"on_cpu_ns\": %" PRIu64
			", \"off_cpu_ns\": %" PRIu64 "}", t->calls, t->errors,
			t->total_ns,
			trace_time_of(TRACE_TIME_CPU, t->total_ns, t->off_ns),
			trace_time_of(TRACE_TIME_OFF, t->total_ns, t->off_ns));
	}
	fputs(r->nr_tasks ? "\n  ]" : "]", f);
}

/*
 * "share" is a percentage of the time "time" names ("cpu": on_cpu_ns,
 * "wall": total_ns, "off": off_cpu_ns), as in the table.
 */
void trace_print_json(FILE *f, const struct trace_report *r)
{
	fputs("{\n  \"target\": ", f);
	json_string(f, r->target);
	fputs(",\n", f);
	if (r->has_exit)
		json_exit(f, r->exit_status);
	json_status(f, &r->status);
	fprintf(f, "  \"stopped_by\": %s,\n",
		r->stop == TRACE_STOP_SIGNAL ? "\"signal\"" :
		r->stop == TRACE_STOP_DURATION ? "\"duration\"" : "null");
	fputs("  \"filter\": ", f);
	json_string(f, r->filter);
	fputs(",\n", f);
	json_rows(f, r);
	json_tasks(f, r);
	fputs(",\n  \"environment\": ", f);
	env_print_json(f);
	fputs("\n}\n", f);
}

/*
 * What @print writes, on one line: the JSON's line breaks and the
 * indentation after them go (a string holds none: json_string() escapes
 * them).
 */
static void json_one_line(FILE *f, const struct trace_report *r,
			  const struct trace_interval *iv,
			  void (*print)(FILE *, const struct trace_report *,
					const struct trace_interval *))
{
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	print(m, r, iv);
	if (fclose(m)) {
		free(buf);
		return;
	}
	for (p = buf; *p; p++) {
		if (*p != '\n') {
			fputc(*p, f);
			continue;
		}
		while (p[1] == ' ')
			p++;
	}
	fputc('\n', f);
	free(buf);
}

static void json_whole(FILE *f, const struct trace_report *r,
		       const struct trace_interval *iv)
{
	(void)iv;
	trace_print_json(f, r);
}

void trace_print_json_line(FILE *f, const struct trace_report *r)
{
	json_one_line(f, r, NULL, json_whole);
}

static void json_interval(FILE *f, const struct trace_report *r,
			  const struct trace_interval *iv)
{
	fprintf(f, "{\"interval\": %u, \"start_s\": %.6f, \"end_s\": %.6f, "
		"\"last\": %s,\n", iv->k, (double)iv->start_ns / 1e9,
		(double)iv->end_ns / 1e9, iv->last ? "true" : "false");
	json_rows(f, r);
	fputs("}\n", f);
}

void trace_print_interval_json(FILE *f, const struct trace_report *r,
			       const struct trace_interval *iv)
{
	json_one_line(f, r, iv, json_interval);
}

/* "ENOENT=12;EACCES=1": a CSV field without commas or quotes. */
static void csv_errnos(FILE *f, const struct trace_row *row)
{
	char name[32];
	size_t i;

	for (i = 0; i < row->nr_errnos; i++)
		fprintf(f, "%s%s=%" PRIu64, i ? ";" : "",
			trace_errno_name(name, sizeof(name), row->errnos[i].err),
			row->errnos[i].count);
}

/* The columns of old first; the new ones (from on_cpu_ns) at the end. */
void trace_print_csv(FILE *f, const struct trace_report *r)
{
	const struct trace_row *row;
	size_t i;

	fputs("name,nr,group,calls,errors,total_ns,share,mean_ns,p50_ns,"
	      "p99_ns,max_ns,on_cpu_ns,off_cpu_ns,errnos,wrapped\n", f);
	for (i = 0; i < r->nr_rows; i++) {
		row = &r->rows[i];
		fprintf(f, "%s,%" PRIu32 ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 ",", row->name, row->nr,
			row->group, row->calls, row->errors, row->total_ns,
			share_pct(row_time(r, row), report_time(r)),
			row->mean_ns, row->p50_ns, row->p99_ns, row->max_ns,
			trace_time_of(TRACE_TIME_CPU, row->total_ns, row->off_ns),
			trace_time_of(TRACE_TIME_OFF, row->total_ns, row->off_ns));
		csv_errnos(f, row);
		fprintf(f, ",%" PRIu64 "\n", row->wrapped);
	}
}

/* A comm may hold a comma or a quote: quoted then, quotes doubled. */
static void csv_comm(FILE *f, const char *comm, size_t len)
{
	size_t i;

	if (!strpbrk(comm, ",\"\n")) {
		fprintf(f, "%.*s", (int)len, comm);
		return;
	}
	fputc('"', f);
	for (i = 0; i < len && comm[i]; i++) {
		if (comm[i] == '"')
			fputc('"', f);
		fputc(comm[i], f);
	}
	fputc('"', f);
}

void trace_print_tasks_csv(FILE *f, const struct trace_report *r)
{
	const struct wsc_trace_task *t;
	char comm[sizeof(t->comm) + 1];
	size_t i;

	fputs("tid,pid,ppid,comm,calls,errors,total_ns,on_cpu_ns,off_cpu_ns\n",
	      f);
	for (i = 0; i < r->nr_tasks; i++) {
		t = &r->tasks[i];
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(t->comm),
			 t->comm);
		fprintf(f, "%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",", t->tid,
			t->pid, t->ppid);
		csv_comm(f, comm, strlen(comm));
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 "\n", t->calls, t->errors, t->total_ns,
			trace_time_of(TRACE_TIME_CPU, t->total_ns, t->off_ns),
			trace_time_of(TRACE_TIME_OFF, t->total_ns, t->off_ns));
	}
}
