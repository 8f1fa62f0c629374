// SPDX-License-Identifier: MIT
/*
 * The batch builder without a kernel: references, chains, collect mode
 * and resuming after an interrupted submission, run through a scripted
 * runner that applies the module's rules to no-op entries.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "internal.h"

/*
 * A runner that records what it was given and stops early where told,
 * as the module does when a signal arrives between two calls.
 */
struct script {
	unsigned int calls;
	unsigned int counts[64];	/* count of each submission */
	struct wsc_entry seen[64][16];	/* the entries as submitted */
	int stop_after[64];		/* > 0: complete only this many */
	int fail_with;			/* != 0: refuse the first submission */
	uint32_t fail_index;
};

static int scripted_run(void *ctx, const struct wsc_entry *ent,
			struct wsc_result *res, uint32_t count, uint32_t flags,
			uint32_t *error_index)
{
	struct script *s = ctx;
	unsigned int call = s->calls++;
	int ret;

	s->counts[call] = count;
	memcpy(s->seen[call], ent, count * sizeof(*ent));
	if (s->fail_with) {
		*error_index = s->fail_index;
		return s->fail_with;
	}
	ret = wsc_run_conventional(NULL, ent, res, count, flags, error_index);
	if (ret > 0 && s->stop_after[call] > 0 && s->stop_after[call] < ret)
		ret = s->stop_after[call];
	return ret;
}

static struct wsc_batch *new_batch(struct script *s, unsigned int max)
{
	struct wsc_batch *b;

	memset(s, 0, sizeof(*s));
	assert_int_equal(wsc_batch_create(&b, WSC_BATCH_CONVENTIONAL), 0);
	wsc_batch_set_runner(b, scripted_run, s, max);
	return b;
}

static void test_entries_are_numbered_from_zero(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);

	(void)state;
	assert_int_equal(wsc_prep_nop(b, 10), 0);
	assert_int_equal(wsc_prep_nop(b, 11), 1);
	assert_int_equal(wsc_prep_getpid(b), 2);
	assert_int_equal(wsc_batch_count(b), 3);
	assert_int_equal(wsc_batch_completed(b), 0);
	assert_int_equal(wsc_batch_result(b, 0), -EAGAIN);
	assert_int_equal(wsc_batch_result(b, 3), -EINVAL);
	assert_int_equal(wsc_batch_submit(b), 3);
	assert_int_equal(wsc_batch_result(b, 0), 10);
	assert_int_equal(wsc_batch_result(b, 1), 11);
	assert_int_equal(wsc_batch_result(b, 2), getpid());
	assert_int_equal(s.calls, 1);
	wsc_batch_reset(b);
	assert_int_equal(wsc_prep_nop(b, 1), 0);
	wsc_batch_destroy(b);
}

static void test_prep_refuses_calls_off_the_allowlist(void **state)
{
	const uint64_t args[WSC_MAX_ARGS] = { 0 };
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);

	(void)state;
	assert_int_equal(wsc_prep_syscall(b, SYS_fork, args), -ENOSYS);
	assert_int_equal(wsc_prep_syscall(b, SYS_execve, args), -ENOSYS);
	assert_int_equal(wsc_prep_syscall(b, 5000, args), -ENOSYS);
	assert_int_equal(wsc_prep_syscall(b, SYS_getppid, args), 0);
	assert_int_equal(wsc_batch_count(b), 1);
	wsc_batch_destroy(b);
}

static void test_reference_rules(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);

	(void)state;
	wsc_prep_nop(b, 1);
	wsc_prep_nop(b, 0);
	/* Only to an earlier entry, only one of six arguments. */
	assert_int_equal(wsc_entry_ref(b, 1, 0, 1), -EINVAL);
	assert_int_equal(wsc_entry_ref(b, 1, 0, 2), -EINVAL);
	assert_int_equal(wsc_entry_ref(b, 1, 6, 0), -EINVAL);
	assert_int_equal(wsc_entry_ref(b, 1, 0, -1), -EINVAL);
	assert_int_equal(wsc_entry_ref(b, 7, 0, 0), -EINVAL);
	assert_int_equal(wsc_entry_ref(b, 1, 0, 0), 0);
	assert_int_equal(wsc_entry_set_flags(b, 1, 0x80), -EINVAL);
	assert_int_equal(wsc_batch_submit(b), 2);
	assert_int_equal(wsc_batch_result(b, 1), 1);
	/* A submitted entry can no longer change. */
	assert_int_equal(wsc_entry_ref(b, 1, 0, 0), -EINVAL);
	assert_int_equal(wsc_entry_set_flags(b, 0, 0), -EINVAL);
	wsc_batch_destroy(b);
}

static void test_reference_within_a_submission_is_rebased(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);

	(void)state;
	wsc_prep_nop(b, 3);
	assert_int_equal(wsc_batch_submit(b), 1);
	wsc_prep_nop(b, 4);			/* entry 1 */
	wsc_prep_nop(b, 0);			/* entry 2 = entry 1 */
	wsc_entry_ref(b, 2, 0, 1);
	wsc_prep_nop(b, 0);			/* entry 3 = entry 0 */
	wsc_entry_ref(b, 3, 0, 0);
	assert_int_equal(wsc_batch_submit(b), 3);
	/* Entry 1 is the second submission's entry 0. */
	assert_int_equal(s.seen[1][1].ref_mask, 1);
	assert_int_equal(s.seen[1][1].args[0], 0);
	/* Entry 0 was in an earlier submission: its value is passed. */
	assert_int_equal(s.seen[1][2].ref_mask, 0);
	assert_int_equal(s.seen[1][2].args[0], 3);
	assert_int_equal(wsc_batch_result(b, 2), 4);
	assert_int_equal(wsc_batch_result(b, 3), 3);
	wsc_batch_destroy(b);
}

static void test_reference_to_earlier_failure_cancels(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);

	(void)state;
	wsc_prep_nop(b, -ENOENT);
	wsc_entry_set_flags(b, 0, WSC_ENTRY_IGNORE_FAILURE);
	assert_int_equal(wsc_batch_submit(b), 1);
	wsc_prep_close(b, -1);
	wsc_entry_ref(b, 1, 0, 0);
	wsc_prep_nop(b, 5);
	assert_int_equal(wsc_batch_submit(b), 2);
	/* The close never reached a runner as a close. */
	assert_int_equal(s.seen[1][0].nr, WSC_NR_NOP);
	assert_int_equal(wsc_batch_result(b, 1), -ECANCELED);
	assert_int_equal(wsc_batch_result(b, 2), -ECANCELED);
	wsc_batch_destroy(b);
}

static void test_chain_rules(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);

	(void)state;
	wsc_prep_nop(b, 1);
	wsc_prep_nop(b, -EIO);		/* stops the chain */
	wsc_prep_nop(b, 2);
	wsc_prep_nop(b, -EAGAIN);
	wsc_entry_set_flags(b, 3, WSC_ENTRY_IGNORE_FAILURE);
	wsc_prep_nop(b, 3);		/* a new chain */
	wsc_entry_set_flags(b, 4, WSC_ENTRY_NEW_CHAIN);
	wsc_prep_nop(b, -EPERM);
	wsc_entry_set_flags(b, 5, WSC_ENTRY_IGNORE_FAILURE);
	wsc_prep_nop(b, 4);
	assert_int_equal(wsc_batch_submit(b), 7);
	assert_int_equal(wsc_batch_result(b, 0), 1);
	assert_int_equal(wsc_batch_result(b, 1), -EIO);
	assert_int_equal(wsc_batch_result(b, 2), -ECANCELED);
	assert_int_equal(wsc_batch_result(b, 3), -ECANCELED);
	assert_int_equal(wsc_batch_result(b, 4), 3);
	assert_int_equal(wsc_batch_result(b, 5), -EPERM);
	assert_int_equal(wsc_batch_result(b, 6), 4);
	wsc_batch_destroy(b);
}

/* The same chain cut into every possible submission size. */
static void test_chain_outcome_independent_of_cuts(void **state)
{
	const int64_t values[] = { 1, -EIO, 2, -EAGAIN, 3, -EPERM, 4, 5 };
	const unsigned int flags[] = { 0, 0, WSC_ENTRY_IGNORE_FAILURE, 0,
				       WSC_ENTRY_NEW_CHAIN,
				       WSC_ENTRY_IGNORE_FAILURE, 0, 0 };
	int64_t want[8];
	unsigned int max, i;

	(void)state;
	for (max = 1; max <= 9; max++) {
		struct script s;
		struct wsc_batch *b = new_batch(&s, max > 8 ? 16 : max);

		/* max 9 means collect mode with threshold 3 instead. */
		if (max == 9)
			wsc_batch_set_threshold(b, 3);
		for (i = 0; i < 8; i++) {
			assert_int_equal(wsc_prep_nop(b, values[i]), i);
			wsc_entry_set_flags(b, i, flags[i]);
		}
		assert_int_equal(wsc_batch_submit(b) >= 0, 1);
		assert_int_equal(wsc_batch_completed(b), 8);
		for (i = 0; i < 8; i++) {
			if (max == 1)
				want[i] = wsc_batch_result(b, i);
			else
				assert_int_equal(wsc_batch_result(b, i), want[i]);
		}
		wsc_batch_destroy(b);
	}
	assert_int_equal(want[2], -ECANCELED);
	assert_int_equal(want[3], -ECANCELED);
	assert_int_equal(want[4], 3);
	assert_int_equal(want[7], 5);
}

static void test_resume_after_interruption(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);
	unsigned int i;

	(void)state;
	for (i = 0; i < 10; i++)
		wsc_prep_nop(b, 100 + i);
	wsc_entry_ref(b, 9, 0, 2);	/* entry 9 = entry 2 */
	s.stop_after[0] = 3;		/* a "signal" after 3 entries */
	s.stop_after[1] = 1;		/* and after 1 more */
	assert_int_equal(wsc_batch_submit(b), 10);
	assert_int_equal(s.calls, 3);
	assert_int_equal(s.counts[0], 10);
	assert_int_equal(s.counts[1], 7);
	assert_int_equal(s.counts[2], 6);
	/* Each entry ran once: the resumed ones start where it stopped. */
	assert_int_equal(s.seen[1][0].args[0], 103);
	assert_int_equal(s.seen[2][0].args[0], 104);
	for (i = 0; i < 9; i++)
		assert_int_equal(wsc_batch_result(b, i), 100 + i);
	assert_int_equal(wsc_batch_result(b, 9), 102);
	assert_int_equal(wsc_batch_kernel_entries(b), 3);
	wsc_batch_destroy(b);
}

static void test_resume_keeps_a_stopped_chain_stopped(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);

	(void)state;
	wsc_prep_nop(b, -EIO);
	wsc_entry_set_flags(b, 0, WSC_ENTRY_IGNORE_FAILURE);
	wsc_prep_nop(b, -EBADF);	/* stops the chain */
	wsc_prep_nop(b, 1);
	wsc_entry_set_flags(b, 2, WSC_ENTRY_IGNORE_FAILURE);
	wsc_prep_nop(b, 2);
	s.stop_after[0] = 2;
	assert_int_equal(wsc_batch_submit(b), 4);
	assert_int_equal(wsc_batch_result(b, 2), -ECANCELED);
	assert_int_equal(wsc_batch_result(b, 3), -ECANCELED);
	wsc_batch_destroy(b);
}

static void test_collect_mode_submits_at_threshold(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);
	unsigned int i;

	(void)state;
	assert_int_equal(wsc_batch_set_threshold(b, WSC_DEFAULT_THRESHOLD), 0);
	for (i = 0; i < 8; i++)
		wsc_prep_nop(b, i);
	/* Eight pending: nothing submitted until a ninth arrives. */
	assert_int_equal(s.calls, 0);
	wsc_prep_nop(b, 8);
	assert_int_equal(s.calls, 1);
	assert_int_equal(s.counts[0], 8);
	assert_int_equal(wsc_batch_completed(b), 8);
	for (i = 9; i < 20; i++)
		wsc_prep_nop(b, i);
	assert_int_equal(s.calls, 2);
	assert_int_equal(wsc_batch_submit(b), 4);
	assert_int_equal(s.counts[2], 4);
	for (i = 0; i < 20; i++)
		assert_int_equal(wsc_batch_result(b, i), i);
	/* Nothing pending: a flush submits nothing. */
	assert_int_equal(wsc_batch_submit(b), 0);
	assert_int_equal(s.calls, 3);
	wsc_batch_destroy(b);
}

static void test_collect_flag_defaults_to_eight(void **state)
{
	struct wsc_batch *b;
	unsigned int i;

	(void)state;
	assert_int_equal(wsc_batch_create(&b, WSC_BATCH_CONVENTIONAL |
					      WSC_BATCH_COLLECT), 0);
	for (i = 0; i < 9; i++)
		wsc_prep_nop(b, i);
	assert_int_equal(wsc_batch_completed(b), WSC_DEFAULT_THRESHOLD);
	/* Run plain: no entry through /dev/wsc, eight plain calls. */
	assert_int_equal(wsc_batch_kernel_entries(b), 0);
	assert_int_equal(wsc_batch_conventional_calls(b), 8);
	wsc_batch_destroy(b);
}

/*
 * Issue 26: six calls run conventionally said 1 kernel entry.  What it
 * counts is entries through /dev/wsc: none here, where each of the six
 * calls entered the kernel on its own.
 */
static void test_conventional_calls_take_no_device_entry(void **state)
{
	struct wsc_batch *b;
	unsigned int i;

	(void)state;
	assert_int_equal(wsc_batch_create(&b, WSC_BATCH_CONVENTIONAL), 0);
	for (i = 0; i < 6; i++)
		wsc_prep_getppid(b);
	assert_int_equal(wsc_batch_submit(b), 6);
	assert_int_equal(wsc_batch_kernel_entries(b), 0);
	assert_int_equal(wsc_batch_conventional_calls(b), 6);
	wsc_batch_destroy(b);
}

static void test_submissions_split_at_the_limit(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 4);
	unsigned int i;

	(void)state;
	for (i = 0; i < 10; i++)
		wsc_prep_nop(b, i);
	wsc_entry_ref(b, 9, 0, 1);
	assert_int_equal(wsc_batch_submit(b), 10);
	assert_int_equal(s.calls, 3);
	assert_int_equal(s.counts[2], 2);
	assert_int_equal(wsc_batch_result(b, 9), 1);
	wsc_batch_destroy(b);
}

static void test_refused_submission_reports_the_entry(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);

	(void)state;
	wsc_prep_nop(b, 0);
	assert_int_equal(wsc_batch_submit(b), 1);
	wsc_prep_nop(b, 0);
	wsc_prep_nop(b, 0);
	s.fail_with = -ENOSYS;
	s.fail_index = 1;
	assert_int_equal(wsc_batch_submit(b), -ENOSYS);
	/* Index 1 of the second submission is entry 2 of the batch. */
	assert_int_equal(wsc_batch_error_index(b), 2);
	assert_int_equal(wsc_batch_completed(b), 1);
	assert_int_equal(wsc_batch_result(b, 1), -EAGAIN);
	wsc_batch_destroy(b);
}

static void test_conventional_runner_validates_like_the_module(void **state)
{
	struct wsc_entry ent[3] = { { .nr = WSC_NR_NOP }, { .nr = WSC_NR_NOP },
				    { .nr = WSC_NR_NOP } };
	struct wsc_result res[3];
	uint32_t idx;

	(void)state;
	assert_int_equal(wsc_run_conventional(NULL, ent, res, 0, 0, &idx), -EINVAL);
	assert_int_equal(wsc_run_conventional(NULL, ent, res, WSC_MAX_ENTRIES + 1,
					      0, &idx), -E2BIG);
	assert_int_equal(wsc_run_conventional(NULL, ent, res, 3, 8, &idx), -EINVAL);
	ent[1].reserved = 1;
	assert_int_equal(wsc_run_conventional(NULL, ent, res, 3, 0, &idx), -EINVAL);
	assert_int_equal(idx, 1);
	ent[1].reserved = 0;
	ent[2].nr = SYS_fork;
	assert_int_equal(wsc_run_conventional(NULL, ent, res, 3, 0, &idx), -ENOSYS);
	assert_int_equal(idx, 2);
	ent[2].nr = WSC_NR_NOP;
	ent[2].ref_mask = 1 << 3;
	ent[2].args[3] = 2;
	assert_int_equal(wsc_run_conventional(NULL, ent, res, 3, 0, &idx), -EINVAL);
	assert_int_equal(idx, 2);
	ent[2].args[3] = 1;
	assert_int_equal(wsc_run_conventional(NULL, ent, res, 3, 0, &idx), 3);
}

static void test_conventional_runner_runs_real_calls(void **state)
{
	struct script s;
	struct wsc_batch *b = new_batch(&s, 16);
	int fds[2] = { -1, -1 };
	char out = 0;

	(void)state;
	assert_int_equal(wsc_prep_pipe2(b, fds, 0), 0);
	assert_int_equal(wsc_prep_getpid(b), 1);
	assert_int_equal(wsc_prep_close(b, 12345), 2);
	assert_int_equal(wsc_batch_submit(b), 3);
	assert_int_equal(wsc_batch_result(b, 0), 0);
	assert_int_equal(wsc_batch_result(b, 1), getpid());
	assert_int_equal(wsc_batch_result(b, 2), -EBADF);
	assert_int_equal(write(fds[1], "k", 1), 1);
	assert_int_equal(read(fds[0], &out, 1), 1);
	assert_int_equal(out, 'k');
	close(fds[0]);
	close(fds[1]);
	wsc_batch_destroy(b);
}

static void test_fallback_without_device(void **state)
{
	struct wsc_batch *b;

	(void)state;
	setenv("WSC_DEVICE", "/nonexistent/wsc", 1);
	assert_int_equal(wsc_batch_create(&b, 0), -ENOENT);
	assert_int_equal(wsc_batch_create(&b, WSC_BATCH_FALLBACK), 0);
	assert_false(wsc_batch_is_native(b));
	assert_int_equal(wsc_prep_gettid(b), 0);
	assert_int_equal(wsc_batch_submit(b), 1);
	assert_int_equal(wsc_batch_result(b, 0), gettid());
	assert_int_equal(wsc_batch_kernel_entries(b), 0);
	assert_int_equal(wsc_batch_conventional_calls(b), 1);
	wsc_batch_destroy(b);
	unsetenv("WSC_DEVICE");
	assert_int_equal(wsc_batch_create(&b, 0x100), -EINVAL);
}

static void test_timing_in_the_conventional_runner(void **state)
{
	struct wsc_batch *b;

	(void)state;
	assert_int_equal(wsc_batch_create(&b, WSC_BATCH_CONVENTIONAL |
					      WSC_BATCH_TIMING), 0);
	wsc_prep_getppid(b);
	wsc_prep_nop(b, 0);
	assert_int_equal(wsc_batch_submit(b), 2);
	assert_true(wsc_batch_duration(b, 0) > 0);
	assert_int_equal(wsc_batch_duration(b, 1), 0);
	assert_int_equal(wsc_batch_duration(b, 5), 0);
	wsc_batch_destroy(b);
}

static void test_call_names(void **state)
{
	(void)state;
	assert_string_equal(wsc_call_name(SYS_read), "read");
	assert_string_equal(wsc_call_name(WSC_NR_NOP), "nop");
	assert_null(wsc_call_name(SYS_fork));
	assert_int_equal(wsc_call_number("nanosleep"), SYS_nanosleep);
	assert_int_equal(wsc_call_number("fork"), -ENOENT);
	assert_string_equal(wsc_group_name(WSC_GROUP_USERDATA), "userdata");
	assert_string_equal(wsc_group_name(99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries_are_numbered_from_zero),
		cmocka_unit_test(test_prep_refuses_calls_off_the_allowlist),
		cmocka_unit_test(test_reference_rules),
		cmocka_unit_test(test_reference_within_a_submission_is_rebased),
		cmocka_unit_test(test_reference_to_earlier_failure_cancels),
		cmocka_unit_test(test_chain_rules),
		cmocka_unit_test(test_chain_outcome_independent_of_cuts),
		cmocka_unit_test(test_resume_after_interruption),
		cmocka_unit_test(test_resume_keeps_a_stopped_chain_stopped),
		cmocka_unit_test(test_collect_mode_submits_at_threshold),
		cmocka_unit_test(test_collect_flag_defaults_to_eight),
		cmocka_unit_test(test_submissions_split_at_the_limit),
		cmocka_unit_test(test_refused_submission_reports_the_entry),
		cmocka_unit_test(test_conventional_runner_validates_like_the_module),
		cmocka_unit_test(test_conventional_runner_runs_real_calls),
		cmocka_unit_test(test_fallback_without_device),
		cmocka_unit_test(test_conventional_calls_take_no_device_entry),
		cmocka_unit_test(test_timing_in_the_conventional_runner),
		cmocka_unit_test(test_call_names),
	};

	return cmocka_run_group_tests_name("libwsc batch", tests, NULL, NULL);
}
