// SPDX-License-Identifier: GPL-2.0
/*
 * What every handler of the generic netlink family "syscall_lat" writes
 * the same way, whether the lab's (genl_lab.c) or the trace's
 * (genl_trace.c): the refusal of a request of another version, the
 * family's header on a reply or a dump's message, a BUCKET nest, a
 * dump's progress.
 *
 * The family itself is genl.c's, above: its ops table names the
 * handlers.  So that no handler uses genl.c back, genl.c hands the
 * family down here before registering it (wsc_genl_msg_init()), and the
 * handlers write its header through wsc_genl_put_hdr().
 */
#include <linux/kernel.h>
#include <linux/netlink.h>
#include <net/genetlink.h>

#include <wsc_hist.h>

#include "wsc.h"
#include "genl_msg.h"

/* genl.c's family, set before it is registered, so before any request. */
static const struct genl_family *wsc_genl_msg_family;

/**
 * wsc_genl_msg_init() - the family whose messages the writers put
 * @family: genl.c's family, not yet registered
 *
 * Called once by wsc_genl_init(), before the family can take a request.
 */
void wsc_genl_msg_init(const struct genl_family *family)
{
	wsc_genl_msg_family = family;
}

/**
 * wsc_genl_put_hdr() - the family's headers on a new message in @skb
 * @skb:    the message's buffer
 * @portid: the netlink header's port: the requester's
 * @seq:    the netlink header's sequence number: the request's
 * @flags:  the netlink header's flags (NLM_F_MULTI in a dump)
 * @cmd:    the command the message answers
 *
 * Return: the start of the message's payload, or NULL if @skb is full.
 */
void *wsc_genl_put_hdr(struct sk_buff *skb, u32 portid, u32 seq, int flags,
		       u8 cmd)
{
	return genlmsg_put(skb, portid, seq, wsc_genl_msg_family, flags, cmd);
}

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
