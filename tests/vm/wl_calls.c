// SPDX-License-Identifier: GPL-2.0
/*
 * A workload with known system call counts, for the trace tests: each
 * task makes its own kind of call, so a count names who was followed.
 *
 *   wl_calls procs N K     N getppid, K failing chdir (ENOENT); two forked
 *                          children make N getpgid each; the first one's
 *                          child (a grandchild) makes N umask.  No
 *                          threads, and SIGCHLD blocked (under ptrace it
 *                          would interrupt wait4, and strace would count
 *                          the restart): the calls are the same on every
 *                          run, traced by wsc or by strace.
 *   wl_calls threads N     a thread makes N getpriority
 *   wl_calls fifo PATH N   block reading PATH until a byte comes, then N
 *                          getppid (to be attached to with -p)
 *   wl_calls exec-thread N a thread other than the leader execs
 *                          `wl_calls threads N` (the exec takes over the
 *                          leader's identity)
 *   wl_calls errnos N      N chdir failing with ENOENT, N with ENOTDIR and
 *                          N close failing with EBADF (per-errno counts)
 *   wl_calls sleep MS N    N sleeps of MS milliseconds (off-CPU time)
 *   wl_calls hammer P T N  P processes of T threads each, every thread
 *                          making N getppid: on a 2-CPU guest, one thread
 *                          in three pinned to CPU 0, one to CPU 1, one free
 *                          to migrate, all at once (the probes' per-CPU
 *                          state under load from every side)
 *
 * Calls go through syscall(2), so libc can neither cache nor skip them.
 */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

static void die(const char *what)
{
	fprintf(stderr, "wl_calls: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end) {
		fprintf(stderr, "wl_calls: not a number: %s\n", s);
		exit(2);
	}
	return v;
}

static void repeat(long nr, unsigned long n, long a0, long a1)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (syscall(nr, a0, a1) < 0 && nr != SYS_chdir &&
		    nr != SYS_close)
			die("a counted call failed");
}

/* Fork a child that runs @fn(@n) and exits. */
static pid_t child(void (*fn)(unsigned long), unsigned long n)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		fn(n);
		_exit(0);
	}
	return pid;
}

static void reap(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "wl_calls: a child failed\n");
		exit(1);
	}
}

static void grandchild_work(unsigned long n)
{
	repeat(SYS_umask, n, 022, 0);
}

static void child_work(unsigned long n)
{
	repeat(SYS_getpgid, n, 0, 0);
}

static void first_child_work(unsigned long n)
{
	pid_t g = child(grandchild_work, n);

	child_work(n);
	reap(g);
}

static int procs(unsigned long n, unsigned long k)
{
	sigset_t chld;
	pid_t a, b;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &chld, NULL))
		die("sigprocmask");

	repeat(SYS_getppid, n, 0, 0);
	repeat(SYS_chdir, k, (long)"/nonexistent/wl_calls", 0);
	a = child(first_child_work, n);
	b = child(child_work, n);
	reap(a);
	reap(b);
	return 0;
}

static void *thread_work(void *arg)
{
	repeat(SYS_getpriority, *(unsigned long *)arg, PRIO_PROCESS, 0);
	return NULL;
}

static unsigned long hammer_calls;

static void *hammer_thread(void *arg)
{
	long which = (long)arg;
	cpu_set_t cpus;

	if (which % 3 < 2 && sysconf(_SC_NPROCESSORS_ONLN) > which % 3) {
		CPU_ZERO(&cpus);
		CPU_SET(which % 3, &cpus);
		if (sched_setaffinity(0, sizeof(cpus), &cpus))
			die("sched_setaffinity");
	}
	repeat(SYS_getppid, hammer_calls, 0, 0);
	return NULL;
}

static void hammer_process(unsigned long threads)
{
	pthread_t t[64];
	unsigned long i;

	for (i = 0; i < threads; i++) {
		errno = pthread_create(&t[i], NULL, hammer_thread,
				       (void *)(long)(getpid() + i));
		if (errno)
			die("pthread_create");
	}
	for (i = 0; i < threads; i++) {
		errno = pthread_join(t[i], NULL);
		if (errno)
			die("pthread_join");
	}
}

static int hammer(unsigned long procs, unsigned long threads, unsigned long n)
{
	pid_t pid[64];
	unsigned long i;

	if (!procs || procs > 64 || !threads || threads > 64) {
		fprintf(stderr, "wl_calls: hammer wants 1..64 processes and threads\n");
		return 2;
	}
	hammer_calls = n;
	for (i = 0; i < procs; i++)
		pid[i] = child(hammer_process, threads);
	for (i = 0; i < procs; i++)
		reap(pid[i]);
	return 0;
}

static int threads(unsigned long n)
{
	pthread_t t;

	errno = pthread_create(&t, NULL, thread_work, &n);
	if (errno)
		die("pthread_create");
	errno = pthread_join(t, NULL);
	if (errno)
		die("pthread_join");
	return 0;
}

static char *self;

static void *exec_work(void *arg)
{
	char *argv[] = { self, "threads", arg, NULL };

	execv("/proc/self/exe", argv);
	die("execv");
	return NULL;
}

static int exec_thread(char *n)
{
	pthread_t t;

	number(n);
	errno = pthread_create(&t, NULL, exec_work, n);
	if (errno)
		die("pthread_create");
	/* The exec ends this thread; the new program exits for us. */
	pthread_join(t, NULL);
	return 1;
}

static int fifo(const char *path, unsigned long n)
{
	char byte;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	if (read(fd, &byte, 1) != 1)
		die("read");
	close(fd);
	repeat(SYS_getppid, n, 0, 0);
	return 0;
}

static int errnos(unsigned long n)
{
	repeat(SYS_chdir, n, (long)"/nonexistent/wl_calls", 0);
	repeat(SYS_chdir, n, (long)"/etc/passwd/wl_calls", 0);
	repeat(SYS_close, n, -1, 0);
	return 0;
}

static int sleeps(unsigned long ms, unsigned long n)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	while (n--)
		if (syscall(SYS_nanosleep, &ts, NULL))
			die("nanosleep");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "procs"))
		return procs(number(argv[2]), number(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "errnos"))
		return errnos(number(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "sleep"))
		return sleeps(number(argv[2]), number(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "threads"))
		return threads(number(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "fifo"))
		return fifo(argv[2], number(argv[3]));
	self = argv[0];
	if (argc == 5 && !strcmp(argv[1], "hammer"))
		return hammer(number(argv[2]), number(argv[3]), number(argv[4]));
	if (argc == 3 && !strcmp(argv[1], "exec-thread"))
		return exec_thread(argv[2]);
	fprintf(stderr, "usage: wl_calls procs N K | errnos N | sleep MS N | threads N | fifo PATH N | exec-thread N | hammer P T N\n");
	return 2;
}
