// SPDX-License-Identifier: MIT
/*
 * wsc diff --json: every row (unchanged ones too), the totals, the
 * thresholds, the context of each report and what differs in it, and the
 * verdict, built as json-c objects (common/json.h).
 */
#include <math.h>

#include "common/json.h"
#include "diff.h"

/* The figures' keys, as each kind of report names them (NULL: none). */
static const char *const trace_keys[DIFF_NR_VALUES] = {
	[DIFF_V_CALLS] = "calls", [DIFF_V_ERRORS] = "errors",
	[DIFF_V_WALL] = "total_ns", [DIFF_V_ON] = "on_cpu_ns",
	[DIFF_V_OFF] = "off_cpu_ns", [DIFF_V_P50] = "p50_ns",
	[DIFF_V_P99] = "p99_ns",
};
static const char *const bench_keys[DIFF_NR_VALUES] = {
	[DIFF_V_CALLS] = "samples", [DIFF_V_ERRORS] = "errors",
	[DIFF_V_WALL] = "median_ns", [DIFF_V_P99] = "p99_ns",
};

static const char *const side_names[] = {
	[DIFF_BOTH] = "both", [DIFF_ONLY_BASE] = "base", [DIFF_ONLY_NEW] = "new",
};

/* A figure with 3 decimals: a bench's nanoseconds have some. */
static struct json_object *figure(double v, bool present)
{
	return present ? json_new_fixed(v == floor(v) ? 0 : 3, v) : NULL;
}

/* {"base", "new", "change", "change_pct"}: null where a side has none. */
static struct json_object *change_json(const struct diff_pair *p,
				       enum diff_value v)
{
	struct json_object *o = json_object_new_object();
	bool b = p->side != DIFF_ONLY_NEW, n = p->side != DIFF_ONLY_BASE;

	json_put(o, "base", figure(p->base->v[v], b));
	json_put(o, "new", figure(p->now->v[v], n));
	json_put(o, "change", figure(diff_change(p, v), true));
	json_put(o, "change_pct", json_new_fixed(3, diff_change_pct(p, v)));
	return o;
}

static struct json_object *errnos_json(const struct diff_pair *p)
{
	struct json_object *o = json_object_new_object(), *e;
	const char *name;
	size_t k;
	double b, n;

	for (k = 0; (name = diff_pair_errno(p, k)); k++) {
		b = diff_errno_count(p->base, name);
		n = diff_errno_count(p->now, name);
		e = json_object_new_object();
		json_put(e, "base", figure(b, true));
		json_put(e, "new", figure(n, true));
		json_put(e, "change", figure(n - b, true));
		json_put(o, name, e);
	}
	return o;
}

static struct json_object *regressed_json(const struct diff_pair *p)
{
	struct json_object *a = json_object_new_array();
	int m;

	for (m = 0; m < DIFF_NR_METRICS; m++)
		if (p->regressed & (1u << m))
			json_object_array_add(a, json_new_str(diff_metric_names[m]));
	return a;
}

static struct json_object *pair_json(const struct diff_pair *p, const char *name,
				     const char *const *keys)
{
	struct json_object *o = json_object_new_object();
	enum diff_value v;

	json_put(o, "name", json_new_str(name));
	json_put(o, "side", json_new_str(side_names[p->side]));
	json_put(o, "regressed", regressed_json(p));
	json_put(o, "unchanged", json_new_flag(p->unchanged));
	for (v = 0; v < DIFF_NR_VALUES; v++) {
		if (!keys[v])
			continue;
		if ((v == DIFF_V_P50 || v == DIFF_V_P99) &&
		    !p->base->has_pct && !p->now->has_pct)
			continue;
		json_put(o, keys[v], change_json(p, v));
	}
	if (keys == trace_keys)
		json_put(o, "errnos", errnos_json(p));
	return o;
}

static struct json_object *side_json(const struct diff_report *r)
{
	struct json_object *o = json_object_new_object();
	unsigned int c;

	json_put(o, "path", json_new_str(r->path));
	for (c = 0; c < DIFF_NR_CTX; c++)
		json_put(o, diff_ctx_names[c], json_new_str_or_null(r->ctx[c]));
	json_put(o, "lost", json_new_u64((uint64_t)r->lost));
	json_put(o, "rows_left_out", json_new_u64((uint64_t)r->left_out));
	json_put(o, "interrupted", json_new_flag(r->interrupted));
	return o;
}

static struct json_object *different_json(const struct diff_report *base,
					  const struct diff_report *now)
{
	struct json_object *o = json_object_new_object(), *pair;
	unsigned int which[DIFF_NR_CTX];
	size_t i, n = diff_context(base, now, which, DIFF_NR_CTX);

	for (i = 0; i < n; i++) {
		pair = json_object_new_array();
		json_object_array_add(pair, json_new_str(base->ctx[which[i]]));
		json_object_array_add(pair, json_new_str(now->ctx[which[i]]));
		json_put(o, diff_ctx_names[which[i]], pair);
	}
	return o;
}

static struct json_object *thresholds_json(const struct diff_thresholds *t)
{
	struct json_object *a = json_object_new_array(), *o;
	char lim[32];
	size_t i;

	for (i = 0; i < t->n; i++) {
		o = json_object_new_object();
		json_put(o, "metric", json_new_str(diff_metric_names[t->lim[i].metric]));
		json_put(o, "limit", json_new_str(diff_limit_text(lim, sizeof(lim),
								  &t->lim[i])));
		json_put(o, "relative", json_new_flag(t->lim[i].relative));
		json_put(o, "value", figure(t->lim[i].value, true));
		json_object_array_add(a, o);
	}
	return a;
}

void diff_print_json(FILE *f, const struct diff_report *base,
		     const struct diff_report *now, const struct diff_result *res,
		     const struct diff_view *view)
{
	static const char *const line_starts[] = {
		"kind", "base", "new", "different", "thresholds", "verdict",
		"total", "rows", NULL
	};
	const char *const *keys = base->kind == DIFF_TRACE ? trace_keys : bench_keys;
	struct json_object *o = json_object_new_object();
	struct json_object *rows = json_object_new_array();
	size_t i;

	json_put(o, "kind", json_new_str(base->kind == DIFF_TRACE ? "trace" : "bench"));
	json_put(o, "time", json_new_str(keys[res->time_value]));
	json_put(o, "base", side_json(base));
	json_put(o, "new", side_json(now));
	json_put(o, "different", different_json(base, now));
	json_put(o, "thresholds", thresholds_json(view->thresholds));
	json_put(o, "verdict", json_new_str(res->regressions ? "regression" : "none"));
	json_put(o, "exit_status", json_new_u64(res->regressions ? 1 : 0));
	json_put(o, "regressions", json_new_u64(res->regressions));
	json_put(o, "rows_unchanged", json_new_u64(res->unchanged));
	json_put(o, "total", base->kind == DIFF_TRACE ?
		 pair_json(&res->total, "total", keys) : NULL);
	for (i = 0; i < res->nr; i++) {
		const struct diff_pair *p = &res->pairs[i];

		json_object_array_add(rows, pair_json(p, p->side == DIFF_ONLY_NEW ?
						      p->now->name : p->base->name,
						      keys));
	}
	json_put(o, "rows", rows);
	json_emit_lines(f, o, line_starts);
}
