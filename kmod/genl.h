/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the generic netlink family "syscall_lat": what genl.c (the
 * family, its ops and policies, the writers both areas share) and the
 * two handler files, genl_lab.c (the latency lab) and genl_trace.c (the
 * trace), give each other.  The rest of the module sees only
 * wsc_genl_init() and wsc_genl_exit(), in wsc.h.
 */
#ifndef _WSC_GENL_H
#define _WSC_GENL_H

#include <linux/netlink.h>
#include <linux/skbuff.h>
#include <net/genetlink.h>

/* genl.c */
extern struct genl_family wsc_genl_family;

/* wsc_genl_put_bucket()'s @cpu for a histogram merged over every CPU. */
#define WSC_GENL_ALL_CPUS	(-1)
int wsc_genl_put_bucket(struct sk_buff *skb, int attr, s64 cpu,
			unsigned int i, u64 count);
int wsc_genl_dump_progress(struct sk_buff *skb);
bool wsc_genl_version_ok(const struct nlmsghdr *nlh,
			 struct netlink_ext_ack *extack);

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

/* genl_trace.c: the trace's commands, TRACE_START to TRACE_RESET. */
int wsc_genl_trace_start(struct sk_buff *skb, struct genl_info *info);
int wsc_genl_trace_stop(struct sk_buff *skb, struct genl_info *info);
int wsc_genl_trace_status(struct sk_buff *skb, struct genl_info *info);
int wsc_genl_trace_fetch_start(struct netlink_callback *cb);
int wsc_genl_trace_fetch(struct sk_buff *skb, struct netlink_callback *cb);
int wsc_genl_trace_fetch_done(struct netlink_callback *cb);
int wsc_genl_trace_reset(struct sk_buff *skb, struct genl_info *info);
int wsc_genl_trace_tasks_start(struct netlink_callback *cb);
int wsc_genl_trace_tasks(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _WSC_GENL_H */
