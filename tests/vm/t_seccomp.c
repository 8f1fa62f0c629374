// SPDX-License-Identifier: GPL-2.0
/*
 * Wrapped calls would slip past a seccomp filter, so a filtered task may
 * not submit at all; the version query stays harmless and allowed.
 */
#include <linux/filter.h>
#include <linux/futex.h>
#include <pthread.h>
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

/*
 * A filter another thread installs with TSYNC while a batch sleeps takes
 * effect before the batch's next call, as it would before the next system
 * call: the batch stops there and the rest is refused.
 */
static uint32_t futex_word;

static void *install_then_wake(void *arg)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };
	long ret;

	(void)arg;
	usleep(100000);
	ret = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		      SECCOMP_FILTER_FLAG_TSYNC, &prog);
	__atomic_store_n(&futex_word, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &futex_word, FUTEX_WAKE, 1, NULL, NULL, 0);
	return (void *)ret;
}

TEST(filter_synced_mid_batch_stops_it)
{
	struct wsc_entry ent[3];
	struct wsc_result res[3];
	int fd = wsc_test_open();
	pthread_t t;
	void *ret;

	ASSERT_EQ(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	ent[0] = ENT0(SYS_getpid);
	ent[1] = wsc_ent(SYS_futex, (uintptr_t)&futex_word, FUTEX_WAIT, 0, 0, 0, 0);
	ent[1].flags = WSC_ENTRY_IGNORE_FAILURE;
	ent[2] = ENT0(SYS_getpid);
	ASSERT_EQ(pthread_create(&t, NULL, install_then_wake, NULL), 0);
	EXPECT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 2);
	ASSERT_EQ(pthread_join(t, &ret), 0);
	ASSERT_EQ((long)ret, 0);
	EXPECT_EQ(res[0].ret, getpid());
	EXPECT_TRUE(res[1].ret == 0 || res[1].ret == -EAGAIN);
	EXPECT_EQ(wsc_test_submit(fd, &ent[2], res, 1, 0, NULL), -EPERM);
}

TEST_HARNESS_MAIN
