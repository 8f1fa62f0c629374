// SPDX-License-Identifier: MIT
/*
 * sem and futex: how long a wake-up takes, from a timestamp the waker
 * records just before sem_post() or FUTEX_WAKE to one the woken thread
 * records when its wait returns, both on CLOCK_MONOTONIC (one clock that
 * every CPU reads alike, so the two timestamps compare).  Nothing sleeps inside the interval: the waker only wakes a
 * thread that has gone to sleep, which it learns from the thread's
 * /proc status (state S, and a voluntary context switch since it said
 * it would wait), untimed.  The two threads are pinned to two CPUs.
 *
 * A round, for each sample:
 *   waker                           waiter
 *   round = k, with the mechanism   sees round k, notes its switch count,
 *                                   says armed = k, waits
 *   sees armed = k, waits until the waiter is asleep
 *   t_wake = now; wake it           wait returns; t_woke = now; done = k
 *   sees done = k; sample = t_woke - t_wake
 * A negative sample (impossible on one clock) is counted, never kept.
 */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"
#include "common/clock.h"
#include "common/interrupt.h"
#include "common/module_hint.h"
#include "common/progress.h"

/* How long the waker waits for the waiter to fall asleep before giving up. */
#define WAKE_ASLEEP_TIMEOUT_NS	5000000000ull

enum wake_kind { WAKE_SEM, WAKE_FUTEX };

struct wake_shared {
	enum wake_kind kind;
	int cpu;			/* the waiter's */
	_Atomic uint64_t round;		/* set by the waker: 1, 2, ... */
	_Atomic int mech;		/* how round waits and wakes */
	_Atomic uint64_t armed;		/* set by the waiter */
	_Atomic uint64_t done;		/* set by the waiter */
	_Atomic bool stop;
	_Atomic uint32_t word;		/* the futex: 1 = wake up */
	sem_t sem;
	_Atomic long nvcsw;		/* the waiter's count before waiting */
	_Atomic pid_t tid;
	_Atomic int ready;		/* the waiter: 1 set up, -1 failed */
	uint64_t t_wake;
	_Atomic uint64_t t_woke;
	_Atomic int64_t wait_ret;	/* what the waiter's wait returned */
	char err[160];
};

static long futex(_Atomic uint32_t *word, int op, uint32_t val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

static int64_t wait_once(struct wake_shared *w, struct wsc_batch *b, int mech)
{
	int ret;

	if (w->kind == WAKE_SEM)
		return sem_wait(&w->sem) ? -errno : 0;
	if (mech == BENCH_CONVENTIONAL)
		return futex(&w->word, FUTEX_WAIT_PRIVATE, 0) ? -errno : 0;
	wsc_batch_reset(b);
	wsc_prep_futex(b, (uint32_t *)&w->word, FUTEX_WAIT_PRIVATE, 0, NULL,
		       NULL, 0);
	ret = wsc_batch_submit(b);
	return ret == 1 ? wsc_batch_result(b, 0) : ret;
}

static void *waiter(void *arg)
{
	struct wake_shared *w = arg;
	struct wsc_batch *b = NULL;
	uint64_t k = 0;

	w->tid = (pid_t)syscall(SYS_gettid);
	/* Its CPU was set at creation; a batch of its own for the wait. */
	if (wsc_batch_create(&b, 0)) {
		atomic_store(&w->ready, -1);
		return NULL;
	}
	atomic_store(&w->ready, 1);
	for (;;) {
		struct rusage ru;
		int mech;
		int64_t ret;

		while (atomic_load(&w->round) == k && !atomic_load(&w->stop))
			;
		if (atomic_load(&w->stop))
			break;
		k = atomic_load(&w->round);
		mech = atomic_load(&w->mech);
		getrusage(RUSAGE_THREAD, &ru);
		atomic_store(&w->nvcsw, ru.ru_nvcsw);
		atomic_store(&w->armed, k);
		/* A wait that returns early (EAGAIN, EINTR) waits again. */
		do {
			ret = wait_once(w, b, mech);
		} while (ret == -EINTR ||
			 (w->kind == WAKE_FUTEX && !atomic_load(&w->word) &&
			  (ret == 0 || ret == -EAGAIN)));
		atomic_store(&w->t_woke, clock_now_ns());
		atomic_store(&w->word, 0);
		atomic_store(&w->wait_ret, ret);
		atomic_store(&w->done, k);
	}
	wsc_batch_destroy(b);
	return NULL;
}

/* The waiter's state letter and voluntary switches, from /proc. */
static int waiter_state(pid_t tid, char *state, long *nvcsw)
{
	char path[64], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	*state = '?';
	*nvcsw = -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "State:", 6))
			sscanf(line + 6, " %c", state);
		else if (!strncmp(line, "voluntary_ctxt_switches:", 24))
			sscanf(line + 24, "%ld", nvcsw);
	}
	fclose(f);
	return 0;
}

static int wait_until_asleep(struct wake_shared *w, uint64_t k)
{
	uint64_t t0 = clock_now_ns();
	char state;
	long n;
	int ret;

	for (;;) {
		if (atomic_load(&w->done) == k) {
			snprintf(w->err, sizeof(w->err),
				 "the wait returned %lld before any wake-up",
				 (long long)atomic_load(&w->wait_ret));
			return -1;
		}
		ret = waiter_state(w->tid, &state, &n);
		if (ret) {
			snprintf(w->err, sizeof(w->err),
				 "cannot read the waiting thread's state: %s",
				 strerror(-ret));
			return -1;
		}
		if (state == 'S' && n > atomic_load(&w->nvcsw))
			return 0;
		if (clock_now_ns() - t0 > WAKE_ASLEEP_TIMEOUT_NS) {
			snprintf(w->err, sizeof(w->err),
				 "the waiting thread did not fall asleep within 5 s (state %c)",
				 state);
			return -1;
		}
	}
}

static int64_t wake_once(struct wake_shared *w, struct wsc_batch *b, int mech)
{
	int ret;

	if (w->kind == WAKE_SEM)
		return sem_post(&w->sem) ? -errno : 1;	/* checked by the caller */
	atomic_store(&w->word, 1);
	if (mech == BENCH_CONVENTIONAL) {
		long r = futex(&w->word, FUTEX_WAKE_PRIVATE, 1);

		return r < 0 ? -errno : r;
	}
	wsc_batch_reset(b);
	wsc_prep_futex(b, (uint32_t *)&w->word, FUTEX_WAKE_PRIVATE, 1, NULL,
		       NULL, 0);
	ret = wsc_batch_submit(b);
	return ret == 1 ? wsc_batch_result(b, 0) : ret;
}

/*
 * One wake-up.  Returns 0 with @ns, 1 for a sample to refuse (negative),
 * or -1 with w->err.
 */
static int wake_sample(struct wake_shared *w, struct wsc_batch *b, int mech,
		       uint64_t k, int64_t *ns)
{
	int64_t woke;
	int left = 0;

	atomic_store(&w->mech, mech);
	atomic_store(&w->round, k);
	while (atomic_load(&w->armed) != k)
		;
	if (wait_until_asleep(w, k))
		return -1;
	w->t_wake = clock_now_ns();
	woke = wake_once(w, b, mech);
	/* A failed wake leaves the waiter asleep: the caller's cleanup wakes it. */
	if (woke != 1) {
		snprintf(w->err, sizeof(w->err),
			 "the wake returned %lld, expected 1 thread woken",
			 (long long)woke);
		return -1;
	}
	while (atomic_load(&w->done) != k)
		;
	/* The wait returned 0, and a semaphore post went to the sleeper. */
	if (atomic_load(&w->wait_ret) != 0 ||
	    (w->kind == WAKE_SEM && sem_getvalue(&w->sem, &left) == 0 && left)) {
		snprintf(w->err, sizeof(w->err),
			 "the wait returned %lld, the semaphore holds %d",
			 (long long)atomic_load(&w->wait_ret), left);
		return -1;
	}
	*ns = (int64_t)(atomic_load(&w->t_woke) - w->t_wake);
	return *ns < 0;
}

static void add_variants(struct bench_result *r, enum wake_kind kind)
{
	bench_add_variant(r, BENCH_CONVENTIONAL, 1);
	if (kind == WAKE_FUTEX) {
		bench_add_variant(r, BENCH_WRAPPED, 1);
		r->skipped[r->nr_skipped][0] = "wrapped-8, wrapped-64";
		r->skipped[r->nr_skipped++][1] =
			"a wake-up is one call on each side: there is no batch to make";
	} else {
		r->skipped[r->nr_skipped][0] = "wrapped";
		r->skipped[r->nr_skipped++][1] =
			"sem_post and sem_wait are glibc functions over futex(2): see futex for its wrapped wake-up";
	}
	r->skipped[r->nr_skipped][0] = "io_uring";
	r->skipped[r->nr_skipped++][1] =
		"no futex opcode before Linux 6.7 (IORING_OP_FUTEX_WAIT)";
}

int bench_wake_run(const struct bench_call *call, const struct bench_opts *o,
		   struct bench_result *r)
{
	struct wake_shared *w;
	struct wsc_batch *b = NULL;
	pthread_attr_t attr;
	pthread_t th;
	cpu_set_t set;
	uint64_t round, rounds = 0, k = 0, t0 = clock_now_ns(), t_kept = 0;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	r->call = call;
	r->iters = o->iters;
	r->warmup = bench_warmup(o);
	r->rounds = o->rounds;
	snprintf(r->counters_why, sizeof(r->counters_why),
		 "not counted: a wake-up spans two threads");
	w = calloc(1, sizeof(*w));
	if (!w)
		return -1;
	w->kind = strcmp(call->name, "sem") ? WAKE_FUTEX : WAKE_SEM;
	w->cpu = o->partner;
	sem_init(&w->sem, 0, 0);
	add_variants(r, w->kind);
	if (bench_alloc_samples(r))
		goto out_free;
	ret = wsc_batch_create(&b, 0);
	if (ret) {
		module_report("bench", ret, false);
		ret = -1;
		goto out_free;
	}
	ret = -1;
	/* Born on its CPU: an unreachable one fails here, not in a spin. */
	CPU_ZERO(&set);
	CPU_SET(o->partner, &set);
	/*
	 * The waiter is born with SIGINT and SIGTERM blocked: they go to
	 * this thread, which looks for them between rounds, and never cut
	 * the waiter's sleep short (a wait returning EINTR is a failure).
	 */
	interrupt_block();
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setaffinity_np(&attr, sizeof(set), &set) ||
	    pthread_create(&th, &attr, waiter, w)) {
		interrupt_unblock();
		fprintf(stderr, "wsc bench %s: cannot start a thread on CPU %d\n",
			call->name, o->partner);
		pthread_attr_destroy(&attr);
		goto out_batch;
	}
	interrupt_unblock();
	pthread_attr_destroy(&attr);
	while (!atomic_load(&w->ready))
		;
	if (atomic_load(&w->ready) < 0) {
		fprintf(stderr, "wsc bench %s: the waiting thread cannot open /dev/%s\n",
			call->name, WSC_DEVICE_NAME);
		goto out_join;
	}
	r->clock_ps = clock_cost_ps();

	rounds = r->warmup + o->iters;
	r->setup_ns = clock_now_ns() - t0;
	for (round = 0; round < rounds; round++) {
		unsigned int j;

		if (round == r->warmup)
			t_kept = clock_now_ns();
		if (interrupted()) {
			r->interrupted = true;
			break;
		}
		for (j = 0; j < r->nr; j++) {
			struct bench_variant *v = &r->v[(round + j) % r->nr];
			int64_t ns;
			int bad = wake_sample(w, b, v->mech, ++k, &ns);

			if (bad < 0) {
				fprintf(stderr, "wsc bench %s: %s %s\n",
					call->name, v->name, w->err);
				goto out_join;
			}
			if (round < r->warmup)
				continue;
			if (bad) {
				v->errors++;
				continue;
			}
			v->ns[v->n++] = (uint64_t)ns;
			v->duration_ns += (uint64_t)ns;
		}
		progress_line("bench", call->name, round + 1, rounds);
	}
	r->done = round > r->warmup ? round - r->warmup : 0;
	if (r->done)
		r->rounds_ns = clock_now_ns() - t_kept;
	r->verified = true;
	ret = bench_finish(r);
out_join:
	progress_line("bench", call->name, rounds, rounds);
	/* The waiter spins on round and stop, or sleeps in a wait: end both. */
	atomic_store(&w->stop, true);
	atomic_store(&w->word, 1);
	futex(&w->word, FUTEX_WAKE_PRIVATE, 1);
	sem_post(&w->sem);
	pthread_join(th, NULL);
out_batch:
	wsc_batch_destroy(b);
out_free:
	sem_destroy(&w->sem);
	free(w);
	return ret ? -1 : 0;
}
