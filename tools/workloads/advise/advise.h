/* SPDX-License-Identifier: MIT */
/*
 * The programs that validate `wsc trace --advise`
 * (tools/measure/advise-validate, Documentation/results/advise.md): each
 * does one piece of work in several ways, chosen by its first argument,
 *
 *   plain         libc's system calls, one kernel entry each: the
 *                 program `wsc trace --advise` is run on;
 *   libwsc        rewritten with libwsc as the advice suggests: the runs
 *                 it names batched, calls alone left plain;
 *   break-even    every run batched, with WSC_BATCH_BREAK_EVEN: libwsc
 *                 runs those below the calibrated break-even plain;
 *   wrapped       every run batched, always through /dev/wsc;
 *   conventional  every run batched, always as plain calls
 *                 (WSC_BATCH_CONVENTIONAL: libwsc's own cost alone);
 *
 * and prints one line: the mode, the work's median time in ns over its
 * -r repetitions (CLOCK_MONOTONIC around the work only, set-up
 * excluded), a checksum of what it read, which must be the same in every
 * mode, libwsc's counts over all repetitions, and every repetition's time.
 * A median over many short repetitions keeps what else the machine does
 * (under TCG, another VM) out of the figure better than one long run.
 *
 * Mode "all" runs the five timed modes in one process, one repetition
 * of each in turn (the order rotating), and prints a line per mode: the
 * i-th repetitions of two modes ran side by side, so their difference
 * is as free of the rest of the machine as this can make it.
 */
#ifndef ADVISE_H
#define ADVISE_H

#include <stdint.h>
#include <libwsc.h>

enum adv_mode {
	ADV_PLAIN,
	ADV_LIBWSC,
	ADV_BREAK_EVEN,
	ADV_WRAPPED,
	ADV_CONVENTIONAL,
	ADV_NR_TIMED,
	ADV_SETUP = ADV_NR_TIMED,	/* make the input, untimed */
	ADV_ALL,	/* every timed mode in turn, one repetition each */
};

/* What a program was asked: the mode, then options. */
struct adv_args {
	enum adv_mode mode;
	const char *path;	/* the folder or file worked on */
	const char *out;	/* where output goes, if any */
	unsigned int n;		/* files, or bytes in KiB */
	unsigned int k;		/* batching: files or pieces per batch */
	unsigned int piece;	/* bytes per read */
	unsigned int work;	/* user work between calls, in passes */
	unsigned int reps;	/* repetitions of the work */
};

/* The work one program repeats, and what it needs before each time. */
struct adv_work {
	void (*prepare)(void *ctx);	/* untimed; may be NULL */
	/* One repetition in @mode (@b its batch): its checksum. */
	uint64_t (*run)(void *ctx, enum adv_mode mode, struct wsc_batch *b);
	void *ctx;
};

/*
 * Parse "MODE PATH [OUT] [-n N] [-k K] [-p PIECE] [-w WORK] [-r REPS]" into @a,
 * whose fields hold the program's defaults; exits 2 with @usage on an
 * error.
 */
void adv_parse(int argc, char **argv, const char *usage, int want_out,
	       struct adv_args *a);
/* The batch a libwsc mode uses (exits 1 on failure), or NULL in plain. */
struct wsc_batch *adv_batch(enum adv_mode mode);
/* Submit @b's pending entries; exits 1 on failure. */
void adv_submit(struct wsc_batch *b);
/* Monotonic nanoseconds. */
uint64_t adv_now(void);
/*
 * Make the batch of @a's mode (each mode's, for "all"), run @w a->reps
 * times, print the result line (one per mode) and free the batches.
 */
void adv_time(const struct adv_args *a, const struct adv_work *w);
/* A byte-mixing checksum over @len bytes, @passes times (user work). */
uint64_t adv_checksum(const void *buf, size_t len, unsigned int passes,
		      uint64_t seed);
/* Exit 1 with a message naming the failed step and its errno. */
void adv_die(const char *what, long err) __attribute__((noreturn));

#endif /* ADVISE_H */
