// SPDX-License-Identifier: GPL-2.0
/*
 * The latency lab's commands of the generic netlink family "syscall_lat"
 * (genl.c): run an experiment, read its result, stream its raw samples
 * and histograms, reset.
 *
 * This file only translates: it checks what the caller sent, names every
 * refusal in the extended ack, and turns results into messages.  Runs and
 * results belong to lab.c.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/netlink.h>
#include <net/genetlink.h>

#include "wsc.h"
#include "genl.h"
#include "genl_msg.h"
#include "lab.h"

/* The experiment @nla names, or -ENOENT with a message. */
static int wsc_genl_lab_lookup(const struct nlattr *nla,
			       struct netlink_ext_ack *extack)
{
	/* The policy made it a NUL-terminated string. */
	int exp = wsc_lat_find(nla_data(nla));

	if (exp < 0 || exp >= WSC_NR_EXPERIMENTS) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "unknown experiment");
		return -ENOENT;
	}
	return exp;
}

/* The experiment a do request must name. */
static int wsc_genl_lab_experiment(struct genl_info *info)
{
	if (GENL_REQ_ATTR_CHECK(info, WSC_LAT_A_EXPERIMENT_NAME)) {
		NL_SET_ERR_MSG(info->extack, "EXPERIMENT_NAME is required");
		return -EINVAL;
	}
	return wsc_genl_lab_lookup(info->attrs[WSC_LAT_A_EXPERIMENT_NAME],
			       info->extack);
}

static void wsc_genl_lab_wrong_cpu_count(struct netlink_ext_ack *extack,
					 const struct nlattr *nla,
					 unsigned int roles)
{
	/* No formatted extack messages in 6.1: one message per count. */
	BUILD_BUG_ON(WSC_LAT_MAX_ROLES != 2);
	if (roles == 1)
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "this experiment takes exactly one CPU");
	else
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "this experiment takes exactly two CPUs");
}

/*
 * Fill @req->cpu from the request's CPU attributes: one per role, each
 * online and different.  info->attrs keeps only the last of a repeated
 * attribute, so the message is walked here; the policy has already
 * checked every CPU attribute's length.  Without any, the experiment gets
 * the first online CPUs.
 *
 * This is a check for the caller's sake: a CPU may still go offline
 * before the run starts, and lab.c makes sure of them again under the
 * hotplug lock.
 */
static int wsc_genl_lab_cpus(struct genl_info *info, unsigned int roles,
			     struct wsc_lat_request *req)
{
	const struct nlattr *nla;
	unsigned int cpu, i;
	int rem;

	req->nr_cpus = 0;
	nlmsg_for_each_attr(nla, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nla) != WSC_LAT_A_EXPERIMENT_CPU)
			continue;
		if (req->nr_cpus == roles) {
			wsc_genl_lab_wrong_cpu_count(info->extack, nla, roles);
			return -EINVAL;
		}
		cpu = nla_get_u32(nla);
		if (cpu >= nr_cpu_ids) {
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "CPU out of range");
			return -EINVAL;
		}
		if (!cpu_online(cpu)) {
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "CPU is offline");
			return -EINVAL;
		}
		for (i = 0; i < req->nr_cpus; i++) {
			if (req->cpu[i] == cpu) {
				NL_SET_ERR_MSG_ATTR(info->extack, nla,
						    "the same CPU is given twice: each role needs its own");
				return -EINVAL;
			}
		}
		req->cpu[req->nr_cpus++] = cpu;
	}

	if (req->nr_cpus == 0) {
		for_each_online_cpu(cpu) {
			if (req->nr_cpus == roles)
				break;
			req->cpu[req->nr_cpus++] = cpu;
		}
		if (req->nr_cpus < roles) {
			NL_SET_ERR_MSG(info->extack,
				       "not enough online CPUs for this experiment");
			return -EINVAL;
		}
	} else if (req->nr_cpus < roles) {
		wsc_genl_lab_wrong_cpu_count(info->extack, NULL, roles);
		return -EINVAL;
	}
	return 0;
}

/* Room for a result message, given how many CPUs it names. */
static size_t wsc_genl_lab_result_size(const struct wsc_lat_result *r)
{
	return nla_total_size(WSC_LAT_NAME_MAX + 1) +	/* EXPERIMENT */
	       nla_total_size(sizeof(u32)) *
			(3 + r->fig.req.nr_cpus) +	/* ITERATIONS, WARMUP, BLOCK_OPS, CPUs */
	       nla_total_size_64bit(sizeof(u64)) *
			16;	/* COUNT ... DURATION_NS */
}

/*
 * Append @r's result message to @skb, answering @cmd, with the netlink
 * header's @portid, @seq and @flags.  Returns 0, or -EMSGSIZE with @skb
 * as it was.
 */
static int wsc_genl_lab_put_result(struct sk_buff *skb,
				   const struct wsc_lat_result *r, u32 portid,
				   u32 seq, int flags, u8 cmd)
{
	const struct wsc_summary *s = &r->fig.sum;
	void *hdr;
	u32 i;

	hdr = wsc_genl_put_hdr(skb, portid, seq, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;

	if (nla_put_string(skb, WSC_LAT_A_RESULT_EXPERIMENT,
			   wsc_experiments[r->fig.req.exp].name) ||
	    nla_put_u32(skb, WSC_LAT_A_RESULT_ITERATIONS, r->fig.req.iterations))
		goto cancel_msg;
	for (i = 0; i < r->fig.req.nr_cpus; i++)
		if (nla_put_u32(skb, WSC_LAT_A_RESULT_CPU, r->fig.req.cpu[i]))
			goto cancel_msg;
	if (nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_COUNT, s->count,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_ERRORS, r->fig.errors,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u32(skb, WSC_LAT_A_RESULT_WARMUP, r->fig.warmup) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_MEAN_PS, s->mean_ps,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_MEDIAN_PS, s->median_ps,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_STDDEV_PS, s->stddev_ps,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_MIN_PS, s->min_ps,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_MAX_PS, s->max_ps,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_CI95_LO_PS, s->ci95_lo_ps,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_CI95_HI_PS, s->ci95_hi_ps,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_P50_PS, s->p50_ps,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_P95_PS, s->p95_ps,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_P99_PS, s->p99_ps,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_TIMER_PS, r->fig.timer_ps,
			      WSC_LAT_A_RESULT_PAD))
		goto cancel_msg;
	/* An experiment that sleeps has no block timing: say nothing. */
	if (r->fig.block_ops &&
	    (nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_BLOCK_PS, r->fig.block_ps,
			       WSC_LAT_A_RESULT_PAD) ||
	     nla_put_u32(skb, WSC_LAT_A_RESULT_BLOCK_OPS, r->fig.block_ops)))
		goto cancel_msg;
	if (nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_RUN_ID, r->fig.run_id,
			      WSC_LAT_A_RESULT_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_DURATION_NS,
			      r->fig.duration_ns, WSC_LAT_A_RESULT_PAD))
		goto cancel_msg;

	genlmsg_end(skb, hdr);
	return 0;

cancel_msg:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* Answer a do request with @r's result message. */
static int wsc_genl_lab_reply_result(struct genl_info *info,
				     const struct wsc_lat_result *r, u8 cmd)
{
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(wsc_genl_lab_result_size(r), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = wsc_genl_lab_put_result(msg, r, info->snd_portid, info->snd_seq, 0,
				      cmd);
	if (err) {
		/* wsc_genl_lab_result_size() is wrong: a bug, not the caller's. */
		WARN_ON_ONCE(1);
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/**
 * wsc_genl_lab_run() - RUN: run an experiment, answer with its result
 * @skb:  the request
 * @info: its parsed attributes and extack
 *
 * Needs CAP_SYS_ADMIN.  Blocks for the length of the run.
 *
 * Return: 0 once the result message is sent, or -errno.
 */
int wsc_genl_lab_run(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *iterations;
	struct wsc_lat_request req = {};
	struct wsc_lat_result *r;
	int exp, err;

	if (!wsc_genl_version_ok(info->nlhdr, info->extack))
		return -EPROTO;
	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack,
			       "running an experiment needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	exp = wsc_genl_lab_experiment(info);
	if (exp < 0)
		return exp;
	req.exp = exp;
	req.iterations = WSC_LAT_DEFAULT_ITERATIONS;
	iterations = info->attrs[WSC_LAT_A_EXPERIMENT_ITERATIONS];
	if (iterations)
		req.iterations = nla_get_u32(iterations);
	err = wsc_genl_lab_cpus(info, wsc_experiments[exp].roles, &req);
	if (err)
		return err;

	/*
	 * Blocks until the run ends: seconds, or a signal.  genl_rcv()
	 * holds cb_lock for reading meanwhile, so a generic netlink family
	 * (un)registering anywhere waits for the run, and genetlink traffic
	 * queues behind it: one more reason runs are short and privileged.
	 */
	err = wsc_lab_run(&req, &r, info->extack);
	if (err == -EINTR || wsc_is_restart(err)) {
		/*
		 * A doit's -EINTR means "a dump has started" to
		 * netlink_rcv_skb(), which then sends no ack at all: the
		 * caller would wait for an answer forever.  And restart
		 * codes must never reach userspace.
		 */
		NL_SET_ERR_MSG(info->extack,
			       "interrupted by a signal: the run was stopped and nothing was kept");
		return -ECANCELED;
	}
	if (err)
		return err;

	err = wsc_genl_lab_reply_result(info, r, WSC_LAT_CMD_RUN);
	wsc_lat_put(r);
	return err;
}

/**
 * wsc_genl_lab_get_stats() - GET_STATS do: one experiment's last result
 * @skb:  the request
 * @info: its parsed attributes and extack
 *
 * Return: 0 once the result message is sent, -ENODATA without a result,
 * or another -errno.
 */
int wsc_genl_lab_get_stats(struct sk_buff *skb, struct genl_info *info)
{
	struct wsc_lat_result *r;
	int exp, err;

	if (!wsc_genl_version_ok(info->nlhdr, info->extack))
		return -EPROTO;
	exp = wsc_genl_lab_experiment(info);
	if (exp < 0)
		return exp;
	r = wsc_lat_get(exp);
	if (!r) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[WSC_LAT_A_EXPERIMENT_NAME],
				    "no result for this experiment: run it first");
		return -ENODATA;
	}
	err = wsc_genl_lab_reply_result(info, r, WSC_LAT_CMD_GET_STATS);
	wsc_lat_put(r);
	return err;
}

/**
 * wsc_genl_lab_reset() - RESET: forget one experiment's result, or all
 * @skb:  the request
 * @info: its parsed attributes and extack
 *
 * Needs CAP_SYS_ADMIN.
 *
 * Return: 0 or -errno (-EBUSY while a run is in progress).
 */
int wsc_genl_lab_reset(struct sk_buff *skb, struct genl_info *info)
{
	int exp = -1;

	if (!wsc_genl_version_ok(info->nlhdr, info->extack))
		return -EPROTO;
	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG(info->extack,
			       "resetting results needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	/* Without EXPERIMENT, every result goes. */
	if (info->attrs[WSC_LAT_A_EXPERIMENT_NAME]) {
		exp = wsc_genl_lab_lookup(info->attrs[WSC_LAT_A_EXPERIMENT_NAME],
					  info->extack);
		if (exp < 0)
			return exp;
	}
	return wsc_lab_reset(exp, info->extack);
}

/*
 * Dumps.  Their state lives in cb->ctx, which the netlink core zeroes
 * before .start.
 *
 * In 6.1, .start runs with cb->extack NULL (genl_start() has replaced the
 * context that held the request's extack), so an error returned there
 * reaches the caller without a word of explanation.  A dump that must be
 * refused therefore notes why in .start and refuses in its first dumpit
 * call, where cb->extack is set: the caller gets the errno in NLMSG_DONE
 * together with the message (NLM_F_ACK_TLVS).
 */
enum wsc_genl_lab_refusal {
	WSC_GENL_LAB_OK,
	WSC_GENL_LAB_NO_EXPERIMENT,
	WSC_GENL_LAB_UNKNOWN_EXPERIMENT,
	WSC_GENL_LAB_NO_RESULT,
	WSC_GENL_LAB_STATS_FILTER,
};

/**
 * struct wsc_genl_lab_dump - where a dump stands
 * @r:       GET_SAMPLES, GET_HIST: the result dumped, referenced from
 *           .start to .done, so it cannot change or go under the dump
 * @next:    GET_STATS: next experiment; GET_SAMPLES: next sample
 * @role:    GET_HIST: role whose histogram is being dumped
 * @bucket:  GET_HIST: next bucket of it
 * @refusal: enum wsc_genl_lab_refusal: why the dump is refused
 */
struct wsc_genl_lab_dump {
	struct wsc_lat_result *r;
	u64 next;
	u32 role;
	u32 bucket;
	u32 refusal;
};

static struct wsc_genl_lab_dump *wsc_genl_lab_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct wsc_genl_lab_dump) > sizeof(cb->ctx));
	return (struct wsc_genl_lab_dump *)cb->ctx;
}

/* Refuse the dump, saying why; returns the errno. */
static int wsc_genl_lab_dump_refuse(struct netlink_callback *cb, u32 refusal)
{
	const struct nlattr *nla =
		wsc_genl_dump_attrs(cb)[WSC_LAT_A_EXPERIMENT_NAME];

	switch (refusal) {
	case WSC_GENL_LAB_NO_EXPERIMENT:
		NL_SET_ERR_MSG(cb->extack, "EXPERIMENT_NAME is required");
		return -EINVAL;
	case WSC_GENL_LAB_UNKNOWN_EXPERIMENT:
		NL_SET_ERR_MSG_ATTR(cb->extack, nla, "unknown experiment");
		return -ENOENT;
	case WSC_GENL_LAB_NO_RESULT:
		NL_SET_ERR_MSG_ATTR(cb->extack, nla,
				    "no result for this experiment: run it first");
		return -ENODATA;
	case WSC_GENL_LAB_STATS_FILTER:
		NL_SET_ERR_MSG_ATTR(cb->extack, nla,
				    "the GET_STATS dump takes no EXPERIMENT_NAME: ask for one result without NLM_F_DUMP");
		return -EINVAL;
	}
	return -EINVAL;
}

/**
 * wsc_genl_lab_result_start() - .start of GET_SAMPLES and GET_HIST
 * @cb: the dump
 *
 * Holds the experiment's result until wsc_genl_lab_result_done(), or
 * notes why the dump is refused (the first dumpit refuses it).
 *
 * Return: 0.
 */
int wsc_genl_lab_result_start(struct netlink_callback *cb)
{
	const struct nlattr *nla =
		wsc_genl_dump_attrs(cb)[WSC_LAT_A_EXPERIMENT_NAME];
	struct wsc_genl_lab_dump *d = wsc_genl_lab_dump_ctx(cb);
	int exp;

	if (!nla) {
		d->refusal = WSC_GENL_LAB_NO_EXPERIMENT;
		return 0;
	}
	exp = wsc_genl_lab_lookup(nla, NULL);
	if (exp < 0) {
		d->refusal = WSC_GENL_LAB_UNKNOWN_EXPERIMENT;
		return 0;
	}
	d->r = wsc_lat_get(exp);
	if (!d->r)
		d->refusal = WSC_GENL_LAB_NO_RESULT;
	return 0;
}

/**
 * wsc_genl_lab_result_done() - .done of GET_SAMPLES and GET_HIST
 * @cb: the dump
 *
 * Drops the result wsc_genl_lab_result_start() held.
 *
 * Return: 0.
 */
int wsc_genl_lab_result_done(struct netlink_callback *cb)
{
	struct wsc_genl_lab_dump *d = wsc_genl_lab_dump_ctx(cb);

	if (d->r)
		wsc_lat_put(d->r);
	return 0;
}

/**
 * wsc_genl_lab_dump_stats() - GET_STATS dump: every kept result
 * @skb: the buffer to fill
 * @cb:  the dump
 *
 * Return: the bytes in @skb (0 at the end), or -errno.
 */
int wsc_genl_lab_dump_stats(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct wsc_genl_lab_dump *d = wsc_genl_lab_dump_ctx(cb);
	struct wsc_lat_result *r;
	int err;

	if (!wsc_genl_version_ok(cb->nlh, cb->extack))
		return -EPROTO;
	if (wsc_genl_dump_attrs(cb)[WSC_LAT_A_EXPERIMENT_NAME])
		return wsc_genl_lab_dump_refuse(cb, WSC_GENL_LAB_STATS_FILTER);

	for (; d->next < WSC_NR_EXPERIMENTS; d->next++) {
		r = wsc_lat_get(d->next);
		if (!r)
			continue;
		err = wsc_genl_lab_put_result(skb, r, NETLINK_CB(cb->skb).portid,
					      cb->nlh->nlmsg_seq, NLM_F_MULTI,
					      WSC_LAT_CMD_GET_STATS);
		wsc_lat_put(r);
		if (err)
			return wsc_genl_dump_progress(skb);
	}
	return skb->len;
}

/**
 * wsc_genl_lab_dump_samples() - GET_SAMPLES: the raw samples, in order
 * @skb: the buffer to fill
 * @cb:  the dump
 *
 * Each message holds FIRST_INDEX and as many SAMPLE as fit, so a million
 * samples stream through a few hundred messages and never sit in one
 * buffer.
 *
 * Return: the bytes in @skb (0 at the end), or -errno.
 */
int wsc_genl_lab_dump_samples(struct sk_buff *skb,
			      struct netlink_callback *cb)
{
	struct wsc_genl_lab_dump *d = wsc_genl_lab_dump_ctx(cb);
	const struct wsc_lat_result *r = d->r;
	u64 first = d->next;
	void *hdr;

	if (!wsc_genl_version_ok(cb->nlh, cb->extack))
		return -EPROTO;
	if (d->refusal)
		return wsc_genl_lab_dump_refuse(cb, d->refusal);
	if (d->next >= r->fig.sum.count)
		return 0;

	hdr = wsc_genl_put_hdr(skb, NETLINK_CB(cb->skb).portid,
			       cb->nlh->nlmsg_seq, NLM_F_MULTI,
			       WSC_LAT_CMD_GET_SAMPLES);
	if (!hdr)
		return wsc_genl_dump_progress(skb);
	if (nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_FIRST_INDEX, first,
			      WSC_LAT_A_RESULT_PAD))
		goto cancel_msg;
	for (; d->next < r->fig.sum.count; d->next++)
		if (nla_put_u64_64bit(skb, WSC_LAT_A_RESULT_SAMPLE,
				      r->samples[d->next], WSC_LAT_A_RESULT_PAD))
			break;
	/* The next message starts where this one could not go on. */
	if (d->next == first)
		goto cancel_msg;
	genlmsg_end(skb, hdr);
	return skb->len;

cancel_msg:
	genlmsg_cancel(skb, hdr);
	return wsc_genl_dump_progress(skb);
}

/**
 * wsc_genl_lab_dump_hist() - GET_HIST: the non-empty histogram buckets
 * @skb: the buffer to fill
 * @cb:  the dump
 *
 * Each role's CPU in turn, role 0's first.
 *
 * Return: the bytes in @skb (0 at the end), or -errno.
 */
int wsc_genl_lab_dump_hist(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct wsc_genl_lab_dump *d = wsc_genl_lab_dump_ctx(cb);
	const struct wsc_lat_result *r = d->r;
	bool any = false;
	void *hdr;
	u64 count;

	if (!wsc_genl_version_ok(cb->nlh, cb->extack))
		return -EPROTO;
	if (d->refusal)
		return wsc_genl_lab_dump_refuse(cb, d->refusal);
	if (d->role >= r->fig.req.nr_cpus)
		return 0;

	hdr = wsc_genl_put_hdr(skb, NETLINK_CB(cb->skb).portid,
			       cb->nlh->nlmsg_seq, NLM_F_MULTI,
			       WSC_LAT_CMD_GET_HIST);
	if (!hdr)
		return wsc_genl_dump_progress(skb);
	for (; d->role < r->fig.req.nr_cpus; d->role++, d->bucket = 0) {
		for (; d->bucket < WSC_HIST_BUCKETS; d->bucket++) {
			count = r->hist[d->role][d->bucket];
			if (!count)
				continue;
			if (wsc_genl_put_bucket(skb, WSC_LAT_A_RESULT_BUCKET,
						r->fig.req.cpu[d->role],
						d->bucket, count))
				goto full;
			any = true;
		}
	}
full:
	/* Not even one bucket, or none left at all: no message. */
	if (!any) {
		genlmsg_cancel(skb, hdr);
		return d->role < r->fig.req.nr_cpus ?
		       wsc_genl_dump_progress(skb) : skb->len;
	}
	genlmsg_end(skb, hdr);
	return skb->len;
}

