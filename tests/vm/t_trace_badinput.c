// SPDX-License-Identifier: GPL-2.0
/*
 * The trace's commands of the "syscall_lat" family (TRACE_START, _STOP,
 * _STATUS, _FETCH, _RESET) refuse every malformed, impossible or
 * unallowed request with the right errno and an extended ack message that
 * says why, and leave nothing behind when they do; and a trace of a known
 * process goes through its whole life - active, ended by itself when the
 * process exits, fetched, reset - with exact counts and consistent
 * histograms.  Talks to the family through libnl-genl-3 directly, not
 * libwsc, so that what is tested is the module's own checks.
 *
 * Refusals come back in NLMSG_ERROR (the policy, do requests, a dump the
 * core refuses) or in NLMSG_DONE (a fetch the module refuses once the
 * dump has started); both are read here, errno and message.
 *
 * Traces belong to the sockets that started them and die with them; every
 * test still runs in a guard (see run_guarded()) that makes sure no trace
 * is left active or kept, even when the test fails half-way: later tests
 * and the other test programs start with no trace at all.
 */
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/genetlink.h>
#include <linux/magic.h>
#include <linux/netlink.h>
#include <linux/wsc.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "harness.h"
#include "genl_raw.h"
#include "proc_task.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Above every x86-64 system call number: rows of a fetch. */
#define NR_MAX		1024
/* A pid that no process has (checked before use). */
#define NO_SUCH_PID	999999
/* What the child of a live trace does once woken. */
#define GETPPID_CALLS	100
/* How long a pid trace may take to notice that its process has exited. */
#define END_WAIT_MS	10000
/* Errnos of one call, and tasks of one trace, kept by a reply. */
#define MAX_ERRNOS	8
#define MAX_TASKS	64

struct trace_sock {
	struct nl_sock *sk;
	int family;
};

/**
 * struct trace_row - one system call of a fetch, over all its messages
 * @seen:         a message for it came
 * @calls, @errors, @total_ns, @max_ns: the sums of its first message
 * @buckets:      BUCKET nests
 * @bucket_calls: their COUNTs summed
 * @low_sum, @high_sum: sum of LOW_NS * COUNT and of HIGH_NS * COUNT, the
 *                bounds the buckets put on @total_ns
 * @top_low, @top_high: the bounds of the highest bucket, where @max_ns is
 * @off_ns:       the time off the CPU of its first message
 * @wrapped:      of its calls, those a wsc batch ran
 * @errno_calls:  the COUNTs of its ERRNO_COUNT nests summed
 * @errnos:       those nests
 * @errno_val, @errno_count: the first MAX_ERRNOS of them
 */
struct trace_row {
	bool seen;
	uint64_t calls;
	uint64_t errors;
	uint64_t total_ns;
	uint64_t max_ns;
	uint64_t off_ns;
	uint64_t wrapped;
	uint64_t errno_calls;
	unsigned int errnos;
	uint32_t errno_val[MAX_ERRNOS];
	uint64_t errno_count[MAX_ERRNOS];
	uint64_t buckets;
	uint64_t bucket_calls;
	uint64_t low_sum;
	uint64_t high_sum;
	uint64_t top_low;
	uint64_t top_high;
};

/**
 * struct trace_reply - what came back for one request
 * @ack:       how it ended (genl_raw.h), read as r->err, r->msg,
 *             r->in_done, r->bad_attr
 * @messages:  data messages received
 * @cmd:       the genetlink command of the last one
 * @nattrs:    its attributes, all types counted
 * @has, @val: its attributes of known type, and the value of each u32 and
 *             u64 one
 * @cgroup:    its TRACE_CGROUP
 * @rows:      a fetch: every system call it sent, by number
 * @last_nr:   a fetch: the number of the last message, -1 before any
 * @fault:     a fetch: the first way its messages broke the ABI, "" if none
 * @tasks:     a tasks dump: the first MAX_TASKS tasks, each message's
 *             values and its TRACE_COMM
 * @comm:      their names
 * @nr_tasks:  messages of a tasks dump
 */
struct trace_reply {
	GENL_ACK_MEMBERS;
	int messages;
	int cmd;
	int nattrs;
	bool has[WSC_LAT_A_MAX + 1];
	uint64_t val[WSC_LAT_A_MAX + 1];
	char cgroup[WSC_TRACE_CGROUP_MAX + 1];
	struct trace_row rows[NR_MAX];
	long last_nr;
	char fault[160];
	uint64_t tasks[MAX_TASKS][WSC_LAT_A_MAX + 1];
	char comm[MAX_TASKS][16];
	int nr_tasks;
};

/* ---- talking to the family ---- */

static void trace_open(struct trace_sock *ts)
{
	ts->sk = genl_raw_open(WSC_LAT_GENL_NAME, &ts->family);
}

static void trace_close(struct trace_sock *ts)
{
	nl_socket_free(ts->sk);
	ts->sk = NULL;
}

/* Note the first way a fetch broke the ABI; later ones add nothing. */
__attribute__((format(printf, 2, 3)))
static void fetch_fault(struct trace_reply *r, const char *fmt, ...)
{
	va_list ap;

	if (r->fault[0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->fault, sizeof(r->fault), fmt, ap);
	va_end(ap);
}

/* One BUCKET of system call @nr: LOW_NS, HIGH_NS, COUNT, and no CPU. */
static void fetch_bucket(struct trace_reply *r, long nr, struct nlattr *nest)
{
	struct nlattr *tb[WSC_LAT_BUCKET_MAX + 1];
	struct trace_row *row = &r->rows[nr];
	uint64_t low, high, count;

	if (nla_parse_nested(tb, WSC_LAT_BUCKET_MAX, nest, NULL) < 0 ||
	    !tb[WSC_LAT_BUCKET_LOW_NS] || !tb[WSC_LAT_BUCKET_HIGH_NS] ||
	    !tb[WSC_LAT_BUCKET_COUNT]) {
		fetch_fault(r, "call %ld: a bucket lacks an attribute", nr);
		return;
	}
	/* Every CPU merged: a CPU attribute would say otherwise. */
	if (tb[WSC_LAT_BUCKET_CPU])
		fetch_fault(r, "call %ld: a bucket has a CPU", nr);
	low = nla_get_u64(tb[WSC_LAT_BUCKET_LOW_NS]);
	high = nla_get_u64(tb[WSC_LAT_BUCKET_HIGH_NS]);
	count = nla_get_u64(tb[WSC_LAT_BUCKET_COUNT]);
	if (low > high)
		fetch_fault(r, "call %ld: bucket LOW_NS %llu > HIGH_NS %llu",
			    nr, (unsigned long long)low,
			    (unsigned long long)high);
	if (!count)
		fetch_fault(r, "call %ld: an empty bucket was sent", nr);
	/* Buckets come in ascending order, also across messages. */
	if (row->buckets && low <= row->top_high)
		fetch_fault(r, "call %ld: buckets out of order", nr);
	row->buckets++;
	row->bucket_calls += count;
	row->low_sum += low * count;
	row->high_sum += high * count;
	row->top_low = low;
	row->top_high = high;
}

/* The sums of a call's first message, one bit each. */
#define SUM_CALLS	(1u << 0)
#define SUM_ERRORS	(1u << 1)
#define SUM_TOTAL	(1u << 2)
#define SUM_MAX		(1u << 3)
#define SUM_OFF		(1u << 4)
#define SUM_WRAPPED	(1u << 5)
#define SUM_ALL		(SUM_CALLS | SUM_ERRORS | SUM_TOTAL | SUM_MAX | SUM_OFF | \
			 SUM_WRAPPED)

/* One ERRNO_COUNT of system call @nr: VALUE 1..4095 and COUNT > 0. */
static void fetch_errno(struct trace_reply *r, long nr, struct nlattr *nest)
{
	struct nlattr *tb[WSC_LAT_ERRNO_MAX + 1];
	struct trace_row *row = &r->rows[nr];
	uint32_t err;

	if (nla_parse_nested(tb, WSC_LAT_ERRNO_MAX, nest, NULL) < 0 ||
	    !tb[WSC_LAT_ERRNO_VALUE] || !tb[WSC_LAT_ERRNO_COUNT]) {
		fetch_fault(r, "call %ld: an errno count lacks an attribute", nr);
		return;
	}
	err = nla_get_u32(tb[WSC_LAT_ERRNO_VALUE]);
	if (!err || err > WSC_TRACE_ERRNO_MAX)
		fetch_fault(r, "call %ld: errno %u out of range", nr, err);
	if (!nla_get_u64(tb[WSC_LAT_ERRNO_COUNT]))
		fetch_fault(r, "call %ld: errno %u counted 0 times", nr, err);
	if (row->errnos < MAX_ERRNOS) {
		row->errno_val[row->errnos] = err;
		row->errno_count[row->errnos] =
			nla_get_u64(tb[WSC_LAT_ERRNO_COUNT]);
	}
	row->errnos++;
	row->errno_calls += nla_get_u64(tb[WSC_LAT_ERRNO_COUNT]);
}

/*
 * One message of a fetch: TRACE_NR first, then the four sums if it is the
 * call's first message, then BUCKETs.  A call's later messages (when its
 * buckets did not fit) have TRACE_NR and BUCKETs only, and the numbers go
 * up strictly from one call to the next.
 */
static void fetch_message(struct trace_reply *r, struct nlmsghdr *nlh)
{
	unsigned int sums = 0, bit;
	struct trace_row *row = NULL;
	uint64_t buckets_before = 0;
	bool first = false;
	struct nlattr *nla;
	long nr = -1;
	int rem, type;

	nlmsg_for_each_attr(nla, nlh, GENL_HDRLEN, rem) {
		type = nla_type(nla);
		if (type == WSC_LAT_A_TRACE_NR) {
			if (row) {
				fetch_fault(r, "two TRACE_NR in one message");
				return;
			}
			nr = nla_get_u32(nla);
			if (nr >= NR_MAX) {
				fetch_fault(r, "TRACE_NR %ld out of range", nr);
				return;
			}
			row = &r->rows[nr];
			if (nr != r->last_nr) {
				if (nr < r->last_nr || row->seen)
					fetch_fault(r, "call %ld after call %ld",
						    nr, r->last_nr);
				first = true;
				row->seen = true;
			}
			r->last_nr = nr;
			buckets_before = row->buckets;
			continue;
		}
		if (!row) {
			fetch_fault(r, "attribute %d before TRACE_NR", type);
			return;
		}
		switch (type) {
		case WSC_LAT_A_TRACE_CALLS:
			bit = SUM_CALLS;
			row->calls = nla_get_u64(nla);
			break;
		case WSC_LAT_A_ERRORS:
			bit = SUM_ERRORS;
			row->errors = nla_get_u64(nla);
			break;
		case WSC_LAT_A_TRACE_TOTAL_NS:
			bit = SUM_TOTAL;
			row->total_ns = nla_get_u64(nla);
			break;
		case WSC_LAT_A_TRACE_MAX_NS:
			bit = SUM_MAX;
			row->max_ns = nla_get_u64(nla);
			break;
		case WSC_LAT_A_TRACE_OFF_NS:
			bit = SUM_OFF;
			row->off_ns = nla_get_u64(nla);
			break;
		case WSC_LAT_A_TRACE_WRAPPED:
			bit = SUM_WRAPPED;
			row->wrapped = nla_get_u64(nla);
			break;
		case WSC_LAT_A_TRACE_ERRNO_COUNT:
			if (!first)
				fetch_fault(r, "call %ld: errnos in a later message",
					    nr);
			fetch_errno(r, nr, nla);
			continue;
		case WSC_LAT_A_BUCKET:
			fetch_bucket(r, nr, nla);
			continue;
		case WSC_LAT_A_PAD:
			continue;
		default:
			fetch_fault(r, "call %ld: unexpected attribute %d",
				    nr, type);
			continue;
		}
		if (!first)
			fetch_fault(r, "call %ld: sums in a later message", nr);
		sums |= bit;
	}
	if (!row) {
		fetch_fault(r, "a message without TRACE_NR");
		return;
	}
	if (first && sums != SUM_ALL)
		fetch_fault(r, "call %ld: first message lacks sums (%#x)",
			    nr, sums);
	if (!first && row->buckets == buckets_before)
		fetch_fault(r, "call %ld: a later message without buckets",
			    nr);
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh = nlmsg_data(nlh);
	struct trace_reply *r = arg;
	struct nlattr *nla;
	int rem, type;

	r->messages++;
	r->cmd = gnlh->cmd;
	r->nattrs = 0;
	r->cgroup[0] = '\0';
	memset(r->has, 0, sizeof(r->has));
	memset(r->val, 0, sizeof(r->val));
	nlmsg_for_each_attr(nla, nlh, GENL_HDRLEN, rem) {
		type = nla_type(nla);
		r->nattrs++;
		if (type <= 0 || type > WSC_LAT_A_MAX)
			continue;
		r->has[type] = true;
		if (type == WSC_LAT_A_TRACE_CGROUP)
			snprintf(r->cgroup, sizeof(r->cgroup), "%.*s",
				 nla_len(nla), (char *)nla_data(nla));
		else if (nla_len(nla) == sizeof(uint32_t))
			r->val[type] = nla_get_u32(nla);
		else if (nla_len(nla) == sizeof(uint64_t))
			r->val[type] = nla_get_u64(nla);
	}
	if (gnlh->cmd == WSC_LAT_CMD_TRACE_FETCH)
		fetch_message(r, nlh);
	if (gnlh->cmd == WSC_LAT_CMD_TRACE_TASKS) {
		if (r->nr_tasks < MAX_TASKS) {
			memcpy(r->tasks[r->nr_tasks], r->val, sizeof(r->val));
			nla = nlmsg_find_attr(nlh, GENL_HDRLEN,
					      WSC_LAT_A_TRACE_COMM);
			if (nla)
				snprintf(r->comm[r->nr_tasks], 16, "%.*s",
					 nla_len(nla), (char *)nla_data(nla));
		}
		r->nr_tasks++;
	}
	return NL_OK;
}

/*
 * A request for @cmd; NLM_F_DUMP in @flags makes it a dump.  Room for a
 * cgroup path of the longest length and then some.
 */
static struct nl_msg *trace_msg(const struct trace_sock *ts, uint8_t cmd,
				int flags)
{
	struct nl_msg *msg = nlmsg_alloc_size(2 * (WSC_TRACE_CGROUP_MAX + 1));

	ASSERT_TRUE(msg);
	ASSERT_TRUE(genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, ts->family, 0,
				flags, cmd, WSC_LAT_GENL_VERSION));
	return msg;
}

/* Send @msg (and free it), then read everything that answers it. */
static void trace_send(struct trace_sock *ts, struct nl_msg *msg,
		       struct trace_reply *r)
{
	memset(r, 0, sizeof(*r));
	r->cmd = -1;
	r->last_nr = -1;
	genl_raw_send(ts->sk, msg, &r->ack, on_valid, r);
}

/* @cmd with no attribute; FETCH and TASKS are sent as dumps. */
static void trace_cmd(struct trace_sock *ts, uint8_t cmd,
		      struct trace_reply *r)
{
	int flags = cmd == WSC_LAT_CMD_TRACE_FETCH ||
		    cmd == WSC_LAT_CMD_TRACE_TASKS ? NLM_F_DUMP : 0;

	trace_send(ts, trace_msg(ts, cmd, flags), r);
}

static void trace_start_pid(struct trace_sock *ts, uint32_t pid,
			    struct trace_reply *r)
{
	struct nl_msg *msg = trace_msg(ts, WSC_LAT_CMD_TRACE_START, 0);

	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_PID, pid), 0);
	trace_send(ts, msg, r);
}

static void trace_start_cgroup(struct trace_sock *ts, const char *path,
			       struct trace_reply *r)
{
	struct nl_msg *msg = trace_msg(ts, WSC_LAT_CMD_TRACE_START, 0);

	ASSERT_EQ(nla_put_string(msg, WSC_LAT_A_TRACE_CGROUP, path), 0);
	trace_send(ts, msg, r);
}

/* @cmd about trace @id (RUN_ID). */
static void trace_by_number(struct trace_sock *ts, uint8_t cmd, uint64_t id,
			    struct trace_reply *r)
{
	int flags = cmd == WSC_LAT_CMD_TRACE_FETCH ||
		    cmd == WSC_LAT_CMD_TRACE_TASKS ? NLM_F_DUMP : 0;
	struct nl_msg *msg = trace_msg(ts, cmd, flags);

	ASSERT_EQ(nla_put_u64(msg, WSC_LAT_A_RUN_ID, id), 0);
	trace_send(ts, msg, r);
}

/* STATUS, which must answer with exactly one status message. */
static void trace_status(struct trace_sock *ts, struct trace_reply *r)
{
	trace_cmd(ts, WSC_LAT_CMD_TRACE_STATUS, r);
	if (r->err)
		TH_LOG("STATUS: %d \"%s\"", r->err, r->msg);
	ASSERT_EQ(r->err, 0);
	ASSERT_EQ(r->messages, 1);
	ASSERT_EQ(r->cmd, WSC_LAT_CMD_TRACE_STATUS);
	ASSERT_TRUE(r->has[WSC_LAT_A_TRACE_STATE]);
}

/* A request that must succeed. */
#define ASSERT_OK(r, what) do {						\
	if ((r)->err)							\
		TH_LOG("%s: %d \"%s\"", (what), (r)->err, (r)->msg);	\
	ASSERT_EQ((r)->err, 0);						\
} while (0)

/* No trace at all: STATUS says idle, and carries nothing else. */
static void expect_idle(struct trace_sock *ts)
{
	struct trace_reply r;

	trace_status(ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_IDLE);
	EXPECT_EQ(r.nattrs, 1);
}

/* The attributes of every status message but an idle one's. */
static const int status_attrs[] = {
	WSC_LAT_A_TRACE_STATE, WSC_LAT_A_RUN_ID, WSC_LAT_A_TRACE_END,
	WSC_LAT_A_DURATION_NS, WSC_LAT_A_TRACE_TASKS, WSC_LAT_A_TRACE_LIVE,
	WSC_LAT_A_TRACE_TASK_SLOTS, WSC_LAT_A_TRACE_HIST_SLOTS,
	WSC_LAT_A_TRACE_LOST_TASKS, WSC_LAT_A_TRACE_LOST_CALLS,
	WSC_LAT_A_TRACE_LOST_EXITS, WSC_LAT_A_TRACE_LOST_HIST,
	WSC_LAT_A_TRACE_FOREIGN, WSC_LAT_A_TRACE_UNMATCHED,
	WSC_LAT_A_TRACE_UNFINISHED, WSC_LAT_A_TRACE_FILTERED,
	WSC_LAT_A_TRACE_LOST_ERRNOS, WSC_LAT_A_TRACE_LOST_RECORDS,
};

/*
 * A status of a process tree's trace: everything there, the target named
 * by pid and not by cgroup, and nothing lost - a single quiet process
 * cannot run out of slots or histograms.
 */
static void expect_pid_status(const struct trace_reply *r, uint32_t state,
			      uint32_t end, pid_t pid)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(status_attrs); i++)
		if (!r->has[status_attrs[i]]) {
			TH_LOG("status attribute %d missing", status_attrs[i]);
			wsc_test_failed = 1;
		}
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_STATE], state);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_END], end);
	EXPECT_TRUE(r->has[WSC_LAT_A_TRACE_PID]);
	EXPECT_FALSE(r->has[WSC_LAT_A_TRACE_CGROUP]);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_PID], pid);
	EXPECT_GT(r->val[WSC_LAT_A_RUN_ID], 0);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_TASK_SLOTS], 16384);
	EXPECT_GE(r->val[WSC_LAT_A_TRACE_HIST_SLOTS], 1);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_LOST_TASKS], 0);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_LOST_CALLS], 0);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_LOST_EXITS], 0);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_LOST_HIST], 0);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_FOREIGN], 0);
}

/* STOP (if anything is there) and RESET; both must succeed. */
static void trace_stop_and_reset(struct trace_sock *ts)
{
	struct trace_reply r;

	trace_cmd(ts, WSC_LAT_CMD_TRACE_STOP, &r);
	if (r.err != -ENOENT)
		ASSERT_OK(&r, "STOP");
	trace_cmd(ts, WSC_LAT_CMD_TRACE_RESET, &r);
	ASSERT_OK(&r, "RESET");
}

/* ---- keeping the machine's one trace clean ---- */

/*
 * Whatever state the trace is in, make it idle.  Returns the state found.
 * Refusals are not checked here: this also runs after a failed test.
 */
static uint64_t trace_force_idle(void)
{
	struct trace_sock ts;
	struct trace_reply r;
	uint64_t state;

	trace_open(&ts);
	trace_status(&ts, &r);
	state = r.val[WSC_LAT_A_TRACE_STATE];
	/* Another socket's trace: root ends it by its number. */
	while (r.val[WSC_LAT_A_TRACE_STATE] != WSC_TRACE_IDLE) {
		trace_by_number(&ts, WSC_LAT_CMD_TRACE_STOP,
				r.val[WSC_LAT_A_RUN_ID], &r);
		trace_status(&ts, &r);
		trace_by_number(&ts, WSC_LAT_CMD_TRACE_RESET,
				r.val[WSC_LAT_A_RUN_ID], &r);
		if (r.err) {
			TH_LOG("cleanup: RESET: %d \"%s\"", r.err, r.msg);
			ASSERT_EQ(r.err, 0);
		}
		trace_status(&ts, &r);
	}
	trace_close(&ts);
	return state;
}

/*
 * Run @body in a child, and make the trace idle after it whatever became
 * of it: an ASSERT ends the body with _exit(), which would skip any
 * cleanup of its own.  The body's time limit is below the harness's, so
 * that a body that hangs is killed while there is still time to clean up.
 * The processes a body starts to be traced die with it (PR_SET_PDEATHSIG).
 */
static void run_guarded(void (*body)(void))
{
	uint64_t left;
	int status;
	pid_t pid;

	/* An earlier test program may have left one; not this test's fault. */
	left = trace_force_idle();
	if (left != WSC_TRACE_IDLE)
		TH_LOG("a trace in state %llu was left by someone else",
		       (unsigned long long)left);

	fflush(stdout);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		alarm(WSC_TEST_TIMEOUT - 15);
		body();
		fflush(stdout);
		_exit(wsc_test_failed);
	}
	while (waitpid(pid, &status, 0) < 0)
		ASSERT_EQ(errno, EINTR);

	left = trace_force_idle();
	if (WIFEXITED(status) && WEXITSTATUS(status) == WSC_TEST_SKIP_STATUS)
		_exit(WSC_TEST_SKIP_STATUS);
	if (WIFSIGNALED(status)) {
		TH_LOG("the test was killed by signal %d%s", WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
		wsc_test_failed = 1;
	} else if (WEXITSTATUS(status) != 0) {
		wsc_test_failed = 1;
	} else if (left != WSC_TRACE_IDLE) {
		/* It passed, yet did not clean up after itself. */
		TH_LOG("the test left a trace in state %llu",
		       (unsigned long long)left);
		wsc_test_failed = 1;
	}
}

/* A test whose body runs guarded: see run_guarded(). */
#define TRACE_TEST(name)						\
	static void body_##name(void);					\
	TEST(name)							\
	{								\
		run_guarded(body_##name);				\
	}								\
	static void body_##name(void)

/* ---- processes to trace ---- */

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
static char task_state(pid_t pid)
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

static uint64_t now_ms(void)
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
static void target_spawn_failing(struct target *tg, int calls, int fails);

static void target_spawn(struct target *tg, int calls)
{
	target_spawn_failing(tg, calls, 0);
}

/*
 * As target_spawn(), and after the getppid calls, @fails openat calls
 * that fail with ENOENT and @fails that fail with EBADF.
 */
static void target_spawn_failing(struct target *tg, int calls, int fails)
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

static void target_wake(struct target *tg)
{
	ASSERT_EQ(write(tg->wake_fd, "x", 1), 1);
}

/* Wait for the child to end; its wait status. */
static int target_reap(struct target *tg)
{
	int status;

	while (waitpid(tg->pid, &status, 0) < 0)
		ASSERT_EQ(errno, EINTR);
	close(tg->wake_fd);
	tg->pid = 0;
	return status;
}

static void target_kill(struct target *tg)
{
	if (tg->pid <= 0)
		return;
	kill(tg->pid, SIGKILL);
	target_reap(tg);
}

/* Poll STATUS until the trace is no longer active (or give up). */
static void wait_for_end(struct trace_sock *ts, struct trace_reply *r)
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

static void need_no_such_pid(void)
{
	if (kill(NO_SUCH_PID, 0) == 0 || errno != ESRCH)
		SKIP("pid %d exists here", NO_SUCH_PID);
}

/* ---- START: what the policy refuses ---- */

TRACE_TEST(start_without_target)
{
	struct trace_sock ts;
	struct trace_reply r;

	trace_open(&ts);
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_START, &r);
	EXPECT_REFUSED(&r, EINVAL, "a target is required");
	EXPECT_FALSE(r.bad_attr);
	expect_idle(&ts);
}

TRACE_TEST(start_with_both_targets)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct nl_msg *msg;

	trace_open(&ts);
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_START, 0);
	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_PID, getpid()), 0);
	ASSERT_EQ(nla_put_string(msg, WSC_LAT_A_TRACE_CGROUP, "/"), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "not both");
	EXPECT_TRUE(r.bad_attr);
	expect_idle(&ts);
}

/* NLA_POLICY_MIN(NLA_U32, 1): 6.1's range check answers -ERANGE. */
TRACE_TEST(start_pid_zero)
{
	struct trace_sock ts;
	struct trace_reply r;

	trace_open(&ts);
	trace_start_pid(&ts, 0, &r);
	EXPECT_REFUSED(&r, ERANGE, "integer out of range");
	EXPECT_TRUE(r.bad_attr);
	expect_idle(&ts);
}

/*
 * A u32 of another size: strict validation checks the exact length
 * before the range, with -EINVAL.  The pid would not exist anyway, so a
 * policy that let it through could not start a trace.
 */
TRACE_TEST(start_pid_wrong_shape)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct nl_msg *msg;

	need_no_such_pid();
	trace_open(&ts);
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_START, 0);
	ASSERT_EQ(nla_put_u16(msg, WSC_LAT_A_TRACE_PID, 1), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "invalid attribute length");
	EXPECT_TRUE(r.bad_attr);

	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_START, 0);
	ASSERT_EQ(nla_put_u64(msg, WSC_LAT_A_TRACE_PID, NO_SUCH_PID), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "invalid attribute length");
	EXPECT_TRUE(r.bad_attr);

	/* A u32 flagged as a nest is refused too. */
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_START, 0);
	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_PID | NLA_F_NESTED,
			      NO_SUCH_PID), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "NLA_F_NESTED not expected");
	expect_idle(&ts);
}

/*
 * An empty cgroup path: a zero-length attribute fails the policy, and ""
 * (one byte, the NUL) the handler refuses: cgroup_get_from_path("") would
 * return the root of the hierarchy and trace every task.
 */
TRACE_TEST(start_cgroup_empty)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct nl_msg *msg;

	trace_open(&ts);
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_START, 0);
	ASSERT_EQ(nla_put(msg, WSC_LAT_A_TRACE_CGROUP, 0, ""), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "Attribute failed policy validation");
	EXPECT_TRUE(r.bad_attr);
	expect_idle(&ts);

	/* "" would walk to the root and trace every task: refused. */
	trace_start_cgroup(&ts, "", &r);
	EXPECT_REFUSED(&r, EINVAL, "empty");
	expect_idle(&ts);
}

TRACE_TEST(start_cgroup_not_terminated)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct nl_msg *msg;

	trace_open(&ts);
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_START, 0);
	ASSERT_EQ(nla_put(msg, WSC_LAT_A_TRACE_CGROUP, 4, "/abc"), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "Attribute failed policy validation");
	EXPECT_TRUE(r.bad_attr);
	expect_idle(&ts);
}

/*
 * WSC_TRACE_CGROUP_MAX characters pass the policy (and name no cgroup);
 * one more does not: the policy looks for the NUL in the first
 * WSC_TRACE_CGROUP_MAX + 1 bytes.
 */
TRACE_TEST(start_cgroup_too_long)
{
	static char path[WSC_TRACE_CGROUP_MAX + 2];
	struct trace_sock ts;
	struct trace_reply r;

	trace_open(&ts);
	memset(path, 'x', sizeof(path) - 1);
	path[0] = '/';
	path[WSC_TRACE_CGROUP_MAX + 1] = '\0';
	trace_start_cgroup(&ts, path, &r);
	EXPECT_REFUSED(&r, EINVAL, "Attribute failed policy validation");
	EXPECT_TRUE(r.bad_attr);

	path[WSC_TRACE_CGROUP_MAX] = '\0';
	trace_start_cgroup(&ts, path, &r);
	EXPECT_REFUSED(&r, ENOENT, "no such cgroup");
	expect_idle(&ts);
}

TRACE_TEST(start_unknown_attribute_type)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct nl_msg *msg;

	need_no_such_pid();
	trace_open(&ts);
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_START, 0);
	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_PID, NO_SUCH_PID), 0);
	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_MAX + 1, 1), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "Unknown attribute type");
	EXPECT_TRUE(r.bad_attr);
	expect_idle(&ts);
}

/* Attributes of the family that START does not take. */
TRACE_TEST(start_unsupported_attribute)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct nl_msg *msg;

	need_no_such_pid();
	trace_open(&ts);
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_START, 0);
	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_PID, NO_SUCH_PID), 0);
	ASSERT_EQ(nla_put_string(msg, WSC_LAT_A_EXPERIMENT, "spinlock"), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "Unsupported attribute");
	EXPECT_TRUE(r.bad_attr);

	/* An output attribute is no input either. */
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_START, 0);
	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_PID, NO_SUCH_PID), 0);
	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_STATE, WSC_TRACE_ACTIVE), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "Unsupported attribute");
	expect_idle(&ts);
}

/* ---- START: targets that cannot be traced ---- */

TRACE_TEST(start_no_such_process)
{
	struct trace_sock ts;
	struct trace_reply r;

	need_no_such_pid();
	trace_open(&ts);
	trace_start_pid(&ts, NO_SUCH_PID, &r);
	EXPECT_REFUSED(&r, ESRCH, "no such process");
	expect_idle(&ts);
}

/*
 * The starter and what is below it are left out of a process tree's
 * trace (`wsc trace -p $$` must not count wsc), unless the starter names
 * itself: then it asked to be followed, and is, its child too.  Here the
 * parent's trace follows the parent alone (the tests' shell, waiting for
 * this process), the self-trace this process and a child forked after.
 */
TRACE_TEST(start_starter_left_out_unless_named)
{
	struct trace_sock ts;
	struct trace_reply r;
	pid_t child;
	int status;

	trace_open(&ts);
	trace_start_pid(&ts, getppid(), &r);
	ASSERT_OK(&r, "START of the parent");
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_TASKS], 1);
	trace_stop_and_reset(&ts);

	trace_start_pid(&ts, getpid(), &r);
	ASSERT_OK(&r, "START of this process");
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	ASSERT_EQ(waitpid(child, &status, 0), child);
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_TASKS], 2);
	trace_stop_and_reset(&ts);
	expect_idle(&ts);
}

/* A zombie still has its pid, but is past its exit: nothing to follow. */
TRACE_TEST(start_exited_process)
{
	struct trace_sock ts;
	struct trace_reply r;
	uint64_t deadline;
	pid_t pid;
	int status;

	trace_open(&ts);
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
	trace_start_pid(&ts, pid, &r);
	waitpid(pid, &status, 0);
	EXPECT_REFUSED(&r, ESRCH, "the process is exiting");
	expect_idle(&ts);
}

TRACE_TEST(start_kernel_thread)
{
	struct trace_sock ts;
	struct trace_reply r;
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
	trace_open(&ts);
	trace_start_pid(&ts, 2, &r);
	EXPECT_REFUSED(&r, EINVAL, "kernel thread");
	expect_idle(&ts);
}

/*
 * The kernel looks paths up on the default (v2) hierarchy's own tree,
 * which exists whether or not it is mounted; /sys/fs/cgroup is only
 * looked at to confirm that the root has a cgroup.procs file.
 */
TRACE_TEST(start_bad_cgroup)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct statfs sfs;
	struct stat st;

	if (statfs("/sys/fs/cgroup", &sfs) == 0 &&
	    sfs.f_type == CGROUP2_SUPER_MAGIC) {
		ASSERT_EQ(stat("/sys/fs/cgroup/cgroup.procs", &st), 0);
		ASSERT_TRUE(S_ISREG(st.st_mode));
	} else {
		TH_LOG("cgroup2 is not mounted at /sys/fs/cgroup; the kernel does not need it");
	}
	trace_open(&ts);
	trace_start_cgroup(&ts, "/wsc-no-such-cgroup", &r);
	EXPECT_REFUSED(&r, ENOENT, "no such cgroup");

	trace_start_cgroup(&ts, "/cgroup.procs", &r);
	EXPECT_REFUSED(&r, ENOTDIR, "not a cgroup");

	/* Below a file there is nothing at all. */
	trace_start_cgroup(&ts, "/cgroup.procs/x", &r);
	EXPECT_REFUSED(&r, ENOENT, "no such cgroup");
	expect_idle(&ts);
}

/* ---- privileges ---- */

/* Drop every capability for good: all ids 65534, no groups. */
static void become_nobody(void)
{
	ASSERT_EQ(setgroups(0, NULL), 0);
	ASSERT_EQ(setresgid(65534, 65534, 65534), 0);
	ASSERT_EQ(setresuid(65534, 65534, 65534), 0);
}

/*
 * What an unprivileged caller sees of the active trace @tg is followed
 * by: START, STOP and RESET refused for lack of privilege - before any
 * other check, so not -EINVAL, -EBUSY or -ESRCH - and FETCH refused in
 * NLMSG_DONE, while STATUS answers.  Runs in a child of its own, which exits with the verdict.
 */
static void unprivileged_checks(pid_t traced)
{
	struct trace_sock ts;
	struct trace_reply r;

	become_nobody();
	/* A socket opened after the drop: netlink checks its opener too. */
	trace_open(&ts);

	trace_start_pid(&ts, traced, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN or CAP_PERFMON");
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_START, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN or CAP_PERFMON");
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN or CAP_PERFMON");
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_RESET, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN or CAP_PERFMON");

	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_PID], traced);

	/* The latencies of others' calls: refused once the dump has started. */
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_FETCH, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN or CAP_PERFMON");
	EXPECT_TRUE(r.in_done);
	trace_close(&ts);
}

TRACE_TEST(unprivileged)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct target tg;
	uint64_t run_id;
	int status;
	pid_t pid;

	trace_open(&ts);
	target_spawn(&tg, 0);
	trace_start_pid(&ts, tg.pid, &r);
	ASSERT_OK(&r, "START");
	trace_status(&ts, &r);
	run_id = r.val[WSC_LAT_A_RUN_ID];

	fflush(stdout);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		unprivileged_checks(tg.pid);
		fflush(stdout);
		_exit(wsc_test_failed);
	}
	while (waitpid(pid, &status, 0) < 0)
		ASSERT_EQ(errno, EINTR);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* The refused STOP and RESET changed nothing. */
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	EXPECT_EQ(r.val[WSC_LAT_A_RUN_ID], run_id);

	trace_stop_and_reset(&ts);
	target_kill(&tg);
	expect_idle(&ts);
}

/* ---- a trace's life ---- */

/*
 * The fetch of an ended trace adds up: per call, its buckets hold every
 * call, bracket its total time, and the highest holds its longest call.
 * Nothing was lost, so every call is in a histogram.
 */
static void expect_fetch_consistent(const struct trace_reply *r)
{
	const struct trace_row *row;
	int nr;

	if (r->fault[0]) {
		TH_LOG("fetch: %s", r->fault);
		wsc_test_failed = 1;
	}
	for (nr = 0; nr < NR_MAX; nr++) {
		row = &r->rows[nr];
		if (!row->seen)
			continue;
		EXPECT_GT(row->calls, 0);
		EXPECT_LE(row->errors, row->calls);
		EXPECT_LE(row->max_ns, row->total_ns);
		EXPECT_LE(row->off_ns, row->total_ns);
		/* Nothing lost from the errno tables in these small traces. */
		EXPECT_EQ(row->errno_calls, row->errors);
		EXPECT_EQ(row->bucket_calls, row->calls);
		EXPECT_LE(row->low_sum, row->total_ns);
		EXPECT_GE(row->high_sum, row->total_ns);
		EXPECT_LE(row->top_low, row->max_ns);
		EXPECT_GE(row->top_high, row->max_ns);
	}
}

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
	run_id = r.val[WSC_LAT_A_RUN_ID];

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
	EXPECT_EQ(r.val[WSC_LAT_A_RUN_ID], run_id);

	/* The child's calls, then its exit, which ends the trace. */
	target_wake(&tg);
	status = target_reap(&tg);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	wait_for_end(&ts, &r);
	expect_pid_status(&r, WSC_TRACE_ENDED, WSC_TRACE_END_EXITED, child);
	EXPECT_EQ(r.val[WSC_LAT_A_RUN_ID], run_id);
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
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ENDED);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_END], WSC_TRACE_END_EXITED);

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
	target_spawn(&tg, 0);
	trace_start_pid(&ts, tg.pid, &r);
	ASSERT_OK(&r, "START");
	trace_status(&ts, &r);
	run_id = r.val[WSC_LAT_A_RUN_ID];

	trace_cmd(&ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_EQ(r.err, 0);
	trace_status(&ts, &r);
	expect_pid_status(&r, WSC_TRACE_ENDED, WSC_TRACE_END_STOPPED, tg.pid);
	EXPECT_EQ(r.val[WSC_LAT_A_RUN_ID], run_id);
	/* Its read() began before the trace: not a call in progress. */
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_UNFINISHED], 0);

	/* A refused START keeps the ended trace; a second STOP is a no-op. */
	if (kill(NO_SUCH_PID, 0) < 0 && errno == ESRCH) {
		trace_start_pid(&ts, NO_SUCH_PID, &r);
		EXPECT_REFUSED(&r, ESRCH, "no such process");
	}
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_EQ(r.err, 0);
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ENDED);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_END], WSC_TRACE_END_STOPPED);
	EXPECT_EQ(r.val[WSC_LAT_A_RUN_ID], run_id);

	/* An ended trace does not stand in the way of a new one. */
	trace_start_pid(&ts, tg.pid, &r);
	ASSERT_OK(&r, "second START");
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	EXPECT_EQ(r.val[WSC_LAT_A_RUN_ID], run_id + 1);
	trace_cmd(&ts, WSC_LAT_CMD_TRACE_STOP, &r);
	EXPECT_EQ(r.err, 0);

	/* Once stopped, the target's death is none of the trace's business. */
	target_kill(&tg);
	trace_status(&ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ENDED);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_END], WSC_TRACE_END_STOPPED);

	trace_cmd(&ts, WSC_LAT_CMD_TRACE_RESET, &r);
	EXPECT_EQ(r.err, 0);
	expect_idle(&ts);
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
TRACE_TEST(other_commands_take_only_a_number)
{
	struct trace_sock ts;
	struct trace_reply r;
	struct nl_msg *msg;
	size_t i;
	int flags;

	trace_open(&ts);
	for (i = 0; i < ARRAY_SIZE(no_attr_cmds); i++) {
		flags = no_attr_cmds[i] == WSC_LAT_CMD_TRACE_FETCH ||
			no_attr_cmds[i] == WSC_LAT_CMD_TRACE_TASKS ?
			NLM_F_DUMP : 0;

		msg = trace_msg(&ts, no_attr_cmds[i], flags);
		ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_PID, 1), 0);
		trace_send(&ts, msg, &r);
		EXPECT_REFUSED(&r, EINVAL, "Unsupported attribute");
		EXPECT_TRUE(r.bad_attr);
		EXPECT_FALSE(r.in_done);
		EXPECT_EQ(r.messages, 0);

		msg = trace_msg(&ts, no_attr_cmds[i], flags);
		ASSERT_EQ(nla_put_string(msg, WSC_LAT_A_EXPERIMENT, "mutex"), 0);
		trace_send(&ts, msg, &r);
		EXPECT_REFUSED(&r, EINVAL, "Unsupported attribute");
		EXPECT_FALSE(r.in_done);

		msg = trace_msg(&ts, no_attr_cmds[i], flags);
		ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_MAX + 1, 0), 0);
		trace_send(&ts, msg, &r);
		EXPECT_REFUSED(&r, EINVAL, "Unknown attribute type");
		EXPECT_FALSE(r.in_done);
		EXPECT_EQ(r.messages, 0);
	}
	expect_idle(&ts);
}

/* ---- filters, errnos, tasks, several traces ---- */

/* START of @pid with the filters given: a call set of @nr (or -1), ... */
static void trace_start_filtered(struct trace_sock *ts, uint32_t pid,
				 int nr, bool failed, uint32_t err,
				 struct trace_reply *r)
{
	struct nl_msg *msg = trace_msg(ts, WSC_LAT_CMD_TRACE_START, 0);
	uint8_t set[WSC_TRACE_NR_MAX / 8] = { 0 };

	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_PID, pid), 0);
	if (nr >= 0) {
		set[nr / 8] |= 1u << (nr % 8);
		ASSERT_EQ(nla_put(msg, WSC_LAT_A_TRACE_CALL_SET, nr / 8 + 1,
				  set), 0);
	}
	if (failed)
		ASSERT_EQ(nla_put_flag(msg, WSC_LAT_A_TRACE_FAILED), 0);
	if (err)
		ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_ERRNO, err), 0);
	trace_send(ts, msg, r);
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

/* A START of this process, for a test to add an attribute to. */
static struct nl_msg *start_of_self(struct trace_sock *ts)
{
	struct nl_msg *msg = trace_msg(ts, WSC_LAT_CMD_TRACE_START, 0);

	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_PID, getpid()), 0);
	return msg;
}

/* Bad filters and targets are refused before anything is attached. */
TRACE_TEST(start_bad_filters)
{
	uint8_t set[WSC_TRACE_NR_MAX / 8 + 1] = { 0 };
	struct trace_sock ts;
	struct trace_reply r;
	struct nl_msg *msg;

	trace_open(&ts);
	/* An empty set counts nothing: a mistake, not a trace. */
	msg = start_of_self(&ts);
	ASSERT_EQ(nla_put(msg, WSC_LAT_A_TRACE_CALL_SET, 0, set), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "empty");
	msg = start_of_self(&ts);
	ASSERT_EQ(nla_put(msg, WSC_LAT_A_TRACE_CALL_SET, 16, set), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "names no system call");
	/* Only a number past this kernel's last call: nothing to count. */
	set[1000 / 8] = 1u << (1000 % 8);
	msg = start_of_self(&ts);
	ASSERT_EQ(nla_put(msg, WSC_LAT_A_TRACE_CALL_SET, 1000 / 8 + 1, set), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "names no system call");
	/* With one it has, the others are left out. */
	set[__NR_getppid / 8] |= 1u << (__NR_getppid % 8);
	msg = start_of_self(&ts);
	ASSERT_EQ(nla_put(msg, WSC_LAT_A_TRACE_CALL_SET, 1000 / 8 + 1, set), 0);
	trace_send(&ts, msg, &r);
	EXPECT_EQ(r.err, 0);
	trace_stop_and_reset(&ts);
	/* Longer than WSC_TRACE_NR_MAX bits: the policy's length. */
	msg = start_of_self(&ts);
	ASSERT_EQ(nla_put(msg, WSC_LAT_A_TRACE_CALL_SET, sizeof(set), set), 0);
	trace_send(&ts, msg, &r);
	EXPECT_NE(r.err, 0);
	EXPECT_TRUE(r.bad_attr);
	/* Errnos 1..4095 only. */
	trace_start_filtered(&ts, getpid(), -1, false, 0, &r);
	EXPECT_EQ(r.err, 0);
	trace_stop_and_reset(&ts);
	msg = start_of_self(&ts);
	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_ERRNO, 0), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, ERANGE, "out of range");
	EXPECT_TRUE(r.bad_attr);
	msg = start_of_self(&ts);
	ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_TRACE_ERRNO,
			      WSC_TRACE_ERRNO_MAX + 1), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, ERANGE, "out of range");
	/* The machine and a process: two targets. */
	msg = start_of_self(&ts);
	ASSERT_EQ(nla_put_flag(msg, WSC_LAT_A_TRACE_ALL), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, EINVAL, "not both");
	EXPECT_TRUE(r.bad_attr);
	/* A number that names no trace. */
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_STATUS, 0);
	ASSERT_EQ(nla_put_u64(msg, WSC_LAT_A_RUN_ID, UINT64_MAX), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, ENOENT, "no trace of that number");
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_FETCH, NLM_F_DUMP);
	ASSERT_EQ(nla_put_u64(msg, WSC_LAT_A_RUN_ID, UINT64_MAX), 0);
	trace_send(&ts, msg, &r);
	EXPECT_REFUSED(&r, ENOENT, "no trace of that number");
	expect_idle(&ts);
}

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
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TRACE_TID], child);
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TRACE_TGID], child);
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TRACE_PPID], getpid());
	if (strcmp(t.comm[0], comm)) {
		TH_LOG("TRACE_COMM \"%s\", not \"%s\"", t.comm[0], comm);
		wsc_test_failed = 1;
	}
	/* Every call of the fetch is the one task's. */
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TRACE_CALLS],
		  GETPPID_CALLS + 2 * FAILS + 1);
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_ERRORS], 2 * FAILS);
	EXPECT_EQ(t.tasks[0][WSC_LAT_A_TRACE_TOTAL_NS],
		  f.rows[__NR_getppid].total_ns + f.rows[__NR_openat].total_ns +
		  f.rows[__NR_exit_group].total_ns);
	EXPECT_LE(t.tasks[0][WSC_LAT_A_TRACE_OFF_NS],
		  t.tasks[0][WSC_LAT_A_TRACE_TOTAL_NS]);
}

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
	struct nl_msg *msg;
	int i;

	for (i = 0; i < WSC_TRACE_MAX / 2; i++)
		target_spawn(&tg[i], GETPPID_CALLS + i);
	for (i = 0; i < WSC_TRACE_MAX; i++) {
		trace_open(&ts[i]);
		trace_start_pid(&ts[i], tg[i / 2].pid, &r);
		ASSERT_OK(&r, "START");
		id[i] = r.val[WSC_LAT_A_RUN_ID];
		EXPECT_GT(id[i], 0);
	}
	trace_open(&extra);
	trace_start_pid(&extra, tg[0].pid, &r);
	EXPECT_REFUSED(&r, EBUSY, "the most traces at once (8) are running");
	/* Without a number each socket means its own trace... */
	for (i = 0; i < WSC_TRACE_MAX; i++) {
		trace_status(&ts[i], &r);
		EXPECT_EQ(r.val[WSC_LAT_A_RUN_ID], id[i]);
		EXPECT_EQ(r.val[WSC_LAT_A_TRACE_PID], tg[i / 2].pid);
	}
	/* ...and with one, any socket reads any trace. */
	msg = trace_msg(&extra, WSC_LAT_CMD_TRACE_STATUS, 0);
	ASSERT_EQ(nla_put_u64(msg, WSC_LAT_A_RUN_ID, id[3]), 0);
	trace_send(&extra, msg, &r);
	ASSERT_OK(&r, "STATUS by number");
	EXPECT_EQ(r.val[WSC_LAT_A_RUN_ID], id[3]);

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
	msg = trace_msg(&extra, WSC_LAT_CMD_TRACE_STATUS, 0);
	ASSERT_EQ(nla_put_u64(msg, WSC_LAT_A_RUN_ID, id[5]), 0);
	trace_send(&extra, msg, &r);
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

/* Every task of the machine, but the starter's process. */
TRACE_TEST(all_tasks)
{
	struct trace_reply r, f, t;
	struct trace_sock ts;
	struct nl_msg *msg;
	struct target tg;
	bool found = false;
	pid_t child;
	int i;

	trace_open(&ts);
	target_spawn(&tg, GETPPID_CALLS);
	child = tg.pid;
	msg = trace_msg(&ts, WSC_LAT_CMD_TRACE_START, 0);
	ASSERT_EQ(nla_put_flag(msg, WSC_LAT_A_TRACE_ALL), 0);
	trace_send(&ts, msg, &r);
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
		EXPECT_NE(t.tasks[i][WSC_LAT_A_TRACE_TGID], getpid());
		if (t.tasks[i][WSC_LAT_A_TRACE_TID] != (uint64_t)child)
			continue;
		found = true;
		/* It joined at its first call: getppid, then exit_group. */
		EXPECT_EQ(t.tasks[i][WSC_LAT_A_TRACE_CALLS], GETPPID_CALLS + 1);
		EXPECT_EQ(t.tasks[i][WSC_LAT_A_TRACE_PPID], getpid());
	}
	EXPECT_TRUE(found);
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
 * A socket's commands without a number are about its own trace only; with
 * one, another's trace may be read by whoever may trace, but stopped or
 * reset only with CAP_SYS_ADMIN: tracing users do not end each other's.
 */
TRACE_TEST(another_sockets_trace)
{
	struct trace_sock mine, theirs;
	struct trace_reply r;
	struct target tg;
	uint64_t id;
	int status;
	pid_t pid;

	target_spawn(&tg, 0);
	trace_open(&mine);
	trace_start_pid(&mine, tg.pid, &r);
	ASSERT_OK(&r, "START");
	id = r.val[WSC_LAT_A_RUN_ID];

	fflush(stdout);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		become_perfmon_only();
		trace_open(&theirs);
		trace_cmd(&theirs, WSC_LAT_CMD_TRACE_STOP, &r);
		EXPECT_REFUSED(&r, ENOENT, "no trace to stop");
		trace_cmd(&theirs, WSC_LAT_CMD_TRACE_RESET, &r);
		EXPECT_EQ(r.err, 0);
		trace_by_number(&theirs, WSC_LAT_CMD_TRACE_STOP, id, &r);
		EXPECT_REFUSED(&r, EPERM, "another socket's");
		trace_by_number(&theirs, WSC_LAT_CMD_TRACE_RESET, id, &r);
		EXPECT_REFUSED(&r, EPERM, "another socket's");
		/* Reading it is what CAP_PERFMON is for. */
		trace_by_number(&theirs, WSC_LAT_CMD_TRACE_FETCH, id, &r);
		EXPECT_EQ(r.err, 0);
		/* It may trace too, beside the first. */
		trace_start_pid(&theirs, tg.pid, &r);
		EXPECT_EQ(r.err, 0);
		fflush(stdout);
		_exit(wsc_test_failed);
	}
	while (waitpid(pid, &status, 0) < 0)
		ASSERT_EQ(errno, EINTR);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	trace_status(&mine, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ACTIVE);
	EXPECT_EQ(r.val[WSC_LAT_A_RUN_ID], id);
	/* Root may end another's trace by its number. */
	trace_open(&theirs);
	trace_by_number(&theirs, WSC_LAT_CMD_TRACE_STOP, id, &r);
	EXPECT_EQ(r.err, 0);
	trace_status(&mine, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_ENDED);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_END], WSC_TRACE_END_STOPPED);
	trace_close(&theirs);
	target_kill(&tg);
}

TEST_HARNESS_MAIN
