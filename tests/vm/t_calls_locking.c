// SPDX-License-Identifier: GPL-2.0
/*
 * t_calls_locking: the locking and waiting group (poll, ppoll, futex)
 * wrapped through /dev/wsc and conventionally: the same events and
 * errnos, timeouts that run out alike, and futex waiters woken across
 * the two paths.  The twin-call machinery is in twin.h.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <linux/futex.h>
#include <sys/resource.h>

#include "twin.h"

/* A set of descriptors in every state poll can report. */
static void poll_set(struct pollfd *f, int p[2], int q[2], int h[2])
{
	struct pollfd set[6] = {
		{ .fd = p[0], .events = POLLIN },	/* data */
		{ .fd = q[0], .events = POLLIN },	/* nothing */
		{ .fd = q[1], .events = POLLOUT },	/* room */
		{ .fd = -1, .events = POLLIN },		/* ignored */
		{ .fd = NOFD, .events = POLLIN },	/* POLLNVAL */
		{ .fd = h[0], .events = POLLIN },	/* POLLHUP */
	};
	int i;

	for (i = 0; i < 6; i++)
		set[i].revents = 0x7777;		/* overwritten */
	memcpy(f, set, sizeof(set));
}

static void poll_pipes(int p[2], int q[2], int h[2])
{
	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(q, O_CLOEXEC), 0);
	ASSERT_EQ(pipe2(h, O_CLOEXEC), 0);
	ASSERT_EQ(write(p[1], "x", 1), 1);
	close(h[1]);
}

TEST(poll)
{
	struct pollfd fw[6], fc[6], empty;
	int p[2], q[2], h[2];
	struct rlimit rl;

	poll_pipes(p, q, h);
	poll_set(fw, p, q, h);
	poll_set(fc, p, q, h);
	EXPECT_EQ(CHECK(4, W(__NR_poll, fw, 6, 0), S(__NR_poll, fc, 6, 0)), 4);
	EXPECT_EQ(memcmp(fw, fc, sizeof(fw)), 0);
	EXPECT_EQ(fw[0].revents, POLLIN);
	EXPECT_EQ(fw[1].revents, 0);
	EXPECT_EQ(fw[2].revents, POLLOUT);
	EXPECT_EQ(fw[3].revents, 0);
	EXPECT_EQ(fw[4].revents, POLLNVAL);
	EXPECT_EQ(fw[5].revents, POLLHUP);

	/* Nothing ready: 0, at once or after a short timeout. */
	empty = (struct pollfd){ .fd = q[0], .events = POLLIN };
	SAME(0, __NR_poll, &empty, 1, 0);
	SAME(0, __NR_poll, &empty, 1, 1);
	SAME(0, __NR_poll, NULL, 0, 0);

	ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
	SAME(-EINVAL, __NR_poll, fw, rl.rlim_cur + 1, 0);
	SAME(-EFAULT, __NR_poll, BADPTR, 1, 0);
}

TEST(ppoll)
{
	struct timespec tw = { 0, 0 }, tc = { 0, 0 }, bad = { 0, 1000000000 };
	struct timespec neg = { -1, 0 };
	struct pollfd fw[6], fc[6], empty;
	uint64_t mask = sig_bit(SIGUSR1), orig, now;
	int p[2], q[2], h[2];

	poll_pipes(p, q, h);
	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &orig, 8), 0);

	/* A zero timeout, then no timeout at all: something is ready. */
	poll_set(fw, p, q, h);
	poll_set(fc, p, q, h);
	CHECK(4, W(__NR_ppoll, fw, 6, &tw, NULL, 8),
	      S(__NR_ppoll, fc, 6, &tc, NULL, 8));
	EXPECT_EQ(memcmp(fw, fc, sizeof(fw)), 0);
	EXPECT_EQ(memcmp(&tw, &tc, sizeof(tw)), 0);
	poll_set(fw, p, q, h);
	poll_set(fc, p, q, h);
	CHECK(4, W(__NR_ppoll, fw, 6, NULL, NULL, 8),
	      S(__NR_ppoll, fc, 6, NULL, NULL, 8));
	EXPECT_EQ(memcmp(fw, fc, sizeof(fw)), 0);

	/* With a signal mask for the wait, put back afterwards. */
	poll_set(fw, p, q, h);
	poll_set(fc, p, q, h);
	CHECK(4, W(__NR_ppoll, fw, 6, &tw, &mask, 8),
	      S(__NR_ppoll, fc, 6, &tc, &mask, 8));
	EXPECT_EQ(memcmp(fw, fc, sizeof(fw)), 0);
	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8), 0);
	EXPECT_EQ(now, orig);

	/* Nothing ready: 0 after 1 ms, the time left written back as 0. */
	empty = (struct pollfd){ .fd = q[0], .events = POLLIN };
	tw = tc = (struct timespec){ 0, MS };
	CHECK(0, W(__NR_ppoll, &empty, 1, &tw, NULL, 8),
	      S(__NR_ppoll, &empty, 1, &tc, NULL, 8));
	EXPECT_EQ(memcmp(&tw, &tc, sizeof(tw)), 0);

	SAME(-EINVAL, __NR_ppoll, fw, 6, &tw, &mask, 4);
	SAME(-EINVAL, __NR_ppoll, fw, 6, &bad, NULL, 8);
	SAME(-EINVAL, __NR_ppoll, fw, 6, &neg, NULL, 8);
	SAME(-EFAULT, __NR_ppoll, fw, 6, BADPTR, NULL, 8);
	SAME(-EFAULT, __NR_ppoll, BADPTR, 1, &tw, NULL, 8);
	SAME(-EFAULT, __NR_ppoll, fw, 6, &tw, BADPTR, 8);
}

static uint32_t fword;

TEST(futex)
{
	struct timespec ms = { 0, MS }, bad = { 0, -1 };
	uint32_t word = 5, bits[2] = { 0, 0 };
	uint32_t *odd = (uint32_t *)((char *)bits + 1);

	/* No waiter to wake: 0. */
	SAME(0, __NR_futex, &word, FUTEX_WAKE, 1);
	SAME(0, __NR_futex, &word, FUTEX_WAKE_PRIVATE, INT_MAX);
	/* The value moved on: no wait at all. */
	SAME(-EAGAIN, __NR_futex, &word, FUTEX_WAIT, 4, NULL);
	SAME(-EAGAIN, __NR_futex, &word, FUTEX_WAIT_PRIVATE, 6, &ms);
	/* The value still there: wait out 1 ms. */
	SAME(-ETIMEDOUT, __NR_futex, &word, FUTEX_WAIT_PRIVATE, 5, &ms);
	/* Requeue with a stale expected value. */
	SAME(-EAGAIN, __NR_futex, &word, FUTEX_CMP_REQUEUE_PRIVATE, 1, 1,
	     &bits[1], 4);
	SAME(0, __NR_futex, &word, FUTEX_CMP_REQUEUE_PRIVATE, 1, 1, &bits[1],
	     5);

	SAME(-ENOSYS, __NR_futex, &word, 99, 0);
	SAME(-EINVAL, __NR_futex, odd, FUTEX_WAKE, 1);
	SAME(-EINVAL, __NR_futex, &word, FUTEX_WAIT_PRIVATE, 5, &bad);
	SAME(-EINVAL, __NR_futex, &word, FUTEX_WAIT_BITSET_PRIVATE, 5, &ms,
	     NULL, 0);
	SAME(-EFAULT, __NR_futex, BADPTR, FUTEX_WAIT, 0, NULL);
	SAME(-EFAULT, __NR_futex, BADPTR, FUTEX_WAIT_PRIVATE, 0, NULL);
	SAME(-EFAULT, __NR_futex, &word, FUTEX_WAIT_PRIVATE, 5, BADPTR);
	EXPECT_EQ(word, 5);
}

struct waiter {
	bool wrapped;
	long ret;
};

/* Wait on fword for value 0; the limit only matters if no one wakes us. */
static void *futex_waiter(void *arg)
{
	struct timespec limit = { 10, 0 };
	struct waiter *w = arg;

	if (w->wrapped)
		w->ret = W(__NR_futex, &fword, FUTEX_WAIT_PRIVATE, 0, &limit);
	else
		w->ret = S(__NR_futex, &fword, FUTEX_WAIT_PRIVATE, 0, &limit);
	return NULL;
}

/* Wake one waiter, trying again until it is asleep (1 ms apart). */
static long wake_one(bool wrapped)
{
	struct timespec ms = { 0, MS };
	long r = 0;
	int i;

	for (i = 0; i < 5000 && r == 0; i++) {
		r = wrapped ? W(__NR_futex, &fword, FUTEX_WAKE_PRIVATE, 1) :
			      S(__NR_futex, &fword, FUTEX_WAKE_PRIVATE, 1);
		if (r == 0)
			nanosleep(&ms, NULL);
	}
	return r;
}

/* A waiter one way, woken the other: the pair must meet. */
static void wait_wake(bool wrapped_waiter, bool wrapped_waker)
{
	struct waiter w = { .wrapped = wrapped_waiter, .ret = LONG_MIN };
	pthread_t t;

	dev();		/* opened once, before the threads share it */
	ASSERT_EQ(pthread_create(&t, NULL, futex_waiter, &w), 0);
	EXPECT_EQ(wake_one(wrapped_waker), 1);
	ASSERT_EQ(pthread_join(t, NULL), 0);
	EXPECT_EQ(w.ret, 0);
}

TEST(futex_wait_wake)
{
	wait_wake(false, true);		/* conventional waiter, wrapped wake */
	wait_wake(true, false);		/* wrapped waiter, conventional wake */
	wait_wake(true, true);
}


TEST_HARNESS_MAIN
