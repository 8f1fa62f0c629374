// SPDX-License-Identifier: MIT
/*
 * libwsc's netlink client: the generic netlink family "syscall_lat"
 * (include/uapi/linux/wsc.h), through libnl-genl-3.  lab.c and trace.c
 * build their requests and parse their answers on top of it.
 *
 * Every request is one exchange: send, then receive until the kernel's
 * acknowledgement (a do), the end of a dump, or an error.  Extended acks
 * are on, so a refusal comes with the kernel's reason, which the handle's
 * error function (wsc_lat_error(), wsc_trace_error()) returns until the
 * next request.  A dump is always read to its end, even after a failure,
 * so that the socket is clean for the next request.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "internal.h"
#include "nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

#define U32_ATTR	{ .type = NLA_U32, .minlen = 4, .maxlen = 4 }
#define U64_ATTR	{ .type = NLA_U64, .minlen = 8, .maxlen = 8 }

/*
 * The attribute sets of the kernel's answers, one per object
 * (Documentation/netlink/syscall_lat.yaml).  An attribute past the end of
 * a set is one a newer module added: nla_parse() skips it, as the ABI
 * asks of a client (Documentation/abi.md).
 */
struct nla_policy wsc_nl_result_policy[WSC_LAT_A_RESULT_MAX + 1] = {
	[WSC_LAT_A_RESULT_EXPERIMENT]	= { .type = NLA_STRING,
					    .maxlen = WSC_LAT_NAME_MAX + 1 },
	[WSC_LAT_A_RESULT_ITERATIONS]	= U32_ATTR,
	[WSC_LAT_A_RESULT_CPU]		= U32_ATTR,
	[WSC_LAT_A_RESULT_COUNT]	= U64_ATTR,
	[WSC_LAT_A_RESULT_ERRORS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_WARMUP]	= U32_ATTR,
	[WSC_LAT_A_RESULT_MEAN_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_MEDIAN_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_STDDEV_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_MIN_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_MAX_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_CI95_LO_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_CI95_HI_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_P50_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_P95_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_P99_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_TIMER_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_BLOCK_PS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_BLOCK_OPS]	= U32_ATTR,
	[WSC_LAT_A_RESULT_RUN_ID]	= U64_ATTR,
	[WSC_LAT_A_RESULT_DURATION_NS]	= U64_ATTR,
	[WSC_LAT_A_RESULT_FIRST_INDEX]	= U64_ATTR,
	[WSC_LAT_A_RESULT_SAMPLE]	= U64_ATTR,
	[WSC_LAT_A_RESULT_BUCKET]	= { .type = NLA_NESTED },
};

struct nla_policy wsc_nl_trace_policy[WSC_LAT_A_TRACE_MAX + 1] = {
	[WSC_LAT_A_TRACE_ID]		= U64_ATTR,
	[WSC_LAT_A_TRACE_PID]		= U32_ATTR,
	[WSC_LAT_A_TRACE_CGROUP]	= { .type = NLA_STRING,
					    .maxlen = WSC_TRACE_CGROUP_MAX + 1 },
	[WSC_LAT_A_TRACE_ALL]		= { .type = NLA_FLAG },
	[WSC_LAT_A_TRACE_FAILED]	= { .type = NLA_FLAG },
	[WSC_LAT_A_TRACE_ERRNO]		= U32_ATTR,
	[WSC_LAT_A_TRACE_STATE]		= U32_ATTR,
	[WSC_LAT_A_TRACE_END]		= U32_ATTR,
	[WSC_LAT_A_TRACE_DURATION_NS]	= U64_ATTR,
	[WSC_LAT_A_TRACE_TASKS]		= U64_ATTR,
	[WSC_LAT_A_TRACE_LIVE]		= U32_ATTR,
	[WSC_LAT_A_TRACE_TASK_SLOTS]	= U32_ATTR,
	[WSC_LAT_A_TRACE_HIST_SLOTS]	= U32_ATTR,
	[WSC_LAT_A_TRACE_LOST_TASKS]	= U64_ATTR,
	[WSC_LAT_A_TRACE_LOST_CALLS]	= U64_ATTR,
	[WSC_LAT_A_TRACE_LOST_EXITS]	= U64_ATTR,
	[WSC_LAT_A_TRACE_LOST_HIST]	= U64_ATTR,
	[WSC_LAT_A_TRACE_LOST_ERRNOS]	= U64_ATTR,
	[WSC_LAT_A_TRACE_LOST_RECORDS]	= U64_ATTR,
	[WSC_LAT_A_TRACE_FOREIGN]	= U64_ATTR,
	[WSC_LAT_A_TRACE_UNMATCHED]	= U64_ATTR,
	[WSC_LAT_A_TRACE_UNFINISHED]	= U64_ATTR,
	[WSC_LAT_A_TRACE_FILTERED]	= U64_ATTR,
	[WSC_LAT_A_TRACE_EVENTS]	= U32_ATTR,
	[WSC_LAT_A_TRACE_LOST_EVENTS]	= U64_ATTR,
	/* An array of struct wsc_trace_event: its length is checked by trace.c. */
	[WSC_LAT_A_TRACE_EVENT_ARRAY]	= { .type = NLA_UNSPEC },
	[WSC_LAT_A_TRACE_RING]		= { .type = NLA_FLAG },
	[WSC_LAT_A_TRACE_RING_LOST]	= U64_ATTR,
	[WSC_LAT_A_TRACE_RING_PENDING]	= U64_ATTR,
};

struct nla_policy wsc_nl_call_policy[WSC_LAT_A_CALL_MAX + 1] = {
	[WSC_LAT_A_CALL_NR]		= U32_ATTR,
	[WSC_LAT_A_CALL_COUNT]		= U64_ATTR,
	[WSC_LAT_A_CALL_ERRORS]		= U64_ATTR,
	[WSC_LAT_A_CALL_TOTAL_NS]	= U64_ATTR,
	[WSC_LAT_A_CALL_OFF_NS]		= U64_ATTR,
	[WSC_LAT_A_CALL_MAX_NS]		= U64_ATTR,
	[WSC_LAT_A_CALL_WRAPPED]	= U64_ATTR,
	[WSC_LAT_A_CALL_ERRNO]		= { .type = NLA_NESTED },
	[WSC_LAT_A_CALL_BUCKET]		= { .type = NLA_NESTED },
	[WSC_LAT_A_CALL_RING_OP]	= U32_ATTR,
};

struct nla_policy wsc_nl_task_policy[WSC_LAT_A_TASK_MAX + 1] = {
	[WSC_LAT_A_TASK_TID]		= U32_ATTR,
	[WSC_LAT_A_TASK_TGID]		= U32_ATTR,
	[WSC_LAT_A_TASK_PPID]		= U32_ATTR,
	[WSC_LAT_A_TASK_COMM]		= { .type = NLA_STRING, .maxlen = 16 },
	[WSC_LAT_A_TASK_CALLS]		= U64_ATTR,
	[WSC_LAT_A_TASK_ERRORS]		= U64_ATTR,
	[WSC_LAT_A_TASK_TOTAL_NS]	= U64_ATTR,
	[WSC_LAT_A_TASK_OFF_NS]		= U64_ATTR,
};

struct nla_policy wsc_nl_errno_policy[WSC_LAT_A_ERRNO_MAX + 1] = {
	[WSC_LAT_A_ERRNO_VALUE]		= U32_ATTR,
	[WSC_LAT_A_ERRNO_COUNT]		= U64_ATTR,
};

struct nla_policy wsc_nl_bucket_policy[WSC_LAT_A_BUCKET_MAX + 1] = {
	[WSC_LAT_A_BUCKET_CPU]		= U32_ATTR,
	[WSC_LAT_A_BUCKET_LOW_NS]	= U64_ATTR,
	[WSC_LAT_A_BUCKET_HIGH_NS]	= U64_ATTR,
	[WSC_LAT_A_BUCKET_COUNT]	= U64_ATTR,
};

_Static_assert(WSC_LAT_A_RESULT_MAX <= WSC_NL_ATTRS_MAX &&
	       WSC_LAT_A_TRACE_MAX <= WSC_NL_ATTRS_MAX &&
	       WSC_LAT_A_CALL_MAX <= WSC_NL_ATTRS_MAX &&
	       WSC_LAT_A_TASK_MAX <= WSC_NL_ATTRS_MAX,
	       "a reply set outgrew struct wsc_nl_req's parse table");

static struct nla_policy wsc_nl_ext_ack_policy[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG]	= { .type = NLA_STRING },
};

/* libnl's error codes back to the errno they came from, roughly. */
static int wsc_nl_errno(int nlerr)
{
	switch (nlerr < 0 ? -nlerr : nlerr) {
	case NLE_NOMEM:		return -ENOMEM;
	case NLE_OBJ_NOTFOUND:	return -ENOENT;
	case NLE_PERM:		return -EPERM;
	case NLE_NOACCESS:	return -EACCES;
	case NLE_BUSY:		return -EBUSY;
	case NLE_INTR:		return -EINTR;
	case NLE_AGAIN:		return -EAGAIN;
	case NLE_INVAL:		return -EINVAL;
	case NLE_RANGE:		return -ERANGE;
	case NLE_NODEV:		return -ENODEV;
	case NLE_OPNOTSUPP:	return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:	return -EAFNOSUPPORT;
	case NLE_PROTO_MISMATCH:
	case NLE_SEQ_MISMATCH:
	case NLE_MSG_TRUNC:
	case NLE_MSG_TOOSHORT:
	case NLE_MSGTYPE_NOSUPPORT:
	case NLE_PARSE_ERR:	return -EPROTO;
	default:		return -EIO;
	}
}

void wsc_nl_set_error(struct wsc_nl *nl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(nl->error, sizeof(nl->error), fmt, ap);
	va_end(ap);
}

/* A failure found while parsing: the first one is the one reported. */
int wsc_nl_req_fail(struct wsc_nl_req *req, int err, const char *fmt, ...)
{
	va_list ap;

	if (req->err)
		return NL_OK;
	req->err = err;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(req->nl->error, sizeof(req->nl->error), fmt, ap);
		va_end(ap);
	}
	return NL_OK;
}

/*
 * Keep the NLMSGERR_ATTR_MSG of an ack, an error or the end of a dump:
 * the attributes after the first @hdrlen bytes of @nlh's payload.
 */
static void wsc_nl_keep_ext_ack(struct wsc_nl *nl, struct nlmsghdr *nlh,
				int hdrlen)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (hdrlen < 0 || nlmsg_datalen(nlh) < (int)NLMSG_ALIGN(hdrlen))
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, nlmsg_attrdata(nlh, hdrlen),
		      nlmsg_attrlen(nlh, hdrlen), wsc_nl_ext_ack_policy) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(nl->error, tb[NLMSGERR_ATTR_MSG], sizeof(nl->error));
}

/* The payload before an ack's or error's TLVs: capped, or with the request. */
static int wsc_nl_err_hdrlen(struct nlmsghdr *nlh, struct nlmsgerr *e)
{
	if (nlh->nlmsg_flags & NLM_F_CAPPED)
		return (int)sizeof(*e);
	return (int)(sizeof(e->error) + e->msg.nlmsg_len);
}

static int wsc_nl_on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	/* libnl hands us the payload; the header sits just before it. */
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct wsc_nl_req *req = arg;

	(void)who;
	if (!req->err) {
		wsc_nl_keep_ext_ack(req->nl, nlh, wsc_nl_err_hdrlen(nlh, e));
		req->err = e->error < 0 ? e->error : -EPROTO;
	}
	req->done = true;
	return NL_STOP;
}

static int wsc_nl_on_ack(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct wsc_nl_req *req = arg;

	if (!req->err)
		wsc_nl_keep_ext_ack(req->nl, nlh,
				    wsc_nl_err_hdrlen(nlh, nlmsg_data(nlh)));
	req->done = true;
	return NL_STOP;
}

/* The end of a dump: an int, negative when the dump failed, then TLVs. */
static int wsc_nl_on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct wsc_nl_req *req = arg;
	int status = 0;

	if (nlmsg_datalen(nlh) >= (int)sizeof(status))
		memcpy(&status, nlmsg_data(nlh), sizeof(status));
	if (status < 0 && !req->err) {
		wsc_nl_keep_ext_ack(req->nl, nlh, sizeof(status));
		req->err = status;
	}
	req->done = true;
	return NL_STOP;
}

static int wsc_nl_on_valid(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[WSC_NL_ATTRS_MAX + 1];
	struct wsc_nl_req *req = arg;
	int ret;

	if (req->err)
		return NL_OK;		/* draining after a failure */
	if (nlh->nlmsg_type != req->nl->family)
		return wsc_nl_req_fail(req, -EPROTO,
				       "unexpected netlink message type %u",
				       nlh->nlmsg_type);
	if (!genlmsg_valid_hdr(nlh, 0))
		return wsc_nl_req_fail(req, -EBADMSG, "truncated message from the kernel");
	if (!req->policy)
		return wsc_nl_req_fail(req, -EPROTO, "unexpected reply from the kernel");
	ret = nla_parse(tb, req->maxattr, genlmsg_attrdata(nlmsg_data(nlh), 0),
			genlmsg_attrlen(nlmsg_data(nlh), 0), req->policy);
	if (ret < 0)
		return wsc_nl_req_fail(req, -EBADMSG,
				       "malformed message from the kernel (%s)",
				       nl_geterror(ret));
	req->messages++;
	if (req->parse)
		return req->parse(req, tb, nlh);
	return NL_OK;
}

/*
 * Send @msg (consumed) and read until the request is answered.  Returns
 * 0 or -errno, the kernel's or our own; nl->error says why when it can.
 */
int wsc_nl_transact(struct wsc_nl *nl, struct nl_msg *msg,
		    struct wsc_nl_req *req)
{
	struct nl_cb *cb;
	int ret;

	nl->error[0] = '\0';
	if (nl->broken) {
		nlmsg_free(msg);
		wsc_nl_set_error(nl, "an earlier receive failed; open %s again",
				 nl->what);
		return -ENOTCONN;
	}
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, wsc_nl_on_valid, req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, wsc_nl_on_finish, req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, wsc_nl_on_ack, req);
	nl_cb_err(cb, NL_CB_CUSTOM, wsc_nl_on_error, req);

	ret = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (ret < 0) {
		nl_cb_put(cb);
		wsc_nl_set_error(nl, "sending the request failed: %s",
				 nl_geterror(ret));
		return wsc_nl_errno(ret);
	}
	while (!req->done) {
		ret = nl_recvmsgs(nl->sk, cb);
		if (ret < 0 && !req->done) {
			/* Not the kernel's answer: the transport failed. */
			nl->broken = true;
			wsc_nl_set_error(nl, "receiving the answer failed: %s",
					 nl_geterror(ret));
			req->err = wsc_nl_errno(ret);
			break;
		}
	}
	nl_cb_put(cb);
	return req->err;
}

struct nl_msg *wsc_nl_msg(struct wsc_nl *nl, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags,
			 cmd, WSC_LAT_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/*
 * The family's version, as the controller says: the numbering of every
 * attribute set.  A module of another version (wsc 0.x's version 1 had
 * one attribute space for everything) would be answered in numbers this
 * library would misread: -EPROTO before any request.
 */
static int wsc_nl_check_version(struct wsc_nl *nl)
{
	struct genl_family *family;
	struct nl_cache *cache;
	int ret, version;

	ret = genl_ctrl_alloc_cache(nl->sk, &cache);
	if (ret < 0)
		return wsc_nl_errno(ret);
	family = genl_ctrl_search_by_name(cache, WSC_LAT_GENL_NAME);
	nl_cache_free(cache);
	if (!family)
		return -ENOENT;		/* gone since it was resolved */
	version = genl_family_get_version(family);
	genl_family_put(family);
	return version == WSC_LAT_GENL_VERSION ? 0 : -EPROTO;
}

int wsc_nl_open(struct wsc_nl *nl, const char *what)
{
	int one = 1, ret;

	nl->what = what;
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return -ENOMEM;
	ret = genl_connect(nl->sk);
	if (ret < 0) {
		ret = wsc_nl_errno(ret);
		goto free_socket;
	}
	/*
	 * Extended acks: refusals carry the kernel's reason.  This is what
	 * nl_socket_set_ext_ack() does in newer libnl; the libnl 3.7 of
	 * Debian 12 does not have it.  Capped acks: errors do not echo the
	 * request back.
	 */
	if (setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		       &one, sizeof(one)) ||
	    setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		       &one, sizeof(one))) {
		ret = -errno;
		goto free_socket;
	}
	ret = genl_ctrl_resolve(nl->sk, WSC_LAT_GENL_NAME);
	if (ret < 0) {
		/* ENOENT: no such family, i.e. wsc.ko is not loaded. */
		ret = wsc_nl_errno(ret);
		goto free_socket;
	}
	nl->family = ret;
	ret = wsc_nl_check_version(nl);
	if (ret)
		goto free_socket;
	return 0;

free_socket:
	nl_socket_free(nl->sk);
	nl->sk = NULL;
	return ret;
}

void wsc_nl_close(struct wsc_nl *nl)
{
	nl_socket_free(nl->sk);
	nl->sk = NULL;
}

int wsc_nl_do_ack(struct wsc_nl *nl, struct nl_msg *msg)
{
	struct wsc_nl_req req = { .nl = nl };
	int ret;

	ret = wsc_nl_transact(nl, msg, &req);
	if (!ret && req.messages) {
		wsc_nl_set_error(nl, "unexpected reply from the kernel");
		ret = -EPROTO;
	}
	return ret;
}
