/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Processes for the trace test programs to trace: a child that blocks in
 * read() until woken, then makes a known number of calls (some failing)
 * and exits; and the wait for a process tree's trace to end with it.
 * Include after trace_genl.h.
 */
#ifndef WSC_TEST_TRACE_TARGET_H
#define WSC_TEST_TRACE_TARGET_H

#include <fcntl.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "harness.h"
#include "proc_task.h"
#include "trace_genl.h"

/* A pid that no process has (checked before use). */
#define NO_SUCH_PID	999999
/* What the child of a live trace does once woken. */
#define GETPPID_CALLS	100
/* How long a pid trace may take to notice that its process has exited. */
#define END_WAIT_MS	10000

/**
 * struct target - a child process to trace
 * @pid:     its pid
 * @wake_fd: the write end of its pipe: a byte wakes it
 */
struct target {
	pid_t pid;
	int wake_fd;
};

/* The state letter of /proc/PID/stat, or '?'. */
static inline char task_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	/* After the command name, which may hold anything but ends with ')'. */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static inline uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Fork a child that blocks reading a pipe; once woken it makes @calls
 * getppid calls and exits 0.  Returns once the child is inside read(), so
 * that a trace started now begins in the middle of that call: its exit
 * will be the trace's one unmatched exit.
 */
static inline void target_spawn_failing(struct target *tg, int calls,
					int fails);

static inline void target_spawn(struct target *tg, int calls)
{
	target_spawn_failing(tg, calls, 0);
}

/*
 * As target_spawn(), and after the getppid calls, @fails openat calls
 * that fail with ENOENT and @fails that fail with EBADF.
 */
static inline void target_spawn_failing(struct target *tg, int calls,
					int fails)
{
	uint64_t deadline;
	int p[2], i;
	char c;

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	fflush(stdout);
	tg->pid = fork();
	ASSERT_GE(tg->pid, 0);
	if (tg->pid == 0) {
		/* Not outlive the test, whatever becomes of it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[1]);
		/* EOF: the test is gone. */
		if (read(p[0], &c, 1) != 1)
			_exit(2);
		/* Nothing else until the exit: the counts are exact. */
		for (i = 0; i < calls; i++)
			syscall(SYS_getppid);
		for (i = 0; i < fails; i++) {
			syscall(SYS_openat, AT_FDCWD, "/wsc-no-such-file",
				O_RDONLY);
			syscall(SYS_openat, -1, "relative", O_RDONLY);
		}
		_exit(0);
	}
	close(p[0]);
	tg->wake_fd = p[1];

	deadline = now_ms() + 10000;
	while (!blocked_in_read(tg->pid)) {
		if (now_ms() > deadline) {
			TH_LOG("child %d never blocked in read()", tg->pid);
			kill(tg->pid, SIGKILL);
			_exit(1);
		}
		usleep(10000);
	}
}

static inline void target_wake(struct target *tg)
{
	ASSERT_EQ(write(tg->wake_fd, "x", 1), 1);
}

/* Wait for the child to end; its wait status. */
static inline int target_reap(struct target *tg)
{
	int status;

	while (waitpid(tg->pid, &status, 0) < 0)
		ASSERT_EQ(errno, EINTR);
	close(tg->wake_fd);
	tg->pid = 0;
	return status;
}

static inline void target_kill(struct target *tg)
{
	if (tg->pid <= 0)
		return;
	kill(tg->pid, SIGKILL);
	target_reap(tg);
}

/* Poll STATUS until the trace is no longer active (or give up). */
static inline void wait_for_end(struct trace_sock *ts, struct trace_reply *r)
{
	uint64_t deadline = now_ms() + END_WAIT_MS;

	for (;;) {
		trace_status(ts, r);
		if (r->val[WSC_LAT_A_TRACE_STATE] != WSC_TRACE_ACTIVE)
			return;
		if (now_ms() > deadline) {
			TH_LOG("the trace is still active %d ms after its process exited",
			       END_WAIT_MS);
			ASSERT_TRUE(0);
		}
		usleep(20000);
	}
}

static inline void need_no_such_pid(void)
{
	if (kill(NO_SUCH_PID, 0) == 0 || errno != ESRCH)
		SKIP("pid %d exists here", NO_SUCH_PID);
}

#endif /* WSC_TEST_TRACE_TARGET_H */
