// SPDX-License-Identifier: MIT
/*
 * The runner: every variant of one call, interleaved in one process on
 * one pinned CPU, so that they share the caches, the CPU's frequency
 * and whatever else the machine does meanwhile.  Each round takes one
 * sample of every variant, starting one variant later than the round
 * before, so that no variant always follows the same one; the first
 * rounds are a warm-up and are discarded.
 *
 * What is timed is what a program pays for its calls: the conventional
 * call; libwsc's reset, preps and submit for a wrapped batch; liburing's
 * get_sqe and prep for each request, the submit that waits for all of
 * them and the reaping of their completions for io_uring.  Rings and
 * batches are set up before the first sample and reused.
 */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "common/clock.h"
#include "common/interrupt.h"
#include "common/module_hint.h"
#include "common/progress.h"

/*
 * The machinery a call's samples need, set up once.  @ctr is the counter
 * group of the variant being sampled (NULL without counters): it counts
 * from just before the first timestamp to just after the second.
 */
struct bench_rig {
	const struct bench_call *call;
	struct bench_ctx ctx;
	struct wsc_batch *batch;
	struct io_uring ring;
	bool ring_ok;
	struct counter_group *ctr;
	char uring_why[96];
	int64_t ret[BENCH_MAX_BATCH];
};

static inline uint64_t sample_start(struct bench_rig *g)
{
	if (g->ctr)
		counter_group_start(g->ctr);
	return clock_now_ns();
}

static inline uint64_t sample_stop(struct bench_rig *g, uint64_t t0)
{
	uint64_t ns = clock_now_ns() - t0;

	if (g->ctr)
		counter_group_stop(g->ctr);
	return ns;
}

static int sample_conventional(struct bench_rig *g, uint64_t *ns)
{
	const struct bench_call *call = g->call;
	uint64_t t0;

	if (call->before && call->before(&g->ctx, BENCH_CONVENTIONAL, 1))
		return -1;
	t0 = sample_start(g);
	g->ret[0] = call->call(&g->ctx, 0);
	*ns = sample_stop(g, t0);
	return call->after(&g->ctx, BENCH_CONVENTIONAL, g->ret, 1);
}

static int sample_wrapped(struct bench_rig *g, unsigned int n, uint64_t *ns)
{
	const struct bench_call *call = g->call;
	unsigned int i;
	uint64_t t0;
	int ret = 0;

	if (call->before && call->before(&g->ctx, BENCH_WRAPPED, n))
		return -1;
	t0 = sample_start(g);
	wsc_batch_reset(g->batch);
	for (i = 0; i < n && ret >= 0; i++)
		ret = call->prep(&g->ctx, g->batch, i);
	if (ret >= 0)
		ret = wsc_batch_submit(g->batch);
	*ns = sample_stop(g, t0);
	if (ret != (int)n) {
		snprintf(g->ctx.err, sizeof(g->ctx.err),
			 "wrapped %s: a batch of %u ran %d: %s", call->name, n,
			 ret, ret < 0 ? strerror(-ret) : "short");
		return -1;
	}
	for (i = 0; i < n; i++)
		g->ret[i] = wsc_batch_result(g->batch, i);
	return call->after(&g->ctx, BENCH_WRAPPED, g->ret, n);
}

/*
 * Completions can come in any order: each request carries its index in
 * user_data.  submit_and_wait returns once @n are there; reaping them is
 * part of the sample, as it is part of a program's work.
 */
static int sample_uring(struct bench_rig *g, unsigned int n, uint64_t *ns)
{
	const struct bench_call *call = g->call;
	struct io_uring_cqe *cqe;
	unsigned int i, head, seen = 0;
	uint64_t t0;
	int ret;

	if (call->before && call->before(&g->ctx, BENCH_URING, n))
		return -1;
	t0 = sample_start(g);
	for (i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&g->ring);

		if (!sqe)	/* never: the ring has BENCH_MAX_BATCH entries */
			break;
		call->sqe(&g->ctx, sqe, i);
		sqe->user_data = i;
	}
	ret = i == n ? io_uring_submit_and_wait(&g->ring, n) : -EBUSY;
	io_uring_for_each_cqe(&g->ring, head, cqe) {
		if (cqe->user_data < n)
			g->ret[cqe->user_data] = cqe->res;
		seen++;
	}
	io_uring_cq_advance(&g->ring, seen);
	*ns = sample_stop(g, t0);
	if (ret != (int)n || seen != n) {
		snprintf(g->ctx.err, sizeof(g->ctx.err),
			 "io_uring %s: submitted %d of %u, %u completions: %s",
			 call->name, ret, n, seen,
			 ret < 0 ? strerror(-ret) : "short");
		return -1;
	}
	return call->after(&g->ctx, BENCH_URING, g->ret, n);
}

static int take_sample(struct bench_rig *g, struct bench_variant *v,
		       uint64_t *ns)
{
	int ret;

	switch (v->mech) {
	case BENCH_CONVENTIONAL:
		ret = sample_conventional(g, ns);
		break;
	case BENCH_WRAPPED:
		ret = sample_wrapped(g, v->batch, ns);
		break;
	default:
		ret = sample_uring(g, v->batch, ns);
		break;
	}
	return ret;
}

/* Every variant gets its own group, counting only its samples. */
static void open_counters(struct bench_result *r)
{
	unsigned int i;

	for (i = 0; i < r->nr; i++) {
		struct bench_variant *v = &r->v[i];

		if (counter_group_open(&v->ctr, counters_bench, counters_bench_n,
				       r->counters_why,
				       sizeof(r->counters_why)) == 0) {
			v->ctr_open = true;
			continue;
		}
		/* One failure says it for all: close what did open. */
		while (i--) {
			counter_group_close(&r->v[i].ctr);
			r->v[i].ctr_open = false;
		}
		return;
	}
	r->counters_why[0] = '\0';
}

static int rig_setup(struct bench_rig *g, const struct bench_opts *o,
		     struct bench_result *r)
{
	const struct bench_call *call = g->call;
	unsigned int i;
	int ret;

	g->ctx = (struct bench_ctx){
		.o = o, .devnull = -1, .dev = -1, .file = -1, .pipe = { -1, -1 },
	};
	ret = wsc_batch_create(&g->batch, 0);
	if (ret) {
		module_report("bench", ret, false);
		return -1;
	}
	/* Grow the batch to its largest now: no allocation in a sample. */
	for (i = 0; i < BENCH_MAX_BATCH; i++)
		wsc_prep_nop(g->batch, 0);
	if (wsc_batch_submit(g->batch) != BENCH_MAX_BATCH) {
		fprintf(stderr, "wsc bench: a batch of %d no-ops failed\n",
			BENCH_MAX_BATCH);
		return -1;
	}
	if (call->flags & BENCH_F_URING) {
		ret = io_uring_queue_init(BENCH_MAX_BATCH, &g->ring, 0);
		if (ret) {
			/* io_uring_disabled, a seccomp filter: the rest still runs. */
			snprintf(g->uring_why, sizeof(g->uring_why),
				 "io_uring_queue_init: %s", strerror(-ret));
		} else {
			g->ring_ok = true;
		}
	}
	bench_add_variant(r, BENCH_CONVENTIONAL, 1);
	bench_add_variant(r, BENCH_WRAPPED, 1);
	bench_add_variant(r, BENCH_WRAPPED, 8);
	bench_add_variant(r, BENCH_WRAPPED, 64);
	if (g->ring_ok) {
		bench_add_variant(r, BENCH_URING, 1);
		bench_add_variant(r, BENCH_URING, 8);
		bench_add_variant(r, BENCH_URING, 64);
	} else {
		r->skipped[r->nr_skipped][0] = "io_uring";
		r->skipped[r->nr_skipped++][1] = call->flags & BENCH_F_URING ?
			g->uring_why : "io_uring has no opcode for this call";
	}
	return bench_alloc_samples(r);
}

static void rig_teardown(struct bench_rig *g)
{
	g->call->teardown(&g->ctx);
	if (g->ring_ok)
		io_uring_queue_exit(&g->ring);
	wsc_batch_destroy(g->batch);
}

int bench_run(const struct bench_call *call, const struct bench_opts *o,
	      struct bench_result *r)
{
	struct bench_rig g = { .call = call };
	uint64_t round, rounds = 0, t0 = clock_now_ns(), t_kept = 0;
	int ret = -1;

	if (call->flags & BENCH_F_WAKE)
		return bench_wake_run(call, o, r);

	memset(r, 0, sizeof(*r));
	r->call = call;
	r->iters = o->iters;
	r->warmup = bench_warmup(o);
	r->rounds = o->rounds;
	if (rig_setup(&g, o, r))
		goto out;
	if (!o->calibrate)
		open_counters(r);
	r->clock_ps = clock_cost_ps();
	/*
	 * Last, once nothing allocates any more: sbrk's setup notes the
	 * program break, which malloc must not move during the run.
	 */
	if (call->setup(&g.ctx)) {
		fprintf(stderr, "wsc bench %s: %s\n", call->name, g.ctx.err);
		goto out;
	}

	rounds = r->warmup + o->iters;
	r->setup_ns = clock_now_ns() - t0;
	for (round = 0; round < rounds; round++) {
		unsigned int k;

		if (round == r->warmup)
			t_kept = clock_now_ns();
		/* Between rounds: every variant has as many samples. */
		if (interrupted()) {
			r->interrupted = true;
			break;
		}
		for (k = 0; k < r->nr; k++) {
			struct bench_variant *v = &r->v[(round + k) % r->nr];
			uint64_t ns;

			/* Counters count kept samples only, as the figures do. */
			g.ctr = round >= r->warmup && v->ctr_open ? &v->ctr : NULL;
			if (take_sample(&g, v, &ns)) {
				/* A wait the signal cut short: not a failure. */
				if (interrupted()) {
					r->interrupted = true;
					break;
				}
				fprintf(stderr, "wsc bench %s: %s\n", call->name,
					g.ctx.err);
				goto out;
			}
			if (round < r->warmup)
				continue;
			v->ns[v->n++] = ns;
			v->duration_ns += ns;
		}
		if (r->interrupted)
			break;
		progress_line("bench", call->name, round + 1, rounds);
	}
	/* Whole rounds kept; a round cut short left a sample or two more. */
	r->done = round > r->warmup ? round - r->warmup : 0;
	if (r->done)
		r->rounds_ns = clock_now_ns() - t_kept;
	r->verified = true;
	ret = 0;
out:
	progress_line("bench", call->name, rounds, rounds);
	/* First: sbrk puts the break back before malloc may run again. */
	rig_teardown(&g);
	if (!ret) {
		ret = bench_finish(r);
		if (ret)
			fprintf(stderr, "wsc bench: %s\n", strerror(-ret));
	}
	return ret ? -1 : 0;
}
