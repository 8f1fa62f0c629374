/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The experiments of the latency lab, as one list shared by the module
 * (which runs them) and the wsc CLI (which names them in --help and
 * refuses an unknown name before asking the kernel).
 *
 * WSC_EXPERIMENT(id, name, roles, flags, what):
 *   id     WSC_EXP_<id>, the index in every per-experiment table
 *   name   the name used over netlink, in /proc and on the command line
 *   roles  CPUs it uses: 1, or 2 (role 0 on the first CPU: the waker or
 *          the first locker; role 1 on the second: the woken side)
 *   flags  WSC_EXPF_* below
 *   what   one line for --help and the report
 */
#ifndef _WSC_EXPERIMENTS_H
#define _WSC_EXPERIMENTS_H

/* Blocks of operations are also timed together (a second estimate). */
#define WSC_EXPF_BLOCK		0x1
/* Samples are wake-ups across CPUs; the measured side sleeps. */
#define WSC_EXPF_WAKE		0x2
/*
 * Takes a spinlock_t, which sleeps on PREEMPT_RT: there it is sampled with
 * interrupts on, and the report says so.
 */
#define WSC_EXPF_SPINLOCK	0x4

#define WSC_FOR_EACH_EXPERIMENT(WSC_EXPERIMENT)				\
	WSC_EXPERIMENT(TIMER, "timer", 1, WSC_EXPF_BLOCK,		\
		"back-to-back ktime_get_ns() pairs: the clock's own cost") \
	WSC_EXPERIMENT(SPINLOCK, "spinlock", 1,				\
		WSC_EXPF_BLOCK | WSC_EXPF_SPINLOCK,			\
		"uncontended spin_lock() + spin_unlock()")		\
	WSC_EXPERIMENT(SPINLOCK_CONTENDED, "spinlock-contended", 2,	\
		WSC_EXPF_SPINLOCK,					\
		"two CPUs take one lock in turn: spin_lock() acquire latency") \
	WSC_EXPERIMENT(MUTEX, "mutex", 1, WSC_EXPF_BLOCK,		\
		"uncontended mutex_lock() + mutex_unlock()")		\
	WSC_EXPERIMENT(SEMAPHORE, "semaphore", 2, WSC_EXPF_WAKE,	\
		"wake latency: up() on CPU A to down() returning on CPU B") \
	WSC_EXPERIMENT(COMPLETION, "completion", 2, WSC_EXPF_WAKE,	\
		"wake latency: complete() on CPU A to wait_for_completion() returning on CPU B")

#define WSC_EXP_ENUM(id, ...) WSC_EXP_##id,
enum wsc_experiment_id {
	WSC_FOR_EACH_EXPERIMENT(WSC_EXP_ENUM)
	WSC_NR_EXPERIMENTS
};
#undef WSC_EXP_ENUM

#endif /* _WSC_EXPERIMENTS_H */
