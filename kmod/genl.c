// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "syscall_lat", the module's one control
 * channel: its registration, its ops table and one policy per command.
 * The handlers are in genl_lab.c (RUN, GET_STATS, GET_SAMPLES, GET_HIST,
 * RESET) and genl_trace.c (TRACE_*); the writers they share, below them
 * and this file, in genl_msg.c, which genl.c hands the family to at init
 * so that no handler uses this file back.  include/uapi/linux/wsc.h maps the
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

#include "wsc.h"
#include "genl.h"
#include "genl_family.h"
#include "genl_msg.h"
/* One request policy per command, generated from the spec. */
#include "genl_policy.h"

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
	{
		.cmd		= WSC_LAT_CMD_TRACE_EVENTS,
		.start		= wsc_genl_trace_events_start,
		.dumpit		= wsc_genl_trace_events,
		.done		= wsc_genl_trace_fetch_done,
		.policy		= wsc_genl_trace_events_policy,
		.maxattr	= ARRAY_SIZE(wsc_genl_trace_events_policy) - 1,
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
static struct genl_family wsc_genl_family __ro_after_init = {
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
 * Call it once lab.c is ready: a request may arrive at once, so the
 * handlers' writers (genl_msg.c) are given the family first.
 *
 * Return: 0 or -errno.
 */
int wsc_genl_init(void)
{
	wsc_genl_msg_init(&wsc_genl_family);
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
