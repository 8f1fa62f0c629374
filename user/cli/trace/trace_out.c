// SPDX-License-Identifier: MIT
/*
 * wsc trace: the report for people (a header saying what was traced and
 * what was lost, a table, ASCII histograms on request) and for programs
 * (JSON with the environment, CSV).
 */
#include <inttypes.h>
#include <math.h>
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

static void print_state(FILE *f, const struct wsc_trace_status *s)
{
	if (s->state == WSC_TRACE_ACTIVE)
		fputs("still active", f);
	else if (s->state == WSC_TRACE_ENDED && s->end == WSC_TRACE_END_EXITED)
		fputs("ended: every traced task exited", f);
	else if (s->state == WSC_TRACE_ENDED)
		fprintf(f, "ended: %s", end_name(s->end));
	else
		fputs(state_name(s->state), f);
}

/* The lost events, loudly when there are any, and the expected misses. */
static void print_losses(FILE *f, const struct wsc_trace_status *s)
{
	uint64_t lost = lost_events(s);

	fprintf(f, "%slost: %" PRIu64 " (%" PRIu64 " tasks not followed, %"
		PRIu64 " calls not counted, %" PRIu64 " exits never seen, %"
		PRIu64 " calls in no histogram)\n", lost ? "WARNING: " : "",
		lost, s->lost_tasks, s->lost_calls, s->lost_exits,
		s->lost_hist);
	if (lost)
		fprintf(f, "WARNING: the figures below miss these; the kernel "
			"follows %" PRIu32 " tasks at once and keeps %" PRIu32
			" histograms per CPU\n", s->task_slots, s->hist_slots);
	fprintf(f, "not counted: unmatched %" PRIu64 " (calls already running "
		"when the trace began), unfinished %" PRIu64 " (calls still "
		"running when it ended), foreign %" PRIu64 " (32-bit or unknown calls)\n",
		s->unmatched, s->unfinished, s->foreign);
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
	print_state(f, s);
	fprintf(f, "; %" PRIu64 " tasks followed; %" PRIu64 " calls, %" PRIu64
		" errors\n", s->tasks, r->total_calls, r->total_errors);
	print_losses(f, s);
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
	for (i = 0; i < r->nr_rows; i++)
		if (r->rows[i].max_ns > t->max_ns)
			t->max_ns = r->rows[i].max_ns;
	t->buckets = merge_buckets(r, &t->nr_buckets);
	trace_row_finish(t);
}

struct table_widths {
	int name;
	int group;
};

static void print_columns(FILE *f, const struct table_widths *w)
{
	fprintf(f, "%-*s  %-*s  %10s  %8s  %8s  %6s  %8s  %8s  %8s  %8s\n",
		w->name, "syscall", w->group, "group", "calls", "errors",
		"total", "share", "mean", "p50", "p99", "max");
}

static void print_row(FILE *f, const struct table_widths *w,
		      const struct trace_row *row, uint64_t total_ns)
{
	char tot[TIME_LEN], mean[TIME_LEN], p50[TIME_LEN], p99[TIME_LEN];
	char max[TIME_LEN];

	fprintf(f, "%-*s  %-*s  %10" PRIu64 "  %8" PRIu64 "  %8s  %5.1f%%  "
		"%8s  %8s  %8s  %8s\n", w->name, row->name, w->group, row->group,
		row->calls, row->errors,
		fmt_time(tot, sizeof(tot), row->total_ns),
		share_pct(row->total_ns, total_ns),
		fmt_time(mean, sizeof(mean), row->mean_ns),
		fmt_time(p50, sizeof(p50), row->p50_ns),
		fmt_time(p99, sizeof(p99), row->p99_ns),
		fmt_time(max, sizeof(max), row->max_ns));
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

static void table_widths(const struct trace_report *r, struct table_widths *w)
{
	size_t i;
	int len;

	w->name = (int)strlen("syscall");
	w->group = (int)strlen("user data");
	for (i = 0; i < r->nr_rows; i++) {
		len = (int)strlen(r->rows[i].name);
		w->name = len > w->name ? len : w->name;
	}
}

void trace_print_table(FILE *f, const struct trace_report *r, bool hist)
{
	struct table_widths w;
	struct trace_row total;
	size_t i;

	print_header(f, r);
	table_widths(r, &w);
	print_columns(f, &w);
	for (i = 0; i < r->nr_rows; i++) {
		print_row(f, &w, &r->rows[i], r->total_ns);
		if (hist)
			print_hist(f, &r->rows[i]);
	}
	total_row(r, &total);
	if (hist && r->nr_rows)
		fputc('\n', f);	/* not under the last row's histogram */
	print_row(f, &w, &total, r->total_ns);
	free(total.buckets);
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
		", \"foreign\": %" PRIu64 "},\n", s->lost_tasks, s->lost_calls,
		s->lost_exits, s->lost_hist, s->unmatched, s->unfinished,
		s->foreign);
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

static void json_row(FILE *f, const struct trace_row *row, uint64_t total_ns)
{
	size_t i;

	fputs("    {\"name\": ", f);
	json_string(f, row->name);
	fprintf(f, ", \"nr\": %" PRIu32 ", \"group\": ", row->nr);
	json_string(f, row->group);
	fprintf(f, ", \"calls\": %" PRIu64 ", \"errors\": %" PRIu64
		", \"total_ns\": %" PRIu64 ", \"share\": %.3f,\n     \"mean_ns\": %"
		PRIu64 ", \"p50_ns\": %" PRIu64 ", \"p99_ns\": %" PRIu64
		", \"max_ns\": %" PRIu64 ", \"hist_calls\": %" PRIu64
		",\n     \"hist\": [", row->calls, row->errors, row->total_ns,
		share_pct(row->total_ns, total_ns), row->mean_ns, row->p50_ns,
		row->p99_ns, row->max_ns, row->hist_calls);
	for (i = 0; i < row->nr_buckets; i++)
		fprintf(f, "%s[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]",
			i ? ", " : "", row->buckets[i].low_ns,
			row->buckets[i].high_ns, row->buckets[i].count);
	fputs("]}", f);
}

/* "share" is a percentage of "total_ns", as in the table. */
void trace_print_json(FILE *f, const struct trace_report *r)
{
	size_t i;

	fputs("{\n  \"target\": ", f);
	json_string(f, r->target);
	fputs(",\n", f);
	if (r->has_exit)
		json_exit(f, r->exit_status);
	json_status(f, &r->status);
	fprintf(f, "  \"lost\": %" PRIu64 ",\n  \"total_ns\": %" PRIu64
		", \"calls\": %" PRIu64 ", \"errors\": %" PRIu64 ",\n"
		"  \"syscalls\": [", lost_events(&r->status), r->total_ns,
		r->total_calls, r->total_errors);
	for (i = 0; i < r->nr_rows; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_row(f, &r->rows[i], r->total_ns);
	}
	fputs(r->nr_rows ? "\n  ]" : "]", f);
	fputs(",\n  \"environment\": ", f);
	env_print_json(f);
	fputs("\n}\n", f);
}

void trace_print_csv(FILE *f, const struct trace_report *r)
{
	const struct trace_row *row;
	size_t i;

	fputs("name,nr,group,calls,errors,total_ns,share,mean_ns,p50_ns,"
	      "p99_ns,max_ns\n", f);
	for (i = 0; i < r->nr_rows; i++) {
		row = &r->rows[i];
		fprintf(f, "%s,%" PRIu32 ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%.3f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			row->name, row->nr, row->group, row->calls, row->errors,
			row->total_ns, share_pct(row->total_ns, r->total_ns),
			row->mean_ns, row->p50_ns, row->p99_ns, row->max_ns);
	}
}
