// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "syscall_lat", the module's one control
 * channel: its registration, its ops table, one policy per command and
 * the message writers the lab's and the trace's handlers share.  The
 * handlers are in genl_lab.c (RUN, GET_STATS, GET_SAMPLES, GET_HIST,
 * RESET) and genl_trace.c (TRACE_*).  include/uapi/linux/wsc.h maps the
 * commands and attributes and Documentation/netlink/syscall_lat.yaml
 * describes them in full.
 *
 * Version 2 of the family (wsc 1.0): one attribute set per object, each
 * numbered from 1 (Documentation/abi.md); every handler first refuses a
 * request of another version (wsc_genl_version_ok()).
 *
 * The family sets parallel_ops, so no handler runs under genl_mutex: a
 * run takes seconds, and lab.c answers a second RUN with -EBUSY instead
 * of queueing it.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/netlink.h>
#include <net/genetlink.h>

#include <wsc_hist.h>

#include "wsc.h"
#include "genl.h"
#include "genl_family.h"
/* One request policy per command, generated from the spec. */
#include "genl_policy.h"

/**
 * wsc_genl_version_ok() - is @nlh a request of this family's version?
 * @nlh:    the request
 * @extack: where a refusal says why
 *
 * Version 1 of the family had one attribute space for every command;
 * version 2 has a set per object, numbered anew.  A client of version 1
 * (libwsc 0.x) is told so rather than answered in numbers it would
 * misread.  Called first by every handler: the ops of 6.1 have no hook
 * that runs before the attributes are parsed, so a request of version 1
 * whose attributes do not fit the new policy gets the policy's -EINVAL
 * instead; either way it gets no reply.
 *
 * Return: true, or false with the message set (answer -EPROTO).
 */
bool wsc_genl_version_ok(const struct nlmsghdr *nlh,
			 struct netlink_ext_ack *extack)
{
	const struct genlmsghdr *hdr = nlmsg_data(nlh);

	if (hdr->version == WSC_LAT_GENL_VERSION)
		return true;
	NL_SET_ERR_MSG(extack,
		       "wsc.ko speaks version " __stringify(WSC_LAT_GENL_VERSION)
		       " of the family syscall_lat: update libwsc (1.0 or later)");
	return false;
}

/**
 * wsc_genl_put_bucket() - one bucket nest: bucket @i's bounds and @count
 * @skb:   the message
 * @attr:  the nest's attribute: WSC_LAT_A_RESULT_BUCKET or
 *         WSC_LAT_A_CALL_BUCKET
 * @cpu:   the CPU whose histogram it is from, or WSC_GENL_ALL_CPUS for a
 *         histogram merged over every CPU (the trace's): no CPU attribute
 * @i:     the log-linear bucket (wsc_hist.h)
 * @count: values in it
 *
 * Return: 0, or -EMSGSIZE with @skb as it was.
 */
int wsc_genl_put_bucket(struct sk_buff *skb, int attr, s64 cpu,
			unsigned int i, u64 count)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, attr);
	if (!nest)
		return -EMSGSIZE;
	if ((cpu != WSC_GENL_ALL_CPUS &&
	     nla_put_u32(skb, WSC_LAT_A_BUCKET_CPU, cpu)) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_BUCKET_LOW_NS, wsc_hist_low(i),
			      WSC_LAT_A_BUCKET_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_BUCKET_HIGH_NS, wsc_hist_high(i),
			      WSC_LAT_A_BUCKET_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_A_BUCKET_COUNT, count,
			      WSC_LAT_A_BUCKET_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * wsc_genl_dump_progress() - what a dumpit returns when @skb is full
 * @skb: the dump's buffer, after a message did not fit
 *
 * Return: the bytes in @skb, which makes the core call again, unless
 * nothing fitted into an empty @skb: returning 0 then would end the dump
 * early without a word, so -EMSGSIZE.
 */
int wsc_genl_dump_progress(struct sk_buff *skb)
{
	return skb->len ? skb->len : -EMSGSIZE;
}

/* The lab's commands (genl_lab.c), then the trace's (genl_trace.c). */
static const struct genl_ops wsc_genl_ops[] = {
	{
		.cmd		= WSC_LAT_CMD_RUN,
		.doit		= wsc_genl_lab_run,
		.policy		= wsc_genl_run_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_run_policy) - 1,
	},
	{
		.cmd		= WSC_LAT_CMD_GET_STATS,
		.doit		= wsc_genl_lab_get_stats,
		.dumpit		= wsc_genl_lab_dump_stats,
		.policy		= wsc_genl_get_stats_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_get_stats_policy) - 1,
	},
	{
		.cmd		= WSC_LAT_CMD_GET_SAMPLES,
		.start		= wsc_genl_lab_result_start,
		.dumpit		= wsc_genl_lab_dump_samples,
		.done		= wsc_genl_lab_result_done,
		.policy		= wsc_genl_get_samples_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_get_samples_policy) - 1,
	},
	{
		.cmd		= WSC_LAT_CMD_GET_HIST,
		.start		= wsc_genl_lab_result_start,
		.dumpit		= wsc_genl_lab_dump_hist,
		.done		= wsc_genl_lab_result_done,
		.policy		= wsc_genl_get_hist_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_get_hist_policy) - 1,
	},
	{
		.cmd		= WSC_LAT_CMD_RESET,
		.doit		= wsc_genl_lab_reset,
		.policy		= wsc_genl_reset_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_reset_policy) - 1,
	},
	/* The trace: genl_trace.c. */
	{
		.cmd		= WSC_LAT_CMD_TRACE_START,
		.doit		= wsc_genl_trace_start,
		.policy		= wsc_genl_trace_start_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_trace_start_policy) - 1,
	},
	{
		.cmd		= WSC_LAT_CMD_TRACE_STOP,
		.doit		= wsc_genl_trace_stop,
		.policy		= wsc_genl_trace_stop_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_trace_stop_policy) - 1,
	},
	{
		.cmd		= WSC_LAT_CMD_TRACE_STATUS,
		.doit		= wsc_genl_trace_status,
		.policy		= wsc_genl_trace_status_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_trace_status_policy) - 1,
	},
	{
		.cmd		= WSC_LAT_CMD_TRACE_FETCH,
		.start		= wsc_genl_trace_fetch_start,
		.dumpit		= wsc_genl_trace_fetch,
		.done		= wsc_genl_trace_fetch_done,
		.policy		= wsc_genl_trace_fetch_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_trace_fetch_policy) - 1,
	},
	{
		.cmd		= WSC_LAT_CMD_TRACE_RESET,
		.doit		= wsc_genl_trace_reset,
		.policy		= wsc_genl_trace_reset_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_trace_reset_policy) - 1,
	},
	{
		.cmd		= WSC_LAT_CMD_TRACE_TASKS,
		.start		= wsc_genl_trace_tasks_start,
		.dumpit		= wsc_genl_trace_tasks,
		.done		= wsc_genl_trace_fetch_done,
		.policy		= wsc_genl_trace_tasks_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_trace_tasks_policy) - 1,
	},
};

/*
 * resv_start_op stays 0, as the 6.1 source asks of a new family: every
 * command then has its genlmsghdr.reserved and nlmsg_flags checked and
 * its attributes validated strictly, with no way to opt out.
 *
 * Not GENL_ADMIN_PERM on RUN and RESET: that checks CAP_NET_ADMIN, and the
 * lab asks for CAP_SYS_ADMIN, checked by the handlers themselves.
 *
 * Not netnsok: the lab is one per machine, and so is its family.
 *
 * No family-wide maxattr or policy: each op has its own, over its
 * request's attribute set (genl_ops, not genl_small_ops, which would
 * take the family's; 6.1 has no split ops).
 *
 * One family for the lab and the trace: one resolve, one socket and one
 * permission model for userspace; Documentation/abi.md, "The generic
 * netlink family".
 */
struct genl_family wsc_genl_family __ro_after_init = {
	.name		= WSC_LAT_GENL_NAME,
	.version	= WSC_LAT_GENL_VERSION,
	.module		= THIS_MODULE,
	.parallel_ops	= true,
	.ops		= wsc_genl_ops,
	.n_ops		= ARRAY_SIZE(wsc_genl_ops),
};

/*
 * The alias "net-pf-16-proto-16-family-syscall_lat": when a resolve of the
 * family finds no such family, genetlink's controller asks modprobe for
 * it, so an installed wsc (DKMS or the wsc-dkms package) is loaded by the
 * first `wsc klat` or `wsc trace` without a modprobe of its own.
 */
MODULE_ALIAS_GENL_FAMILY(WSC_LAT_GENL_NAME);

/**
 * wsc_genl_init() - register the generic netlink family "syscall_lat"
 *
 * Call it once lab.c is ready: a request may arrive at once.
 *
 * Return: 0 or -errno.
 */
int wsc_genl_init(void)
{
	return genl_register_family(&wsc_genl_family);
}

/**
 * wsc_genl_exit() - unregister the family
 *
 * Waits for every request in progress to return, a run included, so the
 * lab must have been told to stop its run first.  Dumps in progress hold
 * a reference to the module and end before this can be called.
 */
void wsc_genl_exit(void)
{
	genl_unregister_family(&wsc_genl_family);
}
