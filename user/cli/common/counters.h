/* SPDX-License-Identifier: MIT */
/*
 * Hardware performance counters around a measured variant, through
 * perf_event_open(2): one group of events counting the calling thread,
 * user and kernel, started and stopped around the work and read once.
 *
 * Many machines have no hardware PMU (an emulated CPU, most VMs): opening
 * then fails and the caller gets the reason as text to print.  The event
 * tables are parameters so that the same code is tested with software
 * events there.  Nothing here prints.
 */
#ifndef WSC_COUNTERS_H
#define WSC_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct counter_event - one event to count
 * @name:   perf(1)'s name for it, used in output and in error text
 * @type:   perf_event_attr.type (PERF_TYPE_HARDWARE, _HW_CACHE, _SOFTWARE...)
 * @config: perf_event_attr.config
 */
struct counter_event {
	const char *name;
	uint32_t type;
	uint64_t config;
};

/* wsc bench: cycles, instructions, cache-misses, dTLB-load-misses, iTLB-load-misses */
extern const struct counter_event counters_bench[];
extern const unsigned int counters_bench_n;

/*
 * wsc cp: cycles, instructions, L1-dcache-load-misses, LLC-load-misses,
 * iTLB-load-misses, dTLB-load-misses.  The generic events have no L2 level,
 * so L2 misses are not counted (see counters.c for what each maps to).
 */
extern const struct counter_event counters_cp[];
extern const unsigned int counters_cp_n;

#define COUNTERS_MAX 8

/* Whether the kernel counts CPU cycles for this thread (user mode only). */
bool counters_pmu_present(void);

/**
 * struct counter_group - an open group of events
 * @fd: one per event, fd[0] the group leader; -1 when closed
 * @ev: the events, in the order values are returned
 * @n:  how many
 * @id: each event's PERF_EVENT_IOC_ID, to find its value in a group read
 */
struct counter_group {
	int fd[COUNTERS_MAX];
	const struct counter_event *ev;
	unsigned int n;
	uint64_t id[COUNTERS_MAX];
};

/**
 * counter_group_open() - open events as one group, disabled
 * @g:   the group to fill
 * @ev:  the events; @ev[0] leads
 * @n:   how many, 1 to COUNTERS_MAX
 * @why: on failure, the reason as one line of text (may be NULL)
 * @len: size of @why
 *
 * The group counts the calling thread only (not its children or other
 * threads), in user and kernel mode (not the hypervisor), on any CPU.  It
 * does not count until counter_group_start().  A group is scheduled on the
 * PMU as a whole: on x86 one that needs more counters than the PMU has is
 * refused here (EINVAL); one that fits but competes with other events
 * (e.g. the NMI watchdog) is time-multiplexed, which counter_group_read()
 * reports.
 *
 * Return: 0, or -errno with every event closed and @why holding e.g.
 * "not available: cycles: perf_event_open: No such file or directory (no
 * hardware PMU; emulated CPU?)".  -EINVAL if @n is out of range.
 */
int counter_group_open(struct counter_group *g, const struct counter_event *ev,
		       unsigned int n, char *why, size_t len);

/**
 * counter_group_start() - count from now on
 * @g: an open group
 *
 * Enables the leader; the siblings count whenever it does.  Counts
 * accumulate across start/stop pairs; nothing resets them.
 *
 * Return: 0 or -errno.
 */
int counter_group_start(struct counter_group *g);

/**
 * counter_group_stop() - stop counting
 * @g: an open group
 *
 * Return: 0 or -errno.
 */
int counter_group_stop(struct counter_group *g);

/**
 * counter_group_read() - the totals so far
 * @g:           an open group
 * @values:      @g->n values, in the order of @g->ev
 * @multiplexed: if not NULL, set to whether the group shared the PMU with
 *               other events, i.e. ran for less time than it was enabled,
 *               so the values are estimates
 *
 * Each value is scaled by time enabled / time running (counter_scale()).
 *
 * Return: 0; -ENODATA if the group never ran, with @values zeroed: never
 * started, or never got onto the PMU (a hardware group that does not fit
 * beside pinned events such as the NMI watchdog's); -EIO if the kernel's
 * answer does not match the group; or -errno from read(2).
 */
int counter_group_read(struct counter_group *g, uint64_t *values,
		       bool *multiplexed);

/**
 * counter_group_close() - close every event; safe on a closed group
 * @g: the group
 */
void counter_group_close(struct counter_group *g);

/**
 * counter_scale() - estimate a count over the whole enabled time
 * @value:   what the counter counted while it ran
 * @enabled: nanoseconds the event was enabled
 * @running: nanoseconds it was actually on the PMU
 *
 * Return: round(@value * @enabled / @running), computed in 128 bits and
 * saturated at UINT64_MAX; @value exactly when @enabled == @running; 0
 * when @running is 0 (the event never ran, so it counted nothing and
 * there is nothing to scale; counter_group_read() reports that case as
 * -ENODATA rather than as zeros).
 */
uint64_t counter_scale(uint64_t value, uint64_t enabled, uint64_t running);

#endif /* WSC_COUNTERS_H */
