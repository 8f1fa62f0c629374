// SPDX-License-Identifier: MIT
/*
 * wsc trace --openmetrics FILE: the counts as Prometheus metrics.
 *
 * The file is in the Prometheus text format (0.0.4), which is what
 * node_exporter's textfile collector and `promtool check metrics` parse;
 * a strict OpenMetrics file could not be both (its counters' TYPE lines
 * name the family without "_total", which the text format then reads as
 * untyped samples).  Everything OpenMetrics asks that the text format can
 * carry is there: counters end in "_total", times are in seconds and say
 * so in their names, UNIT lines where the name allows one, and "# EOF" at
 * the end, both comments to the text format.
 *
 * io_uring's requests (--ring) are not system calls: they get families of
 * their own, wsc_ring_*, labelled by opcode, so that a sum over the
 * wsc_syscall_* series is the report's total, as the table's is.
 *
 * Every value is cumulative since the trace began, as counters must be:
 * with --interval the file is rewritten each interval, and Prometheus
 * takes the rates.  Times are exact decimals of the kernel's nanoseconds.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_openmetrics.h"

uint64_t trace_om_bound_ns(unsigned int i)
{
	return (1ull << (TRACE_OM_FIRST_BIT + i)) - 1;
}

uint64_t trace_om_cumulative(const struct trace_row *row, uint64_t le_ns)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < row->nr_buckets; i++)
		if (row->buckets[i].high_ns <= le_ns)
			n += row->buckets[i].count;
	return n;
}

/* @ns as seconds, exactly: "0.000001023", "2", "1.5". */
static const char *om_seconds(char *buf, size_t len, uint64_t ns)
{
	char frac[16];
	int n = snprintf(frac, sizeof(frac), "%09" PRIu64, ns % 1000000000u);

	while (n > 0 && frac[n - 1] == '0')
		frac[--n] = '\0';
	snprintf(buf, len, "%" PRIu64 "%s%s", ns / 1000000000u, n ? "." : "",
		 frac);
	return buf;
}

/*
 * The length of the valid UTF-8 sequence at @s, or 0: a label value must
 * be UTF-8 (node_exporter drops a file with one that is not), and a
 * command line or a comm need not be.
 */
static size_t utf8_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* a NUL ends it too */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/* @value in a label: quotes, backslashes, line breaks escaped, bad bytes '?'. */
static void om_escaped(FILE *f, const char *value)
{
	const unsigned char *s = (const unsigned char *)value;
	size_t n;

	while (*s) {
		n = utf8_len(s);
		if (!n) {
			fputc('?', f);
			s++;
		} else if (*s == '\\' || *s == '"') {
			fputc('\\', f);
			fputc(*s++, f);
		} else if (*s == '\n') {
			fputs("\\n", f);
			s++;
		} else {
			fwrite(s, 1, n, f);
			s += n;
		}
	}
}

/* ,NAME="VALUE" */
static void om_label(FILE *f, const char *name, const char *value)
{
	fprintf(f, ",%s=\"", name);
	om_escaped(f, value);
	fputc('"', f);
}

/* NAME{target="...": a sample's start, its other labels to follow. */
static void om_sample(FILE *f, const char *name, const char *suffix,
		      const struct trace_report *r)
{
	fprintf(f, "%s%s{target=\"", name, suffix);
	om_escaped(f, r->target);
	fputc('"', f);
}

/*
 * The rows a set of families covers: the system calls, or io_uring's
 * requests by opcode.
 */
struct om_kind {
	const char *prefix;	/* of every family's name */
	const char *label;	/* what names a row */
	const char *what;	/* for people, in HELP */
	const char *latency;	/* the latency's HELP */
	bool ring;		/* the rows with trace_row.ring */
};

static const struct om_kind om_syscalls = {
	"wsc_syscall_", "syscall", "System calls",
	"System call latency, entry to exit.", false,
};

static const struct om_kind om_ring = {
	"wsc_ring_", "op", "io_uring requests (wsc trace --ring)",
	"io_uring request latency, submission to completion.", true,
};

/* NAME{target="...",syscall="..." (or op="READ"): a row's sample's start. */
static void om_row_sample(FILE *f, const struct om_kind *k, const char *name,
			  const char *suffix, const struct trace_report *r,
			  const struct trace_row *row)
{
	static const char ring[] = "ring:";
	const char *id = row->name;

	if (k->ring && !strncmp(id, ring, sizeof(ring) - 1))
		id += sizeof(ring) - 1;
	om_sample(f, name, suffix, r);
	om_label(f, k->label, id);
}

/* "} 12\n", or "} 0.5\n" with @seconds. */
static void om_value(FILE *f, uint64_t v, bool seconds)
{
	char buf[32];

	if (seconds)
		fprintf(f, "} %s\n", om_seconds(buf, sizeof(buf), v));
	else
		fprintf(f, "} %" PRIu64 "\n", v);
}

/* A family's HELP and TYPE lines, and UNIT when its name ends in it. */
static void om_family(FILE *f, const char *prefix, const char *name,
		      const char *type, const char *help)
{
	static const char unit[] = "_seconds";
	size_t n = strlen(name), u = sizeof(unit) - 1;

	fprintf(f, "# HELP %s%s %s\n# TYPE %s%s %s\n", prefix, name, help,
		prefix, name, type);
	if (n >= u && !strcmp(name + n - u, unit))
		fprintf(f, "# UNIT %s%s seconds\n", prefix, name);
}

/* The counters of a system call or a task: what each value is. */
struct om_counter {
	const char *name;
	const char *help;
	bool seconds;
	uint64_t (*of_row)(const struct trace_row *row);
	uint64_t (*of_task)(const struct wsc_trace_task *t);
};

static uint64_t row_calls(const struct trace_row *row)
{
	return row->calls;
}

static uint64_t row_wrapped(const struct trace_row *row)
{
	return row->wrapped;
}

static uint64_t row_cpu(const struct trace_row *row)
{
	return trace_time_of(TRACE_TIME_CPU, row->total_ns, row->off_ns);
}

static uint64_t row_off(const struct trace_row *row)
{
	return trace_time_of(TRACE_TIME_OFF, row->total_ns, row->off_ns);
}

static uint64_t task_calls(const struct wsc_trace_task *t)
{
	return t->calls;
}

static uint64_t task_errors(const struct wsc_trace_task *t)
{
	return t->errors;
}

static uint64_t task_cpu(const struct wsc_trace_task *t)
{
	return trace_time_of(TRACE_TIME_CPU, t->total_ns, t->off_ns);
}

static uint64_t task_off(const struct wsc_trace_task *t)
{
	return trace_time_of(TRACE_TIME_OFF, t->total_ns, t->off_ns);
}

static const struct om_counter row_counters[] = {
	{ "calls_total", "System calls that finished.", false, row_calls, NULL },
	{ "wrapped_total", "System calls a wsc batch ran (each also in calls).",
	  false, row_wrapped, NULL },
	{ "cpu_seconds_total", "Time in the system calls on the CPU.", true,
	  row_cpu, NULL },
	{ "off_cpu_seconds_total",
	  "Time in the system calls off the CPU: blocked or waiting for one.",
	  true, row_off, NULL },
};

static const struct om_counter task_counters[] = {
	{ "calls_total", "System calls that finished.", false, NULL, task_calls },
	{ "errors_total", "System calls that failed.", false, NULL, task_errors },
	{ "cpu_seconds_total", "Time in the system calls on the CPU.", true,
	  NULL, task_cpu },
	{ "off_cpu_seconds_total",
	  "Time in the system calls off the CPU: blocked or waiting for one.",
	  true, NULL, task_off },
};

/* The trace itself: which one, how long so far, what the kernel missed. */
static void om_trace(FILE *f, const struct trace_report *r)
{
	char id[24];

	om_family(f, "wsc_trace_", "info", "gauge",
		  "The trace counting these system calls: its target and id.");
	snprintf(id, sizeof(id), "%" PRIu64, (uint64_t)r->status.id);
	om_sample(f, "wsc_trace_info", "", r);
	om_label(f, "trace", id);
	om_value(f, 1, false);
	om_family(f, "wsc_trace_", "duration_seconds", "gauge",
		  "How long the trace has run.");
	om_sample(f, "wsc_trace_duration_seconds", "", r);
	om_value(f, r->status.duration_ns, true);
	om_family(f, "wsc_trace_", "lost_events_total", "counter",
		  "Events the kernel could not count: the counts are short by these.");
	om_sample(f, "wsc_trace_lost_events_total", "", r);
	om_value(f, trace_lost_events(&r->status), false);
	if (!r->ring)
		return;
	om_family(f, "wsc_ring_", "lost_requests_total", "counter",
		  "io_uring requests the trace could not count.");
	om_sample(f, "wsc_ring_lost_requests_total", "", r);
	om_value(f, r->ring_lost, false);
	om_family(f, "wsc_ring_", "pending_requests", "gauge",
		  "io_uring requests submitted whose completion the trace has not seen.");
	om_sample(f, "wsc_ring_pending_requests", "", r);
	om_value(f, r->ring_pending, false);
}

/* Per errno; failures the kernel could not tell apart: errno="unknown". */
static void om_errors(FILE *f, const struct om_kind *k,
		      const struct trace_report *r)
{
	const struct trace_row *row;
	char name[32], family[64], help[96];
	uint64_t told;
	size_t i, j;

	snprintf(family, sizeof(family), "%serrors_total", k->prefix);
	snprintf(help, sizeof(help), "%s that failed, by errno.", k->what);
	om_family(f, k->prefix, "errors_total", "counter", help);
	for (i = 0; i < r->nr_rows; i++) {
		row = &r->rows[i];
		if (row->ring != k->ring)
			continue;
		told = 0;
		for (j = 0; j < row->nr_errnos; j++) {
			om_row_sample(f, k, family, "", r, row);
			om_label(f, "errno", trace_errno_name(name, sizeof(name),
							      row->errnos[j].err));
			om_value(f, row->errnos[j].count, false);
			told += row->errnos[j].count;
		}
		if (row->errors <= told)
			continue;
		om_row_sample(f, k, family, "", r, row);
		om_label(f, "errno", "unknown");
		om_value(f, row->errors - told, false);
	}
}

/* Wall-clock latency: the buckets cumulative at the fixed bounds. */
static void om_latency(FILE *f, const struct om_kind *k,
		       const struct trace_report *r)
{
	const struct trace_row *row;
	char le[32], h[64];
	size_t i;
	unsigned int b;

	snprintf(h, sizeof(h), "%slatency_seconds", k->prefix);
	om_family(f, k->prefix, "latency_seconds", "histogram", k->latency);
	for (i = 0; i < r->nr_rows; i++) {
		row = &r->rows[i];
		if (row->ring != k->ring)
			continue;
		for (b = 0; b < TRACE_OM_BOUNDS; b++) {
			om_row_sample(f, k, h, "_bucket", r, row);
			om_label(f, "le", om_seconds(le, sizeof(le),
						      trace_om_bound_ns(b)));
			om_value(f, trace_om_cumulative(row, trace_om_bound_ns(b)),
				 false);
		}
		om_row_sample(f, k, h, "_bucket", r, row);
		om_label(f, "le", "+Inf");
		om_value(f, row->hist_calls, false);
		om_row_sample(f, k, h, "_sum", r, row);
		om_value(f, row->total_ns, true);
		om_row_sample(f, k, h, "_count", r, row);
		om_value(f, row->hist_calls, false);
	}
}

/* wsc_process_* (pid, comm) or wsc_thread_* (tid, pid, comm): --by. */
static void om_tasks(FILE *f, const struct trace_report *r)
{
	bool proc = r->by == TRACE_BY_PROCESS;
	const char *prefix = proc ? "wsc_process_" : "wsc_thread_";
	const struct om_counter *c;
	struct trace_task_sum *sums;
	char name[64], num[16], comm[sizeof(sums->t.comm) + 1];
	size_t i, k, n;

	sums = trace_sum_tasks(r, proc, &n);
	if (!sums)
		return;
	for (k = 0; k < sizeof(task_counters) / sizeof(*c); k++) {
		c = &task_counters[k];
		om_family(f, prefix, c->name, "counter", c->help);
		snprintf(name, sizeof(name), "%s%s", prefix, c->name);
		for (i = 0; i < n; i++) {
			om_sample(f, name, "", r);
			if (!proc) {
				snprintf(num, sizeof(num), "%" PRIu32, sums[i].t.tid);
				om_label(f, "tid", num);
			}
			snprintf(num, sizeof(num), "%" PRIu32, sums[i].t.pid);
			om_label(f, "pid", num);
			snprintf(comm, sizeof(comm), "%.*s",
				 (int)sizeof(sums[i].t.comm), sums[i].t.comm);
			om_label(f, "comm", comm);
			om_value(f, c->of_task(&sums[i].t), c->seconds);
		}
	}
	free(sums);
}

/*
 * @k's counters: each of row_counters for the system calls; for the
 * requests only their count, their time being all latency (the
 * histogram's _sum), not time a task spent in them.
 */
static void om_counters(FILE *f, const struct om_kind *k,
			const struct trace_report *r)
{
	static const struct om_counter requests = {
		"requests_total", "io_uring requests that completed.", false,
		row_calls, NULL,
	};
	const struct om_counter *c;
	size_t i, j, n;
	char name[64];

	c = k->ring ? &requests : row_counters;
	n = k->ring ? 1 : sizeof(row_counters) / sizeof(*c);
	for (j = 0; j < n; j++, c++) {
		om_family(f, k->prefix, c->name, "counter", c->help);
		snprintf(name, sizeof(name), "%s%s", k->prefix, c->name);
		for (i = 0; i < r->nr_rows; i++) {
			if (r->rows[i].ring != k->ring)
				continue;
			om_row_sample(f, k, name, "", r, &r->rows[i]);
			om_value(f, c->of_row(&r->rows[i]), c->seconds);
		}
	}
}

/* The families of the system calls, or of io_uring's requests. */
static void om_rows(FILE *f, const struct om_kind *k,
		    const struct trace_report *r)
{
	om_counters(f, k, r);
	om_errors(f, k, r);
	om_latency(f, k, r);
}

void trace_om_print(FILE *f, const struct trace_report *r)
{
	om_trace(f, r);
	om_rows(f, &om_syscalls, r);
	if (r->ring)
		om_rows(f, &om_ring, r);
	if (r->by != TRACE_BY_NONE)
		om_tasks(f, r);
	fputs("# EOF\n", f);
}

int trace_om_write(struct csv_out *c, const struct trace_report *r)
{
	bool bad;
	int err;

	if (!c->f)
		c->f = fopen(c->tmp, "we");
	if (c->f) {
		trace_om_print(c->f, r);
		bad = ferror(c->f);
		bad |= fclose(c->f) != 0;
		c->f = NULL;
		if (!bad && !rename(c->tmp, c->path))
			return 0;
	}
	err = errno ? -errno : -EIO;
	fprintf(stderr, "wsc trace: --openmetrics: writing %s failed: %s\n",
		c->path, strerror(-err));
	unlink(c->tmp);
	return err;
}
