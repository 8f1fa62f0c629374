/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between lab.c, which runs the latency lab's experiments (threads,
 * memory, results), and lab_exp.c, which holds what each experiment does
 * on each of its CPUs: the lab's own, which no other area includes (its
 * face is lab.h).
 */
#ifndef _WSC_LAB_INTERNAL_H
#define _WSC_LAB_INTERNAL_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>

#include "lab.h"

/* Samples between two yields of the CPU; also how often stop is seen. */
#define WSC_LAT_YIELD_EVERY	1024
/* Back-to-back clock reads taken to find the clock's median cost. */
#define WSC_LAT_CLOCK_SAMPLES	10000

struct wsc_lat_team;

/**
 * struct wsc_lat_role - one CPU's part of a run, owned by its kthread
 * @run:      the run it belongs to
 * @index:    the role, 0 or 1
 * @cpu:      the CPU it is bound to
 * @task:     its kthread
 * @samples:  where its samples go (its slice of the result's samples)
 * @quota:    samples it must take
 * @count:    samples it kept
 * @errors:   samples it refused (negative)
 * @hist:     its histogram, WSC_HIST_BUCKETS counters
 * @scratch:  room for WSC_LAT_CLOCK_SAMPLES (or WSC_LAT_BLOCKS) values
 * @timer_ps: median cost of a clock read pair on @cpu
 * @block_ps: median per-operation cost from block timing, 0 if none
 */
struct wsc_lat_role {
	struct wsc_lat_team *run;
	unsigned int index;
	unsigned int cpu;
	struct task_struct *task;
	u64 *samples;
	u64 quota;
	u64 count;
	u64 errors;
	u64 *hist;
	u64 *scratch;
	u64 timer_ps;
	u64 block_ps;
};

/**
 * struct wsc_lat_team - what the kthreads of one run share
 * @req:      what is being run
 * @warmup:   iterations each role runs and discards before measuring
 * @stop:     set (WRITE_ONCE) to make every role return soon
 * @ready:    roles at the start line; they start together
 * @active:   roles still running; the last one completes @finished
 * @finished: completed when every role has returned
 * @role:     the roles
 *
 * The primitives under test, shared by the roles:
 * @lock:     spinlock and spinlock-contended
 * @mutex:    mutex
 * @sem:      semaphore (count 0: down() sleeps until up())
 * @wake:     completion
 * @armed:    wake experiments: the waiter's round, published before it
 *            sleeps, so the waker wakes each round exactly once
 * @wake_ns:  wake experiments: the waker's timestamp, taken just before
 *            it wakes the waiter
 */
struct wsc_lat_team {
	const struct wsc_lat_request *req;
	u32 warmup;
	bool stop;
	atomic_t ready;
	atomic_t active;
	struct completion finished;
	struct wsc_lat_role role[WSC_LAT_MAX_ROLES];

	spinlock_t lock ____cacheline_aligned;
	struct mutex mutex;
	struct semaphore sem;
	struct completion wake;
	atomic_t armed ____cacheline_aligned;
	u64 wake_ns;
};

/* lab_exp.c */
void wsc_lat_role_run(struct wsc_lat_role *r);
void wsc_lat_unblock(struct wsc_lat_team *run);
int wsc_lat_sort(u64 *v, size_t n);

#endif /* _WSC_LAB_INTERNAL_H */
