// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/syscall_lat counts wrapped calls per system call, and reading it
 * changes nothing.
 */
#include <inttypes.h>
#include <sys/syscall.h>

#include "util.h"

/* The calls, errors and timed columns of one row. */
struct proc_row {
	long long calls;
	long long errors;
	long long timed;
};

/* The row of @call; all 0 if absent. */
static struct proc_row proc_row(const char *call)
{
	char line[512], name[64], group[32];
	FILE *f = fopen("/proc/syscall_lat", "r");
	struct proc_row row = { 0 }, r;

	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%63s %31s %lld %lld %lld", name, group,
			   &r.calls, &r.errors, &r.timed) == 5 &&
		    !strcmp(name, call))
			row = r;
	}
	fclose(f);
	return row;
}

TEST(counts_follow_the_calls)
{
	struct proc_row before = proc_row("getppid"), after;
	struct wsc_entry ent[10];
	struct wsc_result res[10];
	int fd = wsc_test_open(), i;

	for (i = 0; i < 10; i++)
		ent[i] = ENT0(SYS_getppid);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 10, 0, NULL), 10);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, WSC_SUBMIT_TIMING, NULL), 3);
	after = proc_row("getppid");
	EXPECT_EQ(after.calls - before.calls, 13);
	EXPECT_EQ(after.errors - before.errors, 0);
	EXPECT_EQ(after.timed - before.timed, 3);

	/* Reading again measures nothing new. */
	EXPECT_EQ(proc_row("getppid").calls, after.calls);
}

TEST(errors_are_counted)
{
	struct proc_row before = proc_row("fdatasync"), after;
	struct wsc_entry ent[4];
	struct wsc_result res[4];
	int fd = wsc_test_open(), i;

	for (i = 0; i < 4; i++) {
		ent[i] = ENT1(SYS_fdatasync, 9999);
		ent[i].flags = WSC_ENTRY_IGNORE_FAILURE;
	}
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 4, 0, NULL), 4);
	after = proc_row("fdatasync");
	EXPECT_EQ(after.calls - before.calls, 4);
	EXPECT_EQ(after.errors - before.errors, 4);
}

TEST(cancelled_entries_are_not_counted)
{
	struct wsc_entry ent[3] = { NOP(-EIO), ENT0(SYS_getppid), ENT0(SYS_getppid) };
	struct wsc_result res[3];
	struct proc_row before = proc_row("getppid");
	int fd = wsc_test_open();

	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 3);
	EXPECT_EQ(proc_row("getppid").calls, before.calls);
}

/*
 * Every row's latency columns: numbers when the call was timed, "-" when
 * it never was (a mean of 0 ns would be a measurement no one made).
 * Returns the rows whose columns say "-"; fails on a row that mixes them.
 */
static int proc_untimed_rows(void)
{
	char line[512], name[64], group[32], mean[32], max[32];
	FILE *f = fopen("/proc/syscall_lat", "r");
	int untimed = 0;

	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		long long c, e, t;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%63s %31s %lld %lld %lld %31s %31s", name,
			   group, &c, &e, &t, mean, max) != 7)
			continue;
		if (t == 0) {
			if (strcmp(mean, "-") || strcmp(max, "-"))
				TH_LOG("%s: timed 0 but mean %s, max %s",
				       name, mean, max);
			EXPECT_TRUE(!strcmp(mean, "-") && !strcmp(max, "-"));
			untimed++;
		} else {
			EXPECT_TRUE(mean[0] >= '0' && mean[0] <= '9');
			EXPECT_TRUE(max[0] >= '0' && max[0] <= '9');
		}
	}
	fclose(f);
	return untimed;
}

TEST(untimed_calls_show_no_latency)
{
	struct wsc_entry ent[2] = { ENT1(SYS_fsync, 9999), ENT0(SYS_getppid) };
	struct wsc_result res[2];
	int fd = wsc_test_open();
	long long timed;

	/* fsync untimed (and failing, to keep going), getppid timed. */
	ent[0].flags = WSC_ENTRY_IGNORE_FAILURE;
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 1, 0, NULL), 1);
	ASSERT_EQ(wsc_test_submit(fd, ent + 1, res + 1, 1, WSC_SUBMIT_TIMING,
				  NULL), 1);
	EXPECT_GE(proc_row("getppid").timed, 1);
	EXPECT_GE(proc_row("fsync").calls, 1);
	timed = proc_row("fsync").timed;
	if (timed == 0)
		EXPECT_GE(proc_untimed_rows(), 1);
	else
		proc_untimed_rows();
}

TEST_HARNESS_MAIN
