// SPDX-License-Identifier: GPL-2.0
/*
 * mt: a small multi-process, multi-threaded workload with known calls.
 *
 * The workload of most rows of tools/measure/trace-features (the feature table of
 * Documentation/results/trace.md): it prints one line on stdout ("mt:
 * hello on stdout", to show where a tracer's report goes), forks a child
 * and starts two threads in the parent.  Each of the three workers makes
 * 200 getppid calls, 20 openat of a missing file (ENOENT), 5 close(-1)
 * (EBADF) and 5 nanosleeps of 20 ms (off-CPU time): 600 getppid, 60
 * failing openat and 15 failing close in all, beside the loader's calls.
 * The calls go through syscall(2) so that the C library cannot turn them
 * into other calls.  Exit status 0 when every worker ran, 1 when fork or
 * a thread failed, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *out, const char *prog)
{
	fprintf(out, "Usage: %s\n"
		"A child process and two threads each make 200 getppid, 20 "
		"failing openat,\n5 failing close and 5 nanosleeps of 20 ms.\n",
		prog);
}

static void *work(void *arg)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	int i;

	(void)arg;
	for (i = 0; i < 200; i++)
		syscall(SYS_getppid);
	for (i = 0; i < 20; i++)
		syscall(SYS_openat, AT_FDCWD, "/nonexistent/mt", O_RDONLY);
	for (i = 0; i < 5; i++)
		syscall(SYS_close, -1);
	for (i = 0; i < 5; i++)
		nanosleep(&ts, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *prog = argc > 0 && argv[0] ? argv[0] : "mt";
	pthread_t a, b;
	pid_t child;
	int status, err;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
			  strcmp(argv[1], "--help") == 0)) {
		usage(stdout, prog);
		return 0;
	}
	if (argc > 1) {
		usage(stderr, prog);
		return 2;
	}

	printf("mt: hello on stdout\n");
	fflush(stdout);
	child = fork();
	if (child < 0) {
		fprintf(stderr, "%s: fork: %s\n", prog, strerror(errno));
		return 1;
	}
	if (child == 0) {
		work(NULL);
		_exit(0);
	}
	err = pthread_create(&a, NULL, work, NULL);
	if (err) {
		fprintf(stderr, "%s: pthread_create: %s\n", prog, strerror(err));
		waitpid(child, NULL, 0);
		return 1;
	}
	err = pthread_create(&b, NULL, work, NULL);
	if (err) {
		fprintf(stderr, "%s: pthread_create: %s\n", prog, strerror(err));
		pthread_join(a, NULL);
		waitpid(child, NULL, 0);
		return 1;
	}
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if (waitpid(child, &status, 0) < 0) {
		fprintf(stderr, "%s: waitpid: %s\n", prog, strerror(errno));
		return 1;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
