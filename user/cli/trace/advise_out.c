// SPDX-License-Identifier: MIT
/*
 * wsc trace --advise: the "batching" section after the table and the
 * "batching" object of the JSON (Documentation/advise.md, wsc-trace(8)
 * ADVISE).
 */
#include <string.h>

#include "advise.h"
#include "common/json.h"
#include "trace.h"

/* Sequences the table shows, and the JSON; references per sequence shown. */
#define ADVISE_TABLE_SEQS	10
#define ADVISE_JSON_SEQS	100
#define ADVISE_TABLE_REFS	6
/* Calls of a sequence the JSON names (its summary folds them all). */
#define ADVISE_JSON_CALLS	64
/* A sequence's summary, folded, cut beyond this. */
#define ADVISE_SUMMARY_LEN	1024

static void print_calib(FILE *f, const struct advise_calib *c)
{
	const struct advise_costs *x = &c->costs;
	char be[32];

	if (x->break_even)
		snprintf(be, sizeof(be), "%u call%s", x->break_even,
			 trace_plural(x->break_even));
	else
		snprintf(be, sizeof(be), "none up to %u", ADVISE_BATCH_MAX);
	fprintf(f, "  calibration: %s%s\n", c->path,
		c->fresh ? " (measured now)" : "");
	fprintf(f, "    %s, kernel %s, module %s, %u rounds\n", c->date,
		c->kernel, c->module, c->rounds);
	fprintf(f, "    entry %.1fns; batch %.1f + %.1f x n ns; break-even %s; gap floor %.1fns\n",
		x->entry_ns, x->batch_fixed_ns, x->batch_per_call_ns, be,
		c->gap_floor_ns);
}

/* The sequence's calls, folded, wrapped at the table's width. */
static void print_seq_calls(FILE *f, const struct advise_seq *s)
{
	char text[ADVISE_SUMMARY_LEN];
	struct trace_wrap w;
	const char *p = text;
	bool first = true;

	advise_seq_summary(s->nrs, s->len, text, sizeof(text));
	trace_wrap_begin(&w, f, "    ", 6);
	while (*p) {
		const char *arrow = strstr(p, " -> ");
		int n = arrow ? (int)(arrow - p) : (int)strlen(p);

		trace_wrap_item(&w, " ", "%s%.*s", first ? "" : "-> ", n, p);
		first = false;
		p += n + (arrow ? 4 : 0);
	}
	trace_wrap_end(&w);
}

static void print_seq(FILE *f, const struct advise_seq *s)
{
	char t[TRACE_TIME_LEN], ref[96];
	struct trace_wrap w;
	size_t i;

	fprintf(f, "  %llu run%s of %zu calls, %s%s\n",
		(unsigned long long)s->count, trace_plural(s->count), s->len,
		s->worth ? "saves " : "below the break-even: not worth a batch",
		s->worth ? trace_fmt_time(t, sizeof(t), (uint64_t)s->saving_ns) : "");
	print_seq_calls(f, s);
	if (!s->nr_refs)
		return;
	trace_wrap_begin(&w, f, "    references: ", 6);
	for (i = 0; i < s->nr_refs && i < ADVISE_TABLE_REFS; i++) {
		advise_ref_text(s, &s->refs[i], ref, sizeof(ref));
		trace_wrap_item(&w, ", ", "%s", ref);
	}
	if (s->nr_refs > ADVISE_TABLE_REFS)
		trace_wrap_item(&w, ", ", "and %zu more",
				s->nr_refs - ADVISE_TABLE_REFS);
	trace_wrap_end(&w);
}

void advise_print(FILE *f, const struct advise_report *a, uint64_t traced_ns)
{
	char t1[TRACE_TIME_LEN], t2[TRACE_TIME_LEN], t3[TRACE_TIME_LEN];
	size_t i;

	fprintf(f, "\nbatching (--advise: what wrapped batches would save; Documentation/advise.md):\n");
	fprintf(f, "  gap threshold %s", trace_fmt_time(t1, sizeof(t1), a->gap_ns));
	if (a->gap_default)
		fprintf(f, " (the default: %d gap floors)\n", ADVISE_GAP_FLOORS);
	else
		fprintf(f, " (--gap)\n");
	fprintf(f, "  %llu event%s of %llu thread%s: %llu call%s in %llu run%s of 2 or more; %llu already batched\n",
		(unsigned long long)a->events, trace_plural(a->events),
		(unsigned long long)a->threads, trace_plural(a->threads),
		(unsigned long long)a->run_calls, trace_plural(a->run_calls),
		(unsigned long long)a->runs, trace_plural(a->runs),
		(unsigned long long)a->already_wrapped);
	if (a->lost_events || a->events_dropped)
		fprintf(f, "  lost events: %llu dropped by the kernel (a ring was full), %llu beyond the %u kept: the figures are too small\n",
			(unsigned long long)a->lost_events,
			(unsigned long long)a->events_dropped, ADVISE_EVENTS_MAX);
	/* Only the runs at or above the break-even are priced: say which. */
	if (a->calib.costs.break_even)
		fprintf(f, "  kernel entries of the runs of %u call%s or more (the break-even): %llu now -> %llu batched\n",
			a->calib.costs.break_even,
			trace_plural(a->calib.costs.break_even),
			(unsigned long long)a->entries_now,
			(unsigned long long)a->entries_batched);
	else
		fprintf(f, "  kernel entries of the runs worth batching (none: no batch up to %u calls pays here): %llu now -> %llu batched\n",
			ADVISE_BATCH_MAX, (unsigned long long)a->entries_now,
			(unsigned long long)a->entries_batched);
	fprintf(f, "  predicted saving: at most %s, %.2f%% of the %s traced (an upper bound at this gap)\n",
		trace_fmt_time(t2, sizeof(t2), (uint64_t)a->saving_ns),
		trace_share_pct((uint64_t)a->saving_ns, traced_ns),
		trace_fmt_time(t3, sizeof(t3), traced_ns));
	print_calib(f, &a->calib);
	if (!a->nr_seqs) {
		fprintf(f, "  sequences: none (no run of 2 calls or more)\n");
		return;
	}
	fprintf(f, "  sequences, most saving first (%s%zu):\n",
		a->nr_seqs > ADVISE_TABLE_SEQS ? "the first 10 of " : "",
		a->nr_seqs);
	for (i = 0; i < a->nr_seqs && i < ADVISE_TABLE_SEQS; i++)
		print_seq(f, &a->seqs[i]);
}

static struct json_object *seq_json(const struct advise_seq *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *calls = json_object_new_array();
	struct json_object *refs = json_object_new_array();
	char text[ADVISE_SUMMARY_LEN], name[32];
	size_t i;

	for (i = 0; i < s->len && i < ADVISE_JSON_CALLS; i++)
		json_object_array_add(calls, json_new_str(
			advise_call_name(s->nrs[i], name, sizeof(name))));
	for (i = 0; i < s->nr_refs; i++) {
		struct json_object *r = json_object_new_object();

		advise_ref_text(s, &s->refs[i], text, sizeof(text));
		json_put(r, "call", json_new_u64(s->refs[i].call));
		json_put(r, "arg", json_new_u64(s->refs[i].arg));
		json_put(r, "source", json_new_u64(s->refs[i].source));
		json_put(r, "text", json_new_str(text));
		json_object_array_add(refs, r);
	}
	advise_seq_summary(s->nrs, s->len, text, sizeof(text));
	json_put(o, "calls", calls);
	json_put(o, "length", json_new_u64(s->len));
	json_put(o, "summary", json_new_str(text));
	json_put(o, "count", json_new_u64(s->count));
	json_put(o, "worth", json_new_flag(s->worth));
	json_put(o, "saving_ns", json_new_fixed(1, s->saving_ns));
	json_put(o, "references", refs);
	return o;
}

static struct json_object *calib_json(const struct advise_calib *c)
{
	struct json_object *o = json_object_new_object();

	json_put(o, "path", json_new_str(c->path));
	json_put(o, "date", json_new_str(c->date));
	json_put(o, "kernel", json_new_str(c->kernel));
	json_put(o, "machine", json_new_str(c->machine));
	json_put(o, "module", json_new_str(c->module));
	json_put(o, "rounds", json_new_u64(c->rounds));
	json_put(o, "measured_now", json_new_flag(c->fresh));
	json_put(o, "entry_ns", json_new_fixed(1, c->costs.entry_ns));
	json_put(o, "batch_fixed_ns", json_new_fixed(1, c->costs.batch_fixed_ns));
	json_put(o, "batch_per_call_ns",
		 json_new_fixed(1, c->costs.batch_per_call_ns));
	json_put(o, "break_even", json_new_u64(c->costs.break_even));
	json_put(o, "gap_floor_ns", json_new_fixed(1, c->gap_floor_ns));
	return o;
}

struct json_object *advise_json(const struct advise_report *a,
				uint64_t traced_ns)
{
	struct json_object *o = json_object_new_object();
	struct json_object *seqs = json_object_new_array();
	size_t i;

	json_put(o, "predicted_saving_ns", json_new_fixed(1, a->saving_ns));
	json_put(o, "saving_share_pct", json_new_fixed(4,
		 trace_share_pct((uint64_t)a->saving_ns, traced_ns)));
	json_put(o, "entries_now", json_new_u64(a->entries_now));
	json_put(o, "entries_batched", json_new_u64(a->entries_batched));
	json_put(o, "gap_ns", json_new_u64(a->gap_ns));
	json_put(o, "gap_default", json_new_flag(a->gap_default));
	json_put(o, "events", json_new_u64(a->events));
	json_put(o, "threads", json_new_u64(a->threads));
	json_put(o, "runs", json_new_u64(a->runs));
	json_put(o, "run_calls", json_new_u64(a->run_calls));
	json_put(o, "already_wrapped", json_new_u64(a->already_wrapped));
	json_put(o, "batch_ioctls", json_new_u64(a->batch_ioctls));
	json_put(o, "lost_events", json_new_u64(a->lost_events));
	json_put(o, "events_dropped", json_new_u64(a->events_dropped));
	for (i = 0; i < a->nr_seqs && i < ADVISE_JSON_SEQS; i++)
		json_object_array_add(seqs, seq_json(&a->seqs[i]));
	json_put(o, "sequences", seqs);
	json_put(o, "sequences_left_out", json_new_u64(
		 a->nr_seqs > ADVISE_JSON_SEQS ? a->nr_seqs - ADVISE_JSON_SEQS : 0));
	json_put(o, "calibration", calib_json(&a->calib));
	return o;
}
