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

/*
 * Policies, one per command.  Every array spans the whole attribute space
 * so that an attribute of this family that the command does not take
 * (NLA_UNSPEC here) is refused as "Unsupported attribute", and one beyond
 * WSC_LAT_A_MAX as "Unknown attribute type"; strict validation, which
 * every command of a family with resv_start_op 0 gets, does both.
 */

/*
 * Not const: 6.1's struct nla_policy points to a non-const range.  The
 * short NLA_POLICY_RANGE() cannot be used, its bounds are s16.
 */
static struct netlink_range_validation wsc_genl_iterations_range = {
	.min	= 1,
	.max	= WSC_LAT_MAX_ITERATIONS,
};

static const struct nla_policy wsc_genl_run_policy[WSC_LAT_A_MAX + 1] = {
	[WSC_LAT_A_EXPERIMENT]	= { .type = NLA_NUL_STRING,
				    .len = WSC_LAT_NAME_MAX },
	[WSC_LAT_A_ITERATIONS]	= NLA_POLICY_FULL_RANGE(NLA_U32,
					&wsc_genl_iterations_range),
	[WSC_LAT_A_CPU]		= { .type = NLA_U32 },
};

/* GET_STATS, GET_SAMPLES, GET_HIST and RESET take one experiment. */
static const struct nla_policy wsc_genl_experiment_policy[WSC_LAT_A_MAX + 1] = {
	[WSC_LAT_A_EXPERIMENT]	= { .type = NLA_NUL_STRING,
				    .len = WSC_LAT_NAME_MAX },
};

/* TRACE_START: exactly one target, checked by the handler; filters. */
static const struct nla_policy wsc_genl_trace_start_policy[WSC_LAT_A_MAX + 1] = {
	[WSC_LAT_A_TRACE_PID]		= NLA_POLICY_MIN(NLA_U32, 1),
	[WSC_LAT_A_TRACE_CGROUP]	= { .type = NLA_NUL_STRING,
					    .len = WSC_TRACE_CGROUP_MAX },
	[WSC_LAT_A_TRACE_ALL]		= { .type = NLA_FLAG },
	[WSC_LAT_A_TRACE_CALL_SET]	= { .type = NLA_BINARY,
					    .len = WSC_TRACE_NR_MAX / 8 },
	[WSC_LAT_A_TRACE_FAILED]	= { .type = NLA_FLAG },
	[WSC_LAT_A_TRACE_ERRNO]		= NLA_POLICY_RANGE(NLA_U32, 1,
							   WSC_TRACE_ERRNO_MAX),
};

/*
 * TRACE_STOP, TRACE_STATUS, TRACE_FETCH, TRACE_TASKS and TRACE_RESET
 * take a trace's number, or nothing for the caller's newest.
 */
static const struct nla_policy wsc_genl_trace_id_policy[WSC_LAT_A_MAX + 1] = {
	[WSC_LAT_A_RUN_ID]		= NLA_POLICY_MIN(NLA_U64, 1),
};

/**
 * wsc_genl_put_bucket() - one BUCKET nest: bucket @i's bounds and @count
 * @skb:   the message
 * @cpu:   the CPU whose histogram it is from, or WSC_GENL_ALL_CPUS for a
 *         histogram merged over every CPU (the trace's): no CPU attribute
 * @i:     the log-linear bucket (wsc_hist.h)
 * @count: values in it
 *
 * Return: 0, or -EMSGSIZE with @skb as it was.
 */
int wsc_genl_put_bucket(struct sk_buff *skb, s64 cpu, unsigned int i,
			u64 count)
{
	struct nlattr *nest;

	nest = nla_nest_start(skb, WSC_LAT_A_BUCKET);
	if (!nest)
		return -EMSGSIZE;
	if ((cpu != WSC_GENL_ALL_CPUS &&
	     nla_put_u32(skb, WSC_LAT_BUCKET_CPU, cpu)) ||
	    nla_put_u64_64bit(skb, WSC_LAT_BUCKET_LOW_NS, wsc_hist_low(i),
			      WSC_LAT_BUCKET_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_BUCKET_HIGH_NS, wsc_hist_high(i),
			      WSC_LAT_BUCKET_PAD) ||
	    nla_put_u64_64bit(skb, WSC_LAT_BUCKET_COUNT, count,
			      WSC_LAT_BUCKET_PAD)) {
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
		.maxattr	= WSC_LAT_A_MAX,
	},
	{
		.cmd		= WSC_LAT_CMD_GET_STATS,
		.doit		= wsc_genl_lab_get_stats,
		.dumpit		= wsc_genl_lab_dump_stats,
		.policy		= wsc_genl_experiment_policy,
		.maxattr	= WSC_LAT_A_MAX,
	},
	{
		.cmd		= WSC_LAT_CMD_GET_SAMPLES,
		.start		= wsc_genl_lab_result_start,
		.dumpit		= wsc_genl_lab_dump_samples,
		.done		= wsc_genl_lab_result_done,
		.policy		= wsc_genl_experiment_policy,
		.maxattr	= WSC_LAT_A_MAX,
	},
	{
		.cmd		= WSC_LAT_CMD_GET_HIST,
		.start		= wsc_genl_lab_result_start,
		.dumpit		= wsc_genl_lab_dump_hist,
		.done		= wsc_genl_lab_result_done,
		.policy		= wsc_genl_experiment_policy,
		.maxattr	= WSC_LAT_A_MAX,
	},
	{
		.cmd		= WSC_LAT_CMD_RESET,
		.doit		= wsc_genl_lab_reset,
		.policy		= wsc_genl_experiment_policy,
		.maxattr	= WSC_LAT_A_MAX,
	},
	/* The trace: genl_trace.c. */
	{
		.cmd		= WSC_LAT_CMD_TRACE_START,
		.doit		= wsc_genl_trace_start,
		.policy		= wsc_genl_trace_start_policy,
		.maxattr	= WSC_LAT_A_MAX,
	},
	{
		.cmd		= WSC_LAT_CMD_TRACE_STOP,
		.doit		= wsc_genl_trace_stop,
		.policy		= wsc_genl_trace_id_policy,
		.maxattr	= WSC_LAT_A_MAX,
	},
	{
		.cmd		= WSC_LAT_CMD_TRACE_STATUS,
		.doit		= wsc_genl_trace_status,
		.policy		= wsc_genl_trace_id_policy,
		.maxattr	= WSC_LAT_A_MAX,
	},
	{
		.cmd		= WSC_LAT_CMD_TRACE_FETCH,
		.start		= wsc_genl_trace_fetch_start,
		.dumpit		= wsc_genl_trace_fetch,
		.done		= wsc_genl_trace_fetch_done,
		.policy		= wsc_genl_trace_id_policy,
		.maxattr	= WSC_LAT_A_MAX,
	},
	{
		.cmd		= WSC_LAT_CMD_TRACE_RESET,
		.doit		= wsc_genl_trace_reset,
		.policy		= wsc_genl_trace_id_policy,
		.maxattr	= WSC_LAT_A_MAX,
	},
	{
		.cmd		= WSC_LAT_CMD_TRACE_TASKS,
		.start		= wsc_genl_trace_tasks_start,
		.dumpit		= wsc_genl_trace_tasks,
		.done		= wsc_genl_trace_fetch_done,
		.policy		= wsc_genl_trace_id_policy,
		.maxattr	= WSC_LAT_A_MAX,
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
 * One family for the lab and the trace: one resolve, one socket and one
 * permission model for userspace, and the trace's attributes are already
 * a range of their own (WSC_LAT_A_TRACE_*); Documentation/abi.md, "The
 * generic netlink family".
 */
struct genl_family wsc_genl_family __ro_after_init = {
	.name		= WSC_LAT_GENL_NAME,
	.version	= WSC_LAT_GENL_VERSION,
	.maxattr	= WSC_LAT_A_MAX,
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
