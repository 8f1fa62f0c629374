// SPDX-License-Identifier: GPL-2.0
/*
 * What a trace counts, through the "syscall_lat" family's commands: its
 * filters (a call set, failed calls only, one errno) with exact counts of
 * what they kept and left out, each call's errnos, bad filters refused
 * before anything is attached, the per-task records of a TASKS dump, and
 * the machine as a target without its starter.
 *
 * Talks to the family through libnl-genl-3 directly (trace_genl.h), not
 * libwsc, so that what is tested is the module's own checks; each test
 * runs guarded (run_guarded()): no trace outlives it.
 */
#include <sys/prctl.h>

#include "harness.h"
#include "trace_genl.h"
#include "trace_target.h"

/* ---- filters and errnos ---- */

/* START of @pid with the filters given: a call set of @nr (or -1), ... */
static void trace_start_filtered(struct trace_sock *ts, uint32_t pid,
				 int nr, bool failed, uint32_t err,
				 struct trace_reply *r)
{
	struct genl_raw_attr a[4] = {
		ATTR_BYTES(WSC_LAT_A_TRACE_PID, sizeof(pid), &pid),
	};
	uint8_t set[WSC_TRACE_NR_MAX / 8] = { 0 };
	size_t n = 1;

	if (nr >= 0) {
		set[nr / 8] |= 1u << (nr % 8);
		a[n++] = (struct genl_raw_attr)
			ATTR_BYTES(WSC_LAT_A_TRACE_CALL_SET, nr / 8 + 1, set);
	}
	if (failed)
		a[n++] = (struct genl_raw_attr)ATTR_FLAG(WSC_LAT_A_TRACE_FAILED);
	if (err)
		a[n++] = (struct genl_raw_attr)
			ATTR_BYTES(WSC_LAT_A_TRACE_ERRNO, sizeof(err), &err);
	trace_send(ts, genl_raw_msg(ts->family, WSC_LAT_CMD_TRACE_START, 0,
				    a, n), r);
}

/* The count of @err among @row's errnos, 0 if absent. */
static uint64_t row_errno(const struct trace_row *row, uint32_t err)
{
	unsigned int i;

	for (i = 0; i < row->errnos && i < MAX_ERRNOS; i++)
		if (row->errno_val[i] == err)
			return row->errno_count[i];
	return 0;
}

/* Calls of the failing target below, and of each kind of its failures. */
#define FAILS		7

/*
 * Trace the failing target with the filters given until it exits; @f is
 * the fetch, @st the final status.  Rows other than getppid, openat and
 * exit_group would be the test's own mistake: logged.
 */
static void trace_failing_target(int nr, bool failed, uint32_t err,
				 struct trace_reply *st, struct trace_reply *f)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct target tg;
	int i;

	trace_open(&ts);
	target_spawn_failing(&tg, GETPPID_CALLS, FAILS);
	trace_start_filtered(&ts, tg.pid, nr, failed, err, &r);
	ASSERT_OK(&r, "START");
	/* START answers with the new trace's status. */
	EXPECT_EQ(r.messages, 1);
	EXPECT_EQ(r.cmd, WSC_LAT_CMD_TRACE_STATUS);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	EXPECT_EQ(r.has[WSC_LAT_A_TRACE_FAILED], failed);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_ERRNO], err);
	target_wake(&tg);
	target_reap(&tg);
	wait_for_end(&ts, st);
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_FETCH, f);
	ASSERT_OK(f, "FETCH");
	expect_fetch_consistent(f);
	for (i = 0; i < NR_MAX; i++)
		if (f->rows[i].seen && i != __NR_getppid && i != __NR_openat &&
		    i != __NR_exit_group)
			TH_LOG("also seen: call %d, %llu times", i,
			       (unsigned long long)f->rows[i].calls);
	trace_close(&ts);
}

/* Each failed call counted under its own errno, exactly. */
TRACE_TEST(errno_counts)
{
	struct trace_reply st, f;
	const struct trace_row *open;

	trace_failing_target(-1, false, 0, &st, &f);
	open = &f.rows[__NR_openat];
	EXPECT_EQ(open->calls, 2 * FAILS);
	EXPECT_EQ(open->errors, 2 * FAILS);
	EXPECT_EQ(open->errnos, 2);
	EXPECT_EQ(row_errno(open, ENOENT), FAILS);
	EXPECT_EQ(row_errno(open, EBADF), FAILS);
	EXPECT_EQ(f.rows[__NR_getppid].calls, GETPPID_CALLS);
	EXPECT_EQ(f.rows[__NR_getppid].errnos, 0);
	EXPECT_EQ(st.val[WSC_LAT_A_TRACE_FILTERED], 0);
	EXPECT_EQ(st.val[WSC_LAT_A_TRACE_LOST_ERRNOS], 0);
}

/* Failed calls only: the rest is counted as filtered, one by one. */
TRACE_TEST(filter_failed)
{
	struct trace_reply st, f;

	trace_failing_target(-1, true, 0, &st, &f);
	EXPECT_EQ(f.rows[__NR_openat].calls, 2 * FAILS);
	EXPECT_FALSE(f.rows[__NR_getppid].seen);
	EXPECT_FALSE(f.rows[__NR_exit_group].seen);
	/* getppid's calls and exit_group's one. */
	EXPECT_EQ(st.val[WSC_LAT_A_TRACE_FILTERED], GETPPID_CALLS + 1);
	EXPECT_TRUE(st.has[WSC_LAT_A_TRACE_FAILED]);
}

/* One errno only. */
TRACE_TEST(filter_errno)
{
	struct trace_reply st, f;
	const struct trace_row *open;

	trace_failing_target(-1, false, ENOENT, &st, &f);
	open = &f.rows[__NR_openat];
	EXPECT_EQ(open->calls, FAILS);
	EXPECT_EQ(open->errnos, 1);
	EXPECT_EQ(row_errno(open, ENOENT), FAILS);
	EXPECT_FALSE(f.rows[__NR_getppid].seen);
	EXPECT_EQ(st.val[WSC_LAT_A_TRACE_FILTERED],
		  GETPPID_CALLS + FAILS + 1);
	EXPECT_EQ(st.val[WSC_LAT_A_TRACE_ERRNO], ENOENT);
}

/* One system call only, left out at the entry. */
TRACE_TEST(filter_call_set)
{
	struct trace_reply st, f;

	trace_failing_target(__NR_getppid, false, 0, &st, &f);
	EXPECT_EQ(f.rows[__NR_getppid].calls, GETPPID_CALLS);
	EXPECT_FALSE(f.rows[__NR_openat].seen);
	EXPECT_FALSE(f.rows[__NR_exit_group].seen);
	EXPECT_EQ(st.val[WSC_LAT_A_TRACE_FILTERED], 2 * FAILS + 1);
}

/* A START of this process with the attributes given besides. */
#define start_of_self(ts, r, ...)					\
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,			\
		      ATTR_U32(WSC_LAT_A_TRACE_PID, getpid()), __VA_ARGS__)

/* Bad filters and targets are refused before anything is attached. */
TRACE_TEST(start_bad_filters)
{
	uint8_t set[WSC_TRACE_NR_MAX / 8 + 1] = { 0 };
	struct trace_sock ts;
	struct trace_reply r;

	trace_open(&ts);
	/* An empty set counts nothing: a mistake, not a trace. */
	start_of_self(&ts, &r, ATTR_BYTES(WSC_LAT_A_TRACE_CALL_SET, 0, set));
	EXPECT_REFUSED(&r, EINVAL, "empty");
	start_of_self(&ts, &r, ATTR_BYTES(WSC_LAT_A_TRACE_CALL_SET, 16, set));
	EXPECT_REFUSED(&r, EINVAL, "names no system call");
	/* Only a number past this kernel's last call: nothing to count. */
	set[1000 / 8] = 1u << (1000 % 8);
	start_of_self(&ts, &r,
		      ATTR_BYTES(WSC_LAT_A_TRACE_CALL_SET, 1000 / 8 + 1, set));
	EXPECT_REFUSED(&r, EINVAL, "names no system call");
	/* With one it has, the others are left out. */
	set[__NR_getppid / 8] |= 1u << (__NR_getppid % 8);
	start_of_self(&ts, &r,
		      ATTR_BYTES(WSC_LAT_A_TRACE_CALL_SET, 1000 / 8 + 1, set));
	EXPECT_EQ(r.err, 0);
	trace_stop_and_reset(&ts);
	/* Longer than WSC_TRACE_NR_MAX bits: the policy's length. */
	start_of_self(&ts, &r,
		      ATTR_BYTES(WSC_LAT_A_TRACE_CALL_SET, sizeof(set), set));
	EXPECT_NE(r.err, 0);
	EXPECT_TRUE(r.bad_attr);
	/* Errnos 1..4095 only. */
	trace_start_filtered(&ts, getpid(), -1, false, 0, &r);
	EXPECT_EQ(r.err, 0);
	trace_stop_and_reset(&ts);
	start_of_self(&ts, &r, ATTR_U32(WSC_LAT_A_TRACE_ERRNO, 0));
	EXPECT_ATTR_REFUSED(&r, ERANGE, "out of range");
	start_of_self(&ts, &r,
		      ATTR_U32(WSC_LAT_A_TRACE_ERRNO, WSC_TRACE_ERRNO_MAX + 1));
	EXPECT_REFUSED(&r, ERANGE, "out of range");
	/* The machine and a process: two targets. */
	start_of_self(&ts, &r, ATTR_FLAG(WSC_LAT_A_TRACE_ALL));
	EXPECT_ATTR_REFUSED(&r, EINVAL, "not both");
	/* A number that names no trace. */
	trace_by_number(&ts, WSC_LAT_CMD_TRACE_STATUS, UINT64_MAX, &r);
	EXPECT_REFUSED(&r, ENOENT, "no trace of that number");
	trace_by_number(&ts, WSC_LAT_CMD_TRACE_FETCH, UINT64_MAX, &r);
	EXPECT_REFUSED(&r, ENOENT, "no trace of that number");
	expect_idle(&ts);
}

/* ---- tasks ---- */

/* Per task: who it was, its parent, its name and its calls. */
TRACE_TEST(tasks_dump)
{
	struct trace_reply r, f, t;
	struct trace_sock ts;
	char comm[16] = "";
	struct target tg;
	pid_t child;

	ASSERT_EQ(prctl(PR_GET_NAME, comm), 0);
	trace_open(&ts);
	target_spawn_failing(&tg, GETPPID_CALLS, FAILS);
	child = tg.pid;
	trace_start_pid(&ts, child, &r);
	ASSERT_OK(&r, "START");
	target_wake(&tg);
	target_reap(&tg);
	wait_for_end(&ts, &r);
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_FETCH, &f);
	ASSERT_OK(&f, "FETCH");
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_TASKS, &t);
	ASSERT_OK(&t, "TASKS");
	ASSERT_EQ(t.nr_tasks, 1);
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TASK_TID], child);
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TASK_TGID], child);
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TASK_PPID], getpid());
	if (strcmp(t.comm[0], comm)) {
		TH_LOG("TRACE_COMM \"%s\", not \"%s\"", t.comm[0], comm);
		wsc_test_failed = 1;
	}
	/* Every call of the fetch is the one task's. */
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TASK_CALLS],
		  GETPPID_CALLS + 2 * FAILS + 1);
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TASK_ERRORS], 2 * FAILS);
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TASK_TOTAL_NS],
		  f.rows[__NR_getppid].total_ns + f.rows[__NR_openat].total_ns +
		  f.rows[__NR_exit_group].total_ns);
	EXPECT_LE(t.tasks[0][WSC_LAT_A_TASK_OFF_NS],
		  t.tasks[0][WSC_LAT_A_TASK_TOTAL_NS]);
}

/* Every task of the machine, but the starter's process. */
TRACE_TEST(all_tasks)
{
	struct trace_reply r, f, t;
	struct trace_sock ts;
	struct target tg;
	bool found = false;
	pid_t child;
	int i;

	trace_open(&ts);
	target_spawn(&tg, GETPPID_CALLS);
	child = tg.pid;
	trace_request(&ts, WSC_LAT_CMD_TRACE_START, &r,
		      ATTR_FLAG(WSC_LAT_A_TRACE_ALL));
	ASSERT_OK(&r, "START");
	EXPECT_TRUE(r.has[WSC_LAT_A_TRACE_ALL]);
	EXPECT_FALSE(r.has[WSC_LAT_A_TRACE_PID]);
	target_wake(&tg);
	target_reap(&tg);
	/* The machine's trace does not end by itself. */
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_STOP, &r);
	ASSERT_OK(&r, "STOP");
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_FETCH, &f);
	ASSERT_OK(&f, "FETCH");
	EXPECT_GE(f.rows[__NR_getppid].calls, GETPPID_CALLS);
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_TASKS, &t);
	ASSERT_OK(&t, "TASKS");
	EXPECT_GE(t.nr_tasks, 1);
	for (i = 0; i < t.nr_tasks && i < MAX_TASKS; i++) {
		/* The tracer does not count itself. */
		EXPECT_NE(t.tasks[i][WSC_LAT_A_TASK_TGID], getpid());
		if (t.tasks[i][WSC_LAT_A_TASK_TID] != (uint64_t)child)
			continue;
		found = true;
		/* It joined at its first call: getppid, then exit_group. */
		EXPECT_EQ(t.tasks[i][WSC_LAT_A_TASK_CALLS], GETPPID_CALLS + 1);
		EXPECT_EQ(t.tasks[i][WSC_LAT_A_TASK_PPID], getpid());
	}
	EXPECT_TRUE(found);
}

TEST_HARNESS_MAIN
