/* SPDX-License-Identifier: MIT */
/*
 * libwsc internals shared between its files and its unit tests.
 */
#ifndef LIBWSC_INTERNAL_H
#define LIBWSC_INTERNAL_H

#include <stdint.h>
#include "libwsc.h"

/* Shared between the library's files, not exported by libwsc.so. */
#define WSC_INTERNAL	__attribute__((visibility("hidden")))

#define WSC_ALL_ARGS_MASK	((1u << WSC_MAX_ARGS) - 1)
/* Entries one batch object may hold between resets. */
#define WSC_BATCH_LIMIT		(1u << 20)

/*
 * What runs a submission: the ioctl, or the conventional engine.  Same
 * contract as WSC_IOC_SUBMIT: returns the number of result slots written,
 * fewer than @count only after a signal, or -errno with *error_index set
 * when nothing ran.
 */
typedef int (*wsc_runner_fn)(void *ctx, const struct wsc_entry *ent,
			     struct wsc_result *res, uint32_t count,
			     uint32_t flags, uint32_t *error_index);

struct wsc_batch {
	int fd;			/* /dev/wsc, or -1 when conventional */
	unsigned int flags;	/* WSC_BATCH_* */
	unsigned int threshold;	/* collect mode: submit at this many pending */
	unsigned int max_entries;	/* per kernel submission */
	wsc_runner_fn run;
	void *run_ctx;

	struct wsc_entry *ent;	/* every entry since reset */
	struct wsc_result *res;	/* and its result */
	unsigned int count;	/* entries queued */
	unsigned int done;	/* entries with a result: [0, done) */
	unsigned int cap;	/* room in ent and res */
	bool stopped;		/* the chain of entry done - 1 has stopped */
	unsigned int error_index;
	unsigned long kernel_entries;
	unsigned long conventional_calls;	/* entries run as plain calls */
	unsigned int refused;	/* enum wsc_refusal of the last refusal */
	unsigned int refusal_given;	/* what the module's last refusal said
					 * (wsc_submit.refused), 0: nothing */
	unsigned int native_skip;	/* submissions to run plain before the
					   module is asked again */
	unsigned int backoff;	/* the next native_skip after a refusal */
	unsigned int break_even;	/* WSC_BATCH_BREAK_EVEN: submissions of
					   fewer entries run plain */

	struct wsc_entry *scratch;	/* one submission, references rebased */
};

/* A result is a failure as for any system call: -4095..-1. */
static inline bool wsc_failed(int64_t ret)
{
	return ret < 0 && ret >= -4095;
}

/* engine.c: the conventional runner, with the kernel's exact rules. */
WSC_INTERNAL int wsc_run_conventional(void *ctx, const struct wsc_entry *ent,
			 struct wsc_result *res, uint32_t count,
			 uint32_t flags, uint32_t *error_index);
WSC_INTERNAL int wsc_validate(const struct wsc_entry *ent, uint32_t count,
		 uint32_t *error_index);

/* device.c: the native runner. */
WSC_INTERNAL int wsc_run_ioctl(void *ctx, const struct wsc_entry *ent,
		  struct wsc_result *res, uint32_t count, uint32_t flags,
		  uint32_t *error_index);

/* batch.c: for tests, run submissions through another runner. */
WSC_INTERNAL void wsc_batch_set_runner(struct wsc_batch *b, wsc_runner_fn run, void *ctx,
			  unsigned int max_entries);

#endif /* LIBWSC_INTERNAL_H */
