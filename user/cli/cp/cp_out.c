// SPDX-License-Identifier: MIT
/*
 * wsc cp's reports: the paper's table (portion, program, time, events)
 * with each portion's speedup over NORMAL's, JSON, CSV, and the failures.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "common/counters.h"
#include "common/env.h"
#include "common/interrupt.h"
#include "common/json.h"
#include "common/report.h"
#include "common/rounds.h"
#include "cp_session.h"

/*
 * The speedup of a portion over its NORMAL counterpart: NORMAL's median
 * over this one's, above 1 faster (wsc(8)); NaN without a baseline.
 */
static double cp_speedup(const struct cp_session *s, const struct cp_portion *pt,
			 const struct cp_stat *st)
{
	const struct cp_portion *base = cp_portion_by_number(pt->baseline);
	struct cp_stat b, ev[COUNTERS_MAX];

	if (!base || !cp_portion_stats(s, base, &b, ev))
		return NAN;
	return speedup_of((double)b.median, (double)st->median);
}

static double cp_median_of(const struct cp_session *s, unsigned int number)
{
	const struct cp_portion *pt = cp_portion_by_number(number);
	struct cp_stat st, ev[COUNTERS_MAX];

	if (!pt || !cp_portion_stats(s, pt, &st, ev))
		return 0;
	return (double)st.median;
}

/**
 * cp_print_errors() - every failed transaction, once, with how often
 * @s: a session that has run
 * @f: where
 */
void cp_print_errors(const struct cp_session *s, FILE *f)
{
	const struct cp_work *w = &s->w;
	unsigned int k;

	for (k = 0; k < s->nr_errors; k++) {
		const struct cp_error *e = &s->errors[k];

		fprintf(f, "wsc cp: %s: transaction %u (%s -> %s): %s: ",
			cp_program_names[e->program], e->txn + 1,
			cp_file(w, false, e->txn), cp_file(w, true, e->txn),
			cp_step_names[e->step]);
		if (e->short_count >= 0)
			fprintf(f, "short write, %" PRId64 " of %zu bytes", e->short_count,
				w->size);
		else
			fprintf(f, "%s", strerror(e->err));
		fprintf(f, " (in %u of %u runs); nothing of it counted as copied\n",
			e->runs, s->reps + 1);
	}
}

static void cp_print_header(const struct cp_session *s, FILE *f)
{
	const struct cp_work *w = &s->w;
	unsigned int p;

	fprintf(f, "wsc cp: %u transactions of %zu bytes, threshold %u, %u repetitions "
		"(+1 warm-up, not kept), %s cache\n", w->n, w->size, w->threshold,
		s->reps, s->cold ? "cold (dropped before every run)" : "hot");
	if (s->interrupted)
		interrupt_print(f, "", "%u of %u repetitions ran to their end",
				s->done, s->reps);
	fprintf(f, "scratch folder: %s (%s)\n", w->dir, w->fstype);
	fprintf(f, "clock: CLOCK_MONOTONIC, %.0f ns per read (portions are raw)\n",
		(double)s->clock_ps / 1000.0);
	if (s->want_counters)
		fprintf(f, "hardware events: %s\n", w->have_counters ?
			"counted for the calling thread (io_uring's workers not included)" :
			s->counters_why);
	for (p = 0; p < CP_NR_PROGRAMS; p++)
		if (s->skip_why[p][0])
			fprintf(f, "%s: not run: %s\n", cp_program_names[p],
				s->skip_why[p]);
}

/**
 * cp_print_table() - the paper's Table 3, with our portions after it
 * @s: a session that has run
 * @f: where
 */
void cp_print_table(const struct cp_session *s, FILE *f)
{
	const struct cp_work *w = &s->w;
	struct cp_stat st, ev[COUNTERS_MAX];
	double normal, chain, uring;
	char words[40];
	unsigned int i, e;

	cp_print_header(s, f);
	fprintf(f, "\n%7s  %-17s  %-10s  %10s  %10s  %10s  %s\n", "portion",
		"program", "part", "median us", "min us", "max us", "vs NORMAL");
	for (i = 0; i < cp_nr_portions; i++) {
		const struct cp_portion *pt = &cp_portions[i];

		if (!cp_portion_stats(s, pt, &st, ev))
			continue;
		fprintf(f, "%7u  %-17s  %-10s  %10.1f  %10.1f  %10.1f  %s\n",
			pt->number, cp_program_names[pt->program], pt->part,
			st.median / 1e3, st.min / 1e3, st.max / 1e3,
			pt->number == pt->baseline ? "baseline" :
			isfinite(cp_speedup(s, pt, &st)) ?
			speedup_words(words, sizeof(words), cp_speedup(s, pt, &st)) :
			"-");
	}
	if (w->have_counters) {
		fprintf(f, "\nhardware events, median per portion:\n%7s  %-17s",
			"portion", "program");
		for (e = 0; e < w->counters.n; e++)
			fprintf(f, "  %14s", w->counters.ev[e].name);
		fputc('\n', f);
		for (i = 0; i < cp_nr_portions; i++) {
			const struct cp_portion *pt = &cp_portions[i];

			if (!cp_portion_stats(s, pt, &st, ev))
				continue;
			fprintf(f, "%7u  %-17s", pt->number,
				cp_program_names[pt->program]);
			for (e = 0; e < w->counters.n; e++)
				fprintf(f, "  %14" PRIu64, ev[e].median);
			fputc('\n', f);
		}
	}
	fprintf(f, "vs NORMAL: the speedup over the NORMAL counterpart (portion 1 for open-close,\n"
		"6 for 6-7, 8 for 8-9, 10 for 10-11), its median / this one's: above 1 is faster\n");
	fprintf(f, "\nverified: %" PRIu64 " copies read back and compared byte for byte "
		"with their sources: %s\n", s->copies,
		s->mismatches ? "SOME DIFFER (named above)" : "all equal");
	if (s->nr_errors)
		fprintf(f, "failed transactions: %u (named on stderr; not counted as copies)\n",
			s->nr_errors);
	normal = cp_median_of(s, 1);
	chain = cp_median_of(s, 12);
	uring = cp_median_of(s, 13);
	if (normal > 0 && chain > 0)
		fprintf(f, "WSC+CHAIN open to close: %s than NORMAL\n",
			speedup_words(words, sizeof(words), speedup_of(normal, chain)));
	if (uring > 0 && chain > 0)
		fprintf(f, "WSC+CHAIN open to close: %s than IO_URING\n",
			speedup_words(words, sizeof(words), speedup_of(uring, chain)));
	if (s->interrupted)
		interrupt_print(f, "", "the figures are of the repetitions that ran to their end");
	env_print_note(f);
}

static struct json_object *cp_json_events(const struct cp_session *s,
					  const struct cp_stat ev[COUNTERS_MAX])
{
	struct json_object *o;
	unsigned int e;

	if (!s->w.have_counters)
		return json_new_str("not available");
	o = json_object_new_object();
	for (e = 0; e < s->w.counters.n; e++)
		json_put(o, s->w.counters.ev[e].name, json_new_u64(ev[e].median));
	return o;
}

static struct json_object *cp_json_error(const struct cp_session *s,
					 const struct cp_error *e)
{
	struct json_object *o = json_object_new_object();
	const struct cp_work *w = &s->w;

	json_put(o, "program", json_new_str(cp_program_names[e->program]));
	json_put(o, "transaction", json_new_u64(e->txn + 1));
	json_put(o, "source", json_new_str(cp_file(w, false, e->txn)));
	json_put(o, "destination", json_new_str(cp_file(w, true, e->txn)));
	json_put(o, "call", json_new_str(cp_step_names[e->step]));
	if (e->short_count >= 0) {
		json_put(o, "error", json_new_str("short write"));
		json_put(o, "written", json_new_i64(e->short_count));
	} else {
		json_put(o, "error", json_new_str(strerror(e->err)));
	}
	json_put(o, "runs", json_new_u64(e->runs));
	return o;
}

static struct json_object *cp_json_skipped(const struct cp_session *s)
{
	struct json_object *a = json_object_new_array(), *o;
	unsigned int p;

	for (p = 0; p < CP_NR_PROGRAMS; p++) {
		if (!s->skip_why[p][0])
			continue;
		o = json_object_new_object();
		json_put(o, "program", json_new_str(cp_program_names[p]));
		json_put(o, "reason", json_new_str(s->skip_why[p]));
		json_object_array_add(a, o);
	}
	return a;
}

/* The events counted, or why none were. */
static struct json_object *cp_json_counters(const struct cp_session *s)
{
	const struct cp_work *w = &s->w;
	struct json_object *a;
	unsigned int i;

	if (!w->have_counters)
		return json_new_str(s->want_counters ? s->counters_why :
				    "not counted");
	a = json_object_new_array();
	for (i = 0; i < w->counters.n; i++)
		json_object_array_add(a, json_new_str(w->counters.ev[i].name));
	return a;
}

static struct json_object *cp_json_results(const struct cp_session *s)
{
	struct json_object *a = json_object_new_array(), *o;
	struct cp_stat st, ev[COUNTERS_MAX];
	unsigned int i;

	for (i = 0; i < cp_nr_portions; i++) {
		const struct cp_portion *pt = &cp_portions[i];

		if (!cp_portion_stats(s, pt, &st, ev))
			continue;
		o = json_object_new_object();
		json_put(o, "program", json_new_str(cp_program_names[pt->program]));
		json_put(o, "portion", json_new_u64(pt->number));
		json_put(o, "part", json_new_str(pt->part));
		json_put(o, "median_ns", json_new_u64(st.median));
		json_put(o, "min_ns", json_new_u64(st.min));
		json_put(o, "max_ns", json_new_u64(st.max));
		/* The baseline's median / this one's; null without a baseline. */
		json_put(o, "speedup", json_new_fixed(4, cp_speedup(s, pt, &st)));
		json_put(o, "baseline", json_new_u64(pt->baseline));
		json_put(o, "events", cp_json_events(s, ev));
		json_object_array_add(a, o);
	}
	return a;
}

/**
 * cp_print_json() - the whole session as one JSON object
 * @s: a session that has run
 * @f: where
 */
void cp_print_json(const struct cp_session *s, FILE *f)
{
	struct json_object *o = json_object_new_object();
	struct json_object *errors = json_object_new_array();
	const struct cp_work *w = &s->w;
	unsigned int k;

	json_put(o, "verified", json_new_flag(!s->mismatches));
	json_put(o, "n", json_new_u64(w->n));
	json_put(o, "threshold", json_new_u64(w->threshold));
	json_put(o, "size", json_new_u64(w->size));
	json_put(o, "repetitions", json_new_u64(s->reps));
	json_put(o, "repetitions_done", json_new_u64(s->done));
	json_put(o, "interrupted", json_new_flag(s->interrupted));
	json_put(o, "cold", json_new_flag(s->cold));
	json_put(o, "dir", json_new_str(w->dir));
	json_put(o, "filesystem", json_new_str(w->fstype));
	json_put(o, "copies", json_new_u64(s->copies));
	json_put(o, "mismatches", json_new_u64(s->mismatches));
	json_put(o, "failed", json_new_u64(s->nr_errors));
	for (k = 0; k < s->nr_errors; k++)
		json_object_array_add(errors, cp_json_error(s, &s->errors[k]));
	json_put(o, "errors", errors);
	json_put(o, "skipped", cp_json_skipped(s));
	json_put(o, "counters", cp_json_counters(s));
	json_put(o, "results", cp_json_results(s));
	json_put(o, "environment", env_json());
	json_emit_lines(f, o, NULL);
}

/**
 * cp_print_csv() - every portion of every repetition, raw
 * @s:      a session that has run
 * @f:      where
 * @header: print the header line first
 *
 * The event columns are always there, empty when not counted, so that
 * files from machines with and without counters have the same shape.
 */
void cp_print_csv(const struct cp_session *s, FILE *f, bool header)
{
	const struct cp_work *w = &s->w;
	unsigned int i, r, e;

	if (header) {
		fputs("n,threshold,size,program,portion,part,repetition,ns", f);
		for (e = 0; e < counters_cp_n; e++)
			fprintf(f, ",%s", counters_cp[e].name);
		fputc('\n', f);
	}
	for (i = 0; i < cp_nr_portions; i++) {
		const struct cp_portion *pt = &cp_portions[i];

		if (!s->want[pt->program])
			continue;
		for (r = 0; r < s->done; r++) {
			const struct cp_sample *x =
				cp_sample((struct cp_session *)s, pt->program, r);

			fprintf(f, "%u,%u,%zu,%s,%u,%s,%u,%" PRIu64, w->n,
				w->threshold, w->size, cp_program_names[pt->program],
				pt->number, pt->part, r + 1,
				x->ns[pt->to] - x->ns[pt->from]);
			for (e = 0; e < counters_cp_n; e++) {
				if (w->have_counters && e < w->counters.n)
					fprintf(f, ",%" PRIu64,
						x->ev[pt->to][e] - x->ev[pt->from][e]);
				else
					fputc(',', f);
			}
			fputc('\n', f);
		}
	}
}
