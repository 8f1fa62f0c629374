// SPDX-License-Identifier: GPL-2.0
/*
 * The trace through libwsc: what a call's time was spent on (on the CPU
 * or off it, against a sleep of known length), several traces at once
 * each counting its own process exactly, the library's checks of a
 * trace's spec, and a handle's trace going with the handle.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libwsc.h>

#include "util.h"
#include "proc_task.h"

/* The sleeps of the off-CPU test: known, and long against TCG's noise. */
#define SLEEPS		3
#define SLEEP_NS	100000000ull
/* The traces of the concurrent test. */
#define TRACES		4

/**
 * struct child - a process that waits for a byte, then does its work
 * @pid:  its pid
 * @go:   the pipe's write end
 */
struct child {
	pid_t pid;
	int go;
};

/*
 * Fork a child that runs @work(@arg) once child_run() writes its byte.
 * Returns once the child sleeps in its read() of the go pipe, so that a
 * trace begun now counts none of what it did after the fork, and that
 * read's exit is the trace's one unmatched exit: a trace begun before
 * the child got there would count the read too (a 33rd read in
 * copy_is_on_cpu, mostly off the CPU; seen in CI on 6.1).
 */
static void child_spawn(struct child *c, void (*work)(int arg), int arg)
{
	const struct timespec nap = { 0, 100000 };
	int p[2], tries;
	char b;

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	c->pid = fork();
	ASSERT_GE(c->pid, 0);
	if (c->pid == 0) {
		close(p[1]);
		if (read(p[0], &b, 1) != 1)
			_exit(2);
		work(arg);
		_exit(0);
	}
	close(p[0]);
	c->go = p[1];
	for (tries = 0; tries < 100000 && !blocked_in_read(c->pid); tries++)
		nanosleep(&nap, NULL);
	ASSERT_TRUE(blocked_in_read(c->pid));
}

static void child_run(struct child *c)
{
	int status;

	ASSERT_EQ(write(c->go, "g", 1), 1);
	close(c->go);
	while (waitpid(c->pid, &status, 0) < 0)
		ASSERT_EQ(errno, EINTR);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Wait for a process tree's trace to end by itself. */
static void wait_ended(struct wsc_trace *tr)
{
	struct wsc_trace_status st;
	int i;

	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(wsc_trace_status(tr, &st), 0);
		if (st.state != WSC_TRACE_ACTIVE)
			return;
		usleep(10000);
	}
	TH_LOG("the trace did not end in 10 s");
	ASSERT_TRUE(0);
}

/* One call's row, copied out of wsc_trace_fetch(). */
struct want {
	uint32_t nr;
	struct wsc_trace_call row;
	int seen;
	uint64_t all_calls;
};

static int keep_row(void *ctx, const struct wsc_trace_call *call)
{
	struct want *w = ctx;

	w->all_calls += call->calls;
	if (call->nr == w->nr) {
		w->row = *call;
		w->seen++;
	}
	return 0;
}

static void sleeper(int unused)
{
	struct timespec ts = { 0, SLEEP_NS };
	int i;

	(void)unused;
	for (i = 0; i < SLEEPS; i++)
		nanosleep(&ts, NULL);
}

static void reader(int unused)
{
	static char buf[1 << 20];
	int fd = open("/dev/zero", O_RDONLY), i;

	(void)unused;
	for (i = 0; fd >= 0 && i < 32; i++)
		if (read(fd, buf, sizeof(buf)) != sizeof(buf))
			_exit(3);
}

/* Trace @work in a child; @w gets the row of call @w->nr. */
static void trace_child(void (*work)(int), struct want *w)
{
	struct wsc_trace_spec spec = { 0 };
	struct wsc_trace *tr;
	struct child c;

	child_spawn(&c, work, 0);
	ASSERT_EQ(wsc_trace_open(&tr), 0);
	spec.pid = c.pid;
	ASSERT_EQ(wsc_trace_begin(tr, &spec), 0);
	child_run(&c);
	wait_ended(tr);
	ASSERT_GE(wsc_trace_fetch(tr, keep_row, w), 1);
	wsc_trace_close(tr);
	ASSERT_EQ(w->seen, 1);
}

/*
 * A sleep is time off the CPU: the three 100 ms sleeps' off-CPU time is
 * at least 90% of their latency and of the 300 ms asked for.
 */
TEST(sleep_is_off_cpu)
{
	struct want w = { .nr = SYS_clock_nanosleep };
	uint64_t asked = SLEEPS * SLEEP_NS;

	trace_child(sleeper, &w);
	TH_LOG("clock_nanosleep: %llu calls, %llu ns, %llu ns off the CPU",
	       (unsigned long long)w.row.calls,
	       (unsigned long long)w.row.total_ns,
	       (unsigned long long)w.row.off_ns);
	EXPECT_EQ(w.row.calls, SLEEPS);
	EXPECT_GE(w.row.total_ns, asked);
	EXPECT_LE(w.row.off_ns, w.row.total_ns);
	EXPECT_GE(w.row.off_ns, w.row.total_ns - w.row.total_ns / 10);
	EXPECT_GE(w.row.off_ns, asked - asked / 10);
}

/*
 * Copying from /dev/zero is time on the CPU.  How much of it is told, not
 * asserted: a copy may be preempted (waiting for a CPU is off-CPU time
 * too), more so under a loaded emulator; that some of it was on the CPU
 * is certain.
 */
TEST(copy_is_on_cpu)
{
	struct want w = { .nr = SYS_read };

	trace_child(reader, &w);
	TH_LOG("read: %llu calls, %llu ns, %llu ns off the CPU",
	       (unsigned long long)w.row.calls,
	       (unsigned long long)w.row.total_ns,
	       (unsigned long long)w.row.off_ns);
	EXPECT_EQ(w.row.calls, 32);
	EXPECT_GT(w.row.total_ns, w.row.off_ns);
}

static void getppids(int n)
{
	int i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static int count_tasks(void *ctx, const struct wsc_trace_task *task)
{
	struct wsc_trace_task *last = ctx;

	*last = *task;
	return 0;
}

/* Four traces at once, four processes: each counts its own exactly. */
TEST(four_traces_at_once)
{
	struct wsc_trace_spec spec = { 0 };
	struct wsc_trace *tr[TRACES];
	struct wsc_trace_task task;
	struct child c[TRACES];
	struct want w;
	int i;

	for (i = 0; i < TRACES; i++) {
		child_spawn(&c[i], getppids, 1000 + 100 * i);
		ASSERT_EQ(wsc_trace_open(&tr[i]), 0);
		spec.pid = c[i].pid;
		ASSERT_EQ(wsc_trace_begin(tr[i], &spec), 0);
	}
	for (i = 0; i < TRACES; i++)
		child_run(&c[i]);
	for (i = 0; i < TRACES; i++) {
		wait_ended(tr[i]);
		memset(&w, 0, sizeof(w));
		w.nr = SYS_getppid;
		ASSERT_GE(wsc_trace_fetch(tr[i], keep_row, &w), 1);
		EXPECT_EQ(w.row.calls, 1000 + 100 * i);
		EXPECT_EQ(wsc_trace_tasks(tr[i], count_tasks, &task), 1);
		EXPECT_EQ(task.pid, c[i].pid);
		/*
		 * The one task made every call of its trace, and nothing but
		 * its getppids and its exit_group: the trace began while it
		 * slept in the pipe's read, whose exit is not counted.
		 */
		EXPECT_EQ(task.calls, w.all_calls);
		EXPECT_EQ(task.calls, 1000 + 100 * i + 1);
	}
	for (i = 0; i < TRACES; i++)
		wsc_trace_close(tr[i]);
}

/* The library refuses a spec that cannot be a trace, and says why. */
TEST(bad_specs)
{
	uint64_t none[WSC_TRACE_NR_MAX / 64] = { 0 };
	struct wsc_trace_spec spec;
	struct wsc_trace *tr;

	ASSERT_EQ(wsc_trace_open(&tr), 0);
	memset(&spec, 0, sizeof(spec));
	EXPECT_EQ(wsc_trace_begin(tr, &spec), -EINVAL);
	EXPECT_TRUE(strstr(wsc_trace_error(tr), "one target"));
	spec.pid = getpid();
	spec.all = true;
	EXPECT_EQ(wsc_trace_begin(tr, &spec), -EINVAL);
	spec.all = false;
	spec.err = WSC_TRACE_ERRNO_MAX + 1;
	EXPECT_EQ(wsc_trace_begin(tr, &spec), -EINVAL);
	EXPECT_TRUE(strstr(wsc_trace_error(tr), "out of range"));
	spec.err = 0;
	spec.calls = none;
	EXPECT_EQ(wsc_trace_begin(tr, &spec), -EINVAL);
	EXPECT_TRUE(strstr(wsc_trace_error(tr), "empty"));
	EXPECT_EQ(wsc_trace_begin(tr, NULL), -EINVAL);
	EXPECT_EQ(wsc_trace_begin(NULL, &spec), -EINVAL);
	wsc_trace_close(tr);
}

/* Closing the handle ends and frees its trace. */
TEST(close_frees)
{
	struct wsc_trace_spec spec = { .all = true };
	struct wsc_trace_status st;
	struct wsc_trace *tr, *other;

	ASSERT_EQ(wsc_trace_open(&tr), 0);
	ASSERT_EQ(wsc_trace_begin(tr, &spec), 0);
	ASSERT_EQ(wsc_trace_status(tr, &st), 0);
	EXPECT_EQ(st.state, WSC_TRACE_ACTIVE);
	EXPECT_TRUE(st.all);
	wsc_trace_close(tr);
	ASSERT_EQ(wsc_trace_open(&other), 0);
	ASSERT_EQ(wsc_trace_status(other, &st), 0);
	EXPECT_EQ(st.state, WSC_TRACE_IDLE);
	wsc_trace_close(other);
}

TEST_HARNESS_MAIN
