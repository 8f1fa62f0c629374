// SPDX-License-Identifier: MIT
/*
 * The words every measuring command puts its ratios in
 * (user/cli/common/report.c) and the interruption they all stop on
 * (user/cli/common/interrupt.c).
 */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "common/interrupt.h"
#include "common/report.h"

static void test_speedup_direction(void **state)
{
	(void)state;
	/* Baseline 210 ns, the variant 100 ns: 2.1 times as fast. */
	assert_true(fabs(speedup_of(210, 100) - 2.1) < 1e-12);
	assert_true(fabs(speedup_of(100, 130) - 1 / 1.3) < 1e-12);
	assert_true(isnan(speedup_of(0, 100)));
	assert_true(isnan(speedup_of(100, 0)));
	assert_true(isnan(speedup_of(NAN, 100)));
}

static void test_speedup_words(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(speedup_words(buf, sizeof(buf), 2.1), "2.10x faster");
	assert_string_equal(speedup_words(buf, sizeof(buf), 1), "1.00x faster");
	/* Below 1: its inverse, slower; never "0.77x faster". */
	assert_string_equal(speedup_words(buf, sizeof(buf), 1 / 1.3), "1.30x slower");
	assert_string_equal(speedup_words(buf, sizeof(buf), NAN), "n/a");
	assert_string_equal(speedup_words(buf, sizeof(buf), INFINITY), "n/a");
	assert_string_equal(speedup_words(buf, sizeof(buf), 0), "n/a");
}

/* The words of a ratio and its rounds' two ends, in one of two styles. */
typedef const char *(*words_of_rounds)(char *buf, size_t len, double speedup,
				       double lo, double hi);

/*
 * @words puts @speedup, @lo and @hi as @want says; cut to a buffer of 8
 * bytes, the first 7 of that, terminated.
 */
static void assert_words(words_of_rounds words, double speedup, double lo,
			 double hi, const char *want)
{
	char buf[64];

	assert_string_equal(words(buf, sizeof(buf), speedup, lo, hi), want);
	assert_int_equal(strlen(words(buf, 8, speedup, lo, hi)),
			 strlen(want) < 7 ? strlen(want) : 7);
}

static void test_speedup_words_spread(void **state)
{
	(void)state;
	assert_words(speedup_words_spread, 2.1, 2.0, 2.2,
		     "2.10x faster [2.00-2.20]");
	/* Slower: the rounds' slowdowns, the fastest round's first. */
	assert_words(speedup_words_spread, 0.5, 0.4, 0.8,
		     "2.00x slower [1.25-2.50]");
	/* No spread (one round, or none): the words alone. */
	assert_words(speedup_words_spread, 3, NAN, NAN, "3.00x faster");
}

/* A figure of all the samples, which the rounds' need not surround. */
static void test_speedup_words_rounds(void **state)
{
	(void)state;
	assert_words(speedup_words_rounds, 2.1, 2.0, 2.2,
		     "2.10x faster, rounds 2.00-2.20");
	/* The case: slower overall than any round, said as such. */
	assert_words(speedup_words_rounds, 1 / 2.64, 1 / 2.75, 1 / 2.66,
		     "2.64x slower, rounds 2.66-2.75");
	assert_words(speedup_words_rounds, 3, NAN, NAN, "3.00x faster");
}

static void test_interrupt_notes_the_signal(void **state)
{
	char buf[128];
	FILE *f;

	(void)state;
	/* Whatever the runner left: a default SIGINT is caught. */
	signal(SIGINT, SIG_DFL);
	interrupt_arm();
	assert_int_equal(interrupted(), 0);
	/* Caught, not fatal: the test goes on. */
	raise(SIGTERM);
	assert_int_equal(interrupted(), SIGTERM);
	assert_string_equal(interrupt_name(), "SIGTERM");
	raise(SIGINT);
	assert_int_equal(interrupted(), SIGINT);
	assert_string_equal(interrupt_name(), "SIGINT");
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	interrupt_print(f, "# ", "the figures are of the rounds so far");
	fclose(f);
	assert_string_equal(buf, "# interrupted by SIGINT: the figures are of the rounds so far\n");
	/* A header with figures: the same words, printf's text after them. */
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	interrupt_print(f, "", "%u of %u repetitions ran to their end", 13u, 200u);
	fclose(f);
	assert_string_equal(buf, "interrupted by SIGINT: 13 of 200 repetitions ran to their end\n");
}

/* The action for @sig now. */
static struct sigaction action_of(int sig)
{
	struct sigaction sa;

	assert_int_equal(sigaction(sig, NULL, &sa), 0);
	return sa;
}

/* A background job of a script starts with SIGINT ignored: it stays so. */
static void test_interrupt_leaves_an_ignored_sigint(void **state)
{
	(void)state;
	signal(SIGINT, SIG_IGN);
	interrupt_arm();
	assert_true(action_of(SIGINT).sa_handler == SIG_IGN);
	assert_true(action_of(SIGTERM).sa_handler != SIG_IGN &&
		    action_of(SIGTERM).sa_handler != SIG_DFL);
	signal(SIGINT, SIG_DFL);
}

static void test_interrupt_is_not_restarted(void **state)
{
	(void)state;
	signal(SIGINT, SIG_DFL);
	interrupt_arm();
	/* A blocked call must come back with EINTR to see the flag. */
	assert_int_equal(action_of(SIGINT).sa_flags & SA_RESTART, 0);
	assert_int_equal(action_of(SIGTERM).sa_flags & SA_RESTART, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speedup_direction),
		cmocka_unit_test(test_speedup_words),
		cmocka_unit_test(test_speedup_words_spread),
		cmocka_unit_test(test_speedup_words_rounds),
		cmocka_unit_test(test_interrupt_notes_the_signal),
		cmocka_unit_test(test_interrupt_leaves_an_ignored_sigint),
		cmocka_unit_test(test_interrupt_is_not_restarted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
