/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The latency lab: runs experiments in kthreads bound to chosen CPUs and
 * keeps each experiment's last result (lab.c; what each experiment does,
 * lab_exp.c; what the two share, lab_internal.h).
 */
#ifndef _WSC_LAB_H
#define _WSC_LAB_H

#include <linux/kref.h>
#include <linux/types.h>
#include <uapi/linux/wsc.h>

#include <wsc_experiments.h>
#include <wsc_hist.h>
#include <wsc_summary.h>

struct netlink_ext_ack;

/*
 * Block timing: blocks of WSC_LAT_BLOCK_OPS operations, timed together
 * (struct wsc_lat_figures' @block_ps is the median over the blocks).
 */
#define WSC_LAT_BLOCKS		101
#define WSC_LAT_BLOCK_OPS	1000

/**
 * struct wsc_lat_request - what to run
 * @exp:        enum wsc_experiment_id
 * @iterations: samples to take, 1..WSC_LAT_MAX_ITERATIONS
 * @nr_cpus:    CPUs in @cpu, equal to the experiment's roles
 * @cpu:        the CPU of each role
 */
struct wsc_lat_request {
	unsigned int exp;
	u32 iterations;
	u32 nr_cpus;
	u32 cpu[WSC_LAT_MAX_ROLES];
};

/**
 * struct wsc_lat_figures - what a run found, apart from its samples
 * @req:         what was run
 * @run_id:      counts runs since the module was loaded, from 1
 * @warmup:      iterations run and discarded per role before measuring
 * @block_ops:   operations per block of the block timing, 0 when the
 *               experiment sleeps
 * @errors:      samples refused (a negative wake-up latency)
 * @duration_ns: wall time of the run
 * @timer_ps:    median cost of a ktime_get_ns() pair on the CPU that took
 *               the samples, measured in this run
 * @block_ps:    per-operation cost from blocks of @block_ops operations
 *               timed together (median over blocks); 0 if @block_ops is 0
 * @sum:         statistics of the samples kept
 */
struct wsc_lat_figures {
	struct wsc_lat_request req;
	u64 run_id;
	u32 warmup;
	u32 block_ops;
	u64 errors;
	u64 duration_ns;
	u64 timer_ps;
	u64 block_ps;
	struct wsc_summary sum;
};

/**
 * struct wsc_lat_result - the outcome of one run, kept until the next run
 * of the same experiment or a reset; readers hold a reference
 * @ref:        wsc_lat_get() and wsc_lat_put()
 * @fig:        what it found
 * @samples:    @fig.sum.count samples in nanoseconds, in the order they
 *              were taken, role 0's first (vmalloc'd)
 * @role_count: how many of @samples each role took
 * @hist:       per role (so per CPU), WSC_HIST_BUCKETS counters
 */
struct wsc_lat_result {
	struct kref ref;
	struct wsc_lat_figures fig;
	u64 *samples;
	u64 role_count[WSC_LAT_MAX_ROLES];
	u64 *hist[WSC_LAT_MAX_ROLES];
};

/**
 * struct wsc_lat_status - what the lab is doing now
 * @running:    a run is in progress; the other fields describe it
 * @req:        what is running
 * @run_id:     its run id
 * @started_ns: ktime_get_ns() when it started
 */
struct wsc_lat_status {
	bool running;
	struct wsc_lat_request req;
	u64 run_id;
	u64 started_ns;
};

/**
 * struct wsc_experiment - one experiment of include/wsc_experiments.h
 * @name:  its name
 * @roles: CPUs it needs
 * @flags: WSC_EXPF_*
 * @what:  one line of description
 */
struct wsc_experiment {
	const char *name;
	u8 roles;
	u8 flags;
	const char *what;
};

extern const struct wsc_experiment wsc_experiments[WSC_NR_EXPERIMENTS];

int wsc_lab_init(void);
void wsc_lab_exit(void);
int wsc_lat_find(const char *name);
int wsc_lab_run(const struct wsc_lat_request *req,
		struct wsc_lat_result **result, struct netlink_ext_ack *extack);
struct wsc_lat_result *wsc_lat_get(unsigned int exp);
void wsc_lat_put(struct wsc_lat_result *r);
int wsc_lab_reset(int exp, struct netlink_ext_ack *extack);
void wsc_lat_snapshot(struct wsc_lat_status *st,
		      struct wsc_lat_result *result[WSC_NR_EXPERIMENTS]);

#endif /* _WSC_LAB_H */
