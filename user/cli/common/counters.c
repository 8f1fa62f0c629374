// SPDX-License-Identifier: MIT
/*
 * Hardware performance counters through perf_event_open(2).
 *
 * The events of one measurement form one group: the kernel puts a group
 * on the PMU all at once or not at all, so every value covers the same
 * stretch of time, and a single read of the leader returns them all with
 * the times the group was enabled and running.
 *
 * When there is no PMU to open (QEMU TCG, most VMs), the caller gets a
 * reason it can print instead of numbers.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A generic cache event: which cache, which access, hit or miss. */
#define HW_CACHE(cache, op, result)				\
	(PERF_COUNT_HW_CACHE_##cache |				\
	 PERF_COUNT_HW_CACHE_OP_##op << 8 |			\
	 PERF_COUNT_HW_CACHE_RESULT_##result << 16)

#define HW(name, config)	{ name, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##config }
#define CACHE(name, cache)	{ name, PERF_TYPE_HW_CACHE, HW_CACHE(cache, READ, MISS) }

/*
 * What the generic events become is up to the CPU's PMU driver
 * (arch/x86/events/{intel,amd}/core.c); on the two common x86 families:
 *
 * cycles                core cycles while not halted (Intel fixed counter
 *                       CPU_CLK_UNHALTED.CORE, AMD 0x76)
 * instructions          instructions retired (Intel INST_RETIRED.ANY, AMD 0xc0)
 * cache-misses          Intel: LONGEST_LAT_CACHE.MISS, i.e. last-level cache
 *                       misses of any request; AMD Zen: 0x0964, L2 misses
 *                       of the L1 data cache -- not the same level
 * L1-dcache-load-misses Intel: L1D.REPLACEMENT (lines brought into L1D);
 *                       AMD Zen: 0xc860, L2 accesses from L1D misses
 * LLC-load-misses       Intel: OFFCORE_RESPONSE, demand reads that miss L3;
 *                       AMD Zen has none (opening fails with ENOENT)
 * dTLB-load-misses      Intel: DTLB_LOAD_MISSES.WALK_COMPLETED (page walks);
 *                       AMD Zen: 0xf045, L2 DTLB misses (page walks)
 * iTLB-load-misses      Intel: ITLB_MISSES.WALK_COMPLETED; AMD Zen: L1 and
 *                       L2 ITLB misses
 *
 * L2 misses have no generic name (the cache ids are L1D, L1I, LL, DTLB,
 * ITLB, BPU, NODE); counting them takes a raw, model-specific event, so
 * counters_cp goes without.
 */
const struct counter_event counters_bench[] = {
	HW("cycles", CPU_CYCLES),
	HW("instructions", INSTRUCTIONS),
	HW("cache-misses", CACHE_MISSES),
	CACHE("dTLB-load-misses", DTLB),
	CACHE("iTLB-load-misses", ITLB),
};
const unsigned int counters_bench_n = ARRAY_SIZE(counters_bench);

/*
 * Six events, four or five of them on general-purpose counters: on a PMU
 * with four (Intel with SMT on) beside the NMI watchdog's cycles event the
 * group may never run, and counter_group_read() says -ENODATA.
 */
const struct counter_event counters_cp[] = {
	HW("cycles", CPU_CYCLES),
	HW("instructions", INSTRUCTIONS),
	CACHE("L1-dcache-load-misses", L1D),
	CACHE("LLC-load-misses", LL),
	CACHE("iTLB-load-misses", ITLB),
	CACHE("dTLB-load-misses", DTLB),
};
const unsigned int counters_cp_n = ARRAY_SIZE(counters_cp);

_Static_assert(ARRAY_SIZE(counters_bench) <= COUNTERS_MAX, "bench group too big");
_Static_assert(ARRAY_SIZE(counters_cp) <= COUNTERS_MAX, "cp group too big");

#define READ_FORMAT	(PERF_FORMAT_GROUP | PERF_FORMAT_ID |		\
			 PERF_FORMAT_TOTAL_TIME_ENABLED |		\
			 PERF_FORMAT_TOTAL_TIME_RUNNING)

/* What read(2) on the leader returns with READ_FORMAT. */
struct group_read {
	uint64_t nr;
	uint64_t time_enabled;
	uint64_t time_running;
	struct {
		uint64_t value;
		uint64_t id;
	} v[COUNTERS_MAX];
};

static void why_set(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void why_set(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static long perf_open(const struct counter_event *ev, bool leader, int group_fd)
{
	struct perf_event_attr attr = {
		.type = ev->type,
		.size = sizeof(attr),
		.config = ev->config,
		.read_format = READ_FORMAT,
		/*
		 * Only the leader starts disabled: the siblings run
		 * whenever it does (see group_ioctl()).
		 */
		.disabled = leader,
		.exclude_hv = 1,
	};

	return syscall(SYS_perf_event_open, &attr, 0, -1, group_fd,
		       PERF_FLAG_FD_CLOEXEC);
}

/*
 * Is there a hardware PMU at all?  Without one no PMU driver claims
 * PERF_TYPE_HARDWARE and every such event is ENOENT; with one, ENOENT
 * means this PMU has no mapping for the event.  User-only, so that
 * perf_event_paranoid 2 does not hide the answer.
 */
bool counters_pmu_present(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return errno != ENOENT && errno != EOPNOTSUPP;
	close((int)fd);
	return true;
}

static int paranoid_level(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level;

	if (!f)
		return -100;
	if (fscanf(f, "%d", &level) != 1)
		level = -100;
	fclose(f);
	return level;
}

/* Why event @i of a group could not be opened, as a parenthesised hint. */
static void hint(const struct counter_event *ev, unsigned int i, int err,
		 char *buf, size_t len)
{
	bool hw = ev->type == PERF_TYPE_HARDWARE || ev->type == PERF_TYPE_HW_CACHE;
	int level;

	buf[0] = '\0';
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		if (hw)
			snprintf(buf, len, counters_pmu_present() ?
				 " (this CPU's PMU does not count it)" :
				 " (no hardware PMU; emulated CPU?)");
		break;
	case EACCES:
	case EPERM:
		if (geteuid() == 0) {
			snprintf(buf, len, " (refused to root: seccomp, lockdown or a container?)");
			break;
		}
		level = paranoid_level();
		if (level > -100)
			snprintf(buf, len, " (perf_event_paranoid is %d; run as root or lower it)",
				 level);
		break;
	case ENOSYS:
		snprintf(buf, len, " (kernel without CONFIG_PERF_EVENTS, or blocked by seccomp)");
		break;
	case EINVAL:
		/* x86 refuses a group that cannot fit the PMU even when empty. */
		if (hw && i > 0)
			snprintf(buf, len, " (not supported, or the group needs more counters than the PMU has)");
		break;
	}
}

/* Open event @i into the group, leader first, and learn its id. */
static int event_open(struct counter_group *g, unsigned int i, const char **op)
{
	long fd;

	*op = "perf_event_open";
	fd = perf_open(&g->ev[i], i == 0, i ? g->fd[0] : -1);
	if (fd < 0)
		return -errno;
	g->fd[i] = (int)fd;
	*op = "PERF_EVENT_IOC_ID";
	if (ioctl(g->fd[i], PERF_EVENT_IOC_ID, &g->id[i]) < 0)
		return -errno;
	return 0;
}

int counter_group_open(struct counter_group *g, const struct counter_event *ev,
		       unsigned int n, char *why, size_t len)
{
	char extra[128];
	const char *op;
	unsigned int i;
	int ret;

	for (i = 0; i < COUNTERS_MAX; i++) {
		g->fd[i] = -1;
		g->id[i] = 0;
	}
	g->ev = ev;
	g->n = 0;
	if (!ev || !n || n > COUNTERS_MAX) {
		why_set(why, len, "invalid: %u events; a group holds 1 to %d", n,
			COUNTERS_MAX);
		return -EINVAL;
	}
	g->n = n;
	for (i = 0; i < n; i++) {
		ret = event_open(g, i, &op);
		if (ret) {
			counter_group_close(g);
			hint(&ev[i], i, -ret, extra, sizeof(extra));
			why_set(why, len, "not available: %s: %s: %s%s",
				ev[i].name, op, strerror(-ret), extra);
			return ret;
		}
	}
	return 0;
}

/*
 * Enable or disable the leader alone.  The kernel schedules a group only
 * while its leader is enabled, so the siblings (enabled since they were
 * opened) start and stop with it, all in one reschedule.  Not
 * PERF_IOC_FLAG_GROUP: that disables the siblings too, and re-enabling a
 * sibling whose PMU differs from the leader's (page-faults under
 * task-clock) leaves it off the PMU until something reschedules it: seen
 * on 6.18, not on 6.1, and every count after the first stop was lost.
 */
static int group_ioctl(struct counter_group *g, unsigned long req)
{
	if (g->fd[0] < 0)
		return -EBADF;
	if (ioctl(g->fd[0], req, 0) < 0)
		return -errno;
	return 0;
}

int counter_group_start(struct counter_group *g)
{
	return group_ioctl(g, PERF_EVENT_IOC_ENABLE);
}

int counter_group_stop(struct counter_group *g)
{
	return group_ioctl(g, PERF_EVENT_IOC_DISABLE);
}

/* The index of @id in a group read, or -1. */
static int find_id(const struct group_read *r, uint64_t id)
{
	uint64_t j;

	for (j = 0; j < r->nr; j++)
		if (r->v[j].id == id)
			return (int)j;
	return -1;
}

int counter_group_read(struct counter_group *g, uint64_t *values,
		       bool *multiplexed)
{
	struct group_read r;
	unsigned int i;
	ssize_t got;
	int j;

	memset(values, 0, g->n * sizeof(*values));
	if (multiplexed)
		*multiplexed = false;
	if (g->fd[0] < 0)
		return -EBADF;
	got = read(g->fd[0], &r, sizeof(r));
	if (got < 0)
		return -errno;
	if ((size_t)got < offsetof(struct group_read, v) || r.nr != g->n ||
	    (size_t)got != offsetof(struct group_read, v) + r.nr * sizeof(r.v[0]))
		return -EIO;
	if (!r.time_running)
		return -ENODATA;
	for (i = 0; i < g->n; i++) {
		j = find_id(&r, g->id[i]);
		if (j < 0)
			return -EIO;
		values[i] = counter_scale(r.v[j].value, r.time_enabled,
					  r.time_running);
	}
	if (multiplexed)
		*multiplexed = r.time_running < r.time_enabled;
	return 0;
}

void counter_group_close(struct counter_group *g)
{
	unsigned int i;

	/* Siblings first, so that none is promoted to a group of its own. */
	for (i = COUNTERS_MAX; i-- > 0;) {
		if (g->fd[i] >= 0)
			close(g->fd[i]);
		g->fd[i] = -1;
	}
}

uint64_t counter_scale(uint64_t value, uint64_t enabled, uint64_t running)
{
	unsigned __int128 v;

	if (!running)
		return 0;
	if (enabled == running)
		return value;
	/* At most (2^64 - 1)^2 + 2^63: no overflow in 128 bits. */
	v = ((unsigned __int128)value * enabled + running / 2) / running;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}
