/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace's commands of the "syscall_lat" family (TRACE_START, _STOP,
 * _STATUS, _FETCH, _RESET, _TASKS) as the trace test programs send them
 * (t_trace_badinput, t_trace_life, t_trace_filters): through libnl-genl-3
 * directly, not libwsc, so that what is tested is the module's own checks.
 * A request, and everything that answers it read into a struct
 * trace_reply: each message's attributes, and a fetch's rows checked
 * message by message against the ABI (Documentation/abi.md).
 *
 * Refusals come back in NLMSG_ERROR (the policy, do requests, a dump the
 * core refuses) or in NLMSG_DONE (a fetch the module refuses once the
 * dump has started); both are read here, errno and message (genl_raw.h).
 *
 * Traces belong to the sockets that started them and die with them; every
 * test still runs in a guard (see run_guarded()) that makes sure no trace
 * is left active or kept, even when the test fails half-way: later tests
 * and the other test programs start with no trace at all.
 *
 * Include it once per program, after harness.h; a program uses some of
 * these helpers, so they are static inline.
 */
#ifndef WSC_TEST_TRACE_GENL_H
#define WSC_TEST_TRACE_GENL_H

#include <stdarg.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/wsc.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "harness.h"
#include "genl_raw.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Above every x86-64 system call number: rows of a fetch. */
#define NR_MAX		1024
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
 * @sums:         the six above, as row_sums lists their attributes
 * @errno_calls:  the COUNTs of its ERRNO_COUNT nests summed
 * @errnos:       those nests
 * @errno_val, @errno_count: the first MAX_ERRNOS of them
 */
struct trace_row {
	bool seen;
	union {
		struct {
			uint64_t calls;
			uint64_t errors;
			uint64_t total_ns;
			uint64_t max_ns;
			uint64_t off_ns;
			uint64_t wrapped;
		};
		uint64_t sums[6];
	};
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
	bool has[WSC_LAT_A_TRACE_MAX + 1];
	uint64_t val[WSC_LAT_A_TRACE_MAX + 1];
	char cgroup[WSC_TRACE_CGROUP_MAX + 1];
	struct trace_row rows[NR_MAX];
	long last_nr;
	char fault[160];
	uint64_t tasks[MAX_TASKS][WSC_LAT_A_TRACE_MAX + 1];
	char comm[MAX_TASKS][16];
	int nr_tasks;
};

/* ---- talking to the family ---- */

static inline void trace_open(struct trace_sock *ts)
{
	ts->sk = genl_raw_open(WSC_LAT_GENL_NAME, &ts->family);
}

static inline void trace_close(struct trace_sock *ts)
{
	nl_socket_free(ts->sk);
	ts->sk = NULL;
}

/* Note the first way a fetch broke the ABI; later ones add nothing. */
__attribute__((format(printf, 2, 3)))
static inline void fetch_fault(struct trace_reply *r, const char *fmt, ...)
{
	va_list ap;

	if (r->fault[0])
		return;
	va_start(ap, fmt);
	vsnprintf(r->fault, sizeof(r->fault), fmt, ap);
	va_end(ap);
}

/* One BUCKET of system call @nr: LOW_NS, HIGH_NS, COUNT, and no CPU. */
static inline void fetch_bucket(struct trace_reply *r, long nr,
				struct nlattr *nest)
{
	struct nlattr *tb[WSC_LAT_A_BUCKET_MAX + 1];
	struct trace_row *row = &r->rows[nr];
	uint64_t low, high, count;

	if (nla_parse_nested(tb, WSC_LAT_A_BUCKET_MAX, nest, NULL) < 0 ||
	    !tb[WSC_LAT_A_BUCKET_LOW_NS] || !tb[WSC_LAT_A_BUCKET_HIGH_NS] ||
	    !tb[WSC_LAT_A_BUCKET_COUNT]) {
		fetch_fault(r, "call %ld: a bucket lacks an attribute", nr);
		return;
	}
	/* Every CPU merged: a CPU attribute would say otherwise. */
	if (tb[WSC_LAT_A_BUCKET_CPU])
		fetch_fault(r, "call %ld: a bucket has a CPU", nr);
	low = nla_get_u64(tb[WSC_LAT_A_BUCKET_LOW_NS]);
	high = nla_get_u64(tb[WSC_LAT_A_BUCKET_HIGH_NS]);
	count = nla_get_u64(tb[WSC_LAT_A_BUCKET_COUNT]);
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

/* The sums of a call's first message, in the order of trace_row.sums. */
static const int row_sums[] = {
	WSC_LAT_A_CALL_COUNT, WSC_LAT_A_CALL_ERRORS, WSC_LAT_A_CALL_TOTAL_NS,
	WSC_LAT_A_CALL_MAX_NS, WSC_LAT_A_CALL_OFF_NS, WSC_LAT_A_CALL_WRAPPED,
};
#define SUM_ALL		((1u << ARRAY_SIZE(row_sums)) - 1)

/* Attribute @nla into @row if it is one of the sums: its bit, else 0. */
static inline unsigned int fetch_sum(struct trace_row *row,
				     const struct nlattr *nla)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(row_sums); i++)
		if (nla_type(nla) == row_sums[i]) {
			row->sums[i] = nla_get_u64(nla);
			return 1u << i;
		}
	return 0;
}

/* One ERRNO_COUNT of system call @nr: VALUE 1..4095 and COUNT > 0. */
static inline void fetch_errno(struct trace_reply *r, long nr,
			       struct nlattr *nest)
{
	struct nlattr *tb[WSC_LAT_A_ERRNO_MAX + 1];
	struct trace_row *row = &r->rows[nr];
	uint32_t err;

	if (nla_parse_nested(tb, WSC_LAT_A_ERRNO_MAX, nest, NULL) < 0 ||
	    !tb[WSC_LAT_A_ERRNO_VALUE] || !tb[WSC_LAT_A_ERRNO_COUNT]) {
		fetch_fault(r, "call %ld: an errno count lacks an attribute", nr);
		return;
	}
	err = nla_get_u32(tb[WSC_LAT_A_ERRNO_VALUE]);
	if (!err || err > WSC_TRACE_ERRNO_MAX)
		fetch_fault(r, "call %ld: errno %u out of range", nr, err);
	if (!nla_get_u64(tb[WSC_LAT_A_ERRNO_COUNT]))
		fetch_fault(r, "call %ld: errno %u counted 0 times", nr, err);
	if (row->errnos < MAX_ERRNOS) {
		row->errno_val[row->errnos] = err;
		row->errno_count[row->errnos] =
			nla_get_u64(tb[WSC_LAT_A_ERRNO_COUNT]);
	}
	row->errnos++;
	row->errno_calls += nla_get_u64(tb[WSC_LAT_A_ERRNO_COUNT]);
}

/*
 * One message of a fetch: TRACE_NR first, then the four sums if it is the
 * call's first message, then BUCKETs.  A call's later messages (when its
 * buckets did not fit) have TRACE_NR and BUCKETs only, and the numbers go
 * up strictly from one call to the next.
 */
static inline void fetch_message(struct trace_reply *r, struct nlmsghdr *nlh)
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
		if (type == WSC_LAT_A_CALL_NR) {
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
		bit = fetch_sum(row, nla);
		if (bit) {
			if (!first)
				fetch_fault(r, "call %ld: sums in a later message",
					    nr);
			sums |= bit;
			continue;
		}
		switch (type) {
		case WSC_LAT_A_CALL_ERRNO:
			if (!first)
				fetch_fault(r, "call %ld: errnos in a later message",
					    nr);
			fetch_errno(r, nr, nla);
			continue;
		case WSC_LAT_A_CALL_BUCKET:
			fetch_bucket(r, nr, nla);
			continue;
		case WSC_LAT_A_CALL_PAD:
			continue;
		default:
			fetch_fault(r, "call %ld: unexpected attribute %d",
				    nr, type);
		}
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

static inline int on_valid(struct nl_msg *msg, void *arg)
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
		if (type <= 0 || type > WSC_LAT_A_TRACE_MAX)
			continue;
		r->has[type] = true;
		/* A status is of the trace set, a task's record of its own. */
		if (type == WSC_LAT_A_TRACE_CGROUP &&
		    gnlh->cmd == WSC_LAT_CMD_TRACE_STATUS)
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
					      WSC_LAT_A_TASK_COMM);
			if (nla)
				snprintf(r->comm[r->nr_tasks], 16, "%.*s",
					 nla_len(nla), (char *)nla_data(nla));
		}
		r->nr_tasks++;
	}
	return NL_OK;
}

/* Send @msg (and free it), then read everything that answers it. */
static inline void trace_send(struct trace_sock *ts, struct nl_msg *msg,
			      struct trace_reply *r)
{
	memset(r, 0, sizeof(*r));
	r->cmd = -1;
	r->last_nr = -1;
	genl_raw_send(ts->sk, msg, &r->ack, on_valid, r);
}

/* FETCH and TASKS are sent as dumps, the other commands as requests. */
static inline int trace_flags(uint8_t cmd)
{
	return cmd == WSC_LAT_CMD_TRACE_FETCH ||
	       cmd == WSC_LAT_CMD_TRACE_TASKS ? NLM_F_DUMP : 0;
}

/* @cmd with the attributes given (genl_raw.h's ATTR_*()), in that order. */
#define trace_request(ts, cmd, r, ...)					\
	trace_send((ts), genl_raw_msg((ts)->family, (cmd),		\
				      trace_flags(cmd),			\
				      GENL_ATTRS(__VA_ARGS__)), (r))

/* @cmd with no attribute. */
static inline void trace_cmd(struct trace_sock *ts, uint8_t cmd,
			     struct trace_reply *r)
{
	trace_send(ts, genl_raw_msg(ts->family, cmd, trace_flags(cmd), NULL, 0),
		   r);
}

static inline void trace_start_pid(struct trace_sock *ts, uint32_t pid,
				   struct trace_reply *r)
{
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_U32(WSC_LAT_A_TRACE_PID, pid));
}

static inline void trace_start_cgroup(struct trace_sock *ts, const char *path,
				      struct trace_reply *r)
{
	trace_request(ts, WSC_LAT_CMD_TRACE_START, r,
		      ATTR_STR(WSC_LAT_A_TRACE_CGROUP, path));
}

/* @cmd about trace @id (RUN_ID). */
static inline void trace_by_number(struct trace_sock *ts, uint8_t cmd,
				   uint64_t id, struct trace_reply *r)
{
	trace_request(ts, cmd, r, ATTR_U64(WSC_LAT_A_TRACE_ID, id));
}

/* STATUS, which must answer with exactly one status message. */
static inline void trace_status(struct trace_sock *ts, struct trace_reply *r)
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
static inline void expect_idle(struct trace_sock *ts)
{
	struct trace_reply r;

	trace_status(ts, &r);
	EXPECT_EQ(r.val[WSC_LAT_A_TRACE_STATE], WSC_TRACE_IDLE);
	EXPECT_EQ(r.nattrs, 1);
}

/* The attributes of every status message but an idle one's. */
static const int status_attrs[] = {
	WSC_LAT_A_TRACE_STATE, WSC_LAT_A_TRACE_ID, WSC_LAT_A_TRACE_END,
	WSC_LAT_A_TRACE_DURATION_NS, WSC_LAT_A_TRACE_TASKS, WSC_LAT_A_TRACE_LIVE,
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
static inline void expect_pid_status(const struct trace_reply *r,
				     uint32_t state, uint32_t end, pid_t pid)
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
	EXPECT_GT(r->val[WSC_LAT_A_TRACE_ID], 0);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_TASK_SLOTS], 16384);
	EXPECT_GE(r->val[WSC_LAT_A_TRACE_HIST_SLOTS], 1);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_LOST_TASKS], 0);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_LOST_CALLS], 0);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_LOST_EXITS], 0);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_LOST_HIST], 0);
	EXPECT_EQ(r->val[WSC_LAT_A_TRACE_FOREIGN], 0);
}

/* STOP (if anything is there) and RESET; both must succeed. */
static inline void trace_stop_and_reset(struct trace_sock *ts)
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
static inline uint64_t trace_force_idle(void)
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
				r.val[WSC_LAT_A_TRACE_ID], &r);
		trace_status(&ts, &r);
		trace_by_number(&ts, WSC_LAT_CMD_TRACE_RESET,
				r.val[WSC_LAT_A_TRACE_ID], &r);
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
static inline void run_guarded(void (*body)(void *))
{
	uint64_t left;
	int status;

	/* An earlier test program may have left one; not this test's fault. */
	left = trace_force_idle();
	if (left != WSC_TRACE_IDLE)
		TH_LOG("a trace in state %llu was left by someone else",
		       (unsigned long long)left);

	status = wsc_test_in_child(body, NULL, WSC_TEST_TIMEOUT - 15);
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
	static void body_##name(void *unused);				\
	TEST(name)							\
	{								\
		run_guarded(body_##name);				\
	}								\
	static void body_##name(void *unused __attribute__((unused)))

/* ---- what a fetch must add up to ---- */

/*
 * The fetch of an ended trace adds up: per call, its buckets hold every
 * call, bracket its total time, and the highest holds its longest call.
 * Nothing was lost, so every call is in a histogram.
 */
static inline void expect_fetch_consistent(const struct trace_reply *r)
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

#endif /* WSC_TEST_TRACE_GENL_H */
