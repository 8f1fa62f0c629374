/* SPDX-License-Identifier: MIT */
/*
 * libwsc's one netlink client: a connection to the generic netlink family
 * "syscall_lat" (include/uapi/linux/wsc.h) and the exchange of one
 * request, shared by the lab's commands (lab.c) and the trace's
 * (trace.c).  Not exported: the public handles, struct wsc_lat and
 * struct wsc_trace, each wrap one struct wsc_nl.
 */
#ifndef LIBWSC_NL_H
#define LIBWSC_NL_H

#include <stdbool.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "internal.h"

/**
 * struct wsc_nl - a connection to the family
 * @sk:     libnl's socket, extended acks on
 * @family: the family's id, resolved at open
 * @broken: a receive failed: where the stream stands is unknown
 * @what:   what the handle is for ("the lab", "the trace"), for messages
 * @error:  the last request's extended-ack message, or the library's own
 */
struct wsc_nl {
	struct nl_sock *sk;
	int family;
	bool broken;
	const char *what;
	char error[256];
};

/**
 * struct wsc_nl_req - one request in flight
 * @nl:       the connection
 * @parse:    called for each message of the family, @tb parsed with
 *            @policy; once @err is set, the remaining messages are
 *            read and ignored
 * @done:     the answer has ended (an ack, an error or NLMSG_DONE)
 * @policy:   the attribute set of the answer's messages (wsc_nl_*_policy),
 *            NULL when the request is answered by an acknowledgement alone
 * @maxattr:  its last attribute
 * @err:      the first failure, the kernel's or found while parsing
 * @messages: messages of the family parsed
 * @priv:     the caller's, for @parse
 */
struct wsc_nl_req {
	struct wsc_nl *nl;
	int (*parse)(struct wsc_nl_req *req, struct nlattr **tb,
		     struct nlmsghdr *nlh);
	struct nla_policy *policy;
	int maxattr;
	bool done;
	int err;
	unsigned long messages;
	void *priv;
};

/* The most attributes of a set that an answer's message is of. */
#define WSC_NL_ATTRS_MAX	32

/* A struct wsc_nl_req's @policy and @maxattr: answers of set @p. */
#define WSC_NL_ANSWER(p)	.policy = (p), \
				.maxattr = (int)(sizeof(p) / sizeof((p)[0])) - 1

/* The sets of the answers (nl.c): one per object. */
WSC_INTERNAL extern struct nla_policy wsc_nl_result_policy[WSC_LAT_A_RESULT_MAX + 1];
WSC_INTERNAL extern struct nla_policy wsc_nl_trace_policy[WSC_LAT_A_TRACE_MAX + 1];
WSC_INTERNAL extern struct nla_policy wsc_nl_call_policy[WSC_LAT_A_CALL_MAX + 1];
WSC_INTERNAL extern struct nla_policy wsc_nl_task_policy[WSC_LAT_A_TASK_MAX + 1];
/* Bucket nests: LOW_NS, HIGH_NS, COUNT and, from the lab, CPU. */
WSC_INTERNAL extern struct nla_policy wsc_nl_bucket_policy[WSC_LAT_A_BUCKET_MAX + 1];
/* A call row's errno nests: VALUE, COUNT. */
WSC_INTERNAL extern struct nla_policy wsc_nl_errno_policy[WSC_LAT_A_ERRNO_MAX + 1];

/*
 * Connect @nl and resolve the family; -ENOENT when wsc.ko is not loaded,
 * -EPROTO when it speaks another version of the family.
 */
WSC_INTERNAL int wsc_nl_open(struct wsc_nl *nl, const char *what);
WSC_INTERNAL void wsc_nl_close(struct wsc_nl *nl);

WSC_INTERNAL void wsc_nl_set_error(struct wsc_nl *nl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A failure found while parsing: the first one is kept; returns NL_OK. */
WSC_INTERNAL int wsc_nl_req_fail(struct wsc_nl_req *req, int err,
				 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A request of @cmd with @flags (NLM_F_DUMP or 0), or NULL. */
WSC_INTERNAL struct nl_msg *wsc_nl_msg(struct wsc_nl *nl, uint8_t cmd,
				       int flags);
/* Send @msg (consumed), read until answered; 0 or -errno. */
WSC_INTERNAL int wsc_nl_transact(struct wsc_nl *nl, struct nl_msg *msg,
				 struct wsc_nl_req *req);
/*
 * Send @msg (consumed), a do request that must be answered by an
 * acknowledgement alone; 0 or -errno (-EPROTO for a reply message).
 */
WSC_INTERNAL int wsc_nl_do_ack(struct wsc_nl *nl, struct nl_msg *msg);

/* The attributes of a message of the family, for nla_for_each_attr(). */
static inline struct nlattr *wsc_nl_attrs(struct nlmsghdr *nlh)
{
	return genlmsg_attrdata(nlmsg_data(nlh), 0);
}

static inline int wsc_nl_attrs_len(struct nlmsghdr *nlh)
{
	return genlmsg_attrlen(nlmsg_data(nlh), 0);
}

#endif /* LIBWSC_NL_H */
