// SPDX-License-Identifier: MIT
/*
 * What wsc bench prints and writes: a call's table (the klat shape, one
 * raw and one net row per variant, and the ratio), its JSON (one record
 * per variant with klat's keys), its raw samples as CSV, and the matrix
 * of medians that --all ends with.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "common/counters.h"
#include "common/env.h"
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

void bench_print_table(FILE *f, const struct bench_result *r,
		       const struct bench_opts *o)
{
	struct report_row rows[2 * BENCH_MAX_VARIANTS];
	char label[2 * BENCH_MAX_VARIANTS][32], ratio[2 * BENCH_MAX_VARIANTS][40];
	unsigned int i, n = 0;

	fprintf(f, "# wsc bench %s: %s\n", r->call->name, r->call->what);
	fprintf(f, "# %llu samples per variant, interleaved, on CPU %d; figures in ns per call; stddev is the spread of the samples, ci95 the mean +- 1.96 standard errors\n",
		(unsigned long long)r->iters, o->cpu);
	if (r->call->flags & BENCH_F_WAKE)
		fprintf(f, "# the woken thread on CPU %d; a sample is one wake-up\n",
			o->partner);
	env_print_text(f);
	for (i = 0; i < r->nr; i++) {
		const struct bench_variant *v = &r->v[i];

		snprintf(ratio[2 * i], sizeof(ratio[0]), "%.3f [%.3f-%.3f]",
			 v->ratio, v->ratio_rounds.min, v->ratio_rounds.max);
		snprintf(ratio[2 * i + 1], sizeof(ratio[0]), "%.3f [%.3f-%.3f]",
			 v->net_ratio, v->net_ratio_rounds.min,
			 v->net_ratio_rounds.max);
		snprintf(label[2 * i], sizeof(label[0]), "%s raw", v->name);
		snprintf(label[2 * i + 1], sizeof(label[0]), "%s net", v->name);
		rows[n++] = (struct report_row){
			.label = label[2 * i], .sum = &v->sum, .extra = ratio[2 * i],
		};
		rows[n++] = (struct report_row){
			.label = label[2 * i + 1], .sum = &v->sum,
			.off_ps = v->timer_ps, .extra = ratio[2 * i + 1],
		};
	}
	report_table(f, "variant", rows, n, "ratio");
	fprintf(f, "# ratio: median per call over the conventional call's, raw over raw and net over net; below 1 is cheaper\n");
	fprintf(f, "# [lo-hi]: the same ratio in each of %u rounds (stretches of consecutive samples), lowest and highest\n",
		r->rounds);
	fprintf(f, "# net = raw minus the clock's share per call (one clock read over the batch size), floored at 0\n");
	fprintf(f, "# clock: clock_gettime(CLOCK_MONOTONIC) costs " PS_FMT " ns (median of back-to-back pairs), this run\n",
		PS_ARG(r->clock_ps));
	fprintf(f, "# a sample of variant-B: ");
	for (i = 0; i < 3; i++)
		fprintf(f, "%s%s: %s", i ? "; " : "", mech_keys[i], mech_sample[i]);
	fprintf(f, "\n# warm-up: %llu samples per variant, discarded\n",
		(unsigned long long)r->warmup);
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
}

static void json_counters(FILE *f, const struct bench_variant *v)
{
	unsigned int k;

	if (!v->ctr_read) {
		fprintf(f, "null");
		return;
	}
	fprintf(f, "{\"multiplexed\": %s", v->multiplexed ? "true" : "false");
	for (k = 0; k < counters_bench_n; k++) {
		fprintf(f, ", ");
		json_string(f, counters_bench[k].name);
		fprintf(f, ": %.3f", v->ctr_val[k]);
	}
	fprintf(f, "}");
}

static void json_variant(FILE *f, const struct bench_result *r,
			 const struct bench_opts *o,
			 const struct bench_variant *v)
{
	fprintf(f, "{\"variant\": ");
	json_string(f, v->name);
	fprintf(f, ", \"mechanism\": \"%s\", \"batch\": %u, \"experiment\": ",
		mech_keys[v->mech], v->batch);
	json_string(f, r->call->name);
	fprintf(f, ", \"description\": ");
	json_string(f, r->call->what);
	fprintf(f, ", \"iterations\": %llu, \"cpus\": [%d",
		(unsigned long long)r->iters, o->cpu);
	if (r->call->flags & BENCH_F_WAKE)
		fprintf(f, ", %d", o->partner);
	fprintf(f, "], \"warmup\": %llu, \"count\": %llu, \"errors\": %llu, ",
		(unsigned long long)r->warmup, (unsigned long long)v->sum.count,
		(unsigned long long)v->errors);
	report_json_figures(f, &v->sum, v->timer_ps);
	fprintf(f, ", \"block_ns\": null, \"block_ops\": null, \"run_id\": null, \"duration_ns\": %llu",
		(unsigned long long)v->duration_ns);
	if (isfinite(v->ratio))
		fprintf(f, ", \"ratio\": %.4f", v->ratio);
	else
		fprintf(f, ", \"ratio\": null");
	if (isfinite(v->net_ratio))
		fprintf(f, ", \"net_ratio\": %.4f", v->net_ratio);
	else
		fprintf(f, ", \"net_ratio\": null");
	fprintf(f, ", \"ratio_spread\": ");
	json_spread(f, 4, &v->ratio_rounds);
	fprintf(f, ", \"net_ratio_spread\": ");
	json_spread(f, 4, &v->net_ratio_rounds);
	fprintf(f, ", \"counters\": ");
	json_counters(f, v);
	fprintf(f, "}");
}

void bench_print_json(FILE *f, const struct bench_result *r,
		      const struct bench_opts *o)
{
	unsigned int i;

	fprintf(f, "{\"call\": ");
	json_string(f, r->call->name);
	fprintf(f, ", \"description\": ");
	json_string(f, r->call->what);
	fprintf(f, ", \"iterations\": %llu, \"warmup\": %llu, \"rounds\": %u, \"size\": %zu, \"clock_ns\": " PS_FMT
		", \"verified\": %s, \"variants\": [",
		(unsigned long long)r->iters, (unsigned long long)r->warmup,
		r->rounds,
		call_size(r, o), PS_ARG(r->clock_ps),
		r->verified ? "true" : "false");
	for (i = 0; i < r->nr; i++) {
		fprintf(f, "%s", i ? ", " : "");
		json_variant(f, r, o, &r->v[i]);
	}
	fprintf(f, "], \"skipped\": [");
	for (i = 0; i < r->nr_skipped; i++) {
		fprintf(f, "%s{\"variant\": ", i ? ", " : "");
		json_string(f, r->skipped[i][0]);
		fprintf(f, ", \"why\": ");
		json_string(f, r->skipped[i][1]);
		fprintf(f, "}");
	}
	fprintf(f, "], \"counters\": {\"available\": %s, \"why\": ",
		r->counters_why[0] ? "false" : "true");
	if (r->counters_why[0])
		json_string(f, r->counters_why);
	else
		fprintf(f, "null");
	fprintf(f, ", \"events\": [");
	for (i = 0; i < counters_bench_n; i++) {
		fprintf(f, "%s", i ? ", " : "");
		json_string(f, counters_bench[i].name);
	}
	fprintf(f, "]}, \"environment\": ");
	env_print_json(f);
	fprintf(f, "}\n");
}

int bench_write_csv(FILE *f, const struct bench_result *r)
{
	unsigned int i;
	uint64_t k;

	fprintf(f, "call,variant,mechanism,batch,sample,ns,ns_per_call\n");
	for (i = 0; i < r->nr; i++) {
		const struct bench_variant *v = &r->v[i];

		for (k = 0; k < v->n; k++) {
			uint64_t ps = v->ns[k] * 1000 / v->batch;

			fprintf(f, "%s,%s,%s,%u,%llu,%llu," PS_FMT "\n",
				r->call->name, v->name, mech_keys[v->mech],
				v->batch, (unsigned long long)k,
				(unsigned long long)v->ns[k], PS_ARG(ps));
		}
	}
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

static const struct bench_result *find_result(struct bench_result *const *res,
					      unsigned int n, const char *call)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!strcmp(res[i]->call->name, call))
			return res[i];
	}
	return NULL;
}

static double median_ns(const struct bench_variant *v)
{
	return (double)v->sum.median_ps / 1000.0;
}

/* The two targets, stated as met or missed with the figures. */
static void print_targets(FILE *f, struct bench_result *const *res,
			  unsigned int n)
{
	const struct bench_result *g = find_result(res, n, "getpid");
	const struct bench_variant *w64 = find_variant(g, "wrapped-64");
	unsigned int i, met = 0, both = 0;

	if (w64)
		fprintf(f, "# target: wrapped getpid at batch 64 <= 0.25 of the conventional call: %.3f raw, %.3f net of the clock, %s\n",
			w64->ratio, w64->net_ratio,
			w64->ratio <= 0.25 && w64->net_ratio <= 0.25 ? "met" :
			w64->ratio <= 0.25 || w64->net_ratio <= 0.25 ? "met on one of the two" :
			"MISSED");
	fprintf(f, "# target: wrapped-8 faster than io_uring-8 per call:");
	for (i = 0; i < n; i++) {
		const struct bench_variant *a = find_variant(res[i], "wrapped-8");
		const struct bench_variant *b = find_variant(res[i], "io_uring-8");

		if (!a || !b)
			continue;
		both++;
		met += a->sum.median_ps < b->sum.median_ps;
		fprintf(f, " %s %.0f vs %.0f%s;", res[i]->call->name,
			median_ns(a), median_ns(b),
			a->sum.median_ps < b->sum.median_ps ? "" : " (MISSED)");
	}
	fprintf(f, " met on %u of %u calls\n", met, both);
}

void bench_print_matrix(FILE *f, struct bench_result *const *res,
			unsigned int n)
{
	static const char *const cols[] = {
		"conventional", "wrapped-1", "wrapped-8", "wrapped-64",
		"io_uring-1", "io_uring-8", "io_uring-64",
	};
	unsigned int i, c;

	fprintf(f, "# median ns per call (ratio to the conventional call); - where the variant does not exist\n");
	fprintf(f, "%-10s", "call");
	for (c = 0; c < BENCH_MAX_VARIANTS; c++)
		fprintf(f, "  %16s", cols[c]);
	fprintf(f, "\n");
	for (i = 0; i < n; i++) {
		fprintf(f, "%-10s", res[i]->call->name);
		for (c = 0; c < BENCH_MAX_VARIANTS; c++) {
			const struct bench_variant *v = find_variant(res[i], cols[c]);
			char cell[40];

			if (!v)
				snprintf(cell, sizeof(cell), "-");
			else if (c == 0)
				snprintf(cell, sizeof(cell), "%.1f", median_ns(v));
			else
				snprintf(cell, sizeof(cell), "%.1f (%.2f)",
					 median_ns(v), v->ratio);
			fprintf(f, "  %16s", cell);
		}
		fprintf(f, "\n");
	}
	print_targets(f, res, n);
}
