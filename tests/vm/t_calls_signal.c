// SPDX-License-Identifier: GPL-2.0
/*
 * t_calls_signal: the signal group (rt_sigaction, rt_sigprocmask)
 * wrapped through /dev/wsc and conventionally: the same old and new
 * actions and masks, handlers installed one way running, and a signal
 * unblocked by a batch delivered before its next entry.  The twin-call
 * machinery is in twin.h.
 */
#include <signal.h>

#include "twin.h"

/* Not in glibc's headers: the kernel's flag for sa_restorer. */
#ifndef SA_RESTORER
#define SA_RESTORER	0x04000000
#endif

static volatile sig_atomic_t hits[NSIG];

static void count_sig(int sig)
{
	hits[sig]++;
}

/* glibc's signal trampoline: a raw handler needs one to return. */
static void (*glibc_restorer(void))(void)
{
	struct sigaction sa = { .sa_handler = count_sig };
	struct ksigaction k;

	ASSERT_EQ(sigaction(SIGURG, &sa, NULL), 0);
	ASSERT_EQ(syscall(__NR_rt_sigaction, SIGURG, NULL, &k, 8), 0);
	signal(SIGURG, SIG_DFL);
	ASSERT_TRUE(k.flags & SA_RESTORER);
	return k.restorer;
}

TEST(rt_sigaction)
{
	struct ksigaction act = {
		.handler = count_sig,
		.flags = SA_RESTORER | SA_RESTART | SA_NODEFER | SA_SIGINFO,
		.restorer = glibc_restorer(),
		.mask = sig_bit(SIGUSR2) | sig_bit(SIGTERM) | sig_bit(SIGKILL),
	};
	struct ksigaction ign = { .handler = SIG_IGN };
	struct ksigaction ow, oc, bw, bc, dfl;

	/* Install: the old (default) action comes back either way. */
	ASSERT_EQ(S(__NR_rt_sigaction, SIGUSR1, NULL, &dfl, 8), 0);
	memset(&ow, 0xa5, sizeof(ow));
	memset(&oc, 0x5a, sizeof(oc));
	CHECK(0, W(__NR_rt_sigaction, SIGUSR1, &act, &ow, 8),
	      S(__NR_rt_sigaction, SIGUSR2, &act, &oc, 8));
	EXPECT_EQ(memcmp(&ow, &oc, sizeof(ow)), 0);
	EXPECT_EQ(memcmp(&ow, &dfl, sizeof(ow)), 0);

	/* Read back both ways, both signals: SIGKILL left the mask. */
	memset(&bw, 0xa5, sizeof(bw));
	memset(&bc, 0x5a, sizeof(bc));
	CHECK(0, W(__NR_rt_sigaction, SIGUSR2, NULL, &bw, 8),
	      S(__NR_rt_sigaction, SIGUSR1, NULL, &bc, 8));
	EXPECT_EQ(memcmp(&bw, &bc, sizeof(bw)), 0);
	EXPECT_TRUE(bw.handler == count_sig);
	EXPECT_EQ(bw.flags, act.flags);
	EXPECT_TRUE(bw.restorer == act.restorer);
	EXPECT_EQ(bw.mask, sig_bit(SIGUSR2) | sig_bit(SIGTERM));

	/* The handler installed through the device runs and returns. */
	raise(SIGUSR1);
	raise(SIGUSR2);
	EXPECT_EQ(hits[SIGUSR1], 1);
	EXPECT_EQ(hits[SIGUSR2], 1);

	/* Ignored through the device: raising is harmless. */
	CHECK(0, W(__NR_rt_sigaction, SIGUSR1, &ign, NULL, 8),
	      S(__NR_rt_sigaction, SIGUSR2, &ign, NULL, 8));
	raise(SIGUSR1);
	raise(SIGUSR2);
	EXPECT_EQ(hits[SIGUSR1], 1);
	EXPECT_EQ(hits[SIGUSR2], 1);

	SAME(-EINVAL, __NR_rt_sigaction, 0, &act, NULL, 8);
	SAME(-EINVAL, __NR_rt_sigaction, 65, &act, NULL, 8);
	SAME(-EINVAL, __NR_rt_sigaction, SIGKILL, &act, NULL, 8);
	SAME(-EINVAL, __NR_rt_sigaction, SIGSTOP, &ign, NULL, 8);
	SAME(-EINVAL, __NR_rt_sigaction, SIGUSR1, &act, NULL, 4);
	SAME(-EFAULT, __NR_rt_sigaction, SIGUSR1, BADPTR, NULL, 8);
	SAME(-EFAULT, __NR_rt_sigaction, SIGUSR1, NULL, BADPTR, 8);
	SAME(0, __NR_rt_sigaction, SIGKILL, NULL, &bw, 8);	/* reading is */
}

TEST(rt_sigprocmask)
{
	struct sigaction sa = { .sa_handler = count_sig };
	uint64_t orig, set, ow, oc, now, cw, cc;
	struct wsc_result r[2];
	struct wsc_entry e[2];
	sigset_t pend;

	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &orig, 8), 0);

	/* Block one signal each way; each sees the other's change. */
	set = sig_bit(SIGUSR1);
	EXPECT_EQ(W(__NR_rt_sigprocmask, SIG_BLOCK, &set, &ow, 8), 0);
	EXPECT_EQ(ow, orig);
	set = sig_bit(SIGUSR2);
	EXPECT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, &set, &oc, 8), 0);
	EXPECT_EQ(oc, orig | sig_bit(SIGUSR1));
	CHECK(0, W(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &cw, 8),
	      S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &cc, 8));
	EXPECT_EQ(cw, orig | sig_bit(SIGUSR1) | sig_bit(SIGUSR2));
	EXPECT_EQ(cw, cc);

	/* SIGKILL and SIGSTOP cannot be blocked, either way. */
	set = sig_bit(SIGKILL) | sig_bit(SIGSTOP) | sig_bit(SIGTERM);
	SAME(0, __NR_rt_sigprocmask, SIG_BLOCK, &set, NULL, 8);
	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8), 0);
	EXPECT_EQ(now & (sig_bit(SIGKILL) | sig_bit(SIGSTOP)), 0);
	EXPECT_TRUE(now & sig_bit(SIGTERM));

	/* Raised while blocked: pending, not delivered. */
	ASSERT_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	ASSERT_EQ(sigaction(SIGUSR2, &sa, NULL), 0);
	raise(SIGUSR1);
	raise(SIGUSR2);
	sigpending(&pend);
	EXPECT_TRUE(sigismember(&pend, SIGUSR1));
	EXPECT_EQ(hits[SIGUSR1], 0);

	/*
	 * Unblocked through the device: delivered on the way out of the
	 * ioctl, and the pending signal stops the batch before entry 1.
	 */
	set = sig_bit(SIGUSR1);
	e[0] = ENT4(__NR_rt_sigprocmask, SIG_UNBLOCK, &set, NULL, 8);
	e[1] = ENT0(__NR_getpid);
	EXPECT_EQ(wsc_test_submit(dev(), e, r, 2, 0, NULL), 1);
	EXPECT_EQ(r[0].ret, 0);
	EXPECT_EQ(hits[SIGUSR1], 1);
	set = sig_bit(SIGUSR2);
	EXPECT_EQ(S(__NR_rt_sigprocmask, SIG_UNBLOCK, &set, NULL, 8), 0);
	EXPECT_EQ(hits[SIGUSR2], 1);

	/* SIG_SETMASK restores, wrapped. */
	EXPECT_EQ(W(__NR_rt_sigprocmask, SIG_SETMASK, &orig, NULL, 8), 0);
	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8), 0);
	EXPECT_EQ(now, orig);

	set = sig_bit(SIGUSR1);
	SAME(-EINVAL, __NR_rt_sigprocmask, 3, &set, NULL, 8);
	SAME(-EINVAL, __NR_rt_sigprocmask, SIG_BLOCK, &set, NULL, 4);
	SAME(-EFAULT, __NR_rt_sigprocmask, SIG_BLOCK, BADPTR, NULL, 8);
	SAME(-EFAULT, __NR_rt_sigprocmask, SIG_BLOCK, NULL, BADPTR, 8);
	ASSERT_EQ(S(__NR_rt_sigprocmask, SIG_BLOCK, NULL, &now, 8), 0);
	EXPECT_EQ(now, orig);		/* the failures changed nothing */
}


TEST_HARNESS_MAIN
