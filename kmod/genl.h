/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the generic netlink family "syscall_lat": the commands' handlers
 * that genl.c's ops table names, from genl_lab.c (the latency lab) and
 * genl_trace.c (the trace).  The writers the handlers share are in
 * genl_msg.h, below them all.  The rest of the module sees only
 * wsc_genl_init() and wsc_genl_exit(), in genl_family.h.
 */
#ifndef _WSC_GENL_H
#define _WSC_GENL_H

#include <net/genetlink.h>

/* genl_lab.c: the lab's commands, RUN to RESET. */
int wsc_genl_lab_run(struct sk_buff *skb, struct genl_info *info);
int wsc_genl_lab_get_stats(struct sk_buff *skb, struct genl_info *info);
int wsc_genl_lab_dump_stats(struct sk_buff *skb, struct netlink_callback *cb);
int wsc_genl_lab_result_start(struct netlink_callback *cb);
int wsc_genl_lab_dump_samples(struct sk_buff *skb,
			      struct netlink_callback *cb);
int wsc_genl_lab_dump_hist(struct sk_buff *skb, struct netlink_callback *cb);
int wsc_genl_lab_result_done(struct netlink_callback *cb);
int wsc_genl_lab_reset(struct sk_buff *skb, struct genl_info *info);

/* genl_trace.c: the trace's commands, TRACE_START to TRACE_EVENTS. */
int wsc_genl_trace_start(struct sk_buff *skb, struct genl_info *info);
int wsc_genl_trace_stop(struct sk_buff *skb, struct genl_info *info);
int wsc_genl_trace_status(struct sk_buff *skb, struct genl_info *info);
int wsc_genl_trace_fetch_start(struct netlink_callback *cb);
int wsc_genl_trace_fetch(struct sk_buff *skb, struct netlink_callback *cb);
int wsc_genl_trace_fetch_done(struct netlink_callback *cb);
int wsc_genl_trace_reset(struct sk_buff *skb, struct genl_info *info);
int wsc_genl_trace_tasks_start(struct netlink_callback *cb);
int wsc_genl_trace_tasks(struct sk_buff *skb, struct netlink_callback *cb);
int wsc_genl_trace_events_start(struct netlink_callback *cb);
int wsc_genl_trace_events(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _WSC_GENL_H */
