// SPDX-License-Identifier: GPL-2.0
/*
 * t_calls_other: the identity and time group (getpid, getppid, gettid,
 * nanosleep) wrapped through /dev/wsc and conventionally, from the main
 * thread and another one.  The twin-call machinery is in twin.h.
 */
#include <pthread.h>
#include <time.h>

#include "twin.h"

static void *tid_thread(void *arg)
{
	long *out = arg;

	out[0] = W(__NR_gettid);
	out[1] = S(__NR_gettid);
	out[2] = W(__NR_getpid);
	return NULL;
}

TEST(identity)
{
	long tids[3];
	pthread_t t;

	SAME(getpid(), __NR_getpid);
	SAME(getppid(), __NR_getppid);
	SAME(getpid(), __NR_gettid);	/* the main thread */

	/* Another thread: its own id, the same process. */
	dev();
	ASSERT_EQ(pthread_create(&t, NULL, tid_thread, tids), 0);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	EXPECT_EQ(tids[0], tids[1]);
	EXPECT_NE(tids[0], getpid());
	EXPECT_EQ(tids[2], getpid());
}

static long since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000000000L +
	       (t1.tv_nsec - t0->tv_nsec);
}

TEST(nanosleep)
{
	struct timespec req = { 0, MS }, zero = { 0, 0 };
	struct timespec rw = { 9, 9 }, rc = { 9, 9 }, t0;
	long w, c, dw, dc;

	/* 1 ms, at least; the remainder is written only if interrupted. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	w = W(__NR_nanosleep, &req, &rw);
	dw = since(&t0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	c = S(__NR_nanosleep, &req, &rc);
	dc = since(&t0);
	CHECK(0, w, c);
	EXPECT_GE(dw, MS);
	EXPECT_GE(dc, MS);
	EXPECT_LE(dw, 1000 * MS);
	EXPECT_EQ(memcmp(&rw, &rc, sizeof(rw)), 0);
	EXPECT_EQ(rw.tv_sec, 9);
	SAME(0, __NR_nanosleep, &zero, NULL);
	SAME(0, __NR_nanosleep, &zero, BADPTR);

	req.tv_nsec = 1000000000;
	SAME(-EINVAL, __NR_nanosleep, &req, NULL);
	req.tv_nsec = -1;
	SAME(-EINVAL, __NR_nanosleep, &req, NULL);
	req = (struct timespec){ -1, 0 };
	SAME(-EINVAL, __NR_nanosleep, &req, NULL);
	SAME(-EFAULT, __NR_nanosleep, BADPTR, NULL);
}


TEST_HARNESS_MAIN
