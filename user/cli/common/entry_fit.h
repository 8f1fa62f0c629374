/* SPDX-License-Identifier: MIT */
/*
 * What one kernel entry costs, plain against wrapped: the measurement
 * behind `wsc bench fit` (bench/bench_fit.c, which prints it) and the
 * calibration of `wsc trace --advise` (trace/advise_calib.c, which
 * stores it).
 *
 * For one call, the plain system call, the ioctl path alone and the
 * wrapped call at batch sizes 1, 2, 4, 8, 16 and 64 run interleaved in
 * this process (on the CPU it is pinned to, the caller's choice).  Every
 * sample times a block of FIT_BLOCK calls and divides; the run is cut
 * into rounds, each with its own warm-up and its own placement (a
 * descriptor and pages of its own), each figure computed per round from
 * that round's medians, then the median over the rounds.  The line
 * through the batch sizes is a Theil-Sen fit: batch cost = fixed_ns +
 * per_call_ns x size.
 */
#ifndef WSC_CLI_ENTRY_FIT_H
#define WSC_CLI_ENTRY_FIT_H

#include <stddef.h>

#include "rounds.h"

/* Calls per sample; also the largest batch. */
#define FIT_BLOCK		64

/* The batch sizes, ascending; the last is FIT_BLOCK. */
#define FIT_NR_SIZES		6
extern const unsigned int fit_sizes[FIT_NR_SIZES];

/*
 * Variants: the plain call; the ioctl path alone (an unknown command on
 * /dev/wsc, the floor under every submission); then one per batch size.
 */
enum { V_SYSCALL, V_IOCTL, V_BATCH };
#define FIT_NR_VARIANTS (V_BATCH + FIT_NR_SIZES)

struct fit_call {
	const char *name;	/* key in the JSON output */
	unsigned int plain_nr;	/* what the plain variant calls */
	unsigned int wrapped_nr;	/* what each wrapped entry runs */
};

/*
 * The calls measured: FIT_CALL_NOP is the mechanism alone (an
 * unimplemented number, which returns ENOSYS at once, against the
 * wrapped no-op), FIT_CALL_GETPID the cheapest real call.
 */
enum { FIT_CALL_NOP, FIT_CALL_GETPID, FIT_NR_CALLS };
extern const struct fit_call fit_calls[FIT_NR_CALLS];

struct fit_variant {
	unsigned int batch;	/* 0 for the plain call */
	double *samples;	/* ns per call, one per block, round by round */
	size_t n;
	double median[ROUNDS_MAX];	/* per round */
	struct spread ns;	/* of @median over the rounds */
};

/* What one round found: the figures below, from its own medians. */
struct fit_figures {
	double fixed_ns, per_call_ns, speedup, ratio64, break_even;
};

/* @rounds_done: the rounds run to their end (fewer after a signal). */
struct fit_result {
	unsigned int rounds_done;
	struct fit_variant v[FIT_NR_VARIANTS];
	struct fit_figures round[ROUNDS_MAX];
	struct spread fixed_ns, per_call_ns, speedup, ratio64, break_even;
};

/* Where the messages and the progress line say they come from. */
struct fit_voice {
	const char *cmd;	/* "bench": "wsc bench: submit failed" */
	const char *what;	/* "fit": the progress line's "wsc bench fit" */
};

/*
 * Measure @c: @rounds rounds of @nsamples samples per variant, into @r
 * (zeroed by the caller; its samples freed by fit_result_free() whatever
 * this returns).  0; -EINTR when a signal (interrupted()) cut it short,
 * with the figures of the rounds that ended; or -errno, said on stderr
 * in @voice's name.
 */
int fit_one(const struct fit_call *c, size_t nsamples, unsigned int rounds,
	    const struct fit_voice *voice, struct fit_result *r);
void fit_result_free(struct fit_result *r);

#endif /* WSC_CLI_ENTRY_FIT_H */
