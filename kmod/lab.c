// SPDX-License-Identifier: GPL-2.0
/*
 * The latency lab: runs experiments in kthreads bound to chosen CPUs and
 * keeps each experiment's last result (statistics, histogram, raw
 * samples) until its next run or a reset.
 *
 * One run at a time.  The caller (the netlink RUN command) waits for the
 * run to finish; a signal to it, or unloading the module, stops the run
 * and nothing is kept.  Results are reference counted so that a netlink
 * dump or a /proc reader keeps what it started with while a new run
 * replaces it.
 */
#include <linux/cpu.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

#include "wsc.h"
#include "lab_internal.h"

#define WSC_EXPERIMENT_ROW(id, n, r, f, w) \
	[WSC_EXP_##id] = { .name = n, .roles = r, .flags = f, .what = w },
const struct wsc_experiment wsc_experiments[WSC_NR_EXPERIMENTS] = {
	WSC_FOR_EACH_EXPERIMENT(WSC_EXPERIMENT_ROW)
};

/**
 * struct wsc_lab - the lab's state, all of it under @lock
 * @lock:    protects every field
 * @result:  each experiment's last result, or NULL
 * @run:     the run in progress, or NULL
 * @status:  what /proc shows about the run in progress
 * @runs:    runs started since load, the source of run ids
 * @closing: the module is being unloaded: no new run starts
 * @idle:    woken when @run becomes NULL
 */
static struct wsc_lab {
	struct mutex lock;
	struct wsc_lat_result *result[WSC_NR_EXPERIMENTS];
	struct wsc_lat_team *run;
	struct wsc_lat_status status;
	u64 runs;
	bool closing;
	wait_queue_head_t idle;
} wsc_lab = {
	.lock = __MUTEX_INITIALIZER(wsc_lab.lock),
	.idle = __WAIT_QUEUE_HEAD_INITIALIZER(wsc_lab.idle),
};

/**
 * wsc_lat_find() - the experiment called @name
 * @name: a NUL-terminated name
 *
 * Return: its enum wsc_experiment_id, or -ENOENT.
 */
int wsc_lat_find(const char *name)
{
	int i;

	for (i = 0; i < WSC_NR_EXPERIMENTS; i++)
		if (!strcmp(name, wsc_experiments[i].name))
			return i;
	return -ENOENT;
}

static void wsc_lat_result_free(struct wsc_lat_result *res)
{
	unsigned int i;

	for (i = 0; i < WSC_LAT_MAX_ROLES; i++)
		kvfree(res->hist[i]);
	vfree(res->samples);
	kfree(res);
}

static void wsc_lat_result_release(struct kref *ref)
{
	wsc_lat_result_free(container_of(ref, struct wsc_lat_result, ref));
}

/**
 * wsc_lat_put() - drop a reference taken by wsc_lat_get() or wsc_lab_run()
 * @r: the result, or NULL
 */
void wsc_lat_put(struct wsc_lat_result *r)
{
	if (r)
		kref_put(&r->ref, wsc_lat_result_release);
}

/**
 * wsc_lat_get() - the last result of an experiment, referenced
 * @exp: enum wsc_experiment_id
 *
 * Return: the result, to be released with wsc_lat_put(), or NULL if the
 * experiment has none.
 */
struct wsc_lat_result *wsc_lat_get(unsigned int exp)
{
	struct wsc_lat_result *r;

	if (exp >= WSC_NR_EXPERIMENTS)
		return NULL;
	mutex_lock(&wsc_lab.lock);
	r = wsc_lab.result[exp];
	if (r)
		kref_get(&r->ref);
	mutex_unlock(&wsc_lab.lock);
	return r;
}

/**
 * wsc_lat_snapshot() - the lab's state and every result, at one instant
 * @st:     filled in; @st->running is false when no run is in progress
 * @result: each experiment's result, referenced, or NULL
 */
void wsc_lat_snapshot(struct wsc_lat_status *st,
		      struct wsc_lat_result *result[WSC_NR_EXPERIMENTS])
{
	unsigned int i;

	mutex_lock(&wsc_lab.lock);
	*st = wsc_lab.status;
	for (i = 0; i < WSC_NR_EXPERIMENTS; i++) {
		result[i] = wsc_lab.result[i];
		if (result[i])
			kref_get(&result[i]->ref);
	}
	mutex_unlock(&wsc_lab.lock);
}

/* Memory for a result: the samples and one histogram per role. */
static struct wsc_lat_result *wsc_lat_result_alloc(const struct wsc_lat_request *req)
{
	struct wsc_lat_result *res;
	unsigned int i;

	res = kzalloc(sizeof(*res), GFP_KERNEL_ACCOUNT);
	if (!res)
		return NULL;
	kref_init(&res->ref);
	res->fig.req = *req;
	res->samples = __vmalloc_array(req->iterations, sizeof(u64),
				       GFP_KERNEL_ACCOUNT);
	if (!res->samples)
		goto err_free;
	for (i = 0; i < req->nr_cpus; i++) {
		res->hist[i] = kvcalloc(WSC_HIST_BUCKETS, sizeof(u64),
					GFP_KERNEL_ACCOUNT);
		if (!res->hist[i])
			goto err_free;
	}
	return res;

err_free:
	wsc_lat_result_free(res);
	return NULL;
}

/*
 * How the samples are shared out: both roles of the contended lock take
 * half; the woken side of a wake experiment takes them all; a one-CPU
 * experiment's only role takes them all.
 */
static void wsc_lat_share_out(struct wsc_lat_team *run,
			      struct wsc_lat_result *res)
{
	const struct wsc_lat_request *req = run->req;
	u32 n = req->iterations;

	if (req->exp == WSC_EXP_SPINLOCK_CONTENDED) {
		run->role[0].quota = n - n / 2;
		run->role[1].quota = n / 2;
	} else if (wsc_experiments[req->exp].flags & WSC_EXPF_WAKE) {
		run->role[0].quota = 0;
		run->role[1].quota = n;
	} else {
		run->role[0].quota = n;
	}
	run->role[0].samples = res->samples;
	run->role[1].samples = res->samples + run->role[0].quota;
	run->role[0].hist = res->hist[0];
	run->role[1].hist = res->hist[1];
}

static struct wsc_lat_team *wsc_lat_team_alloc(const struct wsc_lat_request *req)
{
	struct wsc_lat_team *run;
	unsigned int i;

	run = kzalloc(sizeof(*run), GFP_KERNEL_ACCOUNT);
	if (!run)
		return NULL;
	run->req = req;
	/* A tenth of the run, between 10 and 1000 iterations. */
	run->warmup = clamp_t(u32, req->iterations / 10, 10, 1000);
	atomic_set(&run->ready, 0);
	atomic_set(&run->active, req->nr_cpus);
	init_completion(&run->finished);
	spin_lock_init(&run->lock);
	mutex_init(&run->mutex);
	sema_init(&run->sem, 0);
	init_completion(&run->wake);
	atomic_set(&run->armed, 0);
	for (i = 0; i < req->nr_cpus; i++) {
		run->role[i].run = run;
		run->role[i].index = i;
		run->role[i].cpu = req->cpu[i];
		run->role[i].scratch = kvmalloc_array(WSC_LAT_CLOCK_SAMPLES,
						      sizeof(u64), GFP_KERNEL);
		if (!run->role[i].scratch)
			goto err_free;
	}
	return run;

err_free:
	while (i--)
		kvfree(run->role[i].scratch);
	kfree(run);
	return NULL;
}

static void wsc_lat_team_free(struct wsc_lat_team *run)
{
	unsigned int i;

	for (i = 0; i < run->req->nr_cpus; i++)
		kvfree(run->role[i].scratch);
	mutex_destroy(&run->mutex);
	kfree(run);
}

static int wsc_lat_thread(void *data)
{
	struct wsc_lat_role *r = data;
	struct wsc_lat_team *run = r->run;

	wsc_lat_role_run(r);
	if (atomic_dec_and_test(&run->active))
		complete(&run->finished);
	return 0;
}

/* Stop what the roles are doing and release any that sleeps. */
static void wsc_lat_stop(struct wsc_lat_team *run)
{
	WRITE_ONCE(run->stop, true);
	wsc_lat_unblock(run);
}

/*
 * Start one kthread per role, bound to its CPU, and wait for all of them.
 * CPU hotplug is held off for the whole run so that no role loses its CPU.
 */
static int wsc_lat_run_threads(struct wsc_lat_team *run,
			       struct netlink_ext_ack *extack)
{
	unsigned int i, n = run->req->nr_cpus;
	int ret = 0;

	cpus_read_lock();
	for (i = 0; i < n; i++) {
		struct wsc_lat_role *r = &run->role[i];
		struct task_struct *t;

		if (!cpu_online(r->cpu)) {
			NL_SET_ERR_MSG(extack, "a CPU of the run went offline");
			ret = -EINVAL;
			goto err_stop_created;
		}
		t = kthread_create(wsc_lat_thread, r, "wsc_lat/%u", r->cpu);
		if (IS_ERR(t)) {
			NL_SET_ERR_MSG(extack, "cannot create the measuring thread");
			ret = PTR_ERR(t);
			goto err_stop_created;
		}
		/* kthread_stop() below needs the task after it has exited. */
		get_task_struct(t);
		kthread_bind(t, r->cpu);
		r->task = t;
	}
	for (i = 0; i < n; i++)
		wake_up_process(run->role[i].task);

	if (wait_for_completion_interruptible(&run->finished)) {
		NL_SET_ERR_MSG(extack, "interrupted by a signal: the run was stopped and nothing was kept");
		ret = -EINTR;
		wsc_lat_stop(run);
		wait_for_completion(&run->finished);
	} else if (READ_ONCE(run->stop)) {
		NL_SET_ERR_MSG(extack, "the module is being unloaded: the run was stopped");
		ret = -ESHUTDOWN;
	}
	i = n;

err_stop_created:
	/*
	 * A thread that was never woken returns from kthread_stop() without
	 * running; one that has finished is waited for until it has left
	 * this module's code.
	 */
	while (i--) {
		kthread_stop(run->role[i].task);
		put_task_struct(run->role[i].task);
	}
	cpus_read_unlock();
	return ret;
}

/*
 * Gather the roles' samples into one array in role order, then compute
 * what the result reports.  The statistics come from a sorted copy so that
 * the samples stay in the order they were taken.
 */
static int wsc_lat_finish(struct wsc_lat_team *run, struct wsc_lat_result *res,
			  struct netlink_ext_ack *extack)
{
	const struct wsc_experiment *e = &wsc_experiments[run->req->exp];
	struct wsc_lat_role *sampler;
	u64 count = 0, *sorted;
	unsigned int i;

	for (i = 0; i < run->req->nr_cpus; i++) {
		struct wsc_lat_role *r = &run->role[i];

		if (r->samples != res->samples + count)
			memmove(res->samples + count, r->samples,
				r->count * sizeof(u64));
		count += r->count;
		res->role_count[i] = r->count;
		res->fig.errors += r->errors;
	}

	sorted = __vmalloc_array(max_t(u64, count, 1), sizeof(u64),
				 GFP_KERNEL_ACCOUNT);
	if (!sorted)
		goto err_nomem;
	memcpy(sorted, res->samples, count * sizeof(u64));
	if (wsc_lat_sort(sorted, count)) {
		vfree(sorted);
		goto err_nomem;
	}
	wsc_summary_compute(sorted, count, &res->fig.sum);
	vfree(sorted);

	/* The role that takes the samples: the woken side of a wake-up. */
	sampler = &run->role[(e->flags & WSC_EXPF_WAKE) ? 1 : 0];
	res->fig.timer_ps = sampler->timer_ps;
	res->fig.warmup = run->warmup;
	if (e->flags & WSC_EXPF_BLOCK) {
		res->fig.block_ops = WSC_LAT_BLOCK_OPS;
		res->fig.block_ps = run->role[0].block_ps;
	}
	return 0;

err_nomem:
	NL_SET_ERR_MSG(extack, "not enough memory to sort the samples");
	return -ENOMEM;
}

static int wsc_lat_check(const struct wsc_lat_request *req,
			 struct netlink_ext_ack *extack)
{
	unsigned int i;

	if (req->exp >= WSC_NR_EXPERIMENTS) {
		NL_SET_ERR_MSG(extack, "unknown experiment");
		return -EINVAL;
	}
	if (!req->iterations || req->iterations > WSC_LAT_MAX_ITERATIONS) {
		NL_SET_ERR_MSG(extack, "iterations out of range");
		return -EINVAL;
	}
	if (req->nr_cpus != wsc_experiments[req->exp].roles) {
		NL_SET_ERR_MSG(extack, "wrong number of CPUs for the experiment");
		return -EINVAL;
	}
	for (i = 0; i < req->nr_cpus; i++) {
		if (req->cpu[i] >= nr_cpu_ids) {
			NL_SET_ERR_MSG(extack, "CPU out of range");
			return -EINVAL;
		}
		if (i && req->cpu[i] == req->cpu[0]) {
			NL_SET_ERR_MSG(extack, "the experiment needs two different CPUs");
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * wsc_lab_run() - run an experiment and keep its result
 * @req:    what to run; checked again here
 * @result: on success, the new result, referenced (wsc_lat_put() it)
 * @extack: where a failure is explained
 *
 * Blocks until the run has finished.  The result replaces the
 * experiment's previous one.
 *
 * Return: 0; -EBUSY if a run is in progress; -EINTR if a signal stopped
 * the run; -ESHUTDOWN if unloading the module did; -EINVAL for a bad
 * request; -ENOMEM.
 */
int wsc_lab_run(const struct wsc_lat_request *req,
		struct wsc_lat_result **result, struct netlink_ext_ack *extack)
{
	struct wsc_lat_result *res, *old = NULL;
	struct wsc_lat_team *run;
	u64 start = 0, run_id = 0;
	int ret;

	ret = wsc_lat_check(req, extack);
	if (ret)
		return ret;
	run = wsc_lat_team_alloc(req);
	if (!run) {
		NL_SET_ERR_MSG(extack, "not enough memory for the run");
		return -ENOMEM;
	}

	/* Claim the lab before allocating the samples: a busy lab costs nothing. */
	mutex_lock(&wsc_lab.lock);
	if (wsc_lab.closing) {
		NL_SET_ERR_MSG(extack, "the module is being unloaded");
		ret = -ESHUTDOWN;
	} else if (wsc_lab.run) {
		NL_SET_ERR_MSG(extack, "another run is in progress");
		ret = -EBUSY;
	} else {
		wsc_lab.run = run;
		start = ktime_get_ns();
		run_id = ++wsc_lab.runs;
		wsc_lab.status = (struct wsc_lat_status){
			.running = true,
			.req = *req,
			.run_id = run_id,
			.started_ns = start,
		};
	}
	mutex_unlock(&wsc_lab.lock);
	if (ret)
		goto err_free_run;

	res = wsc_lat_result_alloc(req);
	if (res) {
		res->fig.run_id = run_id;
		wsc_lat_share_out(run, res);
		ret = wsc_lat_run_threads(run, extack);
	} else {
		NL_SET_ERR_MSG(extack, "not enough memory for the samples");
		ret = -ENOMEM;
	}
	if (!ret) {
		ret = wsc_lat_finish(run, res, extack);
		res->fig.duration_ns = ktime_get_ns() - start;
	}

	mutex_lock(&wsc_lab.lock);
	if (!ret) {
		old = wsc_lab.result[req->exp];
		kref_get(&res->ref);
		wsc_lab.result[req->exp] = res;
		*result = res;
	}
	wsc_lab.run = NULL;
	wsc_lab.status.running = false;
	wake_up_all(&wsc_lab.idle);
	mutex_unlock(&wsc_lab.lock);

	wsc_lat_put(old);
	if (ret)
		wsc_lat_put(res);
err_free_run:
	wsc_lat_team_free(run);
	return ret;
}

/**
 * wsc_lab_reset() - forget results and free their samples
 * @exp:    enum wsc_experiment_id, or -1 for every experiment
 * @extack: where a failure is explained
 *
 * Readers that hold a reference keep theirs until they drop it.
 *
 * Return: 0, or -EBUSY while a run is in progress.
 */
int wsc_lab_reset(int exp, struct netlink_ext_ack *extack)
{
	struct wsc_lat_result *gone[WSC_NR_EXPERIMENTS] = {};
	int i;

	if (exp >= WSC_NR_EXPERIMENTS) {
		NL_SET_ERR_MSG(extack, "unknown experiment");
		return -EINVAL;
	}
	mutex_lock(&wsc_lab.lock);
	if (wsc_lab.run) {
		mutex_unlock(&wsc_lab.lock);
		NL_SET_ERR_MSG(extack, "a run is in progress");
		return -EBUSY;
	}
	for (i = 0; i < WSC_NR_EXPERIMENTS; i++) {
		if (exp >= 0 && i != exp)
			continue;
		gone[i] = wsc_lab.result[i];
		wsc_lab.result[i] = NULL;
	}
	mutex_unlock(&wsc_lab.lock);

	for (i = 0; i < WSC_NR_EXPERIMENTS; i++)
		wsc_lat_put(gone[i]);
	return 0;
}

int wsc_lab_init(void)
{
	return 0;
}

/**
 * wsc_lab_exit() - stop a run in progress and drop every result
 *
 * Called before the netlink family goes away: a RUN command waiting for
 * its run must return first, and it does once its run has stopped.
 */
void wsc_lab_exit(void)
{
	mutex_lock(&wsc_lab.lock);
	wsc_lab.closing = true;
	if (wsc_lab.run)
		wsc_lat_stop(wsc_lab.run);
	mutex_unlock(&wsc_lab.lock);

	wait_event(wsc_lab.idle, !READ_ONCE(wsc_lab.run));
	wsc_lab_reset(-1, NULL);
}
