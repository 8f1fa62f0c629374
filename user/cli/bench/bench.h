/* SPDX-License-Identifier: MIT */
/*
 * wsc bench: the system call latency suite.
 *
 * A call (bench_calls.c) says how to make one of its system calls in each
 * mechanism: conventionally, wrapped through libwsc, and through io_uring
 * where an opcode exists.  The runner (bench_run.c) times every variant
 * of one call interleaved in one process on one pinned CPU; wake-up
 * latencies take two threads (bench_wake.c); both fill a result the same
 * way (bench_result.c).  cmd_bench.c parses the command line and prints
 * or writes the results (bench_out.c); bench_fit.c is `wsc bench fit`.
 *
 * This header is the folder's own: the rest of the CLI sees only
 * cmd_bench.h.
 *
 * A sample is one timed unit: one conventional call, one submission of a
 * batch of B wrapped calls, one io_uring submission of B requests with
 * their completions reaped, or one wake-up.  Its time is kept whole, in
 * ns; the figures are per call (the sample's figures divided by B).
 */
#ifndef WSC_BENCH_H
#define WSC_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/counters.h"
#include "common/rounds.h"
#include "libwsc.h"

struct io_uring_sqe;

#define BENCH_MAX_BATCH		64
/* conventional, wrapped 1/8/64, io_uring 1/8/64 */
#define BENCH_MAX_VARIANTS	7
#define BENCH_DEFAULT_ITERS	1000000
/* 7 variants of 8-byte samples: 560 MB at most */
#define BENCH_MAX_ITERS		10000000ull
#define BENCH_DEFAULT_SIZE	1
#define BENCH_MAX_SIZE		65536

enum bench_mech { BENCH_CONVENTIONAL, BENCH_WRAPPED, BENCH_URING };

/* struct bench_call flags */
enum {
	BENCH_F_URING	= 1u << 0,	/* io_uring has an opcode for it */
	BENCH_F_WAKE	= 1u << 1,	/* a wake-up between two threads */
	BENCH_F_SIZE	= 1u << 2,	/* --size sets its byte count */
};

/**
 * struct bench_opts - what the command line asked for
 * @iters: samples per variant
 * @rounds: the stretches of samples each speedup is also computed over
 * @size:  bytes per read or write where --size applies
 * @cpu:   the measuring CPU; @partner: the woken thread's CPU
 * @calibrate: a run only to time the rounds (--all's estimate): one
 *         round of warm-up, @iters kept, no hardware counters
 */
struct bench_opts {
	uint64_t iters;
	unsigned int rounds;
	size_t size;
	int cpu;
	int partner;
	bool json;
	bool calibrate;
	const char *csv_dir;
};

/**
 * struct bench_ctx - what one call's variants share while they run
 * @o:      the options
 * @devnull, @file, @pipe: descriptors the calls use (-1 when unused)
 * @dev:    /dev, which open opens "null" in
 * @size:   bytes per read or write
 * @buf:    BENCH_MAX_BATCH buffers of @size bytes, one per call of a sample
 * @data:   what @file holds (read256) and what is written (write256)
 * @arg:    per call of a sample: the descriptor close will close, the
 *          break brk will ask for
 * @brk_base: the program break before the run (sbrk)
 * @brk_now:  where the suite has left the break (sbrk)
 * @done:   calls made so far by each mechanism (sbrk alternates on it)
 * @path:   @file's name, removed at teardown
 * @err:    what went wrong, when a hook returns -1
 */
struct bench_ctx {
	const struct bench_opts *o;
	int devnull;
	int dev;
	int file;
	int pipe[2];
	size_t size;
	char *buf;
	char *data;
	int64_t arg[BENCH_MAX_BATCH];
	uint64_t brk_base;
	uint64_t brk_now;
	uint64_t done[3];
	char path[64];
	char err[256];
};

/**
 * struct bench_call - one call of the suite
 * @name, @what: its name on the command line, and a line about it
 * @flags:  BENCH_F_*
 * @setup:  prepare @c (descriptors, files); -1 with @c->err on failure
 * @teardown: undo @setup, also after a failed one
 * @before: untimed, before a sample of @n calls (fill the pipe a read
 *          will drain, open the descriptors close will close); may be NULL
 * @call:   one conventional call, the sample's @i-th; returns -errno
 * @prep:   queue the sample's @i-th call on a wsc batch
 * @sqe:    fill an io_uring request for the sample's @i-th call
 * @after:  untimed, after a sample: check every call's result @ret
 *          (and what it read) and undo its effects; -1 with @c->err
 *          when a result is wrong
 */
struct bench_call {
	const char *name;
	const char *what;
	unsigned int flags;
	int (*setup)(struct bench_ctx *c);
	void (*teardown)(struct bench_ctx *c);
	int (*before)(struct bench_ctx *c, enum bench_mech m, unsigned int n);
	int64_t (*call)(struct bench_ctx *c, unsigned int i);
	int (*prep)(struct bench_ctx *c, struct wsc_batch *b, unsigned int i);
	void (*sqe)(struct bench_ctx *c, struct io_uring_sqe *sqe,
		    unsigned int i);
	int (*after)(struct bench_ctx *c, enum bench_mech m,
		     const int64_t *ret, unsigned int n);
};

extern const struct bench_call bench_calls[];
extern const unsigned int bench_nr_calls;
const struct bench_call *bench_find(const char *name);

/**
 * struct bench_variant - one way of making a call, and what it measured
 * @name:     "conventional", "wrapped-8", "io_uring-64"
 * @ns:       the samples, each the whole time of one sample in ns
 * @n:        samples kept
 * @errors:   samples refused (a negative wake-up latency)
 * @duration_ns: the sum of every kept sample's time
 * @sum:      figures per call, in ps
 * @timer_ps: the clock's cost per call: a clock read over the batch
 * @speedup:  the speedup over the conventional call: its median per call
 *            over this variant's (above 1: this variant is faster)
 * @net_speedup: the same, of the medians net of the clock
 * @speedup_rounds, @net_speedup_rounds: the same speedups computed in
 *            each round (a stretch of consecutive samples) on its own,
 *            over the rounds
 * @ctr, @ctr_open: its hardware counters, when they could be opened
 * @ctr_val:  counts per call, scaled for multiplexing
 */
struct bench_variant {
	char name[16];
	enum bench_mech mech;
	unsigned int batch;
	uint64_t *ns;
	uint64_t n;
	uint64_t errors;
	uint64_t duration_ns;
	struct wsc_summary sum;
	uint64_t timer_ps;
	double speedup;
	double net_speedup;
	struct spread speedup_rounds;
	struct spread net_speedup_rounds;
	struct counter_group ctr;
	bool ctr_open;
	bool ctr_read;
	bool multiplexed;
	double ctr_val[COUNTERS_MAX];
};

/**
 * struct bench_result - one call's run
 * @call:      the call
 * @v, @nr:    its variants, the conventional one first
 * @skipped:   the variants that do not exist for this call, and why
 * @clock_ps:  median cost of one clock_gettime(CLOCK_MONOTONIC), this run
 * @warmup:    samples per variant run first and discarded
 * @rounds:    how many stretches of the samples the speedups' spread is over
 * @verified:  every result of every kept sample was checked and right
 * @interrupted: a signal ended the run early (interrupt.h): the figures
 *             are of the samples taken until then, @done per variant
 * @counters_why: why there are no hardware counters ("" when there are)
 * @setup_ns:  the time from the start of the run to its first round
 * @rounds_ns: the time of the rounds after the warm-up, @done of them
 */
struct bench_result {
	const struct bench_call *call;
	struct bench_variant v[BENCH_MAX_VARIANTS];
	unsigned int nr;
	const char *skipped[4][2];
	unsigned int nr_skipped;
	uint64_t iters;
	uint64_t clock_ps;
	uint64_t warmup;
	unsigned int rounds;
	bool verified;
	bool interrupted;
	uint64_t done;
	uint64_t setup_ns;
	uint64_t rounds_ns;
	char counters_why[192];
};

/* bench_run.c: wake-up calls go to bench_wake_run() */
int bench_run(const struct bench_call *call, const struct bench_opts *o,
	      struct bench_result *r);

/* bench_result.c */
void bench_result_free(struct bench_result *r);
void bench_add_variant(struct bench_result *r, enum bench_mech m,
		       unsigned int batch);
int bench_finish(struct bench_result *r);
uint64_t bench_warmup(const struct bench_opts *o);
uint64_t bench_net_median(const struct bench_variant *v);
int bench_alloc_samples(struct bench_result *r);

/* bench_wake.c */
int bench_wake_run(const struct bench_call *call, const struct bench_opts *o,
		   struct bench_result *r);

/* bench_fit.c: wsc bench fit */
int bench_fit(int argc, char **argv);

/* bench_out.c */
void bench_print_table(FILE *f, const struct bench_result *r,
		       const struct bench_opts *o);
void bench_print_json(FILE *f, const struct bench_result *r,
		      const struct bench_opts *o);
int bench_write_csv(FILE *f, const struct bench_result *r);
void bench_print_matrix(FILE *f, struct bench_result *const *res,
			unsigned int n);

#endif /* WSC_BENCH_H */
