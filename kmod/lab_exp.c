// SPDX-License-Identifier: GPL-2.0
/*
 * The latency lab's experiments: what each role does on its CPU.
 *
 * Every figure comes from ktime_get_ns() read on both sides of what is
 * measured.  The loops follow Documentation/latency-lab.md: a warm-up
 * that is discarded, interrupts off around each sample of a primitive that
 * cannot sleep, a yield every WSC_LAT_YIELD_EVERY samples, and never a
 * sleep inside a measured interval.  Wake-up samples run from a timestamp
 * the waker takes just before it wakes to one the woken side takes when
 * its wait returns; a negative one is counted as an error, never kept.
 */
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>

#include "wsc.h"
#include "lab_internal.h"

static __always_inline void wsc_lat_record(struct wsc_lat_role *r, s64 d)
{
	if (unlikely(d < 0)) {
		r->errors++;
		return;
	}
	/* Past its quota a role would write over the next role's samples. */
	if (WSC_DEBUG_ON(r->count >= r->quota))
		return;
	r->samples[r->count++] = d;
	r->hist[wsc_hist_index(d)]++;
}

/* Yield now and then; tell the caller whether to go on. */
static __always_inline bool wsc_lat_keep_going(struct wsc_lat_team *run, u64 i)
{
	if ((i + 1) % WSC_LAT_YIELD_EVERY)
		return true;
	cond_resched();
	return !READ_ONCE(run->stop);
}

static int wsc_lat_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

/* Below this many values, the library's heapsort is quick enough. */
#define WSC_LAT_SORT_SMALL	65536
#define WSC_LAT_RADIX_BITS	16
#define WSC_LAT_RADIX		(1u << WSC_LAT_RADIX_BITS)

/**
 * wsc_lat_sort() - sort values in place, ascending
 * @v: the values
 * @n: how many
 *
 * A heapsort of a million values through an indirect compare takes
 * seconds and never yields the CPU, so large arrays get a least-significant
 * digit radix sort, 16 bits a pass, that yields every WSC_LAT_RADIX values.
 * A pass whose digit is the same for every value (the high digits of
 * nanosecond latencies) is skipped.
 *
 * Return: 0, or -ENOMEM.
 */
int wsc_lat_sort(u64 *v, size_t n)
{
	u64 *tmp, *src = v, *dst;
	unsigned int pass, shift;
	u32 *count, d, at, c;
	size_t i;

	if (n <= WSC_LAT_SORT_SMALL) {
		sort(v, n, sizeof(*v), wsc_lat_cmp_u64, NULL);
		return 0;
	}
	count = kvmalloc_array(WSC_LAT_RADIX, sizeof(*count), GFP_KERNEL);
	tmp = __vmalloc_array(n, sizeof(*tmp), GFP_KERNEL_ACCOUNT);
	if (!count || !tmp) {
		kvfree(count);
		vfree(tmp);
		return -ENOMEM;
	}
	dst = tmp;
	for (pass = 0; pass < 64 / WSC_LAT_RADIX_BITS; pass++) {
		shift = pass * WSC_LAT_RADIX_BITS;
		memset(count, 0, WSC_LAT_RADIX * sizeof(*count));
		for (i = 0; i < n; i++) {
			count[(src[i] >> shift) & (WSC_LAT_RADIX - 1)]++;
			if (i % WSC_LAT_RADIX == 0)
				cond_resched();
		}
		if (count[(src[0] >> shift) & (WSC_LAT_RADIX - 1)] == n)
			continue;
		/* Each digit's first slot in @dst. */
		for (d = 0, at = 0; d < WSC_LAT_RADIX; d++) {
			c = count[d];
			count[d] = at;
			at += c;
		}
		for (i = 0; i < n; i++) {
			dst[count[(src[i] >> shift) & (WSC_LAT_RADIX - 1)]++] = src[i];
			if (i % WSC_LAT_RADIX == 0)
				cond_resched();
		}
		swap(src, dst);
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	kvfree(count);
	vfree(tmp);
	return 0;
}

/* The clock's own cost on this CPU: back-to-back reads, interrupts off. */
static u64 wsc_lat_clock_cost(struct wsc_lat_role *r)
{
	unsigned long flags;
	u64 t0, t1;
	u32 i;

	for (i = 0; i < WSC_LAT_CLOCK_SAMPLES; i++) {
		local_irq_save(flags);
		t0 = ktime_get_ns();
		t1 = ktime_get_ns();
		local_irq_restore(flags);
		r->scratch[i] = t1 - t0;
	}
	sort(r->scratch, WSC_LAT_CLOCK_SAMPLES, sizeof(u64), wsc_lat_cmp_u64,
	     NULL);
	return wsc_summary_quantile_ps(r->scratch, WSC_LAT_CLOCK_SAMPLES, 50);
}

/*
 * One sample of an experiment that does not involve the other CPU.  The
 * experiment is a compile-time constant at every call site, so each loop
 * below is compiled for one experiment with nothing but the operation
 * between the two clock reads.
 */
static __always_inline s64 wsc_lat_one(struct wsc_lat_team *run,
				       unsigned int exp)
{
	u64 t0, t1;

	switch (exp) {
	case WSC_EXP_TIMER:
		t0 = ktime_get_ns();
		t1 = ktime_get_ns();
		break;
	case WSC_EXP_SPINLOCK:
		t0 = ktime_get_ns();
		spin_lock(&run->lock);
		spin_unlock(&run->lock);
		t1 = ktime_get_ns();
		break;
	case WSC_EXP_MUTEX:
		t0 = ktime_get_ns();
		mutex_lock(&run->mutex);
		mutex_unlock(&run->mutex);
		t1 = ktime_get_ns();
		break;
	default:
		return -1;
	}
	return t1 - t0;
}

/*
 * @irqs_off: take each sample with interrupts (and so preemption) off;
 * false for a primitive that may sleep, where both must stay on.
 */
static __always_inline void wsc_lat_solo(struct wsc_lat_role *r,
					 unsigned int exp, bool irqs_off)
{
	struct wsc_lat_team *run = r->run;
	u64 i, total = run->warmup + r->quota;
	unsigned long flags = 0;
	s64 d;

	for (i = 0; i < total; i++) {
		if (irqs_off)
			local_irq_save(flags);
		d = wsc_lat_one(run, exp);
		if (irqs_off)
			local_irq_restore(flags);
		if (i >= run->warmup)
			wsc_lat_record(r, d);
		if (!wsc_lat_keep_going(run, i))
			return;
	}
}

/*
 * The second estimate: WSC_LAT_BLOCK_OPS operations between two clock
 * reads, divided; the clock's cost is spread over the block.  The median
 * over WSC_LAT_BLOCKS blocks, in picoseconds per operation.
 */
static __always_inline u64 wsc_lat_blocks(struct wsc_lat_role *r,
					  unsigned int exp, bool irqs_off)
{
	struct wsc_lat_team *run = r->run;
	unsigned long flags = 0;
	u64 t0, t1;
	u32 b, k;

	for (b = 0; b < WSC_LAT_BLOCKS; b++) {
		if (irqs_off)
			local_irq_save(flags);
		t0 = ktime_get_ns();
		for (k = 0; k < WSC_LAT_BLOCK_OPS; k++) {
			switch (exp) {
			case WSC_EXP_TIMER:
				t1 = ktime_get_ns();
				break;
			case WSC_EXP_SPINLOCK:
				spin_lock(&run->lock);
				spin_unlock(&run->lock);
				break;
			case WSC_EXP_MUTEX:
				mutex_lock(&run->mutex);
				mutex_unlock(&run->mutex);
				break;
			}
		}
		t1 = ktime_get_ns();
		if (irqs_off)
			local_irq_restore(flags);
		r->scratch[b] = div_u64((t1 - t0) * 1000, WSC_LAT_BLOCK_OPS);
		cond_resched();
		if (READ_ONCE(run->stop))
			return 0;
	}
	sort(r->scratch, WSC_LAT_BLOCKS, sizeof(u64), wsc_lat_cmp_u64, NULL);
	return r->scratch[WSC_LAT_BLOCKS / 2];
}

/*
 * Two CPUs take one lock in turn.  Each sample is the time from the call
 * to spin_lock() to holding the lock; while one CPU records its sample
 * (inside the lock) the other waits, so most acquisitions are contended
 * and the lock changes hands between the CPUs.
 */
static void wsc_lat_contended(struct wsc_lat_role *r)
{
	struct wsc_lat_team *run = r->run;
	u64 i, t0, t1, total = run->warmup + r->quota;
	unsigned long flags = 0;

	for (i = 0; i < total; i++) {
		/*
		 * On PREEMPT_RT the lock sleeps when contended: interrupts
		 * stay on, and a sample includes the sleep (the waiter
		 * blocks on an rt_mutex until the holder lets go).
		 */
		if (!WSC_SPINLOCK_SLEEPS)
			local_irq_save(flags);
		t0 = ktime_get_ns();
		spin_lock(&run->lock);
		t1 = ktime_get_ns();
		if (i >= run->warmup)
			wsc_lat_record(r, t1 - t0);
		spin_unlock(&run->lock);
		if (!WSC_SPINLOCK_SLEEPS)
			local_irq_restore(flags);
		if (!wsc_lat_keep_going(run, i))
			return;
	}
}

/*
 * The waker of a wake experiment (role 0).  Each round it waits until the
 * waiter has announced the round and is off its CPU, asleep in the
 * primitive, so that every sample is a full wake-up of a sleeping task;
 * then it takes its timestamp and wakes it at once.
 */
static void wsc_lat_waker(struct wsc_lat_role *r)
{
	struct wsc_lat_team *run = r->run;
	struct task_struct *waiter = run->role[1].task;
	u64 round, spins, total = run->warmup + run->role[1].quota;
	unsigned long flags;

	for (round = 1; round <= total; round++) {
		/*
		 * Off its CPU and off the run queue: a waiter preempted on its
		 * way to sleep (state already set) would otherwise pass.
		 */
		for (spins = 1; atomic_read_acquire(&run->armed) != round ||
				task_is_running(waiter) ||
				READ_ONCE(waiter->on_cpu) ||
				READ_ONCE(waiter->on_rq); spins++) {
			if (READ_ONCE(run->stop))
				return;
			if (spins % WSC_LAT_YIELD_EVERY == 0)
				cond_resched();
			cpu_relax();
		}
		local_irq_save(flags);
		WRITE_ONCE(run->wake_ns, ktime_get_ns());
		if (run->req->exp == WSC_EXP_SEMAPHORE)
			up(&run->sem);
		else
			complete(&run->wake);
		local_irq_restore(flags);
		/*
		 * The waiter is often asleep before the first spin, so the
		 * spins alone may never yield: a long run (a million rounds,
		 * a minute under TCG) kept this CPU from its watchdog.
		 */
		if (!wsc_lat_keep_going(run, round - 1))
			return;
	}
}

/* The woken side (role 1): announce the round, sleep, take the sample. */
static void wsc_lat_waiter(struct wsc_lat_role *r)
{
	struct wsc_lat_team *run = r->run;
	u64 round, t1, total = run->warmup + r->quota;

	for (round = 1; round <= total; round++) {
		atomic_set_release(&run->armed, round);
		if (run->req->exp == WSC_EXP_SEMAPHORE)
			down(&run->sem);
		else
			wait_for_completion(&run->wake);
		t1 = ktime_get_ns();
		if (READ_ONCE(run->stop))
			return;
		/* The wake-up ordered the waker's store before our return. */
		if (round > run->warmup)
			wsc_lat_record(r, t1 - READ_ONCE(run->wake_ns));
	}
}

/* Every role waits here until all have arrived, so they start together. */
static bool wsc_lat_start_line(struct wsc_lat_team *run)
{
	u64 spins;

	atomic_inc(&run->ready);
	for (spins = 1; atomic_read(&run->ready) < run->req->nr_cpus; spins++) {
		if (READ_ONCE(run->stop))
			return false;
		if (spins % WSC_LAT_YIELD_EVERY == 0)
			cond_resched();
		cpu_relax();
	}
	return true;
}

/**
 * wsc_lat_role_run() - do one role's part of a run, on its own CPU
 * @r: the role; its kthread is bound to @r->cpu
 *
 * Measures the clock, then runs the warm-up and the samples, then (for
 * experiments with WSC_EXPF_BLOCK) the block timing.  Returns early, with
 * what it has, once the run's stop flag is set.
 */
void wsc_lat_role_run(struct wsc_lat_role *r)
{
	struct wsc_lat_team *run = r->run;
	unsigned int exp = run->req->exp;

	r->timer_ps = wsc_lat_clock_cost(r);
	if (!wsc_lat_start_line(run))
		return;

	switch (exp) {
	case WSC_EXP_TIMER:
		wsc_lat_solo(r, WSC_EXP_TIMER, true);
		r->block_ps = wsc_lat_blocks(r, WSC_EXP_TIMER, true);
		break;
	case WSC_EXP_SPINLOCK:
		/* A sleeping lock on PREEMPT_RT: then like the mutex. */
		wsc_lat_solo(r, WSC_EXP_SPINLOCK, !WSC_SPINLOCK_SLEEPS);
		r->block_ps = wsc_lat_blocks(r, WSC_EXP_SPINLOCK,
					     !WSC_SPINLOCK_SLEEPS);
		break;
	case WSC_EXP_MUTEX:
		/* mutex_lock() may sleep: interrupts and preemption stay on. */
		wsc_lat_solo(r, WSC_EXP_MUTEX, false);
		r->block_ps = wsc_lat_blocks(r, WSC_EXP_MUTEX, false);
		break;
	case WSC_EXP_SPINLOCK_CONTENDED:
		wsc_lat_contended(r);
		break;
	case WSC_EXP_SEMAPHORE:
	case WSC_EXP_COMPLETION:
		if (r->index == 0)
			wsc_lat_waker(r);
		else
			wsc_lat_waiter(r);
		break;
	}
}

/**
 * wsc_lat_unblock() - release a role asleep in a primitive
 * @run: a run whose stop flag is already set
 *
 * The woken side of a wake experiment may be asleep waiting for a wake-up
 * the waker, which has stopped, will never send.  One more up() and a
 * complete_all() let it return and see the stop flag.
 */
void wsc_lat_unblock(struct wsc_lat_team *run)
{
	up(&run->sem);
	complete_all(&run->wake);
}
