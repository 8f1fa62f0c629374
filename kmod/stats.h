/* SPDX-License-Identifier: GPL-2.0 */
/* stats.c: per-CPU counts and latency of wrapped calls. */
#ifndef _WSC_STATS_H
#define _WSC_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>

/**
 * struct wsc_call_stats - what one CPU saw of one allowlisted call
 * @calls:    entries run (cancelled ones are not counted)
 * @errors:   entries whose result was a failure
 * @timed:    calls timed (only batches with WSC_SUBMIT_TIMING are)
 * @total_ns: sum of the timed durations
 * @max_ns:   longest timed duration
 */
struct wsc_call_stats {
	u64 calls;
	u64 errors;
	u64 timed;
	u64 total_ns;
	u64 max_ns;
};

/**
 * struct wsc_stats - one CPU's statistics
 * @batches: submissions run
 * @call:    one row per allowlisted call, indexed like wsc_calls[]
 */
struct wsc_stats {
	u64 batches;
	struct wsc_call_stats call[];
};

extern struct wsc_stats __percpu *wsc_stats;

int wsc_stats_init(void);
void wsc_stats_exit(void);
void wsc_stats_sum_call(unsigned int slot, struct wsc_call_stats *sum);
u64 wsc_stats_sum_batches(void);

#endif /* _WSC_STATS_H */
