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
 * and how much was lost, not how the calls went.
 */
#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/netlink.h>
#include <linux/string.h>
#include <net/genetlink.h>

#include "wsc.h"
#include "genl.h"

static bool wsc_genl_trace_capable(const struct sk_buff *skb)
{
	return netlink_capable(skb, CAP_PERFMON) ||
	       netlink_capable(skb, CAP_SYS_ADMIN);
}

/**
 * wsc_genl_trace_start() - TRACE_START: trace a process tree or a cgroup
 * @skb:  the request
 * @info: its parsed attributes (exactly one of TRACE_PID, TRACE_CGROUP)
 *
 * Return: 0 or -errno, the refusal named in the extack.
 */
int wsc_genl_trace_start(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *pid = info->attrs[WSC_LAT_A_TRACE_PID];
	struct nlattr *cgroup = info->attrs[WSC_LAT_A_TRACE_CGROUP];

	if (!wsc_genl_trace_capable(skb)) {
		NL_SET_ERR_MSG(info->extack,
			       "tracing needs CAP_SYS_ADMIN or CAP_PERFMON");
		return -EPERM;
	}
	if (pid && cgroup) {
		NL_SET_ERR_MSG_ATTR(info->extack, cgroup,
				    "give TRACE_PID or TRACE_CGROUP, not both");
		return -EINVAL;
	}
	if (!pid && !cgroup) {
		NL_SET_ERR_MSG(info->extack,
			       "a target is required: TRACE_PID or TRACE_CGROUP");
		return -EINVAL;
	}
	/* The policy refused a zero-length attribute; not so "". */
	if (cgroup && !*(const char *)nla_data(cgroup)) {
		NL_SET_ERR_MSG_ATTR(info->extack, cgroup,
				    "the cgroup path is empty");
		return -EINVAL;
	}
	/* The policy made TRACE_CGROUP a NUL-terminated string. */
	return wsc_trace_start(pid ? nla_get_u32(pid) : 0,
			       cgroup ? nla_data(cgroup) : NULL, info->extack);
}

/**
 * wsc_genl_trace_stop() - TRACE_STOP: detach, keeping the counts
 * @skb:  the request
 * @info: its extack
 *
 * Return: 0 (also when the trace had ended by itself) or -errno.
 */
int wsc_genl_trace_stop(struct sk_buff *skb, struct genl_info *info)
{
	if (!wsc_genl_trace_capable(skb)) {
		NL_SET_ERR_MSG(info->extack,
			       "stopping a trace needs CAP_SYS_ADMIN or CAP_PERFMON");
		return -EPERM;
	}
	return wsc_trace_stop(info->extack);
}

/**
 * wsc_genl_trace_reset() - TRACE_RESET: free the ended trace's counts
 * @skb:  the request
 * @info: its extack
 *
 * Return: 0, -EBUSY while the trace is active, or another -errno.
 */
int wsc_genl_trace_reset(struct sk_buff *skb, struct genl_info *info)
{
	if (!wsc_genl_trace_capable(skb)) {
		NL_SET_ERR_MSG(info->extack,
			       "resetting a trace needs CAP_SYS_ADMIN or CAP_PERFMON");
		return -EPERM;
	}
	return wsc_trace_reset(info->extack);
}

/* Attributes of a status message that are u64 counts, and their values. */
#define WSC_GENL_TRACE_U64S	9

static size_t wsc_genl_trace_status_size(const struct wsc_trace_status *st)
{
	return nla_total_size(sizeof(u32)) * 6 +	/* STATE END PID LIVE, 2 SLOTS */
	       nla_total_size_64bit(sizeof(u64)) *
			(1 + WSC_GENL_TRACE_U64S) +	/* RUN_ID, the counts */
	       (st->cgroup ? nla_total_size(strlen(st->cgroup) + 1) : 0);
}

static int wsc_genl_trace_put_status(struct sk_buff *skb,
				     const struct wsc_trace_status *st)
{
	const struct {
		int attr;
		u64 value;
	} counts[WSC_GENL_TRACE_U64S] = {
		{ WSC_LAT_A_TRACE_LOST_TASKS,	st->lost_tasks },
		{ WSC_LAT_A_TRACE_LOST_CALLS,	st->lost_calls },
		{ WSC_LAT_A_TRACE_LOST_EXITS,	st->lost_exits },
		{ WSC_LAT_A_TRACE_LOST_HIST,	st->lost_hist },
		{ WSC_LAT_A_TRACE_FOREIGN,	st->foreign },
		{ WSC_LAT_A_TRACE_UNMATCHED,	st->unmatched },
		{ WSC_LAT_A_TRACE_UNFINISHED,	st->unfinished },
		{ WSC_LAT_A_TRACE_TASKS,	st->tasks },
		{ WSC_LAT_A_DURATION_NS,	st->duration_ns },
	};
	unsigned int i;

	if (nla_put_u32(skb, WSC_LAT_A_TRACE_STATE, st->state))
		return -EMSGSIZE;
	if (st->state == WSC_TRACE_IDLE)
		return 0;
	if (nla_put_u64_64bit(skb, WSC_LAT_A_RUN_ID, st->id, WSC_LAT_A_PAD) ||
	    nla_put_u32(skb, WSC_LAT_A_TRACE_END, st->end) ||
	    nla_put_u32(skb, WSC_LAT_A_TRACE_LIVE, st->live) ||
	    nla_put_u32(skb, WSC_LAT_A_TRACE_TASK_SLOTS, st->task_slots) ||
	    nla_put_u32(skb, WSC_LAT_A_TRACE_HIST_SLOTS, st->hist_slots))
		return -EMSGSIZE;
	if (st->cgroup ?
	    nla_put_string(skb, WSC_LAT_A_TRACE_CGROUP, st->cgroup) :
	    nla_put_u32(skb, WSC_LAT_A_TRACE_PID, st->pid))
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(counts); i++)
		if (nla_put_u64_64bit(skb, counts[i].attr, counts[i].value,
				      WSC_LAT_A_PAD))
			return -EMSGSIZE;
	return 0;
}

/**
 * wsc_genl_trace_status() - TRACE_STATUS: the trace's state and losses
 * @skb:  the request
 * @info: where the reply goes
 *
 * Open to every user: it tells what is traced, not how the calls went.
 *
 * Return: 0 once the status message is sent, or -errno.
 */
int wsc_genl_trace_status(struct sk_buff *skb, struct genl_info *info)
{
	struct wsc_trace_status st = { .state = WSC_TRACE_IDLE };
	struct wsc_trace *t = wsc_trace_get();
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (t)
		wsc_trace_status(t, &st);
	err = -ENOMEM;
	msg = genlmsg_new(wsc_genl_trace_status_size(&st), GFP_KERNEL);
	if (!msg)
		goto put_trace;
	hdr = genlmsg_put_reply(msg, info, &wsc_genl_family, 0,
				WSC_LAT_CMD_TRACE_STATUS);
	err = -EMSGSIZE;
	if (!hdr || wsc_genl_trace_put_status(msg, &st)) {
		/* The size above is wrong: a bug, not the caller's. */
		WARN_ON_ONCE(1);
		nlmsg_free(msg);
		goto put_trace;
	}
	genlmsg_end(msg, hdr);
	err = genlmsg_reply(msg, info);
put_trace:
	if (t)
		wsc_trace_put(t);
	return err;
}

/**
 * struct wsc_genl_trace_dump - where a fetch stands
 * @t:       the trace, referenced from .start to .done; NULL: refused
 * @nr:      the system call being sent
 * @bucket:  its next bucket
 * @started: its first message (with the sums) has been sent
 * @privileged: the caller may fetch
 */
struct wsc_genl_trace_dump {
	struct wsc_trace *t;
	u32 nr;
	u32 bucket;
	bool started;
	bool privileged;
};

static struct wsc_genl_trace_dump *
wsc_genl_trace_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct wsc_genl_trace_dump) > sizeof(cb->ctx));
	return (struct wsc_genl_trace_dump *)cb->ctx;
}

/**
 * wsc_genl_trace_fetch_start() - .start of TRACE_FETCH
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

	d->privileged = wsc_genl_trace_capable(cb->skb);
	if (d->privileged)
		d->t = wsc_trace_get();
	return 0;
}

/**
 * wsc_genl_trace_fetch_done() - .done of TRACE_FETCH: drop the trace
 * @cb: the dump
 *
 * Return: 0.
 */
int wsc_genl_trace_fetch_done(struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);

	if (d->t)
		wsc_trace_put(d->t);
	return 0;
}

/*
 * One message for system call d->nr: its number, its sums if this is its
 * first message, then as many of its non-empty buckets as fit.  Returns
 * 0 when the call is complete, -EMSGSIZE when the skb is full.
 */
static int wsc_genl_trace_put_call(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   const struct wsc_trace_sum *sum)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);
	bool any = false;
	void *hdr;
	u64 count;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &wsc_genl_family, NLM_F_MULTI,
			  WSC_LAT_CMD_TRACE_FETCH);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, WSC_LAT_A_TRACE_NR, d->nr))
		goto cancel_msg;
	if (!d->started) {
		if (nla_put_u64_64bit(skb, WSC_LAT_A_TRACE_CALLS, sum->calls,
				      WSC_LAT_A_PAD) ||
		    nla_put_u64_64bit(skb, WSC_LAT_A_ERRORS, sum->errors,
				      WSC_LAT_A_PAD) ||
		    nla_put_u64_64bit(skb, WSC_LAT_A_TRACE_TOTAL_NS,
				      sum->total_ns, WSC_LAT_A_PAD) ||
		    nla_put_u64_64bit(skb, WSC_LAT_A_TRACE_MAX_NS, sum->max_ns,
				      WSC_LAT_A_PAD))
			goto cancel_msg;
		d->started = true;
		any = true;
	}
	for (; d->bucket < WSC_HIST_BUCKETS; d->bucket++) {
		count = wsc_trace_bucket(d->t, d->nr, d->bucket);
		if (!count)
			continue;
		if (wsc_genl_put_bucket(skb, WSC_GENL_ALL_CPUS, d->bucket,
					count))
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
 * wsc_genl_trace_fetch() - TRACE_FETCH: each system call's figures and buckets
 * @skb: the buffer to fill
 * @cb:  the dump
 *
 * Return: the bytes in @skb (0 at the end), or -errno.
 */
int wsc_genl_trace_fetch(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct wsc_genl_trace_dump *d = wsc_genl_trace_dump_ctx(cb);
	unsigned int nr_calls = wsc_trace_nr_calls();
	struct wsc_trace_sum sum;

	if (!d->privileged) {
		NL_SET_ERR_MSG(cb->extack,
			       "fetching a trace needs CAP_SYS_ADMIN or CAP_PERFMON");
		return -EPERM;
	}
	if (!d->t) {
		NL_SET_ERR_MSG(cb->extack, "there is no trace: start one first");
		return -ENODATA;
	}
	for (; d->nr < nr_calls; d->nr++, d->bucket = 0, d->started = false) {
		/* Each call sums its buckets over every CPU. */
		cond_resched();
		if (!wsc_trace_row(d->t, d->nr, &sum))
			continue;
		if (wsc_genl_trace_put_call(skb, cb, &sum))
			return wsc_genl_dump_progress(skb);
	}
	return skb->len;
}
