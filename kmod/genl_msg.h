/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The writers the generic netlink family's handlers share (genl_msg.c):
 * the version check every request passes first, the family's message
 * header, a BUCKET nest and a dump's progress.  It sits below genl.c
 * and the handler files, genl_lab.c and genl_trace.c, so that the family
 * (genl.c, whose ops name the handlers) is used by no handler: genl.c
 * hands its family down at init, wsc_genl_msg_init().  The genl area's
 * own header, like genl.h.
 */
#ifndef _WSC_GENL_MSG_H
#define _WSC_GENL_MSG_H

#include <linux/netlink.h>
#include <linux/skbuff.h>
#include <net/genetlink.h>

void wsc_genl_msg_init(const struct genl_family *family);
bool wsc_genl_version_ok(const struct nlmsghdr *nlh,
			 struct netlink_ext_ack *extack);
void *wsc_genl_put_hdr(struct sk_buff *skb, u32 portid, u32 seq, int flags,
		       u8 cmd);

/* wsc_genl_put_bucket()'s @cpu for a histogram merged over every CPU. */
#define WSC_GENL_ALL_CPUS	(-1)
int wsc_genl_put_bucket(struct sk_buff *skb, int attr, s64 cpu,
			unsigned int i, u64 count);
int wsc_genl_dump_progress(struct sk_buff *skb);

#endif /* _WSC_GENL_MSG_H */
