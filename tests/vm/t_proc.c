// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/syscall_lat counts wrapped calls per system call, and reading it
 * changes nothing.
 */
#include <inttypes.h>
#include <sys/syscall.h>

#include "util.h"

/* The calls, errors and timed columns of one row; -1 if absent. */
static void proc_row(const char *call, long long *calls, long long *errors,
		     long long *timed)
{
	char line[512], name[64], group[32];
	FILE *f = fopen("/proc/syscall_lat", "r");

	ASSERT_TRUE(f != NULL);
	*calls = *errors = *timed = 0;
	while (fgets(line, sizeof(line), f)) {
		long long c, e, t;

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%63s %31s %lld %lld %lld", name, group, &c,
			   &e, &t) == 5 && !strcmp(name, call)) {
			*calls = c;
			*errors = e;
			*timed = t;
		}
	}
	fclose(f);
}

TEST(counts_follow_the_calls)
{
	struct wsc_entry ent[10];
	struct wsc_result res[10];
	long long c0, e0, t0, c1, e1, t1;
	int fd = wsc_test_open(), i;

	proc_row("getppid", &c0, &e0, &t0);
	for (i = 0; i < 10; i++)
		ent[i] = ENT0(SYS_getppid);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 10, 0, NULL), 10);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, WSC_SUBMIT_TIMING, NULL), 3);
	proc_row("getppid", &c1, &e1, &t1);
	EXPECT_EQ(c1 - c0, 13);
	EXPECT_EQ(e1 - e0, 0);
	EXPECT_EQ(t1 - t0, 3);

	/* Reading again measures nothing new. */
	proc_row("getppid", &c0, &e0, &t0);
	EXPECT_EQ(c0, c1);
}

TEST(errors_are_counted)
{
	struct wsc_entry ent[4];
	struct wsc_result res[4];
	long long c0, e0, t0, c1, e1, t1;
	int fd = wsc_test_open(), i;

	proc_row("fdatasync", &c0, &e0, &t0);
	for (i = 0; i < 4; i++) {
		ent[i] = ENT1(SYS_fdatasync, 9999);
		ent[i].flags = WSC_ENTRY_IGNORE_FAILURE;
	}
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 4, 0, NULL), 4);
	proc_row("fdatasync", &c1, &e1, &t1);
	EXPECT_EQ(c1 - c0, 4);
	EXPECT_EQ(e1 - e0, 4);
}

TEST(cancelled_entries_are_not_counted)
{
	struct wsc_entry ent[3] = { NOP(-EIO), ENT0(SYS_getppid), ENT0(SYS_getppid) };
	struct wsc_result res[3];
	long long c0, e0, t0, c1, e1, t1;
	int fd = wsc_test_open();

	proc_row("getppid", &c0, &e0, &t0);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 3);
	proc_row("getppid", &c1, &e1, &t1);
	EXPECT_EQ(c1, c0);
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
	long long c, e, t;
	int fd = wsc_test_open();

	/* fsync untimed (and failing, to keep going), getppid timed. */
	ent[0].flags = WSC_ENTRY_IGNORE_FAILURE;
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 1, 0, NULL), 1);
	ASSERT_EQ(wsc_test_submit(fd, ent + 1, res + 1, 1, WSC_SUBMIT_TIMING,
				  NULL), 1);
	proc_row("getppid", &c, &e, &t);
	EXPECT_GE(t, 1);
	proc_row("fsync", &c, &e, &t);
	EXPECT_GE(c, 1);
	if (t == 0)
		EXPECT_GE(proc_untimed_rows(), 1);
	else
		proc_untimed_rows();
}

TEST_HARNESS_MAIN
