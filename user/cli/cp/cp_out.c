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

static void cp_json_events(const struct cp_session *s, FILE *f,
			   const struct cp_stat ev[COUNTERS_MAX])
{
	unsigned int e;

	if (!s->w.have_counters) {
		fputs("\"not available\"", f);
		return;
	}
	fputc('{', f);
	for (e = 0; e < s->w.counters.n; e++) {
		fprintf(f, "%s", e ? ", " : "");
		json_string(f, s->w.counters.ev[e].name);
		fprintf(f, ": %" PRIu64, ev[e].median);
	}
	fputc('}', f);
}

static void cp_json_errors(const struct cp_session *s, FILE *f)
{
	const struct cp_work *w = &s->w;
	unsigned int k;

	fputs("  \"errors\": [", f);
	for (k = 0; k < s->nr_errors; k++) {
		const struct cp_error *e = &s->errors[k];

		fprintf(f, "%s\n    {\"program\": \"%s\", \"transaction\": %u, "
			"\"source\": \"%s\", \"destination\": \"%s\", \"call\": \"%s\", "
			"\"error\": ", k ? "," : "", cp_program_names[e->program],
			e->txn + 1, cp_file(w, false, e->txn),
			cp_file(w, true, e->txn), cp_step_names[e->step]);
		if (e->short_count >= 0)
			fprintf(f, "\"short write\", \"written\": %" PRId64, e->short_count);
		else
			json_string(f, strerror(e->err));
		fprintf(f, ", \"runs\": %u}", e->runs);
	}
	fputs(s->nr_errors ? "\n  ],\n" : "],\n", f);
}

/**
 * cp_print_json() - the whole session as one JSON object
 * @s: a session that has run
 * @f: where
 */
void cp_print_json(const struct cp_session *s, FILE *f)
{
	const struct cp_work *w = &s->w;
	struct cp_stat st, ev[COUNTERS_MAX];
	unsigned int i, p, k = 0;

	fprintf(f, "{\n  \"verified\": %s,\n  \"n\": %u,\n  \"threshold\": %u,\n"
		"  \"size\": %zu,\n  \"repetitions\": %u,\n  \"repetitions_done\": %u,\n"
		"  \"interrupted\": %s,\n  \"cold\": %s,\n",
		s->mismatches ? "false" : "true", w->n, w->threshold, w->size,
		s->reps, s->done, s->interrupted ? "true" : "false",
		s->cold ? "true" : "false");
	fputs("  \"dir\": ", f);
	json_string(f, w->dir);
	fprintf(f, ",\n  \"filesystem\": \"%s\",\n  \"copies\": %" PRIu64
		",\n  \"mismatches\": %" PRIu64 ",\n  \"failed\": %u,\n",
		w->fstype, s->copies, s->mismatches, s->nr_errors);
	cp_json_errors(s, f);
	fputs("  \"skipped\": [", f);
	for (p = 0; p < CP_NR_PROGRAMS; p++) {
		if (!s->skip_why[p][0])
			continue;
		fprintf(f, "%s{\"program\": \"%s\", \"reason\": ", k++ ? ", " : "",
			cp_program_names[p]);
		json_string(f, s->skip_why[p]);
		fputc('}', f);
	}
	fputs("],\n  \"counters\": ", f);
	if (w->have_counters) {
		fputc('[', f);
		for (i = 0; i < w->counters.n; i++) {
			fputs(i ? ", " : "", f);
			json_string(f, w->counters.ev[i].name);
		}
		fputc(']', f);
	} else {
		json_string(f, s->want_counters ? s->counters_why : "not counted");
	}
	fputs(",\n  \"results\": [", f);
	for (i = 0, k = 0; i < cp_nr_portions; i++) {
		const struct cp_portion *pt = &cp_portions[i];

		if (!cp_portion_stats(s, pt, &st, ev))
			continue;
		fprintf(f, "%s\n    {\"program\": \"%s\", \"portion\": %u, \"part\": \"%s\", "
			"\"median_ns\": %" PRIu64 ", \"min_ns\": %" PRIu64 ", \"max_ns\": %"
			PRIu64 ", \"speedup\": ", k++ ? "," : "",
			cp_program_names[pt->program], pt->number, pt->part,
			st.median, st.min, st.max);
		/* The baseline's median / this one's; null without a baseline. */
		json_number(f, 4, cp_speedup(s, pt, &st));
		fprintf(f, ", \"baseline\": %u, \"events\": ", pt->baseline);
		cp_json_events(s, f, ev);
		fputc('}', f);
	}
	fputs("\n  ],\n  \"environment\": ", f);
	env_print_json(f);
	fputs("\n}\n", f);
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
