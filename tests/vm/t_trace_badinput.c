// SPDX-License-Identifier: GPL-2.0
/*
 * The trace's commands of the "syscall_lat" family refuse every malformed
 * or impossible request with the right errno and an extended ack message
 * that says why, and leave nothing behind when they do: START's policy
 * (targets missing, doubled, of the wrong shape or length, unknown and
 * unsupported attributes), START's targets that cannot be traced (no such
 * process, a zombie, a kernel thread, paths that name no cgroup), and the
 * other commands, which take a trace's number and nothing else.
 *
 * Talks to the family through libnl-genl-3 directly (trace_genl.h), not
 * libwsc, so that what is tested is the module's own checks; each test
 * runs guarded (run_guarded()): no trace outlives it.
 */
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>

#include "harness.h"
#include "trace_genl.h"
#include "trace_target.h"

/*
 * A test on a socket of its own, guarded (TRACE_TEST()): its body gets
 * @ts, the socket, and @r for the replies, and must leave no trace
 * behind.
 */
#define SOCKET_TEST(name)						\
	static void on_socket_##name(struct trace_sock *ts,		\
				     struct trace_reply *r);		\
	TRACE_TEST(name)						\
	{								\
		struct trace_sock ts;					\
		struct trace_reply r;					\
									\
		trace_open(&ts);					\
		on_socket_##name(&ts, &r);				\
		expect_idle(&ts);					\
	}								\
	static void on_socket_##name(struct trace_sock *ts,		\
				     struct trace_reply *r)

/* ---- START: what the policy refuses ---- */

SOCKET_TEST(start_without_target)
{
	trace_cmd(ts, WSC_LAT_CMD_TRACE_START, r);
	EXPECT_REFUSED(r, EINVAL, "a target is required");
	EXPECT_FALSE(r->bad_attr);
}

SOCKET_TEST(start_with_both_targets)
{
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_U32(WSC_LAT_A_TRACE_PID, getpid()),
		      ATTR_STR(WSC_LAT_A_TRACE_CGROUP, "/"));
	EXPECT_ATTR_REFUSED(r, EINVAL, "not both");
}

/* NLA_POLICY_MIN(NLA_U32, 1): 6.1's range check answers -ERANGE. */
SOCKET_TEST(start_pid_zero)
{
	trace_start_pid(ts, 0, r);
	EXPECT_ATTR_REFUSED(r, ERANGE, "integer out of range");
}

/*
 * A u32 of another size: strict validation checks the exact length
 * before the range, with -EINVAL.  The pid would not exist anyway, so a
 * policy that let it through could not start a trace.
 */
SOCKET_TEST(start_pid_wrong_shape)
{
	need_no_such_pid();
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_U16(WSC_LAT_A_TRACE_PID, 1));
	EXPECT_ATTR_REFUSED(r, EINVAL, "invalid attribute length");
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_U64(WSC_LAT_A_TRACE_PID, NO_SUCH_PID));
	EXPECT_ATTR_REFUSED(r, EINVAL, "invalid attribute length");

	/* A u32 flagged as a nest is refused too. */
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_U32(WSC_LAT_A_TRACE_PID | NLA_F_NESTED, NO_SUCH_PID));
	EXPECT_REFUSED(r, EINVAL, "NLA_F_NESTED not expected");
}

/*
 * An empty cgroup path: a zero-length attribute fails the policy, and ""
 * (one byte, the NUL) the handler refuses: cgroup_get_from_path("") would
 * return the root of the hierarchy and trace every task.
 */
SOCKET_TEST(start_cgroup_empty)
{
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_BYTES(WSC_LAT_A_TRACE_CGROUP, 0, ""));
	EXPECT_ATTR_REFUSED(r, EINVAL, "Attribute failed policy validation");
	expect_idle(ts);

	/* "" would walk to the root and trace every task: refused. */
	trace_start_cgroup(ts, "", r);
	EXPECT_REFUSED(r, EINVAL, "empty");
}

SOCKET_TEST(start_cgroup_not_terminated)
{
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_BYTES(WSC_LAT_A_TRACE_CGROUP, 4, "/abc"));
	EXPECT_ATTR_REFUSED(r, EINVAL, "Attribute failed policy validation");
}

/*
 * WSC_TRACE_CGROUP_MAX characters pass the policy (and name no cgroup);
 * one more does not: the policy looks for the NUL in the first
 * WSC_TRACE_CGROUP_MAX + 1 bytes.
 */
SOCKET_TEST(start_cgroup_too_long)
{
	static char path[WSC_TRACE_CGROUP_MAX + 2];

	memset(path, 'x', sizeof(path) - 1);
	path[0] = '/';
	path[WSC_TRACE_CGROUP_MAX + 1] = '\0';
	trace_start_cgroup(ts, path, r);
	EXPECT_ATTR_REFUSED(r, EINVAL, "Attribute failed policy validation");

	path[WSC_TRACE_CGROUP_MAX] = '\0';
	trace_start_cgroup(ts, path, r);
	EXPECT_REFUSED(r, ENOENT, "no such cgroup");
}

SOCKET_TEST(start_unknown_attribute_type)
{
	need_no_such_pid();
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_U32(WSC_LAT_A_TRACE_PID, NO_SUCH_PID),
		      ATTR_U32(WSC_LAT_A_TRACE_MAX + 1, 1));
	EXPECT_ATTR_REFUSED(r, EINVAL, "Unknown attribute type");
}

/* Attributes of the trace set that START does not take. */
SOCKET_TEST(start_unsupported_attribute)
{
	need_no_such_pid();
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_U32(WSC_LAT_A_TRACE_PID, NO_SUCH_PID),
		      ATTR_U64(WSC_LAT_A_TRACE_ID, 1));
	EXPECT_ATTR_REFUSED(r, EINVAL, "Unsupported attribute");

	/* An output attribute is no input either. */
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_U32(WSC_LAT_A_TRACE_PID, NO_SUCH_PID),
		      ATTR_U32(WSC_LAT_A_TRACE_STATE, WSC_TRACE_ACTIVE));
	EXPECT_REFUSED(r, EINVAL, "Unsupported attribute");
}

/* ---- START: targets that cannot be traced ---- */

SOCKET_TEST(start_no_such_process)
{
	need_no_such_pid();
	trace_start_pid(ts, NO_SUCH_PID, r);
	EXPECT_REFUSED(r, ESRCH, "no such process");
}

/*
 * The starter and what is below it are left out of a process tree's
 * trace (`wsc trace -p $$` must not count wsc), unless the starter names
 * itself: then it asked to be followed, and is, its child too.  Here the
 * parent's trace follows the parent alone (the tests' shell, waiting for
 * this process), the self-trace this process and a child forked after.
 */
SOCKET_TEST(start_starter_left_out_unless_named)
{
	pid_t child;
	int status;

	trace_start_pid(ts, getppid(), r);
	ASSERT_OK(r, "START of the parent");
	trace_status(ts, r);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_TASKS], 1);
	trace_stop_and_reset(ts);

	trace_start_pid(ts, getpid(), r);
	ASSERT_OK(r, "START of this process");
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	ASSERT_EQ(waitpid(child, &status, 0), child);
	trace_status(ts, r);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_TASKS], 2);
	trace_stop_and_reset(ts);
}

/* A zombie still has its pid, but is past its exit: nothing to follow. */
SOCKET_TEST(start_exited_process)
{
	uint64_t deadline;
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(0);
	deadline = now_ms() + 10000;
	while (task_state(pid) != 'Z') {
		if (now_ms() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			ASSERT_TRUE(0);
		}
		usleep(10000);
	}
	trace_start_pid(ts, pid, r);
	waitpid(pid, &status, 0);
	EXPECT_REFUSED(r, ESRCH, "the process is exiting");
}

SOCKET_TEST(start_kernel_thread)
{
	char comm[32] = "";
	FILE *f;

	/* pid 2 is kthreadd wherever the kernel's pid namespace is ours. */
	f = fopen("/proc/2/comm", "re");
	if (!f || !fgets(comm, sizeof(comm), f) ||
	    strcmp(comm, "kthreadd\n")) {
		if (f)
			fclose(f);
		SKIP("pid 2 is not kthreadd here");
	}
	fclose(f);
	trace_start_pid(ts, 2, r);
	EXPECT_REFUSED(r, EINVAL, "kernel thread");
}

/*
 * The kernel looks paths up on the default (v2) hierarchy's own tree,
 * which exists whether or not it is mounted; /sys/fs/cgroup is only
 * looked at to confirm that the root has a cgroup.procs file.
 */
SOCKET_TEST(start_bad_cgroup)
{
	struct statfs sfs;
	struct stat st;

	if (statfs("/sys/fs/cgroup", &sfs) == 0 &&
	    sfs.f_type == CGROUP2_SUPER_MAGIC) {
		ASSERT_EQ(stat("/sys/fs/cgroup/cgroup.procs", &st), 0);
		ASSERT_TRUE(S_ISREG(st.st_mode));
	} else {
		TH_LOG("cgroup2 is not mounted at /sys/fs/cgroup; the kernel does not need it");
	}
	trace_start_cgroup(ts, "/wsc-no-such-cgroup", r);
	EXPECT_REFUSED(r, ENOENT, "no such cgroup");

	trace_start_cgroup(ts, "/cgroup.procs", r);
	EXPECT_REFUSED(r, ENOTDIR, "not a cgroup");

	/* Below a file there is nothing at all. */
	trace_start_cgroup(ts, "/cgroup.procs/x", r);
	EXPECT_REFUSED(r, ENOENT, "no such cgroup");
}

/* ---- the other commands take a trace's number and nothing else ---- */

static const uint8_t no_attr_cmds[] = {
	WSC_LAT_CMD_TRACE_STOP, WSC_LAT_CMD_TRACE_STATUS,
	WSC_LAT_CMD_TRACE_FETCH, WSC_LAT_CMD_TRACE_RESET,
	WSC_LAT_CMD_TRACE_TASKS,
};

/*
 * Every attribute is refused by the policy, before the handler: a STOP of
 * no trace says -EINVAL, not -ENOENT, and no dump starts (NLMSG_ERROR,
 * not NLMSG_DONE).
 */
SOCKET_TEST(other_commands_take_only_a_number)
{
	uint8_t cmd;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(no_attr_cmds); i++) {
		cmd = no_attr_cmds[i];
		trace_request(ts, cmd, r, ATTR_U32(WSC_LAT_A_TRACE_PID, 1));
		EXPECT_ATTR_REFUSED(r, EINVAL, "Unsupported attribute");
		EXPECT_FALSE(r->in_done);
		EXPECT_EQ(r->messages, 0);

		trace_request(ts, cmd, r,
			      ATTR_STR(WSC_LAT_A_TRACE_CGROUP, "/"));
		EXPECT_REFUSED(r, EINVAL, "Unsupported attribute");
		EXPECT_FALSE(r->in_done);

		trace_request(ts, cmd, r, ATTR_U32(WSC_LAT_A_TRACE_MAX + 1, 0));
		EXPECT_REFUSED(r, EINVAL, "Unknown attribute type");
		EXPECT_FALSE(r->in_done);
		EXPECT_EQ(r->messages, 0);
	}
}

TEST_HARNESS_MAIN
