// SPDX-License-Identifier: MIT
/*
 * wsc diff's thresholds: how much each figure may grow before the
 * comparison calls it a regression (exit status 1).
 *
 *   --threshold calls=5%        a row's calls may grow by 5 % of the base's
 *   --threshold errors=0        any new error is a regression
 *   --threshold time=10%,p99=2ms
 *   --threshold calls=5% --threshold calls=10
 *                               both must be passed: 5 % and 10 calls
 *   --threshold p99=off         no limit on p99 (its default dropped)
 *   --threshold none            no limit at all
 *
 * The first mention of a metric replaces that metric's defaults; the
 * others keep theirs.  The defaults are counts for a trace (they repeat
 * from run to run where times do not), the median for a bench (its
 * figure is a time).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

const char *const diff_metric_names[DIFF_NR_METRICS] = {
	[DIFF_M_CALLS] = "calls", [DIFF_M_ERRORS] = "errors",
	[DIFF_M_TIME] = "time", [DIFF_M_P50] = "p50", [DIFF_M_P99] = "p99",
};

static const struct {
	const char *unit;
	double ns;
} time_units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
};

static int metric_of(const char *name, size_t len)
{
	int m;

	for (m = 0; m < DIFF_NR_METRICS; m++)
		if (strlen(diff_metric_names[m]) == len &&
		    !strncmp(diff_metric_names[m], name, len))
			return m;
	return -1;
}

static bool is_count(enum diff_metric m)
{
	return m == DIFF_M_CALLS || m == DIFF_M_ERRORS;
}

/* "5%", "12", "2ms" for metric @m into @l; 0 or -1 with @why. */
static int parse_limit(struct diff_limit *l, enum diff_metric m,
		       const char *s, char *why, size_t len)
{
	const char *name = diff_metric_names[m];
	char *end;
	double v;
	size_t i;

	l->metric = m;
	l->relative = false;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || !(s[0] >= '0' && s[0] <= '9') || errno || !isfinite(v)) {
		snprintf(why, len, "%s=%s: the limit is a number (%s=5%%%s)",
			 name, s, name, is_count(m) ? ", errors=0" : ", p99=2ms");
		return -1;
	}
	if (!strcmp(end, "%")) {
		l->relative = true;
		l->value = v;
		return 0;
	}
	if (is_count(m)) {
		if (*end || v != floor(v)) {
			snprintf(why, len, "%s=%s: a whole number of %s or a percentage (%s=5%%)",
				 name, s, name, name);
			return -1;
		}
		l->value = v;
		return 0;
	}
	for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++) {
		if (!strcmp(end, time_units[i].unit)) {
			l->value = v * time_units[i].ns;
			return 0;
		}
	}
	snprintf(why, len, "%s=%s: a time with its unit (ns, us, ms, s) or a percentage (%s=10%%)",
		 name, s, name);
	return -1;
}

/* Drop @m's limits: the command line names it, its defaults go. */
static void forget(struct diff_thresholds *t, enum diff_metric m)
{
	size_t i, k = 0;

	for (i = 0; i < t->n; i++)
		if (t->lim[i].metric != m)
			t->lim[k++] = t->lim[i];
	t->n = k;
}

/* One "METRIC=LIMIT" of @len characters. */
static int parse_one(struct diff_thresholds *t, const char *s, size_t n,
		     char *why, size_t len)
{
	char item[64], *eq;
	int m;

	if (n >= sizeof(item) || !n) {
		snprintf(why, len, "'%.*s': not METRIC=LIMIT", (int)n, s);
		return -1;
	}
	memcpy(item, s, n);
	item[n] = '\0';
	if (!strcmp(item, "none")) {
		t->n = 0;
		for (m = 0; m < DIFF_NR_METRICS; m++)
			t->named[m] = true;
		return 0;
	}
	eq = strchr(item, '=');
	m = metric_of(item, eq ? (size_t)(eq - item) : strlen(item));
	if (m < 0) {
		snprintf(why, len, "'%.*s': no such metric (calls, errors, time, p50, p99, or none)",
			 (int)(eq ? eq - item : (long)n), item);
		return -1;
	}
	if (!eq || !eq[1]) {
		snprintf(why, len, "'%s': which limit? (%s=5%%, or %s=off)",
			 item, diff_metric_names[m], diff_metric_names[m]);
		return -1;
	}
	if (!t->named[m])
		forget(t, m);
	t->named[m] = true;
	if (!strcmp(eq + 1, "off")) {
		forget(t, m);
		return 0;
	}
	if (t->n == DIFF_MAX_LIMITS) {
		snprintf(why, len, "more than %d limits", DIFF_MAX_LIMITS);
		return -1;
	}
	if (parse_limit(&t->lim[t->n], m, eq + 1, why, len))
		return -1;
	t->n++;
	return 0;
}

int diff_threshold_parse(struct diff_thresholds *t, const char *arg,
			 char *why, size_t len)
{
	const char *s = arg;
	size_t n;

	do {
		n = strcspn(s, ",");
		if (parse_one(t, s, n, why, len))
			return -1;
		s += n;
	} while (*s++);
	return 0;
}

void diff_threshold_defaults(struct diff_thresholds *t, enum diff_kind kind)
{
	/*
	 * A trace: calls that grow by more than 5 % (a call appearing is
	 * infinitely more) and any new error; times vary between runs by
	 * more than any limit worth setting for everyone, so they are
	 * judged only when asked.  A bench: its median up 10 %, and any
	 * refused sample.
	 */
	static const struct diff_limit trace_defaults[] = {
		{ DIFF_M_CALLS, true, 5 }, { DIFF_M_ERRORS, false, 0 },
	};
	static const struct diff_limit bench_defaults[] = {
		{ DIFF_M_TIME, true, 10 }, { DIFF_M_ERRORS, false, 0 },
	};
	const struct diff_limit *d = kind == DIFF_TRACE ? trace_defaults :
				     bench_defaults;
	size_t i, n = kind == DIFF_TRACE ?
		      sizeof(trace_defaults) / sizeof(trace_defaults[0]) :
		      sizeof(bench_defaults) / sizeof(bench_defaults[0]);

	for (i = 0; i < n; i++)
		if (!t->named[d[i].metric] && t->n < DIFF_MAX_LIMITS)
			t->lim[t->n++] = d[i];
}

const char *diff_limit_text(char *buf, size_t len, const struct diff_limit *l)
{
	size_t i = sizeof(time_units) / sizeof(time_units[0]);

	if (l->relative) {
		snprintf(buf, len, "%g%%", l->value);
		return buf;
	}
	if (is_count(l->metric)) {
		snprintf(buf, len, "%.0f", l->value);
		return buf;
	}
	/* The largest unit that says it in whole numbers: 2ms, 1500us. */
	while (--i && fmod(l->value, time_units[i].ns))
		;
	snprintf(buf, len, "%.0f%s", l->value / time_units[i].ns, time_units[i].unit);
	return buf;
}

bool diff_exceeds(const struct diff_thresholds *t, enum diff_metric m,
		  double base, double now)
{
	double grew = now - base;
	bool any = false;
	size_t i;

	if (!(grew > 0))
		return false;
	for (i = 0; i < t->n; i++) {
		const struct diff_limit *l = &t->lim[i];

		if (l->metric != m)
			continue;
		any = true;
		/* From nothing, any growth is more than any percentage. */
		if (l->relative ? base > 0 && grew * 100 <= l->value * base :
				  grew <= l->value)
			return false;
	}
	return any;
}
