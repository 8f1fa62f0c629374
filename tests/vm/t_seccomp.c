// SPDX-License-Identifier: GPL-2.0
/*
 * Wrapped calls would slip past a seccomp filter, so a filtered task may
 * not submit at all; the version query stays harmless and allowed.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "util.h"

/* A filter that allows everything: its mere presence must be enough. */
static void install_allow_all_filter(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };

	ASSERT_EQ(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	ASSERT_EQ(syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog), 0);
}

TEST(unfiltered_task_may_submit)
{
	struct wsc_entry ent[1] = { ENT0(SYS_getpid) };
	struct wsc_result res[1];
	int fd = wsc_test_open();

	EXPECT_EQ(wsc_test_submit(fd, ent, res, 1, 0, NULL), 1);
}

TEST(filtered_task_gets_eperm)
{
	struct wsc_entry ent[1] = { ENT0(SYS_getpid) };
	struct wsc_result res[1] = { { .ret = 77 } };
	struct wsc_version v;
	int fd = wsc_test_open();

	install_allow_all_filter();
	EXPECT_EQ(wsc_test_submit(fd, ent, res, 1, 0, NULL), -EPERM);
	EXPECT_EQ(res[0].ret, 77);
	EXPECT_EQ(ioctl(fd, WSC_IOC_VERSION, &v), 0);
}

/* A descriptor opened before the filter does not help either. */
TEST(filter_after_open_still_eperm)
{
	struct wsc_entry ent[1] = { ENT0(SYS_getpid) };
	struct wsc_result res[1];
	int fd = wsc_test_open();

	EXPECT_EQ(wsc_test_submit(fd, ent, res, 1, 0, NULL), 1);
	install_allow_all_filter();
	EXPECT_EQ(wsc_test_submit(fd, ent, res, 1, 0, NULL), -EPERM);
}

TEST_HARNESS_MAIN
