// SPDX-License-Identifier: GPL-2.0
/*
 * Signals during a batch: the batch stops between calls, the ioctl says
 * how far it got, nothing runs twice, and libwsc resumes without losing a
 * result.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>

#include "libwsc.h"
#include "util.h"

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	(void)sig;
	caught++;
}

static void catch_sigusr1(int flags)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	ASSERT_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
}

/* A child that signals us after @signal_ms, then writes a byte to @wfd. */
static pid_t signal_then_write(int signal_ms, int write_ms, int wfd)
{
	pid_t parent = getpid(), pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		usleep(signal_ms * 1000);
		kill(parent, SIGUSR1);
		if (wfd >= 0) {
			usleep(write_ms * 1000);
			if (write(wfd, "x", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	return pid;
}

/*
 * A read blocked on an empty pipe is interrupted: it had no effect, so
 * the ioctl reports the entries before it as done and leaves it unrun.
 */
TEST(interrupted_read_is_left_unrun)
{
	struct wsc_entry ent[3];
	struct wsc_result res[3];
	int p[2], fd = wsc_test_open();
	char c;
	pid_t child;

	ASSERT_EQ(pipe(p), 0);
	catch_sigusr1(0);
	ent[0] = ENT0(SYS_getpid);
	ent[1] = ENT3(SYS_read, p[0], &c, 1);
	ent[2] = ENT0(SYS_gettid);
	child = signal_then_write(100, 0, -1);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 1);
	EXPECT_EQ(res[0].ret, getpid());
	EXPECT_EQ(caught, 1);
	waitpid(child, NULL, 0);
}

/* The same with libwsc: it resumes at the read, which then gets its byte. */
TEST(libwsc_resumes_after_signal)
{
	struct wsc_batch *b;
	int p[2];
	char c = 0;
	pid_t child;

	ASSERT_EQ(pipe(p), 0);
	catch_sigusr1(0);
	ASSERT_EQ(wsc_batch_create(&b, 0), 0);
	ASSERT_EQ(wsc_prep_getpid(b), 0);
	ASSERT_EQ(wsc_prep_read(b, p[0], &c, 1), 1);
	ASSERT_EQ(wsc_prep_gettid(b), 2);
	child = signal_then_write(100, 100, p[1]);
	ASSERT_EQ(wsc_batch_submit(b), 3);
	EXPECT_EQ(wsc_batch_result(b, 0), getpid());
	EXPECT_EQ(wsc_batch_result(b, 1), 1);
	EXPECT_EQ(wsc_batch_result(b, 2), gettid());
	EXPECT_EQ(c, 'x');
	EXPECT_EQ(caught, 1);
	/* One submission, interrupted, and one that resumed it. */
	EXPECT_EQ(wsc_batch_kernel_entries(b), 2);
	wsc_batch_destroy(b);
	waitpid(child, NULL, 0);
}

/*
 * A sleep cut short keeps what it did (the time slept, the remainder
 * written back), so it reports -EINTR like a real interrupted nanosleep,
 * and its failure stops the chain.
 */
TEST(interrupted_sleep_reports_eintr)
{
	struct timespec req = { .tv_sec = 5 }, rem = { 0 };
	struct wsc_entry ent[3];
	struct wsc_result res[3];
	int fd = wsc_test_open();
	pid_t child;

	catch_sigusr1(SA_RESTART);
	ent[0] = ENT0(SYS_getpid);
	ent[1] = ENT2(SYS_nanosleep, &req, &rem);
	ent[2] = ENT0(SYS_getpid);
	child = signal_then_write(100, 0, -1);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 3, 0, NULL), 3);
	EXPECT_EQ(res[0].ret, getpid());
	EXPECT_EQ(res[1].ret, -EINTR);
	EXPECT_EQ(res[2].ret, -ECANCELED);
	EXPECT_GT(rem.tv_sec * 1000000000LL + rem.tv_nsec, 0);
	waitpid(child, NULL, 0);
}

/* With the failure ignored, the pending signal stops the batch after it. */
TEST(signal_stops_batch_between_calls)
{
	struct timespec req = { .tv_sec = 5 }, rem;
	struct wsc_entry ent[4];
	struct wsc_result res[4];
	int fd = wsc_test_open();
	pid_t child;

	catch_sigusr1(0);
	ent[0] = ENT0(SYS_getpid);
	ent[1] = ENT2(SYS_nanosleep, &req, &rem);
	ent[1].flags = WSC_ENTRY_IGNORE_FAILURE;
	ent[2] = ENT0(SYS_getpid);
	ent[3] = ENT0(SYS_getpid);
	child = signal_then_write(100, 0, -1);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 4, 0, NULL), 2);
	EXPECT_EQ(res[1].ret, -EINTR);
	EXPECT_EQ(caught, 1);
	waitpid(child, NULL, 0);
}

/*
 * When the first call is interrupted, nothing has run, and the kernel's
 * own rules apply to the ioctl: without SA_RESTART it fails with EINTR...
 */
TEST(first_call_interrupted_without_sa_restart)
{
	struct wsc_entry ent[2];
	struct wsc_result res[2];
	struct wsc_batch *b;
	int p[2], fd = wsc_test_open();
	char c;
	pid_t child;

	ASSERT_EQ(pipe(p), 0);
	catch_sigusr1(0);
	ent[0] = ENT3(SYS_read, p[0], &c, 1);
	ent[1] = ENT0(SYS_getpid);
	child = signal_then_write(100, 0, -1);
	EXPECT_EQ(wsc_test_submit(fd, ent, res, 2, 0, NULL), -EINTR);
	EXPECT_EQ(caught, 1);
	waitpid(child, NULL, 0);

	/* ... and libwsc passes that on, with nothing marked as run. */
	ASSERT_EQ(wsc_batch_create(&b, 0), 0);
	ASSERT_EQ(wsc_prep_read(b, p[0], &c, 1), 0);
	child = signal_then_write(100, 0, -1);
	EXPECT_EQ(wsc_batch_submit(b), -EINTR);
	EXPECT_EQ(wsc_batch_completed(b), 0);
	EXPECT_EQ(wsc_batch_result(b, 0), -EAGAIN);
	EXPECT_EQ(caught, 2);
	wsc_batch_destroy(b);
	waitpid(child, NULL, 0);
}

/* ... and with SA_RESTART the ioctl restarts by itself. */
TEST(first_call_interrupted_with_sa_restart)
{
	struct wsc_entry ent[2];
	struct wsc_result res[2];
	int p[2], fd = wsc_test_open();
	char c = 0;
	pid_t child;

	ASSERT_EQ(pipe(p), 0);
	catch_sigusr1(SA_RESTART);
	ent[0] = ENT3(SYS_read, p[0], &c, 1);
	ent[1] = ENT0(SYS_getpid);
	child = signal_then_write(100, 100, p[1]);
	ASSERT_EQ(wsc_test_submit(fd, ent, res, 2, 0, NULL), 2);
	EXPECT_EQ(res[0].ret, 1);
	EXPECT_EQ(res[1].ret, getpid());
	EXPECT_EQ(c, 'x');
	EXPECT_EQ(caught, 1);
	waitpid(child, NULL, 0);
}

/*
 * Many signals against a long libwsc batch of pipe writes and reads:
 * every byte written is read back once, in order.
 */
struct storm {
	pthread_t target;
	volatile int stop;
};

static void *storm_thread(void *arg)
{
	struct storm *s = arg;
	struct timespec ts = { .tv_nsec = 200000 };

	while (!s->stop) {
		pthread_kill(s->target, SIGUSR1);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

TEST(signal_storm_loses_nothing)
{
	enum { ROUNDS = 40, PAIRS = 200 };
	static unsigned char out[PAIRS], in[PAIRS];
	struct storm s = { .target = pthread_self() };
	struct wsc_batch *b;
	pthread_t t;
	int p[2], r, i;

	ASSERT_EQ(pipe(p), 0);
	catch_sigusr1(0);
	ASSERT_EQ(wsc_batch_create(&b, 0), 0);
	ASSERT_EQ(pthread_create(&t, NULL, storm_thread, &s), 0);
	for (r = 0; r < ROUNDS; r++) {
		wsc_batch_reset(b);
		for (i = 0; i < PAIRS; i++) {
			out[i] = (unsigned char)(r + i);
			ASSERT_EQ(wsc_prep_write(b, p[1], &out[i], 1), 2 * i);
			ASSERT_EQ(wsc_prep_read(b, p[0], &in[i], 1), 2 * i + 1);
		}
		ASSERT_EQ(wsc_batch_submit(b), 2 * PAIRS);
		for (i = 0; i < 2 * PAIRS; i++)
			ASSERT_EQ(wsc_batch_result(b, i), 1);
		ASSERT_EQ(memcmp(in, out, PAIRS), 0);
	}
	s.stop = 1;
	pthread_join(t, NULL);
	TH_LOG("%d signals caught, %lu kernel entries for %d batches",
	       (int)caught, wsc_batch_kernel_entries(b), ROUNDS);
	wsc_batch_destroy(b);
}

TEST_HARNESS_MAIN
