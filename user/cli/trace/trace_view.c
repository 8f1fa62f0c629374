// SPDX-License-Identifier: MIT
/*
 * wsc trace: what the table, the JSON and the CSV writers all say the
 * same way: the kernel's states in words, the losses, the shares, the
 * rows --top shows, errno names, times for people and the table's
 * wrapped lines.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "trace.h"

/* What the kernel missed: the figures are too small by these. */
uint64_t trace_lost_events(const struct wsc_trace_status *s)
{
	return s->lost_tasks + s->lost_calls + s->lost_exits + s->lost_hist;
}

/* The kernel's words for a trace's state and its end, by their values. */
static const char *const state_names[] = {
	[WSC_TRACE_IDLE] = "idle", [WSC_TRACE_ACTIVE] = "active",
	[WSC_TRACE_ENDED] = "ended",
};
static const char *const end_names[] = {
	[WSC_TRACE_END_NONE] = "none", [WSC_TRACE_END_STOPPED] = "stopped",
	[WSC_TRACE_END_EXITED] = "target exited",
};

/* @names[@i], or "unknown" for a value this wsc has no name for. */
static const char *name_of(const char *const *names, size_t n, uint32_t i)
{
	return i < n && names[i] ? names[i] : "unknown";
}

const char *trace_state_name(uint32_t state)
{
	return name_of(state_names, sizeof(state_names) / sizeof(*state_names),
		       state);
}

const char *trace_end_name(uint32_t end)
{
	return name_of(end_names, sizeof(end_names) / sizeof(*end_names), end);
}

void trace_wrap_begin(struct trace_wrap *w, FILE *f, const char *head,
		      int indent)
{
	w->f = f;
	w->col = fprintf(f, "%s", head);
	w->indent = indent;
	w->first = true;
}

/* @sep, then the item; on a new line when it would not fit. */
void trace_wrap_item(struct trace_wrap *w, const char *sep, const char *fmt,
		     ...)
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
	if (!w->first && w->col + len > TRACE_TABLE_COLS) {
		/* The separator's mark ends the line: "a," then "b" below. */
		fprintf(w->f, "%.*s\n%*s", (int)strcspn(sep, " "), sep,
			w->indent, "");
		w->col = w->indent;
		sep = "";
	}
	w->col += fprintf(w->f, "%s%s", sep, item);
	w->first = false;
}

void trace_wrap_end(struct trace_wrap *w)
{
	fputc('\n', w->f);
}

/* "1 task", "2 tasks". */
const char *trace_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* @part as a percentage of @whole, 0 when there is no whole. */
double trace_share_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/*
 * @ns for people, to 3 significant digits: "812ns", "12.3us", "4.56ms",
 * "1.23s".  The unit is chosen after rounding, so 999.7us is "1.00ms".
 */
const char *trace_fmt_time(char *buf, size_t len, uint64_t ns)
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

const char *trace_errno_name(char *buf, size_t len, uint32_t err)
{
	const char *name = err <= INT32_MAX ? strerrorname_np((int)err) : NULL;

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "E%" PRIu32, err);
	return buf;
}

/* The time --time means of @row, and its share of the report's. */
uint64_t trace_row_time(const struct trace_report *r,
			const struct trace_row *row)
{
	return trace_time_of(r->time, row->total_ns, row->off_ns);
}

uint64_t trace_report_time(const struct trace_report *r)
{
	return trace_time_of(r->time, r->total_ns, r->total_off_ns);
}

double trace_row_share(const struct trace_report *r,
		       const struct trace_row *row)
{
	/* A ring request's time is not in the calls' total: no share of it. */
	if (row->ring)
		return 0;
	return trace_share_pct(trace_row_time(r, row), trace_report_time(r));
}

/* The rows shown: --top's first ones, or all. */
size_t trace_shown_rows(const struct trace_report *r)
{
	return r->top && r->top < r->nr_rows ? r->top : r->nr_rows;
}
