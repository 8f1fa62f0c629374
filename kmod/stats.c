// SPDX-License-Identifier: GPL-2.0
/*
 * Counts and latency of wrapped calls, kept per CPU.
 *
 * The batch loop only ever touches its own CPU's row, so that no atomic
 * and no cache line is shared between CPUs on the hot path; readers add
 * the rows up.  A reader may see
 * one field of a row updated and the next not yet: the report is a
 * snapshot of counters, not a transaction.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "wsc.h"
#include "calls.h"
#include "stats.h"

struct wsc_stats __percpu *wsc_stats;

/**
 * wsc_stats_init() - allocate the per-CPU statistics, zeroed
 *
 * Return: 0 or -ENOMEM.
 */
int wsc_stats_init(void)
{
	size_t size = sizeof(struct wsc_stats) +
		      wsc_nr_calls * sizeof(struct wsc_call_stats);

	wsc_stats = __alloc_percpu(size, __alignof__(struct wsc_stats));
	return wsc_stats ? 0 : -ENOMEM;
}

void wsc_stats_exit(void)
{
	free_percpu(wsc_stats);
	wsc_stats = NULL;
}

/**
 * wsc_stats_sum_call() - one allowlisted call's statistics over all CPUs
 * @slot: row in wsc_calls[]
 * @sum:  receives the sums (and the largest max_ns)
 */
void wsc_stats_sum_call(unsigned int slot, struct wsc_call_stats *sum)
{
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct wsc_call_stats *s =
			&per_cpu_ptr(wsc_stats, cpu)->call[slot];

		sum->calls += READ_ONCE(s->calls);
		sum->errors += READ_ONCE(s->errors);
		sum->timed += READ_ONCE(s->timed);
		sum->total_ns += READ_ONCE(s->total_ns);
		sum->max_ns = max(sum->max_ns, READ_ONCE(s->max_ns));
	}
}

/**
 * wsc_stats_sum_batches() - submissions run, over all CPUs
 */
u64 wsc_stats_sum_batches(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(wsc_stats, cpu)->batches);
	return sum;
}
