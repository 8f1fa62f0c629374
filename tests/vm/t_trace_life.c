// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's life through the "syscall_lat" family's commands: a trace of
 * a known process goes active, ends by itself when the process exits (or
 * when stopped), is fetched with exact counts and consistent histograms,
 * and is reset; one active trace per socket, at most WSC_TRACE_MAX at
 * once, each dying with its socket; and who may do what: an unprivileged
 * caller only reads the status, CAP_PERFMON traces and reads another
 * socket's trace but does not end it, root does.
 *
 * Talks to the family through libnl-genl-3 directly (trace_genl.h), not
 * libwsc, so that what is tested is the module's own checks; each test
 * runs guarded (run_guarded()): no trace outlives it.
 */
#include <grp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "harness.h"
#include "trace_genl.h"
#include "trace_target.h"

/* @ts's trace has ended, for the reason @end: its status in @r. */
#define EXPECT_ENDED(ts, r, end) do {					\
	trace_status((ts), (r));					\
	EXPECT_EQ((r)->val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ENDED);	\
	EXPECT_EQ((r)->val[WSC_LAT_A_TRACE_END], (end));		\
} while (0)

/* ---- privileges ---- */

/**
 * struct as_user - another user's checks of a socket's trace
 * @drop:   makes the user: its ids and capabilities
 * @checks: what the user tries, on a socket opened after the drop
 *          (netlink checks its opener too)
 * @id:     the trace's number
 * @traced: the pid it follows
 */
struct as_user {
	void (*drop)(void);
	void (*checks)(struct trace_sock *ts, const struct as_user *u);
	uint64_t id;
	pid_t traced;
};

/* @arg, a struct as_user: run in a child of its own (EXPECT_CHILD_PASSES). */
static void run_as_user(void *arg)
{
	const struct as_user *u = arg;
	struct trace_sock ts;

	u->drop();
	trace_open(&ts);
	u->checks(&ts, u);
	trace_close(&ts);
}

/* Drop to nobody with CAP_PERFMON alone: may trace, and no more. */
static void become_perfmon_only(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	ASSERT_EQ(prctl(PR_SET_KEEPCAPS, 1), 0);
	become_nobody();
	data[CAP_PERFMON / 32].permitted = 1u << (CAP_PERFMON % 32);
	data[CAP_PERFMON / 32].effective = 1u << (CAP_PERFMON % 32);
	ASSERT_EQ(syscall(SYS_capset, &hdr, data), 0);
}

/*
 * What an unprivileged caller sees of the active trace of @u->traced:
 * START, STOP and RESET refused for lack of privilege - before any other
 * check, so not -EINVAL, -EBUSY or -ESRCH - and FETCH refused in
 * NLMSG_DONE, while STATUS answers.
 */
static void unprivileged_checks(struct trace_sock *ts, const struct as_user *u)
{
	struct trace_reply r;

	trace_start_pid(ts, u->traced, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN or CAP_PERFMON");
	trace_cmd(ts, WSC_LAT_CMD_TRACE_START, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN or CAP_PERFMON");
	trace_cmd(ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN or CAP_PERFMON");
	trace_cmd(ts, WSC_LAT_CMD_TRACE_RESET, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN or CAP_PERFMON");

	trace_status(ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_PID], u->traced);

	/* The latencies of others' calls: refused once the dump has started. */
	trace_cmd(ts, WSC_LAT_CMD_TRACE_FETCH, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN or CAP_PERFMON");
	EXPECT_TRUE(r.in_done);
}

/*
 * What a user with CAP_PERFMON alone may do with another socket's trace,
 * @u->id: read it, and start a trace of its own, but not end it.
 */
static void perfmon_checks(struct trace_sock *ts, const struct as_user *u)
{
	struct trace_reply r;

	trace_cmd(ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_REFUSED(&r, ENOENT, "no trace to stop");
	trace_cmd(ts, WSC_LAT_CMD_TRACE_RESET, &r);
	EXPECT_EQ(r.err, 0);
	trace_by_number(ts, WSC_LAT_CMD_TRACE_STOP, u->id, &r);
	EXPECT_REFUSED(&r, EPERM, "another socket's");
	trace_by_number(ts, WSC_LAT_CMD_TRACE_RESET, u->id, &r);
	EXPECT_REFUSED(&r, EPERM, "another socket's");
	/* Reading it is what CAP_PERFMON is for. */
	trace_by_number(ts, WSC_LAT_CMD_TRACE_FETCH, u->id, &r);
	EXPECT_EQ(r.err, 0);
	/* It may trace too, beside the first. */
	trace_start_pid(ts, u->traced, &r);
	EXPECT_EQ(r.err, 0);
}

/*
 * Spawn @tg, a target that makes no call until woken, and start @ts's
 * trace of it: the trace's number, as its status says.
 */
static uint64_t trace_quiet_target(struct trace_sock *ts, struct target *tg)
{
	struct trace_reply r;

	target_spawn(tg, 0);
	trace_start_pid(ts, tg->pid, &r);
	ASSERT_OK(&r, "START");
	trace_status(ts, &r);
	return r.val[WSC_LAT_A_TRACE_ID];
}

TRACE_TEST(unprivileged)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct as_user u;
	struct target tg;
	uint64_t run_id;

	trace_open(&ts);
	run_id = trace_quiet_target(&ts, &tg);
	u = (struct as_user){ become_nobody, unprivileged_checks, run_id,
			      tg.pid };
	EXPECT_CHILD_PASSES(run_as_user, &u);

	/* The refused STOP and RESET changed nothing. */
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_ID], run_id);

	trace_stop_and_reset(&ts);
	target_kill(&tg);
	expect_idle(&ts);
}

/* ---- a trace's life ---- */

TRACE_TEST(live_trace)
{
	struct trace_reply r, f;
	struct trace_sock ts;
	struct target tg;
	uint64_t run_id;
	int nr, status;
	pid_t child;

	trace_open(&ts);
	target_spawn(&tg, GETPPID_CALLS);
	/* Kept: reaping the child forgets it. */
	child = tg.pid;
	trace_start_pid(&ts, child, &r);
	ASSERT_OK(&r, "START");

	/* Active, following the one blocked child, nothing counted yet. */
	trace_status(&ts, &r);
	expect_pid_status(&r, WSC_TRACE_ACTIVE, WSC_TRACE_END_NONE, child);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_LIVE], 1);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_TASKS], 1);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_UNMATCHED], 0);
	run_id = r.val[WSC_LAT_A_TRACE_ID];

	/* One active trace per socket, whatever the second one's target. */
	trace_start_pid(&ts, getpid(), &r);
	EXPECT_REFUSED(&r, EBUSY, "already active");
	trace_start_cgroup(&ts, "/", &r);
	EXPECT_REFUSED(&r, EBUSY, "already active");
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_RESET, &r);
	EXPECT_REFUSED(&r, EBUSY, "stop");

	/* A live snapshot: zero or more messages, well formed. */
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_FETCH, &f);
	EXPECT_EQ(f.err, 0);
	EXPECT_FALSE(f.in_done);
	EXPECT_EQ(f.fault[0], '\0');

	/* The refusals left the trace alone. */
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_ID], run_id);

	/* The child's calls, then its exit, which ends the trace. */
	target_wake(&tg);
	status = target_reap(&tg);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	wait_for_end(&ts, &r);
	expect_pid_status(&r, WSC_TRACE_ENDED, WSC_TRACE_END_EXITED, child);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_ID], run_id);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_LIVE], 0);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_TASKS], 1);
	/* The read() it was blocked in when the trace began. */
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_UNMATCHED], 1);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_UNFINISHED], 0);

	trace_cmd(&ts, WSC_LAT_CMD_TRACE_FETCH, &f);
	ASSERT_OK(&f, "FETCH");
	EXPECT_GE(f.messages, 2);
	expect_fetch_consistent(&f);
	EXPECT_TRUE(f.rows[__NR_getppid].seen);
	EXPECT_EQ(f.rows[__NR_getppid].calls, GETPPID_CALLS);
	EXPECT_EQ(f.rows[__NR_getppid].errors, 0);
	/* exit_group never returns: counted at the task's end. */
	EXPECT_TRUE(f.rows[__NR_exit_group].seen);
	EXPECT_EQ(f.rows[__NR_exit_group].calls, 1);
	for (nr = 0; nr < NR_MAX; nr++)
		if (f.rows[nr].seen && nr != __NR_getppid &&
		    nr != __NR_exit_group)
			TH_LOG("also seen: call %d, %llu times", nr,
			       (unsigned long long)f.rows[nr].calls);

	/* Stopping an ended trace changes nothing. */
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_EQ(r.err, 0);
	EXPECT_ENDED(&ts, &r, WSC_TRACE_END_EXITED);

	/* Reset: nothing is left. */
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_RESET, &r);
	EXPECT_EQ(r.err, 0);
	expect_idle(&ts);
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_FETCH, &f);
	EXPECT_REFUSED(&f, ENODATA, "no trace");
	EXPECT_TRUE(f.in_done);
	EXPECT_EQ(f.messages, 0);
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_REFUSED(&r, ENOENT, "no trace to stop");
	/* A reset of nothing is no error. */
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_RESET, &r);
	EXPECT_EQ(r.err, 0);
}

TRACE_TEST(stop_active_trace)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct target tg;
	uint64_t run_id;

	trace_open(&ts);
	run_id = trace_quiet_target(&ts, &tg);

	trace_cmd(&ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_EQ(r.err, 0);
	trace_status(&ts, &r);
	expect_pid_status(&r, WSC_TRACE_ENDED, WSC_TRACE_END_STOPPED, tg.pid);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_ID], run_id);
	/* Its read() began before the trace: not a call in progress. */
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_UNFINISHED], 0);

	/* A refused START keeps the ended trace; a second STOP is a no-op. */
	if (kill(NO_SUCH_PID, 0) < 0 && errno == ESRCH) {
		trace_start_pid(&ts, NO_SUCH_PID, &r);
		EXPECT_REFUSED(&r, ESRCH, "no such process");
	}
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_EQ(r.err, 0);
	EXPECT_ENDED(&ts, &r, WSC_TRACE_END_STOPPED);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_ID], run_id);

	/* An ended trace does not stand in the way of a new one. */
	trace_start_pid(&ts, tg.pid, &r);
	ASSERT_OK(&r, "second START");
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_ID], run_id + 1);
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_EQ(r.err, 0);

	/* Once stopped, the target's death is none of the trace's business. */
	target_kill(&tg);
	EXPECT_ENDED(&ts, &r, WSC_TRACE_END_STOPPED);

	trace_cmd(&ts, WSC_LAT_CMD_TRACE_RESET, &r);
	EXPECT_EQ(r.err, 0);
	expect_idle(&ts);
}

/* ---- several traces, their sockets ---- */

/*
 * WSC_TRACE_MAX traces at once, two of each target, each counting its
 * own target exactly; one more is refused; each socket's commands mean
 * its own trace; a closed socket's trace is gone, and makes room.
 */
TRACE_TEST(several_traces_at_once)
{
	struct trace_sock ts[WSC_TRACE_MAX], extra;
	struct target tg[WSC_TRACE_MAX / 2];
	uint64_t id[WSC_TRACE_MAX];
	struct trace_reply r, f;
	int i;

	for (i = 0; i < WSC_TRACE_MAX / 2; i++)
		target_spawn(&tg[i], GETPPID_CALLS + i);
	for (i = 0; i < WSC_TRACE_MAX; i++) {
		trace_open(&ts[i]);
		trace_start_pid(&ts[i], tg[i / 2].pid, &r);
		ASSERT_OK(&r, "START");
		id[i] = r.val[WSC_LAT_A_TRACE_ID];
		EXPECT_GT(id[i], 0);
	}
	trace_open(&extra);
	trace_start_pid(&extra, tg[0].pid, &r);
	EXPECT_REFUSED(&r, EBUSY, "the most traces at once (8) are running");
	/* Without a number each socket means its own trace... */
	for (i = 0; i < WSC_TRACE_MAX; i++) {
		trace_status(&ts[i], &r);
		EXPECT_EQ(r.val[WSC_LAT_A_TRACE_ID], id[i]);
		EXPECT_EQ(r.val[WSC_LAT_A_TRACE_PID], tg[i / 2].pid);
	}
	/* ...and with one, any socket reads any trace. */
	trace_by_number(&extra, WSC_LAT_CMD_TRACE_STATUS, id[3], &r);
	ASSERT_OK(&r, "STATUS by number");
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_ID], id[3]);

	for (i = 0; i < WSC_TRACE_MAX / 2; i++) {
		target_wake(&tg[i]);
		target_reap(&tg[i]);
	}
	for (i = 0; i < WSC_TRACE_MAX; i++) {
		wait_for_end(&ts[i], &r);
		EXPECT_EQ(r.val[WSC_LAT_A_TRACE_END], WSC_TRACE_END_EXITED);
		trace_cmd(&ts[i], WSC_LAT_CMD_TRACE_FETCH, &f);
		ASSERT_OK(&f, "FETCH");
		expect_fetch_consistent(&f);
		EXPECT_EQ(f.rows[__NR_getppid].calls, GETPPID_CALLS + i / 2);
		EXPECT_EQ(f.rows[__NR_exit_group].calls, 1);
	}

	/* A closed socket takes its trace along. */
	trace_close(&ts[5]);
	trace_by_number(&extra, WSC_LAT_CMD_TRACE_STATUS, id[5], &r);
	EXPECT_REFUSED(&r, ENOENT, "no trace of that number");
	trace_start_pid(&extra, getpid(), &r);
	ASSERT_OK(&r, "START in the room made");
	for (i = 0; i < WSC_TRACE_MAX; i++)
		if (i != 5)
			trace_close(&ts[i]);
	trace_close(&extra);
	trace_open(&extra);
	expect_idle(&extra);
}

/* An active trace dies with its socket, and the module can go again. */
TRACE_TEST(closed_socket_ends_active_trace)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct target tg;

	/* First: a child forked later would hold the socket open too. */
	target_spawn(&tg, 0);
	trace_open(&ts);
	trace_start_pid(&ts, tg.pid, &r);
	ASSERT_OK(&r, "START");
	trace_close(&ts);
	trace_open(&ts);
	expect_idle(&ts);
	target_kill(&tg);
}

/*
 * A socket's commands without a number are about its own trace only; with
 * one, another's trace may be read by whoever may trace, but stopped or
 * reset only with CAP_SYS_ADMIN: tracing users do not end each other's.
 */
TRACE_TEST(another_sockets_trace)
{
	struct trace_sock mine, theirs;
	struct trace_reply r;
	struct as_user u;
	struct target tg;
	uint64_t id;

	target_spawn(&tg, 0);
	trace_open(&mine);
	trace_start_pid(&mine, tg.pid, &r);
	ASSERT_OK(&r, "START");
	id = r.val[WSC_LAT_A_TRACE_ID];

	u = (struct as_user){ become_perfmon_only, perfmon_checks, id, tg.pid };
	EXPECT_CHILD_PASSES(run_as_user, &u);

	trace_status(&mine, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_ID], id);
	/* Root may end another's trace by its number. */
	trace_open(&theirs);
	trace_by_number(&theirs, WSC_LAT_CMD_TRACE_STOP, id, &r);
	EXPECT_EQ(r.err, 0);
	EXPECT_ENDED(&mine, &r, WSC_TRACE_END_STOPPED);
	trace_close(&theirs);
	target_kill(&tg);
}

TEST_HARNESS_MAIN
