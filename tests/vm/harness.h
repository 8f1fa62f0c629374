/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small test harness in the shape of the kernel's kselftest_harness.h:
 * TEST(name) { ... } with ASSERT_* (stop the test) and EXPECT_* (note the
 * failure, go on).  Every test runs in its own forked child under a time
 * limit; the output is TAP.  A test may SKIP(reason) when what it needs is
 * missing.  Include it in exactly one file per program.
 */
#ifndef WSC_TEST_HARNESS_H
#define WSC_TEST_HARNESS_H

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define WSC_TEST_MAX		128
#define WSC_TEST_TIMEOUT	60	/* seconds per test */
#define WSC_TEST_SKIP_STATUS	4

struct wsc_test {
	const char *name;
	void (*fn)(void);
};

static struct wsc_test wsc_tests[WSC_TEST_MAX];
static int wsc_nr_tests;
static int wsc_test_failed;	/* in the child: an EXPECT failed */

static inline void wsc_test_register(const char *name, void (*fn)(void))
{
	if (wsc_nr_tests == WSC_TEST_MAX) {
		fprintf(stderr, "harness: too many tests\n");
		exit(1);
	}
	wsc_tests[wsc_nr_tests].name = name;
	wsc_tests[wsc_nr_tests].fn = fn;
	wsc_nr_tests++;
}

#define TEST(name)							\
	static void test_##name(void);					\
	__attribute__((constructor)) static void register_##name(void)	\
	{								\
		wsc_test_register(#name, test_##name);			\
	}								\
	static void test_##name(void)

/* Compare as signed 64-bit values: results, errnos and counts all fit. */
#define WSC_CHECK(stop, a, op, b) do {					\
	long long _a = (long long)(a), _b = (long long)(b);		\
	if (!(_a op _b)) {						\
		printf("# %s:%d: %s %s %s: %lld vs %lld\n", __FILE__,	\
		       __LINE__, #a, #op, #b, _a, _b);			\
		fflush(stdout);						\
		if (stop)						\
			_exit(1);					\
		wsc_test_failed = 1;					\
	}								\
} while (0)

#define ASSERT_EQ(a, b)	WSC_CHECK(1, a, ==, b)
#define ASSERT_NE(a, b)	WSC_CHECK(1, a, !=, b)
#define ASSERT_LT(a, b)	WSC_CHECK(1, a, <, b)
#define ASSERT_LE(a, b)	WSC_CHECK(1, a, <=, b)
#define ASSERT_GT(a, b)	WSC_CHECK(1, a, >, b)
#define ASSERT_GE(a, b)	WSC_CHECK(1, a, >=, b)
#define ASSERT_TRUE(x)	WSC_CHECK(1, !!(x), ==, 1)
#define ASSERT_FALSE(x)	WSC_CHECK(1, !!(x), ==, 0)
#define EXPECT_EQ(a, b)	WSC_CHECK(0, a, ==, b)
#define EXPECT_NE(a, b)	WSC_CHECK(0, a, !=, b)
#define EXPECT_LE(a, b)	WSC_CHECK(0, a, <=, b)
#define EXPECT_GE(a, b)	WSC_CHECK(0, a, >=, b)
#define EXPECT_GT(a, b)	WSC_CHECK(0, a, >, b)
#define EXPECT_TRUE(x)	WSC_CHECK(0, !!(x), ==, 1)
#define EXPECT_FALSE(x)	WSC_CHECK(0, !!(x), ==, 0)

/* Note why the test cannot run here and stop it as skipped. */
#define SKIP(...) do {							\
	printf("# SKIP: " __VA_ARGS__);					\
	printf("\n");							\
	fflush(stdout);							\
	_exit(WSC_TEST_SKIP_STATUS);					\
} while (0)

#define TH_LOG(...) do {						\
	printf("# " __VA_ARGS__);					\
	printf("\n");							\
	fflush(stdout);							\
} while (0)

/*
 * Run @fn(@arg) in a child process of its own, which exits with its
 * verdict: its EXPECTs and ASSERTs count there, and in the caller only
 * through the wait status returned.  SIGALRM ends it after @timeout
 * seconds (0: never).
 */
static inline int wsc_test_in_child(void (*fn)(void *), void *arg,
				    unsigned int timeout)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		alarm(timeout);
		fn(arg);
		fflush(stdout);
		_exit(wsc_test_failed);
	}
	while (waitpid(pid, &status, 0) < 0)
		ASSERT_EQ(errno, EINTR);
	return status;
}

/* @fn(@arg), run in a child of its own, passed. */
#define EXPECT_CHILD_PASSES(fn, arg) do {				\
	int _status = wsc_test_in_child((fn), (arg), 0);		\
									\
	EXPECT_TRUE(WIFEXITED(_status) && WEXITSTATUS(_status) == 0);	\
} while (0)

/* Drop every capability for good: all ids 65534, no groups. */
static inline void become_nobody(void)
{
	ASSERT_EQ(setgroups(0, NULL), 0);
	ASSERT_EQ(setresgid(65534, 65534, 65534), 0);
	ASSERT_EQ(setresuid(65534, 65534, 65534), 0);
}

static inline int wsc_test_run_one(int n, const struct wsc_test *t)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("not ok %d %s # fork: %s\n", n, t->name, strerror(errno));
		return 1;
	}
	if (pid == 0) {
		alarm(WSC_TEST_TIMEOUT);
		t->fn();
		fflush(stdout);
		_exit(wsc_test_failed);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == WSC_TEST_SKIP_STATUS) {
		printf("ok %d %s # SKIP\n", n, t->name);
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok %d %s\n", n, t->name);
		return 0;
	}
	if (WIFSIGNALED(status))
		printf("not ok %d %s # killed by signal %d%s\n", n, t->name,
		       WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
	else
		printf("not ok %d %s\n", n, t->name);
	return 1;
}

/* Run every test, or those whose names are given on the command line. */
#define TEST_HARNESS_MAIN						\
	int main(int argc, char **argv)					\
	{								\
		int i, j, n = 0, failed = 0;				\
									\
		setvbuf(stdout, NULL, _IOLBF, 0);			\
		printf("TAP version 13\n");				\
		for (i = 0; i < wsc_nr_tests; i++) {			\
			bool want = argc < 2;				\
			for (j = 1; j < argc; j++)			\
				want |= !strcmp(argv[j], wsc_tests[i].name); \
			if (want)					\
				n++;					\
		}							\
		printf("1..%d\n", n);					\
		n = 0;							\
		for (i = 0; i < wsc_nr_tests; i++) {			\
			bool want = argc < 2;				\
			for (j = 1; j < argc; j++)			\
				want |= !strcmp(argv[j], wsc_tests[i].name); \
			if (want)					\
				failed += wsc_test_run_one(++n, &wsc_tests[i]); \
		}							\
		return failed ? 1 : 0;					\
	}

#endif /* WSC_TEST_HARNESS_H */
