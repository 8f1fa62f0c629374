// SPDX-License-Identifier: GPL-2.0
/*
 * The trace's commands of the "syscall_lat" family: start, stop, status,
 * fetch (a dump of per-syscall histograms) and reset; the family, its ops
 * and policies are in genl.c.  Like genl_lab.c, this file only
 * translates: the trace itself belongs to trace.c.
 *
 * Starting, stopping and resetting need CAP_SYS_ADMIN or CAP_PERFMON: a
 * trace puts a probe on every task's system call path.  So does fetching:
 * the latencies of another user's calls are what perf_event_paranoid
 * keeps from unprivileged users.  Status is open: it tells what is traced
 * and how much was lost, not how the calls went.  Draining a trace's
 * events (TRACE_EVENTS) is its owner's alone, as it consumes them.
 */
#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/netlink.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <wsc_hist.h>

#include "wsc.h"
#include "genl.h"
#include "genl_msg.h"
#include "trace.h"

static bool wsc_genl_trace_capable(const struct sk_buff *skb)
{
	return netlink_capable(skb, CAP_PERFMON) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

/* The socket a request came from: the owner of what it starts. */
static void wsc_genl_trace_who(const struct sk_buff *skb,
			       struct wsc_trace_owner *who)
{
	who->net = sock_net(skb->sk);
	who->portid = NETLINK_CB(skb).portid;
}

/* The trace a request names (TRACE_ID), or 0 for the caller's newest. */
static u64 wsc_genl_trace_id(struct nlattr **attrs)
{
	return attrs[WSC_LAT_A_TRACE_ID] ? nla_get_u64(attrs[WSC_LAT_A_TRACE_ID]) :
					 0;
}

/* Fill @spec from a start's attributes; -EINVAL with a message. */
static int wsc_genl_trace_spec(struct genl_info *info,
			       struct wsc_trace_request *spec)
{
	struct nlattr *pid = info->attrs[WSC_LAT_A_TRACE_PID];
	struct nlattr *cgroup = info->attrs[WSC_LAT_A_TRACE_CGROUP];
	struct nlattr *all = info->attrs[WSC_LAT_A_TRACE_ALL];
	struct nlattr *set = info->attrs[WSC_LAT_A_TRACE_CALL_SET];
	struct nlattr *err = info->attrs[WSC_LAT_A_TRACE_ERRNO];

	if (!!pid + !!cgroup + !!all > 1) {
		NL_SET_ERR_MSG_ATTR(info->extack, all ?: cgroup,
				    "give one target, not both: TRACE_PID, TRACE_CGROUP or TRACE_ALL");
		return -EINVAL;
	}
	if (!pid && !cgroup && !all) {
		NL_SET_ERR_MSG(info->extack,
			       "a target is required: TRACE_PID, TRACE_CGROUP or TRACE_ALL");
		return -EINVAL;
	}
	/* The policy refused a zero-length attribute; not so "". */
	if (cgroup && !*(const char *)nla_data(cgroup)) {
		NL_SET_ERR_MSG_ATTR(info->extack, cgroup,
				    "the cgroup path is empty");
		return -EINVAL;
	}
	if (set && !nla_len(set)) {
		NL_SET_ERR_MSG_ATTR(info->extack, set, "the call set is empty");
		return -EINVAL;
	}
	memset(spec, 0, sizeof(*spec));
	spec->pid = pid ? nla_get_u32(pid) : 0;
	/* The policy made TRACE_CGROUP a NUL-terminated string. */
	spec->cgroup = cgroup ? nla_data(cgroup) : NULL;
	spec->all = all;
	spec->call_set = set ? nla_data(set) : NULL;
	spec->call_set_len = set ? nla_len(set) : 0;
	spec->failed = info->attrs[WSC_LAT_A_TRACE_FAILED];
	spec->err = err ? nla_get_u32(err) : 0;
	/* The policy kept it to 0..WSC_TRACE_EVENTS_MAX. */
	if (info->attrs[WSC_LAT_A_TRACE_EVENTS])
		spec->events = nla_get_u32(info->attrs[WSC_LAT_A_TRACE_EVENTS]);
	spec->ring = info->attrs[WSC_LAT_A_TRACE_RING];
	return 0;
}

static int wsc_genl_trace_reply_status(struct genl_info *info,
				       struct wsc_trace_session *t);

/**
 * wsc_genl_trace_start() - TRACE_START: trace a process tree, a cgroup or
 * the machine
 * @skb:  the request
 * @info: its parsed attributes (one target, filters)
 *
 * Return: 0 once the new trace's status is sent, or -errno, the refusal
 * named in the extack.
 */
int wsc_genl_trace_start(struct sk_buff *skb, struct genl_info *info)
{
	struct wsc_trace_owner who;
	struct wsc_trace_request spec;
	struct wsc_trace_session *t;
	int err;

	if (!wsc_genl_version_ok(info->nlhdr, info->extack))
		return -EPROTO;
	if (!wsc_genl_trace_capable(skb)) {
		NL_SET_ERR_MSG(info->extack,
			       "tracing needs CAP_SYS_ADMIN or CAP_PERFMON");
		return -EPERM;
	}
	err = wsc_genl_trace_spec(info, &spec);
	if (err)
		return err;
	wsc_genl_trace_who(skb, &who);
	t = wsc_trace_session_start(&spec, &who, info->extack);
	if (IS_ERR(t))
		return PTR_ERR(t);
	/* The trace runs whether or not its number reaches the caller. */
	err = wsc_genl_trace_reply_status(info, t);
	wsc_trace_session_put(t);
	return err;
}

/**
 * wsc_genl_trace_stop() - TRACE_STOP: detach, keeping the counts
 * @skb:  the request
 * @info: its TRACE_ID, if any, and extack
 *
 * Return: 0 (also when the trace had ended by itself) or -errno.
 */
int wsc_genl_trace_stop(struct sk_buff *skb, struct genl_info *info)
{
	struct wsc_trace_owner who;

	if (!wsc_genl_version_ok(info->nlhdr, info->extack))
		return -EPROTO;
	if (!wsc_genl_trace_capable(skb)) {
		NL_SET_ERR_MSG(info->extack,
			       "stopping a trace needs CAP_SYS_ADMIN or CAP_PERFMON");
		return -EPERM;
	}
	wsc_genl_trace_who(skb, &who);
	return wsc_trace_session_stop(wsc_genl_trace_id(info->attrs), &who,
			      netlink_capable(skb, CAP_SYS_ADMIN), info->extack);
}

/**
 * wsc_genl_trace_reset() - TRACE_RESET: free an ended trace's counts
 * @skb:  the request
 * @info: its TRACE_ID, if any, and extack
 *
 * Return: 0, -EBUSY while the trace is active, or another -errno.
 */
int wsc_genl_trace_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct wsc_trace_owner who;

	if (!wsc_genl_version_ok(info->nlhdr, info->extack))
		return -EPROTO;
	if (!wsc_genl_trace_capable(skb)) {
		NL_SET_ERR_MSG(info->extack,
			       "resetting a trace needs CAP_SYS_ADMIN or CAP_PERFMON");
		return -EPERM;
	}
	wsc_genl_trace_who(skb, &who);
	return wsc_trace_session_reset(wsc_genl_trace_id(info->attrs), &who,
			       netlink_capable(skb, CAP_SYS_ADMIN), info->extack);
}

/* Attributes of a status message that are u64 counts, and their values. */
#define WSC_GENL_TRACE_U64S	12

static size_t wsc_genl_trace_status_size(const struct wsc_trace_report *st)
{
	return nla_total_size(sizeof(u32)) * 8 +	/* STATE END PID LIVE, 2 SLOTS, ERRNO, EVENTS */
	       nla_total_size(0) * 3 +			/* ALL FAILED RING */
	       nla_total_size_64bit(sizeof(u64)) *
			(4 + WSC_GENL_TRACE_U64S) +	/* ID, the counts, LOST_EVENTS, RING's two */
	       (st->cgroup ? nla_total_size(strlen(st->cgroup) + 1) : 0);
}

static int wsc_genl_trace_put_target(struct sk_buff *skb,
				     const struct wsc_trace_report *st)
{
	if (st->cgroup)
		return nla_put_string(skb, WSC_LAT_A_TRACE_CGROUP, st->cgroup);
	if (st->all)
		return nla_put_flag(skb, WSC_LAT_A_TRACE_ALL);
	return nla_put_u32(skb, WSC_LAT_A_TRACE_PID, st->pid);
}

static int wsc_genl_trace_put_status(struct sk_buff *skb,
				     const struct wsc_trace_report *st)
{
	const struct {
		int attr;
		u64 value;
	} counts[WSC_GENL_TRACE_U64S] = {
		{ WSC_LAT_A_TRACE_LOST_TASKS,	st->lost_tasks },
		{ WSC_LAT_A_TRACE_LOST_CALLS,	st->lost_calls },
		{ WSC_LAT_A_TRACE_LOST_EXITS,	st->lost_exits },
		{ WSC_LAT_A_TRACE_LOST_HIST,	st->lost_hist },
		{ WSC_LAT_A_TRACE_LOST_ERRNOS,	st->lost_errnos },
		{ WSC_LAT_A_TRACE_LOST_RECORDS,	st->lost_records },
		{ WSC_LAT_A_TRACE_FOREIGN,	st->foreign },
		{ WSC_LAT_A_TRACE_UNMATCHED,	st->unmatched },
		{ WSC_LAT_A_TRACE_UNFINISHED,	st->unfinished },
		{ WSC_LAT_A_TRACE_FILTERED,	st->filtered },
		{ WSC_LAT_A_TRACE_TASKS,	st->tasks },
		{ WSC_LAT_A_TRACE_DURATION_NS,	st->duration_ns },
	};
	unsigned int i;

	if (nla_put_u32(skb, WSC_LAT_A_TRACE_STATE, st->state))
		return -EMSGSIZE;
	if (st->state == WSC_TRACE_IDLE)
		return 0;
	if (nla_put_u64_64bit(skb, WSC_LAT_A_TRACE_ID, st->id,
			      WSC_LAT_A_TRACE_PAD) ||
	    nla_put_u32(skb, WSC_LAT_A_TRACE_END, st->end) ||
	    nla_put_u32(skb, WSC_LAT_A_TRACE_LIVE, st->live) ||
	    nla_put_u32(skb, WSC_LAT_A_TRACE_TASK_SLOTS, st->task_slots) ||
	    nla_put_u32(skb, WSC_LAT_A_TRACE_HIST_SLOTS, st->hist_slots) ||
	    wsc_genl_trace_put_target(skb, st))
		return -EMSGSIZE;
	if ((st->failed && nla_put_flag(skb, WSC_LAT_A_TRACE_FAILED)) ||
	    (st->err && nla_put_u32(skb, WSC_LAT_A_TRACE_ERRNO, st->err)))
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(counts); i++)
		if (nla_put_u64_64bit(skb, counts[i].attr, counts[i].value,
				      WSC_LAT_A_TRACE_PAD))
			return -EMSGSIZE;
	if (st->events &&
	    (nla_put_u32(skb, WSC_LAT_A_TRACE_EVENTS, st->events) ||
	     nla_put_u64_64bit(skb, WSC_LAT_A_TRACE_LOST_EVENTS, st->lost_events,
			       WSC_LAT_A_TRACE_PAD)))
		return -EMSGSIZE;
	/* Only to a client that asked for ring requests, so knows these. */
	if (st->ring &&
	    (nla_put_flag(skb, WSC_LAT_A_TRACE_RING) ||
	     nla_put_u64_64bit(skb, WSC_LAT_A_TRACE_RING_LOST, st->ring_lost,
			       WSC_LAT_A_TRACE_PAD) ||
	     nla_put_u64_64bit(skb, WSC_LAT_A_TRACE_RING_PENDING,
			       st->ring_pending, WSC_LAT_A_TRACE_PAD)))
		return -EMSGSIZE;
	return 0;
}

/* Send @t's status (or the idle state, @t NULL) as the reply to @info. */
static int wsc_genl_trace_reply_status(struct genl_info *info,
				       struct wsc_trace_session *t)
{
	struct wsc_trace_report st = { .state = WSC_TRACE_IDLE };
	struct sk_buff *msg;
	void *hdr;

	if (t)
		wsc_trace_session_report(t, &st);
	msg = genlmsg_new(wsc_genl_trace_status_size(&st), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = wsc_genl_put_hdr(msg, info->snd_portid, info->snd_seq, 0,
			       WSC_LAT_CMD_TRACE_STATUS);
	if (!hdr || wsc_genl_trace_put_status(msg, &st)) {
		/* The size above is wrong: a bug, not the caller's. */
		WARN_ON_ONCE(1);
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/**
 * wsc_genl_trace_status() - TRACE_STATUS: a trace's state and losses
 * @skb:  the request
 * @info: its TRACE_ID, if any; where the reply goes
 *
 * Open to every user: it tells what is traced, not how the calls went.
 *
 * Return: 0 once the status message is sent, or -errno.
 */
int wsc_genl_trace_status(struct sk_buff *skb, struct genl_info *info)
{
	u64 id = wsc_genl_trace_id(info->attrs);
	struct wsc_trace_owner who;
	struct wsc_trace_session *t;
	int err;

	if (!wsc_genl_version_ok(info->nlhdr, info->extack))
		return -EPROTO;
	wsc_genl_trace_who(skb, &who);
	t = wsc_trace_session_get(id, &who);
	if (!t && id) {
		NL_SET_ERR_MSG(info->extack, "there is no trace of that number");
		return -ENOENT;
	}
	err = wsc_genl_trace_reply_status(info, t);
	if (t)
		wsc_trace_session_put(t);
	return err;
}

/**
 * struct wsc_genl_trace_dump - where a fetch (or a tasks or events dump)
 * stands
 * @t:       the trace, referenced from .start to .done; NULL: refused
 * @nr:      the system call being sent (the task, for a tasks dump; the
 *           CPU, for an events dump)
 * @bucket:  its next bucket (an events dump: the CPU's events still to
 *           send, of those its ring held when the dump reached it)
 * @started: its first message (with the sums) has been sent (an events
 *           dump: the CPU's count has been taken; @nr past the last
 *           CPU, the lost events have been sent)
 * @privileged: the caller may fetch
 * @missing: a trace number was given, and no such trace exists
 * @foreign: the trace is another socket's (an events dump refuses it)
 */
struct wsc_genl_trace_dump {
	struct wsc_trace_session *t;
	u32 nr;
	u32 bucket;
	bool started;
	bool privileged;
	bool missing;
	bool foreign;
};

static struct wsc_genl_trace_dump *
wsc_genl_trace_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct wsc_genl_trace_dump) > sizeof(cb->ctx));
	return (struct wsc_genl_trace_dump *)cb->ctx;
}

/**
 * wsc_genl_trace_fetch_start() - .start of TRACE_FETCH and TRACE_TASKS
 * @cb: the dump
 *
 * Holds the trace until wsc_genl_trace_fetch_done() if the caller may
 * fetch; refusals wait for the first dumpit, which has an extack.
 *
 * Return: 0.
 */
int wsc_genl_trace_fetch_start(struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);
	u64 id = wsc_genl_trace_id(wsc_genl_dump_attrs(cb));
	struct wsc_trace_owner who;

	d->privileged = wsc_genl_trace_capable(cb->skb);
	if (!d->privileged)
		return 0;
	wsc_genl_trace_who(cb->skb, &who);
	d->t = wsc_trace_session_get(id, &who);
	d->missing = id && !d->t;
	return 0;
}

/**
 * wsc_genl_trace_tasks_start() - .start of TRACE_TASKS
 * @cb: the dump
 *
 * Return: 0.
 */
int wsc_genl_trace_tasks_start(struct netlink_callback *cb)
{
	return wsc_genl_trace_fetch_start(cb);
}

/**
 * wsc_genl_trace_fetch_done() - .done of TRACE_FETCH and TRACE_TASKS
 * @cb: the dump
 *
 * Return: 0.
 */
int wsc_genl_trace_fetch_done(struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);

	if (d->t)
		wsc_trace_session_put(d->t);
	return 0;
}

/* The refusal of a dump, or 0: its first dumpit has the extack. */
static int wsc_genl_trace_dump_refused(struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);

	if (!wsc_genl_version_ok(cb->nlh, cb->extack))
		return -EPROTO;
	if (!d->privileged) {
		NL_SET_ERR_MSG(cb->extack,
			       "reading a trace needs CAP_SYS_ADMIN or CAP_PERFMON");
		return -EPERM;
	}
	if (d->missing) {
		NL_SET_ERR_MSG(cb->extack, "there is no trace of that number");
		return -ENOENT;
	}
	if (!d->t) {
		NL_SET_ERR_MSG(cb->extack, "there is no trace: start one first");
		return -ENODATA;
	}
	return 0;
}

/* At most this many errnos per call: a message holds them all. */
#define WSC_GENL_TRACE_ERRNOS	64

static int wsc_genl_trace_put_errnos(struct sk_buff *skb,
				     struct wsc_trace_session *t, unsigned int nr)
{
	unsigned int pos = 0, sent = 0;
	struct nlattr *nest;
	u64 count;
	u32 err;

	while (sent < WSC_GENL_TRACE_ERRNOS &&
	       wsc_trace_errno_next(t, nr, &pos, &err, &count)) {
		nest = nla_nest_start(skb, WSC_LAT_A_CALL_ERRNO);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u32(skb, WSC_LAT_A_ERRNO_VALUE, err) ||
		    nla_put_u64_64bit(skb, WSC_LAT_A_ERRNO_COUNT, count,
				      WSC_LAT_A_ERRNO_PAD)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
		sent++;
	}
	return 0;
}

/* Row d->nr's name: a system call's number, or a ring request's opcode. */
static int wsc_genl_trace_put_row_name(struct sk_buff *skb, u32 nr)
{
	u32 calls = wsc_trace_nr_calls();

	if (nr < calls)
		return nla_put_u32(skb, WSC_LAT_A_CALL_NR, nr);
	return nla_put_u32(skb, WSC_LAT_A_CALL_RING_OP, nr - calls);
}

/*
 * One message for row d->nr: its name, its sums and errnos if this is
 * its first message, then as many of its non-empty buckets as fit.
 * Returns 0 when the row is complete, -EMSGSIZE when the skb is full.
 */
static int wsc_genl_trace_put_call(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   const struct wsc_trace_sum *sum)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);
	bool any = false;
	void *hdr;
	u64 count;

	hdr = wsc_genl_put_hdr(skb, NETLINK_CB(cb->skb).portid,
			       cb->nlh->nlmsg_seq, NLM_F_MULTI,
			       WSC_LAT_CMD_TRACE_FETCH);
	if (!hdr)
		return -EMSGSIZE;
	if (wsc_genl_trace_put_row_name(skb, d->nr))
		goto cancel_msg;
	if (!d->started) {
		if (nla_put_u64_64bit(skb, WSC_LAT_A_CALL_COUNT, sum->calls,
				      WSC_LAT_A_CALL_PAD) ||
		    nla_put_u64_64bit(skb, WSC_LAT_A_CALL_ERRORS, sum->errors,
				      WSC_LAT_A_CALL_PAD) ||
		    nla_put_u64_64bit(skb, WSC_LAT_A_CALL_TOTAL_NS,
				      sum->total_ns, WSC_LAT_A_CALL_PAD) ||
		    nla_put_u64_64bit(skb, WSC_LAT_A_CALL_OFF_NS,
				      sum->off_ns, WSC_LAT_A_CALL_PAD) ||
		    nla_put_u64_64bit(skb, WSC_LAT_A_CALL_WRAPPED,
				      sum->wrapped, WSC_LAT_A_CALL_PAD) ||
		    nla_put_u64_64bit(skb, WSC_LAT_A_CALL_MAX_NS, sum->max_ns,
				      WSC_LAT_A_CALL_PAD))
			goto cancel_msg;
		if (sum->errors &&
		    wsc_genl_trace_put_errnos(skb, d->t, d->nr))
			goto cancel_msg;
		d->started = true;
		any = true;
	}
	for (; d->bucket < WSC_HIST_BUCKETS; d->bucket++) {
		count = wsc_trace_bucket(d->t, d->nr, d->bucket);
		if (!count)
			continue;
		if (wsc_genl_put_bucket(skb, WSC_LAT_A_CALL_BUCKET,
					WSC_GENL_ALL_CPUS, d->bucket, count))
			break;
		any = true;
	}
	if (!any)
		goto cancel_msg;
	genlmsg_end(skb, hdr);
	return d->bucket < WSC_HIST_BUCKETS ? -EMSGSIZE : 0;

cancel_msg:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/**
 * wsc_genl_trace_fetch() - TRACE_FETCH: each system call's figures and
 * buckets, then each io_uring opcode's
 * @skb: the buffer to fill
 * @cb:  the dump
 *
 * Return: the bytes in @skb (0 at the end), or -errno.
 */
int wsc_genl_trace_fetch(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);
	struct wsc_trace_sum sum;
	unsigned int rows;
	int err;

	err = wsc_genl_trace_dump_refused(cb);
	if (err)
		return err;
	rows = wsc_trace_nr_rows(d->t);
	for (; d->nr < rows; d->nr++, d->bucket = 0, d->started = false) {
		/* Each call sums its buckets over every CPU. */
		cond_resched();
		if (!wsc_trace_row(d->t, d->nr, &sum))
			continue;
		if (wsc_genl_trace_put_call(skb, cb, &sum))
			return wsc_genl_dump_progress(skb);
	}
	return skb->len;
}

static int wsc_genl_trace_put_task(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   const struct wsc_trace_record *rec)
{
	void *hdr;

	hdr = wsc_genl_put_hdr(skb, NETLINK_CB(cb->skb).portid,
			       cb->nlh->nlmsg_seq, NLM_F_MULTI,
			       WSC_LAT_CMD_TRACE_TASKS);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, WSC_LAT_A_TASK_TID, READ_ONCE(rec->tid)) ||
	    nla_put_u32(skb, WSC_LAT_A_TASK_TGID, READ_ONCE(rec->tgid)) ||
	    nla_put_u32(skb, WSC_LAT_A_TASK_PPID, READ_ONCE(rec->ppid)) ||
	    nla_put(skb, WSC_LAT_A_TASK_COMM, sizeof(rec->comm), rec->comm) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_TASK_CALLS, READ_ONCE(rec->calls),
			      WSC_LAT_A_TASK_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_TASK_ERRORS, READ_ONCE(rec->errors),
			      WSC_LAT_A_TASK_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_TASK_TOTAL_NS,
			      READ_ONCE(rec->total_ns), WSC_LAT_A_TASK_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_TASK_OFF_NS,
			      READ_ONCE(rec->off_ns), WSC_LAT_A_TASK_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * wsc_genl_trace_tasks() - TRACE_TASKS: each followed task's figures
 * @skb: the buffer to fill
 * @cb:  the dump
 *
 * Return: the bytes in @skb (0 at the end), or -errno.
 */
int wsc_genl_trace_tasks(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);
	const struct wsc_trace_record *rec;
	int err;

	err = wsc_genl_trace_dump_refused(cb);
	if (err)
		return err;
	for (; (rec = wsc_trace_task_at(d->t, d->nr)); d->nr++) {
		if (wsc_genl_trace_put_task(skb, cb, rec))
			return wsc_genl_dump_progress(skb);
	}
	return skb->len;
}

/**
 * wsc_genl_trace_events_start() - .start of TRACE_EVENTS
 * @cb: the dump
 *
 * As a fetch's, and notes whether the trace is the caller's own.
 *
 * Return: 0.
 */
int wsc_genl_trace_events_start(struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);
	struct wsc_trace_owner who;

	wsc_genl_trace_fetch_start(cb);
	wsc_genl_trace_who(cb->skb, &who);
	d->foreign = d->t && !wsc_trace_session_owned(d->t, &who);
	return 0;
}

/* The header of a TRACE_EVENTS message, or NULL when @skb is full. */
static void *wsc_genl_trace_events_hdr(struct sk_buff *skb,
				       struct netlink_callback *cb)
{
	return wsc_genl_put_hdr(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, NLM_F_MULTI,
				WSC_LAT_CMD_TRACE_EVENTS);
}

/*
 * One message of up to d->bucket events of CPU d->nr, as many as fit.
 * Returns 0 once they are sent, -EMSGSIZE when the skb is full.
 */
static int wsc_genl_trace_put_events(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);
	const size_t size = sizeof(struct wsc_trace_event);
	struct nlattr *attr;
	unsigned int n;
	void *hdr;

	hdr = wsc_genl_trace_events_hdr(skb, cb);
	if (!hdr)
		return -EMSGSIZE;
	n = skb_tailroom(skb) > NLA_HDRLEN ?
	    (skb_tailroom(skb) - NLA_HDRLEN) / size : 0;
	n = min(n, d->bucket);
	attr = n ? nla_reserve(skb, WSC_LAT_A_TRACE_EVENT_ARRAY, n * size) :
		   NULL;
	if (!attr) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	wsc_trace_drain_take(d->t, d->nr, nla_data(attr), n);
	d->bucket -= n;
	genlmsg_end(skb, hdr);
	return d->bucket ? -EMSGSIZE : 0;
}

/* The last message: the events lost since the start. */
static int wsc_genl_trace_put_lost(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);
	void *hdr;

	hdr = wsc_genl_trace_events_hdr(skb, cb);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, WSC_LAT_A_TRACE_LOST_EVENTS,
			      wsc_trace_drain_lost(d->t), WSC_LAT_A_TRACE_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* Send what is left of the drain; -EMSGSIZE when the skb is full. */
static int wsc_genl_trace_drain(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);

	for (; d->nr < nr_cpu_ids; d->nr++, d->started = false) {
		if (!cpu_possible(d->nr))
			continue;
		/*
		 * What the ring holds now, and no more: a busy CPU's probes
		 * would otherwise keep the dump going for ever.
		 */
		if (!d->started) {
			d->bucket = wsc_trace_drain_ready(d->t, d->nr);
			d->started = true;
		}
		if (d->bucket && wsc_genl_trace_put_events(skb, cb))
			return -EMSGSIZE;
	}
	if (!d->started) {
		if (wsc_genl_trace_put_lost(skb, cb))
			return -EMSGSIZE;
		d->started = true;
	}
	return 0;
}

/**
 * wsc_genl_trace_events() - TRACE_EVENTS: drain a trace's events
 * @skb: the buffer to fill
 * @cb:  the dump
 *
 * Return: the bytes in @skb (0 at the end), or -errno.
 */
int wsc_genl_trace_events(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);
	int err;

	err = wsc_genl_trace_dump_refused(cb);
	if (err)
		return err;
	if (d->foreign) {
		/* Without a number the caller meant its own: it has none. */
		if (!wsc_genl_trace_id(wsc_genl_dump_attrs(cb))) {
			NL_SET_ERR_MSG(cb->extack,
				       "this socket has started no trace");
			return -ENODATA;
		}
		NL_SET_ERR_MSG(cb->extack,
			       "that trace is another socket's: only its owner drains its events");
		return -EPERM;
	}
	err = wsc_trace_drain_begin(d->t);
	if (err == -ENODATA)
		NL_SET_ERR_MSG(cb->extack,
			       "the trace records no events: start it with TRACE_EVENTS");
	if (err)
		return err;
	err = wsc_genl_trace_drain(skb, cb);
	wsc_trace_drain_end(d->t);
	return err ? wsc_genl_dump_progress(skb) : skb->len;
}
