// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's perf counter groups count, accumulate, stop, scale and close,
 * shown with software events (the VM has no hardware PMU); hardware
 * tables either count or say why not, and nothing leaks a descriptor.
 */
#include <linux/perf_event.h>
#include <sys/mman.h>

#include "harness.h"
#include "util.h"
#include "common/counters.h"

static const struct counter_event sw[] = {
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
};
enum { TASK_CLOCK, CONTEXT_SWITCHES, PAGE_FAULTS, NR_SW };

#define PAGES 64

static void spin(void)
{
	volatile unsigned long i;

	for (i = 0; i < (1UL << 20); i++)
		;
}

/* Fault in PAGES fresh pages, one write each. */
static void touch_pages(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	ASSERT_TRUE(p != MAP_FAILED);
	for (i = 0; i < PAGES; i++)
		p[i * page] = 1;
	munmap(p, PAGES * page);
}

static void open_sw(struct counter_group *g)
{
	char why[256] = "";
	int ret = counter_group_open(g, sw, NR_SW, why, sizeof(why));

	if (ret)
		TH_LOG("%s", why);
	ASSERT_EQ(ret, 0);
}

TEST(software_group_counts)
{
	struct counter_group g;
	uint64_t v[NR_SW];
	bool mux = true;

	open_sw(&g);
	ASSERT_EQ(counter_group_start(&g), 0);
	touch_pages();
	spin();
	ASSERT_EQ(counter_group_stop(&g), 0);
	ASSERT_EQ(counter_group_read(&g, v, &mux), 0);
	TH_LOG("task-clock %llu ns, context-switches %llu, page-faults %llu",
	       (unsigned long long)v[TASK_CLOCK],
	       (unsigned long long)v[CONTEXT_SWITCHES],
	       (unsigned long long)v[PAGE_FAULTS]);
	EXPECT_GT(v[TASK_CLOCK], 0);
	EXPECT_GE(v[PAGE_FAULTS], PAGES);
	/* Software events never share a PMU. */
	EXPECT_FALSE(mux);
	counter_group_close(&g);
}

TEST(counts_accumulate_and_stop_means_stop)
{
	struct counter_group g;
	uint64_t a[NR_SW], b[NR_SW], c[NR_SW];
	int i;

	open_sw(&g);
	ASSERT_EQ(counter_group_start(&g), 0);
	touch_pages();
	ASSERT_EQ(counter_group_stop(&g), 0);
	ASSERT_EQ(counter_group_read(&g, a, NULL), 0);

	/* Work while stopped is not counted... */
	touch_pages();
	spin();
	ASSERT_EQ(counter_group_read(&g, b, NULL), 0);
	for (i = 0; i < NR_SW; i++)
		EXPECT_EQ(b[i], a[i]);

	/* ...and a second start adds to the first. */
	ASSERT_EQ(counter_group_start(&g), 0);
	touch_pages();
	spin();
	ASSERT_EQ(counter_group_stop(&g), 0);
	ASSERT_EQ(counter_group_read(&g, c, NULL), 0);
	for (i = 0; i < NR_SW; i++)
		EXPECT_GE(c[i], a[i]);
	EXPECT_GT(c[TASK_CLOCK], a[TASK_CLOCK]);
	EXPECT_GE(c[PAGE_FAULTS], a[PAGE_FAULTS] + PAGES);
	counter_group_close(&g);
}

TEST(never_started_is_enodata)
{
	struct counter_group g;
	uint64_t v[NR_SW] = { 1, 1, 1 };

	open_sw(&g);
	touch_pages();
	EXPECT_EQ(counter_group_read(&g, v, NULL), -ENODATA);
	EXPECT_EQ(v[TASK_CLOCK], 0);
	EXPECT_EQ(v[PAGE_FAULTS], 0);
	counter_group_close(&g);
}

TEST(close_leaves_no_fd)
{
	struct counter_group g;
	int before = open_fds(), i;

	open_sw(&g);
	EXPECT_EQ(open_fds(), before + NR_SW);
	for (i = 0; i < NR_SW; i++)
		EXPECT_GE(g.fd[i], 0);
	counter_group_close(&g);
	for (i = 0; i < COUNTERS_MAX; i++)
		EXPECT_EQ(g.fd[i], -1);
	EXPECT_EQ(open_fds(), before);
	/* Closing twice is harmless. */
	counter_group_close(&g);
	EXPECT_EQ(counter_group_start(&g), -EBADF);
}

/* True if @why is "not available: NAME: ..." for one of @ev. */
static bool names_an_event(const char *why, const struct counter_event *ev,
			   unsigned int n)
{
	const char *prefix = "not available: ";
	size_t plen = strlen(prefix), len;
	unsigned int i;

	if (strncmp(why, prefix, plen))
		return false;
	for (i = 0; i < n; i++) {
		len = strlen(ev[i].name);
		if (!strncmp(why + plen, ev[i].name, len) && why[plen + len] == ':')
			return true;
	}
	return false;
}

/* A hardware table counts cycles, or says which event failed and why. */
static void hardware_table(const struct counter_event *ev, unsigned int n)
{
	struct counter_group g;
	char why[256] = "";
	uint64_t v[COUNTERS_MAX];
	bool mux;
	int before = open_fds(), ret;

	ret = counter_group_open(&g, ev, n, why, sizeof(why));
	if (ret) {
		TH_LOG("%d (%s): %s", ret, strerror(-ret), why);
		EXPECT_TRUE(ret < 0);
		EXPECT_TRUE(names_an_event(why, ev, n));
		EXPECT_EQ(g.fd[0], -1);
		EXPECT_EQ(open_fds(), before);
		return;
	}
	ASSERT_EQ(counter_group_start(&g), 0);
	touch_pages();
	spin();
	ASSERT_EQ(counter_group_stop(&g), 0);
	ret = counter_group_read(&g, v, &mux);
	if (ret == -ENODATA) {
		/* Opened, but the PMU never had room for the whole group. */
		TH_LOG("group of %u never ran", n);
	} else {
		EXPECT_EQ(ret, 0);
		TH_LOG("available: %s %llu%s", ev[0].name,
		       (unsigned long long)v[0], mux ? " (multiplexed)" : "");
		EXPECT_GT(v[0], 0);
	}
	counter_group_close(&g);
	EXPECT_EQ(open_fds(), before);
}

TEST(bench_table_counts_or_says_why)
{
	hardware_table(counters_bench, counters_bench_n);
}

TEST(cp_table_counts_or_says_why)
{
	hardware_table(counters_cp, counters_cp_n);
}

TEST(scale)
{
	/* Never ran: nothing counted, nothing to scale. */
	EXPECT_EQ(counter_scale(0, 100, 0), 0);
	EXPECT_EQ(counter_scale(5, 100, 0), 0);
	/* Ran all the time: the count as it is, even the largest. */
	EXPECT_TRUE(counter_scale(UINT64_MAX, 7, 7) == UINT64_MAX);
	EXPECT_EQ(counter_scale(12345, 999, 999), 12345);
	EXPECT_EQ(counter_scale(100, 4, 2), 200);
	/* Rounded to nearest: 1.5 -> 2, 7.5 -> 8, 1/3 -> 0, 2/3 -> 1. */
	EXPECT_EQ(counter_scale(1, 3, 2), 2);
	EXPECT_EQ(counter_scale(10, 3, 4), 8);
	EXPECT_EQ(counter_scale(1, 1, 3), 0);
	EXPECT_EQ(counter_scale(2, 1, 3), 1);
	/* value * enabled overflows 64 bits but not the result. */
	EXPECT_TRUE(counter_scale(1ULL << 60, 3000000000ULL, 1000000000ULL) ==
		    3ULL << 60);
	/* A result past 64 bits saturates. */
	EXPECT_TRUE(counter_scale(1ULL << 63, 4, 1) == UINT64_MAX);
}

TEST(bad_counts_are_einval)
{
	struct counter_group g;
	char why[256];
	int before = open_fds(), i;

	why[0] = '\0';
	EXPECT_EQ(counter_group_open(&g, sw, 0, why, sizeof(why)), -EINVAL);
	TH_LOG("n = 0: %s", why);
	EXPECT_NE(why[0], '\0');
	why[0] = '\0';
	EXPECT_EQ(counter_group_open(&g, sw, COUNTERS_MAX + 1, why, sizeof(why)),
		  -EINVAL);
	EXPECT_NE(why[0], '\0');
	for (i = 0; i < COUNTERS_MAX; i++)
		EXPECT_EQ(g.fd[i], -1);
	/* No room for a reason is not an error in itself. */
	EXPECT_EQ(counter_group_open(&g, sw, 0, NULL, 0), -EINVAL);
	EXPECT_EQ(open_fds(), before);
}

/* Without privilege, perf_event_paranoid >= 2 forbids counting the kernel. */
TEST(unprivileged_is_told_about_paranoid)
{
	struct counter_group g;
	char why[256] = "";
	int level = -1, ret;

	if (scan_file("/proc/sys/kernel/perf_event_paranoid", "%d", &level) != 1)
		SKIP("cannot read perf_event_paranoid");
	if (level < 2)
		SKIP("perf_event_paranoid is %d: unprivileged users may count the kernel",
		     level);
	if (geteuid() == 0 && setuid(65534))
		SKIP("cannot drop root: %s", strerror(errno));
	ret = counter_group_open(&g, sw, NR_SW, why, sizeof(why));
	TH_LOG("%s", why);
	EXPECT_EQ(ret, -EACCES);
	EXPECT_TRUE(strstr(why, "not available: task-clock: ") == why);
	EXPECT_TRUE(strstr(why, "perf_event_paranoid is ") != NULL);
	if (!ret)
		counter_group_close(&g);
}

TEST_HARNESS_MAIN
