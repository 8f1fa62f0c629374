// SPDX-License-Identifier: MIT
/*
 * The trace's commands (wsc_trace_*): start, stop, status, fetch, tasks,
 * events and reset; requests of the "syscall_lat" family (include/uapi/linux/wsc.h)
 * over the netlink client of nl.c.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "nl.h"

/*
 * The trace's handle: the one netlink client, under the trace's name, and
 * the number of the trace it started (0 before): its commands name it,
 * so that several traces, each with its handle, do not meet.  The kernel
 * frees the trace when the handle's socket is closed.  @events is the
 * per-CPU capacity of the next start's event rings, 0 for none; @ring
 * asks the next start to count io_uring requests too.
 */
struct wsc_trace {
	struct wsc_nl nl;
	uint64_t id;
	uint32_t events;
	bool ring;
};

/*
 * A status answer: the 1.0 struct, and what a trace counting ring
 * requests says besides (wsc_trace_ring_counts()).
 */
struct trace_status_answer {
	struct wsc_trace_status *st;
	bool ring;
	uint64_t ring_lost;
	uint64_t ring_pending;
};

int wsc_trace_open(struct wsc_trace **out)
{
	struct wsc_trace *tr;
	int ret;

	if (!out)
		return -EINVAL;
	tr = calloc(1, sizeof(*tr));
	if (!tr)
		return -ENOMEM;
	ret = wsc_nl_open(&tr->nl, "the trace");
	if (ret) {
		free(tr);
		return ret;
	}
	*out = tr;
	return 0;
}

void wsc_trace_close(struct wsc_trace *tr)
{
	if (!tr)
		return;
	wsc_nl_close(&tr->nl);
	free(tr);
}

const char *wsc_trace_error(const struct wsc_trace *tr)
{
	return tr ? tr->nl.error : "";
}

/* A request of @cmd naming the handle's trace, if it started one. */
static struct nl_msg *trace_msg(struct wsc_trace *tr, uint8_t cmd, int flags)
{
	struct nl_msg *msg = wsc_nl_msg(&tr->nl, cmd, flags);

	if (msg && tr->id &&
	    nla_put_u64(msg, WSC_LAT_A_TRACE_ID, tr->id) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/*
 * A dump of @cmd about the handle's trace, its messages parsed by @req;
 * 0 or the first failure, the kernel's or the parser's.
 */
static int trace_dump(struct wsc_trace *tr, uint8_t cmd, struct wsc_nl_req *req)
{
	struct nl_msg *msg;
	int ret;

	req->nl = &tr->nl;
	msg = trace_msg(tr, cmd, NLM_F_DUMP);
	if (!msg)
		return -ENOMEM;
	ret = wsc_nl_transact(&tr->nl, msg, req);
	return ret ? ret : req->err;
}

/* Check @spec; 0, or -EINVAL with the reason in the handle. */
static int trace_check_spec(struct wsc_trace *tr,
			    const struct wsc_trace_spec *spec)
{
	unsigned int i;

	if (!!spec->pid + !!spec->cgroup + !!spec->all != 1) {
		wsc_nl_set_error(&tr->nl,
				 "give one target: a pid, a cgroup or all");
		return -EINVAL;
	}
	if (spec->cgroup && (!spec->cgroup[0] ||
			     strlen(spec->cgroup) > WSC_TRACE_CGROUP_MAX)) {
		wsc_nl_set_error(&tr->nl,
				 "the cgroup path is empty or longer than %d",
				 WSC_TRACE_CGROUP_MAX);
		return -EINVAL;
	}
	if (spec->err > WSC_TRACE_ERRNO_MAX) {
		wsc_nl_set_error(&tr->nl, "errno %u is out of range (1..%d)",
				 spec->err, WSC_TRACE_ERRNO_MAX);
		return -EINVAL;
	}
	if (spec->calls) {
		for (i = 0; i < WSC_TRACE_NR_MAX / 64; i++)
			if (spec->calls[i])
				return 0;
		wsc_nl_set_error(&tr->nl, "the call set is empty");
		return -EINVAL;
	}
	return 0;
}

/* Add @calls as TRACE_CALL_SET: bit n of byte n / 8, up to the last set. */
static int trace_put_calls(struct nl_msg *msg, const uint64_t *calls)
{
	uint8_t bytes[WSC_TRACE_NR_MAX / 8] = { 0 };
	unsigned int n, len = 0;

	for (n = 0; n < WSC_TRACE_NR_MAX; n++) {
		if (!(calls[n / 64] >> (n % 64) & 1))
			continue;
		bytes[n / 8] |= (uint8_t)(1u << (n % 8));
		len = n / 8 + 1;
	}
	return nla_put(msg, WSC_LAT_A_TRACE_CALL_SET, (int)len, bytes);
}

static int trace_parse_status(struct wsc_nl_req *req, struct nlattr **tb,
			      struct nlmsghdr *nlh);

int wsc_trace_begin(struct wsc_trace *tr, const struct wsc_trace_spec *spec)
{
	struct wsc_trace_status st;
	struct trace_status_answer answer = { .st = &st };
	struct wsc_nl_req req = { .parse = trace_parse_status, .priv = &answer,
				  WSC_NL_ANSWER(wsc_nl_trace_policy) };
	struct nl_msg *msg;
	int ret;

	if (!tr || !spec)
		return -EINVAL;
	tr->nl.error[0] = '\0';
	ret = trace_check_spec(tr, spec);
	if (ret)
		return ret;
	/* A new start: not about the handle's previous trace. */
	msg = wsc_nl_msg(&tr->nl, WSC_LAT_CMD_TRACE_START, 0);
	if (!msg)
		return -ENOMEM;
	if ((spec->pid && nla_put_u32(msg, WSC_LAT_A_TRACE_PID, spec->pid) < 0) ||
	    (spec->cgroup &&
	     nla_put_string(msg, WSC_LAT_A_TRACE_CGROUP, spec->cgroup) < 0) ||
	    (spec->all && nla_put_flag(msg, WSC_LAT_A_TRACE_ALL) < 0) ||
	    (spec->calls && trace_put_calls(msg, spec->calls) < 0) ||
	    (spec->failed && nla_put_flag(msg, WSC_LAT_A_TRACE_FAILED) < 0) ||
	    (spec->err && nla_put_u32(msg, WSC_LAT_A_TRACE_ERRNO, spec->err) < 0) ||
	    (tr->events &&
	     nla_put_u32(msg, WSC_LAT_A_TRACE_EVENTS, tr->events) < 0) ||
	    (tr->ring && nla_put_flag(msg, WSC_LAT_A_TRACE_RING) < 0)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	req.nl = &tr->nl;
	ret = wsc_nl_transact(&tr->nl, msg, &req);
	if (!ret && (req.messages != 1 || !st.id)) {
		wsc_nl_set_error(&tr->nl,
				 "the kernel started a trace without saying which");
		ret = -EPROTO;
	}
	if (!ret)
		tr->id = st.id;
	return ret;
}

int wsc_trace_start(struct wsc_trace *tr, uint32_t pid, const char *cgroup)
{
	struct wsc_trace_spec spec = { .pid = pid, .cgroup = cgroup };

	if (!tr)
		return -EINVAL;
	if (!pid == !cgroup) {
		tr->nl.error[0] = '\0';
		wsc_nl_set_error(&tr->nl, "give a pid or a cgroup, exactly one");
		return -EINVAL;
	}
	return wsc_trace_begin(tr, &spec);
}

/* A command without attributes, answered by an acknowledgement alone. */
static int trace_command(struct wsc_trace *tr, uint8_t cmd)
{
	struct nl_msg *msg;

	if (!tr)
		return -EINVAL;
	msg = trace_msg(tr, cmd, 0);
	if (!msg)
		return -ENOMEM;
	return wsc_nl_do_ack(&tr->nl, msg);
}

int wsc_trace_stop(struct wsc_trace *tr)
{
	return trace_command(tr, WSC_LAT_CMD_TRACE_STOP);
}

int wsc_trace_reset(struct wsc_trace *tr)
{
	return trace_command(tr, WSC_LAT_CMD_TRACE_RESET);
}

/* The status message's u64 counts and where they go. */
static const struct {
	unsigned int attr;
	size_t offset;
} trace_status_u64[] = {
	{ WSC_LAT_A_TRACE_ID,		offsetof(struct wsc_trace_status, id) },
	{ WSC_LAT_A_TRACE_DURATION_NS,	offsetof(struct wsc_trace_status, duration_ns) },
	{ WSC_LAT_A_TRACE_TASKS,	offsetof(struct wsc_trace_status, tasks) },
	{ WSC_LAT_A_TRACE_LOST_TASKS,	offsetof(struct wsc_trace_status, lost_tasks) },
	{ WSC_LAT_A_TRACE_LOST_CALLS,	offsetof(struct wsc_trace_status, lost_calls) },
	{ WSC_LAT_A_TRACE_LOST_EXITS,	offsetof(struct wsc_trace_status, lost_exits) },
	{ WSC_LAT_A_TRACE_LOST_HIST,	offsetof(struct wsc_trace_status, lost_hist) },
	{ WSC_LAT_A_TRACE_FOREIGN,	offsetof(struct wsc_trace_status, foreign) },
	{ WSC_LAT_A_TRACE_UNMATCHED,	offsetof(struct wsc_trace_status, unmatched) },
	{ WSC_LAT_A_TRACE_UNFINISHED,	offsetof(struct wsc_trace_status, unfinished) },
	{ WSC_LAT_A_TRACE_FILTERED,	offsetof(struct wsc_trace_status, filtered) },
	{ WSC_LAT_A_TRACE_LOST_ERRNOS,	offsetof(struct wsc_trace_status, lost_errnos) },
	{ WSC_LAT_A_TRACE_LOST_RECORDS,	offsetof(struct wsc_trace_status, lost_records) },
};

static const struct {
	unsigned int attr;
	size_t offset;
} trace_status_u32[] = {
	{ WSC_LAT_A_TRACE_END,		offsetof(struct wsc_trace_status, end) },
	{ WSC_LAT_A_TRACE_LIVE,		offsetof(struct wsc_trace_status, live) },
	{ WSC_LAT_A_TRACE_TASK_SLOTS,	offsetof(struct wsc_trace_status, task_slots) },
	{ WSC_LAT_A_TRACE_HIST_SLOTS,	offsetof(struct wsc_trace_status, hist_slots) },
};

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

static int trace_parse_status(struct wsc_nl_req *req, struct nlattr **tb,
			      struct nlmsghdr *nlh)
{
	struct trace_status_answer *answer = req->priv;
	struct wsc_trace_status *st = answer->st;
	unsigned int i;

	(void)nlh;
	if (req->messages > 1)
		return wsc_nl_req_fail(req, -EPROTO, "more than one status message");
	if (!tb[WSC_LAT_A_TRACE_STATE])
		return wsc_nl_req_fail(req, -EBADMSG, "status without a state");
	memset(st, 0, sizeof(*st));
	st->state = nla_get_u32(tb[WSC_LAT_A_TRACE_STATE]);
	if (st->state == WSC_TRACE_IDLE)
		return NL_OK;
	for (i = 0; i < ARRAY_LEN(trace_status_u64); i++) {
		if (!tb[trace_status_u64[i].attr])
			return wsc_nl_req_fail(req, -EBADMSG,
					       "status without attribute %u",
					       trace_status_u64[i].attr);
		*(uint64_t *)((char *)st + trace_status_u64[i].offset) =
			nla_get_u64(tb[trace_status_u64[i].attr]);
	}
	for (i = 0; i < ARRAY_LEN(trace_status_u32); i++) {
		if (!tb[trace_status_u32[i].attr])
			return wsc_nl_req_fail(req, -EBADMSG,
					       "status without attribute %u",
					       trace_status_u32[i].attr);
		*(uint32_t *)((char *)st + trace_status_u32[i].offset) =
			nla_get_u32(tb[trace_status_u32[i].attr]);
	}
	if (tb[WSC_LAT_A_TRACE_PID])
		st->pid = nla_get_u32(tb[WSC_LAT_A_TRACE_PID]);
	else if (tb[WSC_LAT_A_TRACE_CGROUP])
		nla_strlcpy(st->cgroup, tb[WSC_LAT_A_TRACE_CGROUP],
			    sizeof(st->cgroup));
	else if (tb[WSC_LAT_A_TRACE_ALL])
		st->all = true;
	else
		return wsc_nl_req_fail(req, -EBADMSG, "status without a target");
	st->failed = !!tb[WSC_LAT_A_TRACE_FAILED];
	if (tb[WSC_LAT_A_TRACE_ERRNO])
		st->err = nla_get_u32(tb[WSC_LAT_A_TRACE_ERRNO]);
	answer->ring = !!tb[WSC_LAT_A_TRACE_RING];
	if (tb[WSC_LAT_A_TRACE_RING_LOST])
		answer->ring_lost = nla_get_u64(tb[WSC_LAT_A_TRACE_RING_LOST]);
	if (tb[WSC_LAT_A_TRACE_RING_PENDING])
		answer->ring_pending =
			nla_get_u64(tb[WSC_LAT_A_TRACE_RING_PENDING]);
	return NL_OK;
}

/* A status request, its answer in @answer. */
static int trace_ask_status(struct wsc_trace *tr,
			    struct trace_status_answer *answer)
{
	struct wsc_nl_req req = { .parse = trace_parse_status, .priv = answer,
				  WSC_NL_ANSWER(wsc_nl_trace_policy) };
	struct nl_msg *msg;
	int ret;

	req.nl = &tr->nl;
	msg = trace_msg(tr, WSC_LAT_CMD_TRACE_STATUS, 0);
	if (!msg)
		return -ENOMEM;
	ret = wsc_nl_transact(&tr->nl, msg, &req);
	if (!ret && req.messages != 1) {
		wsc_nl_set_error(&tr->nl,
				 "the kernel acknowledged without a status");
		ret = -EPROTO;
	}
	return ret;
}

int wsc_trace_status(struct wsc_trace *tr, struct wsc_trace_status *out)
{
	struct trace_status_answer answer = { .st = out };

	if (!tr || !out)
		return -EINVAL;
	return trace_ask_status(tr, &answer);
}

int wsc_trace_set_ring(struct wsc_trace *tr, bool on)
{
	if (!tr)
		return -EINVAL;
	tr->ring = on;
	return 0;
}

int wsc_trace_ring_counts(struct wsc_trace *tr, uint64_t *lost,
			  uint64_t *pending)
{
	struct wsc_trace_status st;
	struct trace_status_answer answer = { .st = &st };
	int ret;

	if (!tr)
		return -EINVAL;
	ret = trace_ask_status(tr, &answer);
	if (ret)
		return ret;
	if (lost)
		*lost = answer.ring_lost;
	if (pending)
		*pending = answer.ring_pending;
	return answer.ring;
}

/*
 * A fetch in progress: a call's buckets may span several messages, so a
 * call is handed to the caller when the next one begins, or at the end.
 */
struct trace_fetch {
	int (*fn)(void *ctx, const struct wsc_trace_call *call);
	void *ctx;
	struct wsc_trace_call cur;
	bool have;
	uint64_t (*buckets)[3];
	size_t cap;
	uint64_t (*errnos)[2];
	size_t errno_cap;
	unsigned int calls;	/* handed over */
};

static int trace_flush(struct wsc_nl_req *req, struct trace_fetch *f)
{
	int ret;

	if (!f->have)
		return 0;
	f->have = false;
	f->cur.buckets = (const uint64_t (*)[3])f->buckets;
	f->cur.errnos = (const uint64_t (*)[2])f->errnos;
	ret = f->fn(f->ctx, &f->cur);
	if (ret) {
		wsc_nl_req_fail(req, ret < 0 ? ret : -ECANCELED, NULL);
		return -1;
	}
	f->calls++;
	return 0;
}

static int trace_add_bucket(struct wsc_nl_req *req, struct trace_fetch *f,
			    struct nlattr *nest)
{
	struct nlattr *btb[WSC_LAT_A_BUCKET_MAX + 1];
	uint64_t low, high, (*grown)[3];
	int ret;

	ret = nla_parse_nested(btb, WSC_LAT_A_BUCKET_MAX, nest,
			       wsc_nl_bucket_policy);
	if (ret < 0)
		return wsc_nl_req_fail(req, -EBADMSG, "malformed bucket (%s)",
				       nl_geterror(ret));
	if (!btb[WSC_LAT_A_BUCKET_LOW_NS] || !btb[WSC_LAT_A_BUCKET_HIGH_NS] ||
	    !btb[WSC_LAT_A_BUCKET_COUNT])
		return wsc_nl_req_fail(req, -EBADMSG,
				       "bucket without LOW_NS, HIGH_NS or COUNT");
	low = nla_get_u64(btb[WSC_LAT_A_BUCKET_LOW_NS]);
	high = nla_get_u64(btb[WSC_LAT_A_BUCKET_HIGH_NS]);
	if (low > high ||
	    (f->cur.nr_buckets && low <= f->buckets[f->cur.nr_buckets - 1][1]))
		return wsc_nl_req_fail(req, -EBADMSG,
				       "buckets of call %u out of order",
				       f->cur.nr);
	if (f->cur.nr_buckets == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;

		grown = realloc(f->buckets, cap * sizeof(*f->buckets));
		if (!grown)
			return wsc_nl_req_fail(req, -ENOMEM, "out of memory");
		f->buckets = grown;
		f->cap = cap;
	}
	f->buckets[f->cur.nr_buckets][0] = low;
	f->buckets[f->cur.nr_buckets][1] = high;
	f->buckets[f->cur.nr_buckets][2] = nla_get_u64(btb[WSC_LAT_A_BUCKET_COUNT]);
	f->cur.nr_buckets++;
	return NL_OK;
}

static int trace_add_errno(struct wsc_nl_req *req, struct trace_fetch *f,
			   struct nlattr *nest)
{
	struct nlattr *etb[WSC_LAT_A_ERRNO_MAX + 1];
	uint64_t (*grown)[2], err, count;
	size_t i;
	int ret;

	ret = nla_parse_nested(etb, WSC_LAT_A_ERRNO_MAX, nest,
			       wsc_nl_errno_policy);
	if (ret < 0 || !etb[WSC_LAT_A_ERRNO_VALUE] || !etb[WSC_LAT_A_ERRNO_COUNT])
		return wsc_nl_req_fail(req, -EBADMSG,
				       "malformed errno count of call %u",
				       f->cur.nr);
	err = nla_get_u32(etb[WSC_LAT_A_ERRNO_VALUE]);
	count = nla_get_u64(etb[WSC_LAT_A_ERRNO_COUNT]);
	if (f->cur.nr_errnos == f->errno_cap) {
		size_t cap = f->errno_cap ? 2 * f->errno_cap : 8;

		grown = realloc(f->errnos, cap * sizeof(*f->errnos));
		if (!grown)
			return wsc_nl_req_fail(req, -ENOMEM, "out of memory");
		f->errnos = grown;
		f->errno_cap = cap;
	}
	/* Ascending: the kernel sends them in no particular order. */
	for (i = f->cur.nr_errnos; i > 0 && f->errnos[i - 1][0] > err; i--) {
		f->errnos[i][0] = f->errnos[i - 1][0];
		f->errnos[i][1] = f->errnos[i - 1][1];
	}
	f->errnos[i][0] = err;
	f->errnos[i][1] = count;
	f->cur.nr_errnos++;
	return NL_OK;
}

static int trace_parse_call(struct wsc_nl_req *req, struct nlattr **tb,
			    struct nlmsghdr *nlh)
{
	struct trace_fetch *f = req->priv;
	struct nlattr *pos;
	bool ring = false;
	uint32_t nr, op = 0;
	int rem;

	if (tb[WSC_LAT_A_CALL_NR]) {
		nr = nla_get_u32(tb[WSC_LAT_A_CALL_NR]);
	} else if (tb[WSC_LAT_A_CALL_RING_OP]) {
		/* After every system call: numbers none of them has. */
		ring = true;
		op = nla_get_u32(tb[WSC_LAT_A_CALL_RING_OP]);
		if (op > UINT32_MAX - WSC_TRACE_NR_MAX)
			return wsc_nl_req_fail(req, -EBADMSG,
					       "ring opcode %u out of range", op);
		nr = WSC_TRACE_NR_MAX + op;
	} else {
		return wsc_nl_req_fail(req, -EBADMSG,
				       "call message without TRACE_NR or RING_OP");
	}
	if (tb[WSC_LAT_A_CALL_COUNT]) {
		/* A new call: the previous one is complete. */
		if (!tb[WSC_LAT_A_CALL_ERRORS] || !tb[WSC_LAT_A_CALL_TOTAL_NS] ||
		    !tb[WSC_LAT_A_CALL_MAX_NS])
			return wsc_nl_req_fail(req, -EBADMSG,
					       "call %u without ERRORS, TOTAL_NS or MAX_NS",
					       nr);
		if (f->have && nr <= f->cur.nr)
			return wsc_nl_req_fail(req, -EBADMSG,
					       "call %u after call %u", nr,
					       f->cur.nr);
		if (trace_flush(req, f))
			return NL_OK;
		memset(&f->cur, 0, sizeof(f->cur));
		f->cur.nr = nr;
		f->cur.ring = ring;
		f->cur.op = op;
		f->cur.calls = nla_get_u64(tb[WSC_LAT_A_CALL_COUNT]);
		f->cur.errors = nla_get_u64(tb[WSC_LAT_A_CALL_ERRORS]);
		f->cur.total_ns = nla_get_u64(tb[WSC_LAT_A_CALL_TOTAL_NS]);
		f->cur.max_ns = nla_get_u64(tb[WSC_LAT_A_CALL_MAX_NS]);
		if (tb[WSC_LAT_A_CALL_OFF_NS])
			f->cur.off_ns = nla_get_u64(tb[WSC_LAT_A_CALL_OFF_NS]);
		/* Every 1.x module sends both; a row without them has none. */
		if (tb[WSC_LAT_A_CALL_WRAPPED])
			f->cur.wrapped = nla_get_u64(tb[WSC_LAT_A_CALL_WRAPPED]);
		f->have = true;
	} else if (!f->have || nr != f->cur.nr) {
		return wsc_nl_req_fail(req, -EBADMSG,
				       "buckets of call %u without its figures", nr);
	}
	nla_for_each_attr(pos, wsc_nl_attrs(nlh), wsc_nl_attrs_len(nlh), rem) {
		if (nla_type(pos) == WSC_LAT_A_CALL_BUCKET)
			trace_add_bucket(req, f, pos);
		else if (nla_type(pos) == WSC_LAT_A_CALL_ERRNO)
			trace_add_errno(req, f, pos);
		if (req->err)
			break;
	}
	return NL_OK;
}

int wsc_trace_fetch(struct wsc_trace *tr,
		    int (*fn)(void *ctx, const struct wsc_trace_call *call),
		    void *ctx)
{
	struct trace_fetch f = { .fn = fn, .ctx = ctx };
	struct wsc_nl_req req = { .parse = trace_parse_call, .priv = &f,
				  WSC_NL_ANSWER(wsc_nl_call_policy) };
	int ret;

	if (!tr || !fn)
		return -EINVAL;
	ret = trace_dump(tr, WSC_LAT_CMD_TRACE_FETCH, &req);
	if (!ret) {
		trace_flush(&req, &f);
		ret = req.err;
	}
	free(f.buckets);
	free(f.errnos);
	return ret ? ret : (int)f.calls;
}

/* A tasks dump in progress. */
struct trace_tasks {
	int (*fn)(void *ctx, const struct wsc_trace_task *task);
	void *ctx;
	unsigned int tasks;	/* handed over */
};

static int trace_parse_task(struct wsc_nl_req *req, struct nlattr **tb,
			    struct nlmsghdr *nlh)
{
	static const unsigned int needed[] = {
		WSC_LAT_A_TASK_TID, WSC_LAT_A_TASK_TGID, WSC_LAT_A_TASK_PPID,
		WSC_LAT_A_TASK_COMM, WSC_LAT_A_TASK_CALLS, WSC_LAT_A_TASK_ERRORS,
		WSC_LAT_A_TASK_TOTAL_NS, WSC_LAT_A_TASK_OFF_NS,
	};
	struct trace_tasks *tt = req->priv;
	struct wsc_trace_task task = { 0 };
	unsigned int i;
	int ret;

	(void)nlh;
	for (i = 0; i < ARRAY_LEN(needed); i++)
		if (!tb[needed[i]])
			return wsc_nl_req_fail(req, -EBADMSG,
					       "task without attribute %u",
					       needed[i]);
	task.tid = nla_get_u32(tb[WSC_LAT_A_TASK_TID]);
	task.pid = nla_get_u32(tb[WSC_LAT_A_TASK_TGID]);
	task.ppid = nla_get_u32(tb[WSC_LAT_A_TASK_PPID]);
	nla_strlcpy(task.comm, tb[WSC_LAT_A_TASK_COMM], sizeof(task.comm));
	task.calls = nla_get_u64(tb[WSC_LAT_A_TASK_CALLS]);
	task.errors = nla_get_u64(tb[WSC_LAT_A_TASK_ERRORS]);
	task.total_ns = nla_get_u64(tb[WSC_LAT_A_TASK_TOTAL_NS]);
	task.off_ns = nla_get_u64(tb[WSC_LAT_A_TASK_OFF_NS]);
	ret = tt->fn(tt->ctx, &task);
	if (ret)
		return wsc_nl_req_fail(req, ret < 0 ? ret : -ECANCELED, NULL);
	tt->tasks++;
	return NL_OK;
}

int wsc_trace_tasks(struct wsc_trace *tr,
		    int (*fn)(void *ctx, const struct wsc_trace_task *task),
		    void *ctx)
{
	struct trace_tasks tt = { .fn = fn, .ctx = ctx };
	struct wsc_nl_req req = { .parse = trace_parse_task, .priv = &tt,
				  WSC_NL_ANSWER(wsc_nl_task_policy) };
	int ret;

	if (!tr || !fn)
		return -EINVAL;
	ret = trace_dump(tr, WSC_LAT_CMD_TRACE_TASKS, &req);
	return ret ? ret : (int)tt.tasks;
}

int wsc_trace_set_events(struct wsc_trace *tr, uint32_t per_cpu)
{
	if (!tr)
		return -EINVAL;
	tr->nl.error[0] = '\0';
	if (per_cpu > WSC_TRACE_EVENTS_MAX) {
		wsc_nl_set_error(&tr->nl, "%u events per CPU: at most %d",
				 per_cpu, WSC_TRACE_EVENTS_MAX);
		return -EINVAL;
	}
	tr->events = per_cpu;
	return 0;
}

/*
 * A drain in progress.  The kernel's arrays sit in the message at 4-byte
 * alignment; the caller gets them copied into @buf, aligned for the
 * struct's 64-bit fields.
 */
struct trace_drain {
	int (*fn)(void *ctx, const struct wsc_trace_event *ev, size_t n);
	void *ctx;
	struct wsc_trace_event *buf;
	size_t cap;
	uint64_t lost;
	unsigned long events;	/* handed over */
};

static int trace_parse_events(struct wsc_nl_req *req, struct nlattr **tb,
			      struct nlmsghdr *nlh)
{
	struct trace_drain *dr = req->priv;
	struct nlattr *arr = tb[WSC_LAT_A_TRACE_EVENT_ARRAY];
	struct wsc_trace_event *grown;
	size_t len, n;
	int ret;

	(void)nlh;
	if (tb[WSC_LAT_A_TRACE_LOST_EVENTS])
		dr->lost = nla_get_u64(tb[WSC_LAT_A_TRACE_LOST_EVENTS]);
	if (!arr)
		return NL_OK;
	len = (size_t)nla_len(arr);
	if (!len || len % sizeof(*dr->buf))
		return wsc_nl_req_fail(req, -EBADMSG,
				       "an event array of %zu bytes, not a multiple of %zu",
				       len, sizeof(*dr->buf));
	n = len / sizeof(*dr->buf);
	if (n > dr->cap) {
		grown = realloc(dr->buf, len);
		if (!grown)
			return wsc_nl_req_fail(req, -ENOMEM, "out of memory");
		dr->buf = grown;
		dr->cap = n;
	}
	memcpy(dr->buf, nla_data(arr), len);
	ret = dr->fn(dr->ctx, dr->buf, n);
	if (ret)
		return wsc_nl_req_fail(req, ret < 0 ? ret : -ECANCELED, NULL);
	dr->events += n;
	return NL_OK;
}

int wsc_trace_events(struct wsc_trace *tr,
		     int (*fn)(void *ctx, const struct wsc_trace_event *ev,
			       size_t n),
		     void *ctx, uint64_t *lost)
{
	struct trace_drain dr = { .fn = fn, .ctx = ctx };
	struct wsc_nl_req req = { .parse = trace_parse_events, .priv = &dr,
				  WSC_NL_ANSWER(wsc_nl_trace_policy) };
	int ret;

	if (!tr || !fn)
		return -EINVAL;
	ret = trace_dump(tr, WSC_LAT_CMD_TRACE_EVENTS, &req);
	free(dr.buf);
	if (lost && !ret)
		*lost = dr.lost;
	if (!ret && dr.events > INT_MAX)
		ret = -EOVERFLOW;
	return ret ? ret : (int)dr.events;
}
