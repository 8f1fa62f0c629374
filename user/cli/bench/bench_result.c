// SPDX-License-Identifier: MIT
/*
 * A call's result, what both runners fill (bench_run.c for the calls one
 * thread makes, bench_wake.c for wake-ups between two): its variants,
 * their samples, and the figures, speedups and counters once the samples
 * are in.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "common/report.h"

void bench_add_variant(struct bench_result *r, enum bench_mech m,
		       unsigned int batch)
{
	static const char *const prefix[] = {
		[BENCH_CONVENTIONAL] = "conventional",
		[BENCH_WRAPPED] = "wrapped",
		[BENCH_URING] = "io_uring",
	};
	struct bench_variant *v = &r->v[r->nr++];

	memset(v, 0, sizeof(*v));
	v->mech = m;
	v->batch = batch;
	if (m == BENCH_CONVENTIONAL)
		snprintf(v->name, sizeof(v->name), "%s", prefix[m]);
	else
		snprintf(v->name, sizeof(v->name), "%s-%u", prefix[m], batch);
}

/*
 * A hundredth of the run, at least 10 samples, at most 1000; one for a
 * calibration, which only times the rounds.
 */
uint64_t bench_warmup(const struct bench_opts *o)
{
	uint64_t w = o->iters / 100;

	if (o->calibrate)
		return 1;
	return w < 10 ? 10 : w > 1000 ? 1000 : w;
}

int bench_alloc_samples(struct bench_result *r)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++) {
		r->v[i].ns = malloc(r->iters * sizeof(uint64_t));
		if (!r->v[i].ns) {
			fprintf(stderr, "wsc bench: no memory for %llu samples\n",
				(unsigned long long)r->iters);
			return -1;
		}
	}
	return 0;
}

uint64_t bench_net_median(const struct bench_variant *v)
{
	return sub_floor(v->sum.median_ps, v->timer_ps);
}

/*
 * Sort @n samples ascending: a radix sort, a byte at a time, that skips
 * the bytes every sample shares (the high ones of samples in ns).  A
 * comparison sort of the hundreds of thousands of samples an interrupted
 * run of a cheap call leaves took seconds under TCG, between the signal
 * and the exit; this takes a few passes over them.  @tmp holds @n too.
 */
static void sort_samples(uint64_t *v, uint64_t *tmp, uint64_t n)
{
	uint64_t count[256], i, *from = v, *to = tmp, *swap;
	unsigned int shift, b;

	for (shift = 0; shift < 64; shift += 8) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(from[i] >> shift) & 0xff]++;
		if (!n || count[(from[0] >> shift) & 0xff] == n)
			continue;	/* one value of this byte: already in order */
		for (b = 0, i = 0; b < 256; b++) {
			uint64_t c = count[b];

			count[b] = i;
			i += c;
		}
		for (i = 0; i < n; i++)
			to[count[(from[i] >> shift) & 0xff]++] = from[i];
		swap = from, from = to, to = swap;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
}

/*
 * The median of samples [first, first + n) of @v, per call, in ps: what
 * wsc_stats_median() gives of the per-call values (the mean of the middle
 * two when @n is even), from one sorted copy of the samples.
 */
static double stretch_median_ps(const struct bench_variant *v, uint64_t first,
				uint64_t n)
{
	uint64_t *d = malloc(2 * n * sizeof(*d));
	double lo, hi;

	if (!d)
		return NAN;
	memcpy(d, v->ns + first, n * sizeof(*d));
	sort_samples(d, d + n, n);
	lo = (double)d[(n - 1) / 2] * 1000.0 / v->batch;
	hi = (double)d[n / 2] * 1000.0 / v->batch;
	free(d);
	return n % 2 ? lo : lo + 0.5 * (hi - lo);
}

/*
 * The speedups once per round: the samples of each variant cut into
 * r->rounds stretches of consecutive samples, the variants having been
 * interleaved throughout, so that a stretch of one variant ran beside the
 * same stretch of the others.  A round's speedup is its own medians'.
 * The conventional call's medians serve every variant with as many
 * samples (all of them but after a round cut short).
 */
static void bench_round_speedups(struct bench_result *r)
{
	double raw[ROUNDS_MAX], net[ROUNDS_MAX], base_med[ROUNDS_MAX];
	const struct bench_variant *base = &r->v[0];
	unsigned int rounds = r->rounds, i, k;
	uint64_t n, base_n = 0;

	for (i = 0; i < r->nr; i++) {
		struct bench_variant *v = &r->v[i];

		n = (v->n < base->n ? v->n : base->n) / (rounds ? rounds : 1);
		if (!rounds || !n) {
			v->speedup_rounds = (struct spread){ NAN, NAN, NAN };
			v->net_speedup_rounds = v->speedup_rounds;
			continue;
		}
		if (n != base_n) {
			for (k = 0; k < rounds; k++)
				base_med[k] = stretch_median_ps(base, k * n, n);
			base_n = n;
		}
		for (k = 0; k < rounds; k++) {
			double m = stretch_median_ps(v, k * n, n);
			double b = base_med[k];
			double mt = m - (double)v->timer_ps;
			double bt = b - (double)base->timer_ps;

			raw[k] = speedup_of(b, m);
			net[k] = speedup_of(bt, mt);
		}
		spread_of(raw, rounds, &v->speedup_rounds);
		spread_of(net, rounds, &v->net_speedup_rounds);
	}
}

/*
 * Per-call figures, speedups and counters, once every sample is in (or,
 * after an interruption, once the last whole round of samples is).
 */
int bench_finish(struct bench_result *r)
{
	unsigned int i, k;

	for (i = 0; i < r->nr; i++) {
		struct bench_variant *v = &r->v[i];
		struct wsc_summary *s = &v->sum;
		uint64_t *copy = malloc((2 * v->n + 1) * sizeof(*copy));

		if (!copy)
			return -ENOMEM;
		memcpy(copy, v->ns, v->n * sizeof(*copy));
		/* wsc_stats_summary()'s figures, of a faster sort. */
		sort_samples(copy, copy + v->n, v->n);
		wsc_summary_compute((const __u64 *)copy, v->n, s);
		free(copy);
		/* Every figure of a sample of B calls, over B: exact in ps. */
		s->mean_ps /= v->batch;
		s->median_ps /= v->batch;
		s->stddev_ps /= v->batch;
		s->min_ps /= v->batch;
		s->max_ps /= v->batch;
		s->ci95_lo_ps /= v->batch;
		s->ci95_hi_ps /= v->batch;
		s->p50_ps /= v->batch;
		s->p95_ps /= v->batch;
		s->p99_ps /= v->batch;
		v->timer_ps = r->clock_ps / v->batch;
		/* Over the conventional call: above 1, this variant is faster. */
		v->speedup = speedup_of((double)r->v[0].sum.median_ps,
					(double)s->median_ps);
		v->net_speedup = speedup_of((double)bench_net_median(&r->v[0]),
					    (double)bench_net_median(v));

		if (!v->ctr_open)
			continue;
		{
			uint64_t val[COUNTERS_MAX];
			uint64_t calls = v->n * v->batch;

			if (!calls || counter_group_read(&v->ctr, val,
							 &v->multiplexed))
				continue;
			for (k = 0; k < v->ctr.n; k++)
				v->ctr_val[k] = (double)val[k] / (double)calls;
			v->ctr_read = true;
		}
	}
	bench_round_speedups(r);
	return 0;
}

void bench_result_free(struct bench_result *r)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++) {
		free(r->v[i].ns);
		r->v[i].ns = NULL;
		if (r->v[i].ctr_open)
			counter_group_close(&r->v[i].ctr);
		r->v[i].ctr_open = false;
	}
}
