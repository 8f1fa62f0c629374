// SPDX-License-Identifier: MIT
/*
 * What one kernel entry costs, plain against wrapped (entry_fit.h): the
 * samples, the rounds and their figures, shared by `wsc bench fit` and
 * `wsc trace --advise`'s calibration.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "entry_fit.h"
#include "interrupt.h"
#include "progress.h"
#include "libwsc.h"

/* A number no kernel implements: the plain call returns ENOSYS at once. */
#define FIT_ENOSYS_NR		1023
/* Answered -ENOTTY by the module after the whole ioctl path. */
#define FIT_IOCTL_FLOOR	_IO(WSC_IOC_MAGIC, 0x7f)

const unsigned int fit_sizes[FIT_NR_SIZES] = { 1, 2, 4, 8, 16, 64 };

const struct fit_call fit_calls[FIT_NR_CALLS] = {
	[FIT_CALL_NOP]    = { "nop",    FIT_ENOSYS_NR, WSC_NR_NOP },
	[FIT_CALL_GETPID] = { "getpid", SYS_getpid,    SYS_getpid },
};

/* One sample of the plain call: FIT_BLOCK system calls. */
static double sample_plain(unsigned int nr)
{
	uint64_t t0 = clock_now_ns();
	int i;

	for (i = 0; i < FIT_BLOCK; i++)
		syscall(nr);
	return (double)(clock_now_ns() - t0) / FIT_BLOCK;
}

/* One sample of the ioctl path alone: FIT_BLOCK ioctls that do nothing. */
static double sample_ioctl_floor(int fd)
{
	uint64_t t0 = clock_now_ns();
	int i;

	for (i = 0; i < FIT_BLOCK; i++)
		ioctl(fd, FIT_IOCTL_FLOOR, 0);
	return (double)(clock_now_ns() - t0) / FIT_BLOCK;
}

/* One sample of a batch size: FIT_BLOCK calls in FIT_BLOCK/size ioctls. */
static int sample_wrapped(int fd, struct wsc_submit *s, double *out)
{
	unsigned int rounds = FIT_BLOCK / s->count, i;
	uint64_t t0 = clock_now_ns();

	for (i = 0; i < rounds; i++) {
		int ret = ioctl(fd, WSC_IOC_SUBMIT, s);

		if (ret != (int)s->count)
			return ret < 0 ? -errno : -EINTR;
	}
	*out = (double)(clock_now_ns() - t0) / FIT_BLOCK;
	return 0;
}

/* Every wrapped call must have returned what the plain call returns. */
static int check_results(const struct fit_call *c,
			 const struct wsc_result *res, unsigned int n,
			 const struct fit_voice *voice)
{
	int64_t want = c->wrapped_nr == WSC_NR_NOP ? 0 : getpid();
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (res[i].ret != want) {
			fprintf(stderr, "wsc %s: wrapped %s returned %lld, expected %lld\n",
				voice->cmd, c->name, (long long)res[i].ret, (long long)want);
			return -1;
		}
	}
	return 0;
}

/* A round's figures from its medians: the robust line, the ratios. */
static void fit_figures(const struct fit_result *r, unsigned int round,
			struct fit_figures *f)
{
	double x[FIT_NR_SIZES], y[FIT_NR_SIZES];
	double plain = r->v[V_SYSCALL].median[round];
	size_t i;

	/* Cost of one batch = fixed + per_call * size. */
	for (i = 0; i < FIT_NR_SIZES; i++) {
		x[i] = fit_sizes[i];
		y[i] = fit_sizes[i] * r->v[V_BATCH + i].median[round];
	}
	if (fit_theil_sen(x, y, FIT_NR_SIZES, &f->fixed_ns, &f->per_call_ns))
		f->fixed_ns = f->per_call_ns = NAN;
	f->speedup = plain / f->per_call_ns;
	f->ratio64 = plain / r->v[FIT_NR_VARIANTS - 1].median[round];
	f->break_even = plain > f->per_call_ns ?
			f->fixed_ns / (plain - f->per_call_ns) : INFINITY;
}

/* One round: every variant @nsamples times, interleaved, after a warm-up. */
static int fit_round(int fd, struct wsc_submit *sub, const struct fit_call *c,
		     size_t nsamples, unsigned int round, unsigned int rounds,
		     const struct fit_voice *voice, struct fit_result *r)
{
	size_t warmup = nsamples / 100 + 10, step, i, first[FIT_NR_VARIANTS];

	for (i = 0; i < FIT_NR_VARIANTS; i++)
		first[i] = r->v[i].n;
	/* Round-robin, the starting variant rotating, warm-up discarded. */
	for (step = 0; step < warmup + nsamples; step++) {
		/* A round cut short is dropped whole: its medians would not pair. */
		if (interrupted()) {
			for (i = 0; i < FIT_NR_VARIANTS; i++)
				r->v[i].n = first[i];
			return -EINTR;
		}
		for (i = 0; i < FIT_NR_VARIANTS; i++) {
			size_t v = (step + i) % FIT_NR_VARIANTS;
			double ns = 0;
			int ret = 0;

			if (v == V_SYSCALL)
				ns = sample_plain(c->plain_nr);
			else if (v == V_IOCTL)
				ns = sample_ioctl_floor(fd);
			else
				ret = sample_wrapped(fd, &sub[v - V_BATCH], &ns);
			if (ret && interrupted())
				break;	/* dropped at the next step's check */
			if (ret) {
				fprintf(stderr, "wsc %s: submit failed: %s\n",
					voice->cmd, strerror(-ret));
				return ret;
			}
			if (step >= warmup)
				r->v[v].samples[r->v[v].n++] = ns;
		}
		progress_line(voice->cmd, voice->what, (uint64_t)round * (warmup + nsamples) +
			      step + 1, (uint64_t)rounds * (warmup + nsamples));
	}
	for (i = 0; i < FIT_NR_VARIANTS; i++) {
		size_t n = r->v[i].n - first[i];
		double *copy = malloc(n * sizeof(double));

		if (!copy)
			return -ENOMEM;
		memcpy(copy, r->v[i].samples + first[i], n * sizeof(double));
		r->v[i].median[round] = wsc_stats_median(copy, n);
		free(copy);
	}
	fit_figures(r, round, &r->round[round]);
	return 0;
}

/* Each figure over the rounds. */
static void fit_spreads(struct fit_result *r, unsigned int rounds)
{
	double f[5][ROUNDS_MAX];
	unsigned int k;
	size_t i;

	for (i = 0; i < FIT_NR_VARIANTS; i++)
		spread_of(r->v[i].median, rounds, &r->v[i].ns);
	for (k = 0; k < rounds; k++) {
		f[0][k] = r->round[k].fixed_ns;
		f[1][k] = r->round[k].per_call_ns;
		f[2][k] = r->round[k].speedup;
		f[3][k] = r->round[k].ratio64;
		f[4][k] = r->round[k].break_even;
	}
	spread_of(f[0], rounds, &r->fixed_ns);
	spread_of(f[1], rounds, &r->per_call_ns);
	spread_of(f[2], rounds, &r->speedup);
	spread_of(f[3], rounds, &r->ratio64);
	spread_of(f[4], rounds, &r->break_even);
}

/*
 * Where one round submits from: its own descriptor (so its own buffer in
 * the module) and its own pages for the entries and the results.  Under
 * emulation what a placement costs can differ by a factor (TCG's software
 * TLB is direct-mapped: two hot pages whose numbers collide evict each
 * other), and it is fixed for as long as the placement lives; a run with
 * one placement could only repeat it.  A placement per round makes it one
 * round's luck, which the median over the rounds leaves out.  All of them
 * stay until the end, so that no two rounds share one.
 */
struct fit_place {
	int fd;
	struct wsc_entry *ent;		/* FIT_BLOCK entries, a page of their own */
	struct wsc_result *res;		/* FIT_BLOCK results, the next page */
};

#define FIT_PLACE_BYTES	(2 * FIT_PAGE)
#define FIT_PAGE	4096
_Static_assert(FIT_BLOCK * sizeof(struct wsc_entry) <= FIT_PAGE, "entries fit a page");

static void fit_places_free(struct fit_place *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (p[i].ent)
			munmap(p[i].ent, FIT_PLACE_BYTES);
		if (p[i].fd >= 0)
			close(p[i].fd);
	}
}

static int fit_place_make(struct fit_place *p, const struct fit_call *c)
{
	void *mem;
	size_t i;

	p->fd = wsc_device_open();
	if (p->fd < 0)
		return p->fd;
	mem = mmap(NULL, FIT_PLACE_BYTES, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (mem == MAP_FAILED)
		return -errno;
	p->ent = mem;
	p->res = (struct wsc_result *)((char *)mem + FIT_PAGE);
	for (i = 0; i < FIT_BLOCK; i++)
		p->ent[i].nr = c->wrapped_nr;
	return 0;
}

int fit_one(const struct fit_call *c, size_t nsamples, unsigned int rounds,
	    const struct fit_voice *voice, struct fit_result *r)
{
	struct fit_place place[ROUNDS_MAX];
	struct wsc_submit sub[FIT_NR_SIZES];
	unsigned int round;
	size_t i;
	int ret = 0;

	for (i = 0; i < FIT_NR_VARIANTS; i++) {
		r->v[i].batch = i >= V_BATCH ? fit_sizes[i - V_BATCH] : 0;
		r->v[i].n = 0;
		r->v[i].samples = calloc(nsamples * rounds, sizeof(double));
		if (!r->v[i].samples)
			return -ENOMEM;
	}
	for (round = 0; round < rounds; round++)
		place[round] = (struct fit_place){ .fd = -1 };
	for (round = 0; round < rounds && !ret; round++) {
		struct fit_place *p = &place[round];

		ret = fit_place_make(p, c);
		if (ret) {
			fprintf(stderr, "wsc %s: cannot prepare round %u: %s\n",
				voice->cmd, round + 1, strerror(-ret));
			break;
		}
		for (i = 0; i < FIT_NR_SIZES; i++) {
			sub[i] = (struct wsc_submit){
				.entries = (uintptr_t)p->ent,
				.results = (uintptr_t)p->res,
				.count = fit_sizes[i],
			};
		}
		ret = fit_round(p->fd, sub, c, nsamples, round, rounds, voice, r);
		if (!ret && check_results(c, p->res, FIT_BLOCK, voice))
			ret = -EIO;
		if (!ret)
			r->rounds_done = round + 1;
	}
	fit_places_free(place, rounds);
	if (ret && ret != -EINTR)
		return ret;
	/* Interrupted: the figures of the rounds that ran to their end. */
	if (r->rounds_done)
		fit_spreads(r, r->rounds_done);
	return ret;
}

void fit_result_free(struct fit_result *r)
{
	size_t i;

	for (i = 0; i < FIT_NR_VARIANTS; i++) {
		free(r->v[i].samples);
		r->v[i].samples = NULL;
	}
}
