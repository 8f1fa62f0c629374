// SPDX-License-Identifier: GPL-2.0
/*
 * The latency lab through libwsc's netlink client: every experiment gives
 * self-consistent statistics; the raw samples it streams back are as many
 * as it counts and summarise, in userspace, to exactly the kernel's
 * figures; its histogram holds exactly those samples; /proc/syscall_lat
 * shows the same result; refusals carry the kernel's reason; a reset
 * forgets; a second run is refused while one is in progress, and an
 * interrupted run keeps nothing.
 */
#include <ctype.h>
#include <inttypes.h>
#include <sys/types.h>

#include "harness.h"
#include "libwsc.h"
#include "wsc_experiments.h"
#include "wsc_hist.h"

/* Small: the VM is QEMU TCG. */
#define LAT_ITERS	2000

struct lat_exp {
	const char *name;
	unsigned int roles;
	unsigned int flags;
};

#define LAT_ROW(id, n, r, f, w) [WSC_EXP_##id] = { n, r, f },
static const struct lat_exp lat_exps[WSC_NR_EXPERIMENTS] = {
	WSC_FOR_EACH_EXPERIMENT(LAT_ROW)
};

static struct wsc_lat *lat_open(void)
{
	struct wsc_lat *lat;
	int ret = wsc_lat_open(&lat);

	if (ret) {
		printf("# wsc_lat_open: %s (is wsc.ko loaded?)\n", strerror(-ret));
		_exit(1);
	}
	return lat;
}

/* Run @name or stop the test, printing the kernel's reason. */
static void lat_run(struct wsc_lat *lat, const char *name, uint32_t iters,
		    struct wsc_lat_stats *st)
{
	int ret = wsc_lat_run(lat, name, iters, NULL, 0, st);

	if (ret)
		TH_LOG("run %s: %s: %s", name, strerror(-ret), wsc_lat_error(lat));
	ASSERT_EQ(ret, 0);
}

/* The raw samples of a result, in the order the kernel sends them. */
struct lat_samples {
	uint64_t *v;
	uint64_t n, cap;
	bool bad_index;
};

static int lat_collect(void *ctx, uint64_t index, uint64_t ns)
{
	struct lat_samples *s = ctx;

	if (index != s->n)
		s->bad_index = true;
	if (s->n == s->cap)
		return -EOVERFLOW;
	s->v[s->n++] = ns;
	return 0;
}

/* The per-bucket counts of a histogram dump, all CPUs merged. */
struct lat_hist {
	const struct wsc_lat_stats *st;
	uint64_t count[WSC_HIST_BUCKETS];
	uint64_t total;
	unsigned int buckets;
	bool bad_bounds, bad_cpu;
};

static int lat_bucket(void *ctx, uint32_t cpu, uint64_t low, uint64_t high,
		      uint64_t count)
{
	struct lat_hist *h = ctx;
	unsigned int i = wsc_hist_index(low), k;
	bool known = false;

	/* A bucket of wsc_hist.h, exactly. */
	if (wsc_hist_low(i) != low || wsc_hist_high(i) != high)
		h->bad_bounds = true;
	for (k = 0; k < h->st->nr_cpus; k++)
		known |= h->st->cpu[k] == cpu;
	if (!known)
		h->bad_cpu = true;
	h->count[i] += count;
	h->total += count;
	h->buckets++;
	return 0;
}

/* "123.456" (ns, three decimals) to ps; false if it is not that. */
static bool parse_ns3(const char *s, uint64_t *ps)
{
	unsigned long long whole;
	char *end;

	whole = strtoull(s, &end, 10);
	if (end == s || end[0] != '.' || !isdigit((unsigned char)end[1]) ||
	    !isdigit((unsigned char)end[2]) || !isdigit((unsigned char)end[3]))
		return false;
	*ps = whole * 1000 + (uint64_t)((end[1] - '0') * 100 +
					(end[2] - '0') * 10 + (end[3] - '0'));
	return true;
}

/*
 * What /proc/syscall_lat says about one experiment: the run id of its
 * "# run N on CPU ..." line, the "raw" row (count, mean, median, stddev,
 * min, max, ci95_lo, ci95_hi, p50, p95, p99) and the sum of its
 * power-of-two histogram rows.  Returns false if it has no section.
 */
struct proc_lab {
	uint64_t run_id;
	uint64_t count;
	uint64_t fig[10];	/* mean .. p99 in ps, the raw row's order */
	uint64_t hist_total;
	uint64_t log2[64];
};

enum { P_MEAN, P_MEDIAN, P_STDDEV, P_MIN, P_MAX, P_CI_LO, P_CI_HI, P_P50,
       P_P95, P_P99 };

static bool proc_lab_section(const char *name, struct proc_lab *p)
{
	char line[1024], head[64];
	bool in = false, found = false, in_hist = false;
	FILE *f = fopen("/proc/syscall_lat", "r");

	ASSERT_TRUE(f != NULL);
	memset(p, 0, sizeof(*p));
	snprintf(head, sizeof(head), "# lab %s: ", name);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b, c;

		if (!strncmp(line, "# lab ", 6)) {
			in = !strncmp(line, head, strlen(head));
			in_hist = false;
			found |= in;
			continue;
		}
		if (!in)
			continue;
		if (sscanf(line, "# run %llu on CPU", &a) == 1) {
			p->run_id = a;
		} else if (!strncmp(line, "# histogram", 11)) {
			in_hist = true;
		} else if (!strncmp(line, "raw ", 4)) {
			char *tok, *save = NULL;
			int col = 0;

			strtok_r(line, " \n", &save);	/* "raw" */
			tok = strtok_r(NULL, " \n", &save);
			ASSERT_TRUE(tok != NULL);
			p->count = strtoull(tok, NULL, 10);
			while ((tok = strtok_r(NULL, " \n", &save)) && col < 10)
				ASSERT_TRUE(parse_ns3(tok, &p->fig[col++]));
			ASSERT_EQ(col, 10);
		} else if (in_hist && sscanf(line, "%llu %llu %llu", &a, &b, &c) == 3) {
			p->hist_total += c;
			if (a)
				p->log2[63 - __builtin_clzll(a)] += c;
			else
				p->log2[0] += c;
		}
	}
	fclose(f);
	return found;
}

static bool proc_lab_idle(void)
{
	char line[1024];
	bool idle = false;
	FILE *f = fopen("/proc/syscall_lat", "r");

	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f))
		idle |= !strncmp(line, "# lab: idle", 11);
	fclose(f);
	return idle;
}

static void expect_summary_equal(const struct wsc_summary *a,
				 const struct wsc_summary *b)
{
	EXPECT_EQ(a->count, b->count);
	EXPECT_EQ(a->mean_ps, b->mean_ps);
	EXPECT_EQ(a->median_ps, b->median_ps);
	EXPECT_EQ(a->stddev_ps, b->stddev_ps);
	EXPECT_EQ(a->min_ps, b->min_ps);
	EXPECT_EQ(a->max_ps, b->max_ps);
	EXPECT_EQ(a->ci95_lo_ps, b->ci95_lo_ps);
	EXPECT_EQ(a->ci95_hi_ps, b->ci95_hi_ps);
	EXPECT_EQ(a->p50_ps, b->p50_ps);
	EXPECT_EQ(a->p95_ps, b->p95_ps);
	EXPECT_EQ(a->p99_ps, b->p99_ps);
}

/* Everything one run of one experiment must satisfy. */
static void check_experiment(unsigned int id)
{
	const struct lat_exp *e = &lat_exps[id];
	struct wsc_lat *lat = lat_open();
	struct wsc_lat_stats st, again;
	const struct wsc_summary *s = &st.sum;
	struct lat_samples smp = { 0 };
	struct wsc_summary mine;
	struct lat_hist *h;
	struct proc_lab p;
	uint64_t *per_bucket, i, log2[64] = { 0 };
	int ret;

	lat_run(lat, e->name, LAT_ITERS, &st);
	TH_LOG("%s: count %llu, errors %llu, median %llu ps, timer %llu ps, run %llu",
	       e->name, (unsigned long long)s->count,
	       (unsigned long long)st.errors, (unsigned long long)s->median_ps,
	       (unsigned long long)st.timer_ps, (unsigned long long)st.run_id);

	/* Self-consistent. */
	EXPECT_EQ(strcmp(st.experiment, e->name), 0);
	EXPECT_EQ(st.iterations, LAT_ITERS);
	EXPECT_EQ(s->count + st.errors, st.iterations);
	ASSERT_GE(s->count, 1);
	EXPECT_EQ(st.nr_cpus, e->roles);
	if (st.nr_cpus == 2)
		EXPECT_NE(st.cpu[0], st.cpu[1]);
	EXPECT_LE(s->min_ps, s->p50_ps);
	EXPECT_LE(s->p50_ps, s->p95_ps);
	EXPECT_LE(s->p95_ps, s->p99_ps);
	EXPECT_LE(s->p99_ps, s->max_ps);
	EXPECT_EQ(s->median_ps, s->p50_ps);
	EXPECT_LE(s->min_ps, s->mean_ps);
	EXPECT_LE(s->mean_ps, s->max_ps);
	EXPECT_LE(s->ci95_lo_ps, s->mean_ps);
	EXPECT_LE(s->mean_ps, s->ci95_hi_ps);
	EXPECT_GT(st.timer_ps, 0);
	EXPECT_GT(st.warmup, 0);
	EXPECT_GT(st.run_id, 0);
	EXPECT_GT(st.duration_ns, 0);
	if (e->flags & WSC_EXPF_BLOCK) {
		EXPECT_GT(st.block_ops, 0);
		EXPECT_GT(st.block_ps, 0);
	} else {
		EXPECT_EQ(st.block_ops, 0);
		EXPECT_EQ(st.block_ps, 0);
	}

	/* Asked again, the same result. */
	ASSERT_EQ(wsc_lat_stats_get(lat, e->name, &again), 0);
	EXPECT_EQ(again.run_id, st.run_id);
	EXPECT_EQ(memcmp(&again, &st, sizeof(st)), 0);

	/* The raw samples: as many as counted, the same figures here. */
	smp.cap = s->count;
	smp.v = calloc(smp.cap + 1, sizeof(uint64_t));
	ASSERT_TRUE(smp.v != NULL);
	ret = wsc_lat_samples(lat, e->name, lat_collect, &smp);
	if (ret < 0)
		TH_LOG("samples: %s: %s", strerror(-ret), wsc_lat_error(lat));
	ASSERT_EQ(ret, (long long)s->count);
	EXPECT_EQ(smp.n, s->count);
	EXPECT_FALSE(smp.bad_index);

	/* Histogram, before the samples get sorted: their buckets exactly. */
	per_bucket = calloc(WSC_HIST_BUCKETS, sizeof(uint64_t));
	h = calloc(1, sizeof(*h));
	ASSERT_TRUE(per_bucket && h);
	for (i = 0; i < smp.n; i++) {
		per_bucket[wsc_hist_index(smp.v[i])]++;
		log2[wsc_hist_log2(wsc_hist_index(smp.v[i]))]++;
	}
	h->st = &st;
	ret = wsc_lat_hist(lat, e->name, lat_bucket, h);
	if (ret < 0)
		TH_LOG("hist: %s: %s", strerror(-ret), wsc_lat_error(lat));
	ASSERT_GE(ret, 1);
	EXPECT_EQ(ret, h->buckets);
	EXPECT_EQ(h->total, s->count);
	EXPECT_FALSE(h->bad_bounds);
	EXPECT_FALSE(h->bad_cpu);
	EXPECT_EQ(memcmp(per_bucket, h->count,
			 WSC_HIST_BUCKETS * sizeof(uint64_t)), 0);

	ASSERT_EQ(wsc_stats_summary(smp.v, smp.n, &mine), 0);
	expect_summary_equal(&mine, s);
	EXPECT_EQ(memcmp(&mine, s, sizeof(mine)), 0);

	/* /proc/syscall_lat: the same result, digit for digit. */
	ASSERT_TRUE(proc_lab_section(e->name, &p));
	EXPECT_EQ(p.run_id, st.run_id);
	EXPECT_EQ(p.count, s->count);
	EXPECT_EQ(p.fig[P_MEDIAN], s->median_ps);
	EXPECT_EQ(p.fig[P_P99], s->p99_ps);
	EXPECT_EQ(p.fig[P_MEAN], s->mean_ps);
	EXPECT_EQ(p.fig[P_STDDEV], s->stddev_ps);
	EXPECT_EQ(p.fig[P_MIN], s->min_ps);
	EXPECT_EQ(p.fig[P_MAX], s->max_ps);
	EXPECT_EQ(p.fig[P_CI_LO], s->ci95_lo_ps);
	EXPECT_EQ(p.fig[P_CI_HI], s->ci95_hi_ps);
	EXPECT_EQ(p.fig[P_P95], s->p95_ps);
	EXPECT_EQ(p.hist_total, s->count);
	EXPECT_EQ(memcmp(p.log2, log2, sizeof(log2)), 0);

	free(per_bucket);
	free(h);
	free(smp.v);
	wsc_lat_close(lat);
}

TEST(timer)			{ check_experiment(WSC_EXP_TIMER); }
TEST(spinlock)			{ check_experiment(WSC_EXP_SPINLOCK); }
TEST(spinlock_contended)	{ check_experiment(WSC_EXP_SPINLOCK_CONTENDED); }
TEST(mutex)			{ check_experiment(WSC_EXP_MUTEX); }
TEST(semaphore)			{ check_experiment(WSC_EXP_SEMAPHORE); }
TEST(completion)		{ check_experiment(WSC_EXP_COMPLETION); }

/* Explicit CPUs are used as given, in role order. */
/*
 * Above 65,536 samples the module sorts with its own radix sort instead
 * of the kernel's heapsort: its percentiles must still be libwsc's.
 */
TEST(large_run_sorted_in_the_kernel)
{
	struct wsc_lat *lat = lat_open();
	struct lat_samples smp = { 0 };
	struct wsc_lat_stats st;
	struct wsc_summary mine;
	int ret;

	lat_run(lat, "timer", 100000, &st);
	ASSERT_EQ(st.sum.count + st.errors, 100000);
	smp.cap = st.sum.count;
	smp.v = malloc(smp.cap * sizeof(*smp.v));
	ASSERT_NE(smp.v, NULL);
	ret = wsc_lat_samples(lat, "timer", lat_collect, &smp);
	ASSERT_EQ(ret, (int)st.sum.count);
	EXPECT_FALSE(smp.bad_index);
	ASSERT_EQ(wsc_stats_summary(smp.v, smp.n, &mine), 0);
	expect_summary_equal(&mine, &st.sum);
	free(smp.v);
	wsc_lat_close(lat);
}

TEST(cpus_as_given)
{
	struct wsc_lat *lat = lat_open();
	const uint32_t cpus[2] = { 1, 0 };
	struct wsc_lat_stats st;
	int ret;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("needs two CPUs");
	ret = wsc_lat_run(lat, "completion", 200, cpus, 2, &st);
	if (ret)
		TH_LOG("%s: %s", strerror(-ret), wsc_lat_error(lat));
	ASSERT_EQ(ret, 0);
	EXPECT_EQ(st.nr_cpus, 2);
	EXPECT_EQ(st.cpu[0], 1);
	EXPECT_EQ(st.cpu[1], 0);
	ret = wsc_lat_run(lat, "spinlock", 200, &cpus[0], 1, &st);
	ASSERT_EQ(ret, 0);
	EXPECT_EQ(st.nr_cpus, 1);
	EXPECT_EQ(st.cpu[0], 1);
	wsc_lat_close(lat);
}

/* Reset one experiment: its result is gone everywhere, the others stay. */
TEST(reset_one)
{
	struct wsc_lat *lat = lat_open();
	struct wsc_lat_stats st;
	struct lat_samples smp = { 0 };
	struct proc_lab p;

	lat_run(lat, "timer", 500, &st);
	lat_run(lat, "spinlock", 500, &st);
	ASSERT_EQ(wsc_lat_reset(lat, "timer"), 0);

	EXPECT_EQ(wsc_lat_stats_get(lat, "timer", &st), -ENODATA);
	EXPECT_NE(wsc_lat_error(lat)[0], '\0');
	TH_LOG("after reset: %s", wsc_lat_error(lat));
	/* A dump refused: the errno and reason arrive at its end. */
	EXPECT_EQ(wsc_lat_samples(lat, "timer", lat_collect, &smp), -ENODATA);
	EXPECT_NE(wsc_lat_error(lat)[0], '\0');
	EXPECT_FALSE(proc_lab_section("timer", &p));

	EXPECT_EQ(wsc_lat_stats_get(lat, "spinlock", &st), 0);
	EXPECT_TRUE(proc_lab_section("spinlock", &p));
	EXPECT_TRUE(proc_lab_idle());
	wsc_lat_close(lat);
}

/* Reset without a name: every result goes. */
TEST(reset_all)
{
	struct wsc_lat *lat = lat_open();
	struct wsc_lat_stats st;
	unsigned int i;

	lat_run(lat, "timer", 300, &st);
	lat_run(lat, "mutex", 300, &st);
	ASSERT_EQ(wsc_lat_reset(lat, NULL), 0);
	for (i = 0; i < WSC_NR_EXPERIMENTS; i++)
		EXPECT_EQ(wsc_lat_stats_get(lat, lat_exps[i].name, &st), -ENODATA);
	wsc_lat_close(lat);
}

static int lat_stop_early(void *ctx, uint64_t index, uint64_t ns)
{
	(void)ns;
	return index == *(uint64_t *)ctx ? 1 : 0;
}

/*
 * A caller that stops a dump early gets -ECANCELED, and the handle still
 * works: the rest of the dump was read and dropped.
 */
TEST(dump_stopped_early)
{
	struct wsc_lat *lat = lat_open();
	struct wsc_lat_stats st, again;
	uint64_t stop_at = 10;

	lat_run(lat, "spinlock", LAT_ITERS, &st);
	EXPECT_EQ(wsc_lat_samples(lat, "spinlock", lat_stop_early, &stop_at),
		  -ECANCELED);
	ASSERT_EQ(wsc_lat_stats_get(lat, "spinlock", &again), 0);
	EXPECT_EQ(again.run_id, st.run_id);
	wsc_lat_close(lat);
}

/* @call, the case @what, returns @ret, and the library says why. */
#define EXPECT_EXPLAINED(lat, what, ret, call) do {			\
	int _ret = (call);						\
									\
	TH_LOG("%s: %d %s", (what), _ret, wsc_lat_error(lat));		\
	EXPECT_EQ(_ret, (ret));						\
	EXPECT_NE(wsc_lat_error(lat)[0], '\0');				\
} while (0)

/* What the kernel refuses, it explains (extended ack). */
TEST(refusals_explained)
{
	struct wsc_lat *lat = lat_open();
	struct wsc_lat_stats st;
	const uint32_t same[2] = { 0, 0 }, far[1] = { 4096 }, two[2] = { 0, 1 };
	char name[64];
	int ret;

	/* Unknown to the kernel (the CLI would not even ask). */
	ret = wsc_lat_run(lat, "no-such-experiment", 100, NULL, 0, &st);
	TH_LOG("unknown: %d %s", ret, wsc_lat_error(lat));
	EXPECT_EQ(ret, -ENOENT);
	EXPECT_TRUE(strstr(wsc_lat_error(lat), "unknown experiment") != NULL);
	EXPECT_EQ(wsc_lat_stats_get(lat, "no-such-experiment", &st), -ENOENT);
	EXPECT_EQ(wsc_lat_reset(lat, "no-such-experiment"), -ENOENT);

	EXPECT_EXPLAINED(lat, "same CPU twice", -EINVAL,
			 wsc_lat_run(lat, "semaphore", 100, same, 2, &st));
	EXPECT_EXPLAINED(lat, "two CPUs for one role", -EINVAL,
			 wsc_lat_run(lat, "timer", 100, two, 2, &st));
	EXPECT_EXPLAINED(lat, "one CPU for two roles", -EINVAL,
			 wsc_lat_run(lat, "semaphore", 100, two, 1, &st));
	EXPECT_EXPLAINED(lat, "CPU 4096", -EINVAL,
			 wsc_lat_run(lat, "timer", 100, far, 1, &st));

	/* Caught in the library, never sent. */
	EXPECT_EQ(wsc_lat_run(lat, "timer", WSC_LAT_MAX_ITERATIONS + 1, NULL, 0,
			      &st), -EINVAL);
	EXPECT_EQ(wsc_lat_run(lat, "", 100, NULL, 0, &st), -EINVAL);
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	EXPECT_EQ(wsc_lat_run(lat, name, 100, NULL, 0, &st), -ENAMETOOLONG);

	/* And the handle still works after all that. */
	lat_run(lat, "timer", 100, &st);
	wsc_lat_close(lat);
}

/* An offline CPU is refused with a reason. */
TEST(offline_cpu_refused)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";
	struct wsc_lat *lat = lat_open();
	const uint32_t cpu[1] = { 1 };
	struct wsc_lat_stats st;
	FILE *f;
	int ret;

	f = fopen(online, "w");
	if (!f)
		SKIP("cannot take CPU 1 offline");
	fputs("0", f);
	if (fclose(f))
		SKIP("cannot take CPU 1 offline");
	ret = wsc_lat_run(lat, "timer", 100, cpu, 1, &st);
	TH_LOG("offline: %d %s", ret, wsc_lat_error(lat));
	f = fopen(online, "w");
	ASSERT_TRUE(f != NULL);
	fputs("1", f);
	ASSERT_EQ(fclose(f), 0);
	EXPECT_EQ(ret, -EINVAL);
	EXPECT_NE(wsc_lat_error(lat)[0], '\0');
	wsc_lat_close(lat);
}

/* Without CAP_SYS_ADMIN: no run, no reset; reading is fine. */
TEST(unprivileged)
{
	struct wsc_lat *lat;
	struct wsc_lat_stats st;
	int ret;

	lat = lat_open();
	lat_run(lat, "timer", 200, &st);
	wsc_lat_close(lat);

	ASSERT_EQ(setgid(65534), 0);
	ASSERT_EQ(setuid(65534), 0);
	lat = lat_open();
	ret = wsc_lat_run(lat, "timer", 100, NULL, 0, &st);
	TH_LOG("run as nobody: %d %s", ret, wsc_lat_error(lat));
	EXPECT_EQ(ret, -EPERM);
	EXPECT_NE(wsc_lat_error(lat)[0], '\0');
	EXPECT_EQ(wsc_lat_reset(lat, NULL), -EPERM);
	EXPECT_EQ(wsc_lat_stats_get(lat, "timer", &st), 0);
	wsc_lat_close(lat);
}

static void lat_sigusr1(int sig)
{
	(void)sig;
}

/*
 * While a run is in progress a second is refused (EBUSY); a signal to the
 * caller stops the run, which keeps nothing.
 */
TEST(busy_then_interrupted)
{
	struct wsc_lat *lat = lat_open();
	struct wsc_lat_stats st;
	char line[512];
	int status, i, ret;
	bool running = false;
	pid_t child;

	ASSERT_EQ(wsc_lat_reset(lat, NULL), 0);
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		struct sigaction sa = { .sa_handler = lat_sigusr1 };
		struct wsc_lat *mine = lat_open();

		sigaction(SIGUSR1, &sa, NULL);
		/* Wake-ups are slow under TCG: this runs until stopped. */
		ret = wsc_lat_run(mine, "semaphore", WSC_LAT_MAX_ITERATIONS, NULL, 0, &st);
		printf("# interrupted run: %d %s\n", ret, wsc_lat_error(mine));
		fflush(stdout);
		_exit(ret == 0 ? 3 : ret == -ECANCELED || ret == -EINTR ? 0 : 1);
	}

	/* Wait until /proc shows the run. */
	for (i = 0; i < 3000 && !running; i++) {
		FILE *f = fopen("/proc/syscall_lat", "r");

		ASSERT_TRUE(f != NULL);
		while (fgets(line, sizeof(line), f))
			running |= !strncmp(line, "# lab: running semaphore", 24);
		fclose(f);
		if (!running)
			usleep(10000);
	}
	if (!running) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		SKIP("the run was never seen in progress");
	}

	ret = wsc_lat_run(lat, "timer", 100, NULL, 0, &st);
	TH_LOG("second run: %d %s", ret, wsc_lat_error(lat));
	EXPECT_EQ(ret, -EBUSY);
	EXPECT_NE(wsc_lat_error(lat)[0], '\0');
	EXPECT_EQ(wsc_lat_reset(lat, NULL), -EBUSY);

	ASSERT_EQ(kill(child, SIGUSR1), 0);
	ASSERT_EQ(waitpid(child, &status, 0), child);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 0);
	EXPECT_EQ(wsc_lat_stats_get(lat, "semaphore", &st), -ENODATA);
	EXPECT_TRUE(proc_lab_idle());

	/* The lab is free again. */
	lat_run(lat, "timer", 100, &st);
	wsc_lat_close(lat);
}

TEST_HARNESS_MAIN
