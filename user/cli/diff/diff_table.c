// SPDX-License-Identifier: MIT
/*
 * wsc diff's table: what was compared with what and how they differ, a
 * row per changed system call (or bench variant) under 100 columns, the
 * errnos that changed, what was left out, and the verdict.
 */
#include <math.h>
#include <string.h>

#include "diff.h"

#define CELL	24

static const char *const time_names[DIFF_NR_VALUES] = {
	[DIFF_V_ON] = "on-cpu", [DIFF_V_WALL] = "wall", [DIFF_V_OFF] = "off-cpu",
};

/* "+100%", "-3.2%", "=", "from 0", with "!" when past the thresholds. */
static const char *pct_cell(char *buf, const struct diff_pair *p,
			    enum diff_value v, bool past)
{
	double pct = diff_change_pct(p, v);
	const char *mark = past ? "!" : "";

	if (p->side == DIFF_ONLY_NEW)
		snprintf(buf, CELL, "new%s", mark);
	else if (p->side == DIFF_ONLY_BASE)
		snprintf(buf, CELL, "gone");
	else if (isnan(pct) || pct == 0)
		snprintf(buf, CELL, "=%s", mark);
	else if (isinf(pct))
		snprintf(buf, CELL, "%s0%s", pct > 0 ? "from " : "to ", mark);
	else if (pct >= 1000)
		/* Past ten times, a factor reads better: "52x". */
		snprintf(buf, CELL, "%.0fx%s", p->now->v[v] / p->base->v[v], mark);
	else
		snprintf(buf, CELL, "%+.*f%%%s", fabs(pct) < 9.95 ? 1 : 0, pct, mark);
	return buf;
}

static const char *count_cell(char *buf, double v, bool present, bool past)
{
	if (!present)
		snprintf(buf, CELL, "-");
	else
		snprintf(buf, CELL, "%.0f%s", v, past ? "!" : "");
	return buf;
}

static const char *time_cell(char *buf, double ns, bool present)
{
	if (!present)
		return strcpy(buf, "-");
	return diff_ns_text(buf, CELL, ns);
}

static bool past(const struct diff_pair *p, enum diff_metric m)
{
	return p->regressed & (1u << m);
}

static const char *pair_name(const struct diff_pair *p)
{
	return p->side == DIFF_ONLY_NEW ? p->now->name : p->base->name;
}

/* @line without the blanks of empty cells at its end, and a newline. */
static void put_line(FILE *f, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(f, "%s\n", line);
}

/* One row of a trace's table; @name for the total's. */
static void trace_row(FILE *f, const struct diff_pair *p, const char *name,
		      enum diff_value tv)
{
	char c[10][CELL], line[256];
	bool b = p->side != DIFF_ONLY_NEW, n = p->side != DIFF_ONLY_BASE;
	bool pct = p->base->has_pct || p->now->has_pct;

	snprintf(line, sizeof(line), "%-16s %7s %7s %8s  %6s %6s  %7s %7s %8s %8s %8s", name,
		count_cell(c[0], p->base->v[DIFF_V_CALLS], b, false),
		count_cell(c[1], p->now->v[DIFF_V_CALLS], n, false),
		pct_cell(c[2], p, DIFF_V_CALLS, past(p, DIFF_M_CALLS)),
		count_cell(c[3], p->base->v[DIFF_V_ERRORS], b, false),
		count_cell(c[4], p->now->v[DIFF_V_ERRORS], n, past(p, DIFF_M_ERRORS)),
		time_cell(c[5], p->base->v[tv], b), time_cell(c[6], p->now->v[tv], n),
		pct_cell(c[7], p, tv, past(p, DIFF_M_TIME)),
		pct ? pct_cell(c[8], p, DIFF_V_P50, past(p, DIFF_M_P50)) : "",
		pct ? pct_cell(c[9], p, DIFF_V_P99, past(p, DIFF_M_P99)) : "");
	put_line(f, line);
}

static void bench_row(FILE *f, const struct diff_pair *p)
{
	char c[8][CELL];
	bool b = p->side != DIFF_ONLY_NEW, n = p->side != DIFF_ONLY_BASE;

	fprintf(f, "%-28s %7s %7s %8s %8s %8s %8s  %6s %6s\n", pair_name(p),
		time_cell(c[0], p->base->v[DIFF_V_WALL], b),
		time_cell(c[1], p->now->v[DIFF_V_WALL], n),
		pct_cell(c[2], p, DIFF_V_WALL, past(p, DIFF_M_TIME) || past(p, DIFF_M_P50)),
		time_cell(c[3], p->base->v[DIFF_V_P99], b),
		time_cell(c[4], p->now->v[DIFF_V_P99], n),
		pct_cell(c[5], p, DIFF_V_P99, past(p, DIFF_M_P99)),
		count_cell(c[6], p->base->v[DIFF_V_ERRORS], b, false),
		count_cell(c[7], p->now->v[DIFF_V_ERRORS], n, past(p, DIFF_M_ERRORS)));
}

static void print_side(FILE *f, const char *label, const struct diff_report *r)
{
	fprintf(f, "%s %s: %s", label, r->path, r->ctx[DIFF_CTX_TARGET]);
	if (r->ctx[DIFF_CTX_KERNEL][0])
		fprintf(f, " (kernel %s, wsc %s, %s)", r->ctx[DIFF_CTX_KERNEL],
			r->ctx[DIFF_CTX_VERSION], r->ctx[DIFF_CTX_DATE]);
	fputc('\n', f);
}

static void print_context(FILE *f, const struct diff_report *base,
			  const struct diff_report *now)
{
	unsigned int which[DIFF_NR_CTX];
	size_t i, n = diff_context(base, now, which, DIFF_NR_CTX);

	print_side(f, "base:", base);
	print_side(f, "new: ", now);
	for (i = 0; i < n; i++)
		fprintf(f, "different %s: \"%s\" vs \"%s\"\n",
			diff_ctx_names[which[i]], base->ctx[which[i]],
			now->ctx[which[i]]);
}

static void print_thresholds(FILE *f, const struct diff_thresholds *t)
{
	char lim[32];
	size_t i;

	fprintf(f, "thresholds:");
	for (i = 0; i < t->n; i++)
		fprintf(f, "%s %s=%s", i ? "," : "", diff_metric_names[t->lim[i].metric],
			diff_limit_text(lim, sizeof(lim), &t->lim[i]));
	fprintf(f, "%s; past them: \"!\"\n", t->n ? "" : " none");
}

/* The errnos whose counts changed, a line each. */
static void print_errnos(FILE *f, const struct diff_result *res,
			 const struct diff_thresholds *t)
{
	bool head = false;
	const char *e;
	size_t i, k;
	double b, n;

	for (i = 0; i < res->nr; i++) {
		const struct diff_pair *p = &res->pairs[i];

		for (k = 0; (e = diff_pair_errno(p, k)); k++) {
			b = diff_errno_count(p->base, e);
			n = diff_errno_count(p->now, e);
			if (b == n)
				continue;
			if (!head)
				fprintf(f, "\nerrors by errno, base -> new:\n");
			head = true;
			fprintf(f, "%-16s %-12s %6.0f -> %-6.0f %+.0f%s\n",
				pair_name(p), e, b, n, n - b,
				diff_exceeds(t, DIFF_M_ERRORS, b, n) ? "!" : "");
		}
	}
}

static void print_warnings(FILE *f, const struct diff_report *r)
{
	if (r->lost)
		fprintf(f, "WARNING: %s: the kernel lost %.0f events: its counts are short\n",
			r->path, r->lost);
	if (r->left_out)
		fprintf(f, "WARNING: %s: written with --top: %.0f system calls (%.0f calls) are not in it, and not compared\n",
			r->path, r->left_out, r->calls_left_out);
	if (r->interrupted)
		fprintf(f, "WARNING: %s: the bench was interrupted: its figures are of part of the samples\n",
			r->path);
}

/* Each regressed row and its metrics, "; "-separated, lines wrapped at 100. */
static void print_verdict(FILE *f, const struct diff_result *res)
{
	char item[160];
	size_t i, col, len;
	bool first = true;
	int m, n;

	if (!res->regressions) {
		fprintf(f, "no regression past the thresholds\n");
		return;
	}
	col = (size_t)fprintf(f, "REGRESSION: %zu row%s past the thresholds:",
			      res->regressions, res->regressions == 1 ? "" : "s");
	for (i = 0; i <= res->nr; i++) {
		const struct diff_pair *p = i < res->nr ? &res->pairs[i] : &res->total;

		if (!p->regressed)
			continue;
		n = snprintf(item, sizeof(item), "%s (", i < res->nr ? pair_name(p) : "total");
		for (m = 0; m < DIFF_NR_METRICS; m++)
			if (past(p, m))
				n += snprintf(item + n, sizeof(item) - (size_t)n, "%s%s",
					      p->regressed & ((1u << m) - 1) ? ", " : "",
					      diff_metric_names[m]);
		snprintf(item + n, sizeof(item) - (size_t)n, ")");
		if (!first)
			col += (size_t)fprintf(f, ";");
		first = false;
		len = strlen(item) + 1;
		if (col + len > 100) {
			fprintf(f, "\n ");
			col = 1;
		}
		col += (size_t)fprintf(f, " %s", item);
	}
	fprintf(f, "\n");
}

/* "---- calls ----": @label in the middle of @width columns of dashes. */
static const char *span(char *buf, size_t width, const char *label)
{
	size_t n = strlen(label) + 2, at = (width - n) / 2;

	memset(buf, '-', width);
	buf[width] = '\0';
	buf[at] = ' ';
	memcpy(buf + at + 1, label, n - 2);
	buf[at + n - 1] = ' ';
	return buf;
}

void diff_print_table(FILE *f, const struct diff_report *base,
		      const struct diff_report *now, const struct diff_result *res,
		      const struct diff_view *view)
{
	enum diff_value tv = res->time_value;
	bool trace = base->kind == DIFF_TRACE;
	size_t i, shown = 0, hidden = 0;
	double hidden_calls = 0;
	char s[4][32];

	print_context(f, base, now);
	print_thresholds(f, view->thresholds);
	fprintf(f, "\n");
	if (trace) {
		fprintf(f, "%-16s %s  %s  %s %8s %8s\n", "", span(s[0], 24, "calls"),
			span(s[1], 13, "errors"), span(s[2], 24, time_names[tv]),
			"p50", "p99");
		fprintf(f, "%-16s %7s %7s %8s  %6s %6s  %7s %7s %8s %8s %8s\n",
			"syscall", "base", "new", "change", "base", "new",
			"base", "new", "change", "change", "change");
	} else {
		fprintf(f, "%-28s %s %s  %s\n", "", span(s[0], 24, "median"),
			span(s[1], 26, "p99"), span(s[2], 13, "errors"));
		fprintf(f, "%-28s %7s %7s %8s %8s %8s %8s  %6s %6s\n", "call variant",
			"base", "new", "change", "base", "new", "change", "base", "new");
	}
	for (i = 0; i < res->nr; i++) {
		const struct diff_pair *p = &res->pairs[i];

		if (p->unchanged)
			continue;
		if (view->top && shown == view->top) {
			hidden++;
			hidden_calls += p->now->v[DIFF_V_CALLS];
			continue;
		}
		shown++;
		if (trace)
			trace_row(f, p, pair_name(p), tv);
		else
			bench_row(f, p);
	}
	if (hidden)
		fprintf(f, "... %zu more changed row%s (%.0f calls in the new report) not shown (--top %zu)\n",
			hidden, hidden == 1 ? "" : "s", hidden_calls, view->top);
	if (res->unchanged)
		fprintf(f, "... %zu row%s unchanged, not shown (every row is in --json)\n",
			res->unchanged, res->unchanged == 1 ? "" : "s");
	if (trace)
		trace_row(f, &res->total, "total", tv);
	if (trace)
		print_errnos(f, res, view->thresholds);
	fprintf(f, "\n");
	print_warnings(f, base);
	print_warnings(f, now);
	print_verdict(f, res);
}
