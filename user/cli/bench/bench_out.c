// SPDX-License-Identifier: MIT
/*
 * What wsc bench prints and writes: a call's table (one row per variant,
 * under 100 columns, with the speedup over the conventional call), its
 * JSON (one record per variant with klat's keys, every figure raw and
 * net), its raw samples as CSV, and the medians and speedups that --all
 * ends with.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "common/counters.h"
#include "common/env.h"
#include "common/interrupt.h"
#include "common/json.h"
#include "common/report.h"

static const char *const mech_keys[] = {
	[BENCH_CONVENTIONAL] = "conventional",
	[BENCH_WRAPPED] = "wrapped",
	[BENCH_URING] = "io_uring",
};

static const char *const mech_sample[] = {
	[BENCH_CONVENTIONAL] = "one call",
	[BENCH_WRAPPED] = "libwsc reset, B preps and one submit (one ioctl)",
	[BENCH_URING] = "B get_sqe+prep, one io_uring_submit_and_wait and the B completions reaped",
};

static size_t call_size(const struct bench_result *r, const struct bench_opts *o)
{
	if (r->call->flags & BENCH_F_SIZE)
		return o->size;
	return strstr(r->call->name, "256") ? 256 : 0;
}

static void print_counters(FILE *f, const struct bench_result *r)
{
	unsigned int i, k;

	if (r->counters_why[0]) {
		fprintf(f, "# hardware counters: %s\n", r->counters_why);
		return;
	}
	fprintf(f, "# hardware counters per call (user and kernel), scaled where multiplexed:\n");
	fprintf(f, "%-14s", "variant");
	for (k = 0; k < counters_bench_n; k++)
		fprintf(f, "  %16s", counters_bench[k].name);
	fprintf(f, "\n");
	for (i = 0; i < r->nr; i++) {
		const struct bench_variant *v = &r->v[i];

		fprintf(f, "%-14s", v->name);
		for (k = 0; k < counters_bench_n; k++) {
			if (v->ctr_read)
				fprintf(f, "  %16.1f", v->ctr_val[k]);
			else
				fprintf(f, "  %16s", "n/a");
		}
		fprintf(f, "%s\n", v->multiplexed ? "  (multiplexed)" : "");
	}
}

/* "12.3": a figure in ps as ns, one decimal, for the narrow table. */
static void ns1(char *buf, size_t len, uint64_t ps)
{
	snprintf(buf, len, "%.1f", (double)ps / 1000.0);
}

/* The columns of the table, one row per variant; every figure in --json. */
enum { COL_VARIANT, COL_MEDIAN, COL_NET, COL_P99, COL_STDDEV, COL_SPEEDUP,
       COL_NET_SPEEDUP, NR_COLS };
#define COL_CELL 48

static const char *const col_head[NR_COLS] = {
	"variant", "median", "net", "p99", "stddev", "speedup, rounds",
	"net speedup",
};

static void row_cells(const struct bench_result *r, unsigned int i,
		      char cell[NR_COLS][COL_CELL])
{
	const struct bench_variant *v = &r->v[i];
	const struct spread *s = &v->speedup_rounds;

	snprintf(cell[COL_VARIANT], COL_CELL, "%s", v->name);
	ns1(cell[COL_MEDIAN], COL_CELL, v->sum.median_ps);
	ns1(cell[COL_NET], COL_CELL, bench_net_median(v));
	ns1(cell[COL_P99], COL_CELL, v->sum.p99_ps);
	ns1(cell[COL_STDDEV], COL_CELL, v->sum.stddev_ps);
	if (i == 0) {
		snprintf(cell[COL_SPEEDUP], COL_CELL, "baseline");
		snprintf(cell[COL_NET_SPEEDUP], COL_CELL, "baseline");
		return;
	}
	speedup_words_rounds(cell[COL_SPEEDUP], COL_CELL, v->speedup, s->min,
			     s->max);
	speedup_words(cell[COL_NET_SPEEDUP], COL_CELL, v->net_speedup);
}

/*
 * One row per variant, under 100 columns: the median, its net of the
 * clock, p99, the spread and the speedups.  The mean, min, max, ci95
 * and the other percentiles, raw and net, are in the JSON.
 */
static void print_rows(FILE *f, const struct bench_result *r)
{
	char cell[BENCH_MAX_VARIANTS][NR_COLS][COL_CELL];
	size_t width[NR_COLS];
	unsigned int i, c;

	for (c = 0; c < NR_COLS; c++)
		width[c] = strlen(col_head[c]);
	for (i = 0; i < r->nr; i++) {
		row_cells(r, i, cell[i]);
		for (c = 0; c < NR_COLS; c++)
			if (strlen(cell[i][c]) > width[c])
				width[c] = strlen(cell[i][c]);
	}
	for (i = 0; i <= r->nr; i++) {
		for (c = 0; c < NR_COLS; c++) {
			const char *t = i ? cell[i - 1][c] : col_head[c];

			/* Names and words to the left, numbers to the right. */
			if (c == COL_VARIANT || c >= COL_SPEEDUP)
				fprintf(f, "%s%-*s", c ? "  " : "",
					c == NR_COLS - 1 ? 0 : (int)width[c], t);
			else
				fprintf(f, "  %*s", (int)width[c], t);
		}
		fprintf(f, "\n");
	}
}

void bench_print_table(FILE *f, const struct bench_result *r,
		       const struct bench_opts *o)
{
	unsigned int i;

	fprintf(f, "# wsc bench %s: %s\n", r->call->name, r->call->what);
	if (r->interrupted)
		interrupt_print(f, "# ", "%llu of %llu samples per variant, interleaved, on CPU %d",
				(unsigned long long)r->done,
				(unsigned long long)r->iters, o->cpu);
	else
		fprintf(f, "# %llu samples per variant, interleaved, on CPU %d\n",
			(unsigned long long)r->iters, o->cpu);
	if (r->call->flags & BENCH_F_WAKE)
		fprintf(f, "# the woken thread on CPU %d; a sample is one wake-up\n",
			o->partner);
	env_print_text(f);
	fprintf(f, "# ns per call: median, net of the clock, p99, stddev of the samples\n");
	print_rows(f, r);
	fprintf(f, "# speedup: over the conventional call, its median / the variant's, of all the samples: above 1 is faster\n");
	fprintf(f, "# rounds: the lowest and highest of the same speedup computed in each of %u rounds\n"
		"#   (stretches of consecutive samples) alone; that of all the samples need not lie between them\n",
		r->rounds);
	fprintf(f, "# net: minus the clock's share per call (one read over the batch size), floored at 0\n");
	fprintf(f, "# clock: clock_gettime(CLOCK_MONOTONIC) costs " PS_FMT " ns (median of back-to-back pairs)\n",
		PS_ARG(r->clock_ps));
	fprintf(f, "# a sample of variant-B:\n");
	for (i = 0; i < 3; i++)
		fprintf(f, "#   %s: %s\n", mech_keys[i], mech_sample[i]);
	fprintf(f, "# warm-up: %llu samples per variant, discarded\n",
		(unsigned long long)r->warmup);
	fprintf(f, "# mean, min, max, ci95, p50, p95, raw and net: --json\n");
	for (i = 0; i < r->nr; i++) {
		if (r->v[i].errors)
			fprintf(f, "# WARNING: %s: %llu negative samples refused\n",
				r->v[i].name, (unsigned long long)r->v[i].errors);
	}
	for (i = 0; i < r->nr_skipped; i++)
		fprintf(f, "# not run: %s: %s\n", r->skipped[i][0], r->skipped[i][1]);
	print_counters(f, r);
	fprintf(f, "# verified: %s\n", r->verified ?
		"every call of every sample returned what it must (and read the right bytes)" :
		"NO");
	if (r->interrupted)
		interrupt_print(f, "# ", "the figures are of the samples taken until then");
	env_print_note(f);
}

static struct json_object *counters_json(const struct bench_variant *v)
{
	struct json_object *o;
	unsigned int k;

	if (!v->ctr_read)
		return NULL;
	o = json_object_new_object();
	json_put(o, "multiplexed", json_new_flag(v->multiplexed));
	for (k = 0; k < counters_bench_n; k++)
		json_put(o, counters_bench[k].name, json_new_fixed(3, v->ctr_val[k]));
	return o;
}

static struct json_object *variant_json(const struct bench_result *r,
					const struct bench_opts *o,
					const struct bench_variant *v)
{
	struct json_object *j = json_object_new_object();
	struct json_object *cpus = json_object_new_array();

	json_put(j, "variant", json_new_str(v->name));
	json_put(j, "mechanism", json_new_str(mech_keys[v->mech]));
	json_put(j, "batch", json_new_u64(v->batch));
	json_put(j, "experiment", json_new_str(r->call->name));
	json_put(j, "description", json_new_str(r->call->what));
	json_put(j, "iterations", json_new_u64(r->iters));
	json_object_array_add(cpus, json_new_i64(o->cpu));
	if (r->call->flags & BENCH_F_WAKE)
		json_object_array_add(cpus, json_new_i64(o->partner));
	json_put(j, "cpus", cpus);
	json_put(j, "warmup", json_new_u64(r->warmup));
	json_put(j, "count", json_new_u64(v->sum.count));
	json_put(j, "errors", json_new_u64(v->errors));
	report_put_figures(j, &v->sum, v->timer_ps);
	json_put(j, "block_ns", NULL);
	json_put(j, "block_ops", NULL);
	json_put(j, "run_id", NULL);
	json_put(j, "duration_ns", json_new_u64(v->duration_ns));
	/* Conventional median / this one's: above 1 is faster (wsc(8)). */
	json_put(j, "speedup", json_new_fixed(4, v->speedup));
	json_put(j, "net_speedup", json_new_fixed(4, v->net_speedup));
	json_put(j, "speedup_spread", json_new_spread(4, &v->speedup_rounds));
	json_put(j, "net_speedup_spread",
		 json_new_spread(4, &v->net_speedup_rounds));
	json_put(j, "counters", counters_json(v));
	return j;
}

static struct json_object *skipped_json(const char *variant, const char *why)
{
	struct json_object *j = json_object_new_object();

	json_put(j, "variant", json_new_str(variant));
	json_put(j, "why", json_new_str(why));
	return j;
}

/* Whether the hardware counters could be read, and which were asked for. */
static struct json_object *counters_status_json(const struct bench_result *r)
{
	struct json_object *j = json_object_new_object();
	struct json_object *events = json_object_new_array();
	unsigned int i;

	json_put(j, "available", json_new_flag(!r->counters_why[0]));
	json_put(j, "why", json_new_str_or_null(r->counters_why));
	for (i = 0; i < counters_bench_n; i++)
		json_object_array_add(events, json_new_str(counters_bench[i].name));
	json_put(j, "events", events);
	return j;
}

void bench_print_json(FILE *f, const struct bench_result *r,
		      const struct bench_opts *o)
{
	struct json_object *j = json_object_new_object();
	struct json_object *variants = json_object_new_array();
	struct json_object *skipped = json_object_new_array();
	unsigned int i;

	json_put(j, "call", json_new_str(r->call->name));
	json_put(j, "description", json_new_str(r->call->what));
	json_put(j, "iterations", json_new_u64(r->iters));
	json_put(j, "iterations_done", json_new_u64(r->done));
	json_put(j, "interrupted", json_new_flag(r->interrupted));
	json_put(j, "warmup", json_new_u64(r->warmup));
	json_put(j, "rounds", json_new_u64(r->rounds));
	json_put(j, "size", json_new_u64(call_size(r, o)));
	json_put(j, "clock_ns", json_new_ps_as_ns(r->clock_ps));
	json_put(j, "verified", json_new_flag(r->verified));
	for (i = 0; i < r->nr; i++)
		json_object_array_add(variants, variant_json(r, o, &r->v[i]));
	json_put(j, "variants", variants);
	for (i = 0; i < r->nr_skipped; i++)
		json_object_array_add(skipped, skipped_json(r->skipped[i][0],
							    r->skipped[i][1]));
	json_put(j, "skipped", skipped);
	json_put(j, "counters", counters_status_json(r));
	json_put(j, "environment", env_json());
	json_emit_line(f, j);
}

/* @v in decimal at @p, with @min digits at least; returns the end. */
static char *put_dec(char *p, uint64_t v, int min)
{
	char d[20];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v || n < min);
	while (n)
		*p++ = d[--n];
	return p;
}

/*
 * A row per sample, formatted by hand: fprintf's seven conversions a row
 * took seconds under TCG for the samples of a long run, between a signal
 * and the exit.  The same text as "%s,%s,%s,%u,%llu,%llu,"PS_FMT"\n".
 */
int bench_write_csv(FILE *f, const struct bench_result *r)
{
	char buf[65536], head[96];
	unsigned int i;
	size_t used = 0, hl;
	uint64_t k;

	fprintf(f, "call,variant,mechanism,batch,sample,ns,ns_per_call\n");
	for (i = 0; i < r->nr; i++) {
		const struct bench_variant *v = &r->v[i];

		snprintf(head, sizeof(head), "%s,%s,%s,%u,", r->call->name,
			 v->name, mech_keys[v->mech], v->batch);
		hl = strlen(head);
		for (k = 0; k < v->n; k++) {
			uint64_t ps = v->ns[k] * 1000 / v->batch;
			char *p;

			/* A row is the head and at most 3 x 20 digits and 5 more. */
			if (used + hl + 65 > sizeof(buf)) {
				fwrite(buf, 1, used, f);
				used = 0;
			}
			p = buf + used;
			memcpy(p, head, hl);
			p = put_dec(p + hl, k, 1);
			*p++ = ',';
			p = put_dec(p, v->ns[k], 1);
			*p++ = ',';
			p = put_dec(p, ps / 1000, 1);
			*p++ = '.';
			p = put_dec(p, ps % 1000, 3);
			*p++ = '\n';
			used = (size_t)(p - buf);
		}
	}
	fwrite(buf, 1, used, f);
	return ferror(f) ? -1 : 0;
}

static const struct bench_variant *find_variant(const struct bench_result *r,
						const char *name)
{
	unsigned int i;

	for (i = 0; r && i < r->nr; i++) {
		if (!strcmp(r->v[i].name, name))
			return &r->v[i];
	}
	return NULL;
}

static double median_ns(const struct bench_variant *v)
{
	return (double)v->sum.median_ps / 1000.0;
}

/* The --all matrix's columns: every variant a call may have. */
static const char *const matrix_cols[] = {
	"conventional", "wrapped-1", "wrapped-8", "wrapped-64",
	"io_uring-1", "io_uring-8", "io_uring-64",
};

static void cell_median(char *buf, size_t len, const struct bench_variant *v)
{
	snprintf(buf, len, "%.1f", median_ns(v));
}

static void cell_speedup(char *buf, size_t len, const struct bench_variant *v)
{
	speedup_words(buf, len, v->speedup);
}

/*
 * One table of the matrix: a row per call, a column per variant from
 * matrix_cols[@first] on, @width wide after @sep; @cell fills a cell,
 * "-" where the call has no such variant.
 */
static void print_matrix_table(FILE *f, struct bench_result *const *res,
			       unsigned int n, unsigned int first,
			       const char *sep, int width,
			       void (*cell)(char *buf, size_t len,
					    const struct bench_variant *v))
{
	const struct bench_variant *v;
	unsigned int i, c;
	char text[40];

	fprintf(f, "%-11s", "call");
	for (c = first; c < BENCH_MAX_VARIANTS; c++)
		fprintf(f, "%s%*s", sep, width, matrix_cols[c]);
	fprintf(f, "\n");
	for (i = 0; i < n; i++) {
		fprintf(f, "%-11s", res[i]->call->name);
		for (c = first; c < BENCH_MAX_VARIANTS; c++) {
			v = find_variant(res[i], matrix_cols[c]);
			if (v)
				cell(text, sizeof(text), v);
			else
				snprintf(text, sizeof(text), "-");
			fprintf(f, "%s%*s", sep, width, text);
		}
		fprintf(f, "\n");
	}
}

void bench_print_matrix(FILE *f, struct bench_result *const *res,
			unsigned int n)
{
	_Static_assert(sizeof(matrix_cols) / sizeof(matrix_cols[0]) ==
		       BENCH_MAX_VARIANTS, "a column per variant");

	fprintf(f, "# median ns per call; - where the variant does not exist\n");
	print_matrix_table(f, res, n, 0, "", 12, cell_median);
	fprintf(f, "\n# speedup over the conventional call (its median / the variant's): above 1 is faster\n");
	print_matrix_table(f, res, n, 1, " ", 13, cell_speedup);
}
