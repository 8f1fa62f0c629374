// SPDX-License-Identifier: MIT
/*
 * The latency lab's client: the generic netlink family "syscall_lat"
 * (include/uapi/linux/wsc.h), through libnl-genl-3.
 *
 * Every request is one exchange: send, then receive until the kernel's
 * acknowledgement (a do), the end of a dump, or an error.  Extended acks
 * are on, so a refusal comes with the kernel's reason, which
 * wsc_lat_error() returns until the next request.  A dump is always read
 * to its end, even after a failure, so that the socket is clean for the
 * next request.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "internal.h"
#include "lat_nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

#define U32_ATTR	{ .type = NLA_U32, .minlen = 4, .maxlen = 4 }
#define U64_ATTR	{ .type = NLA_U64, .minlen = 8, .maxlen = 8 }

static struct nla_policy lat_policy[WSC_LAT_A_MAX + 1] = {
	[WSC_LAT_A_EXPERIMENT]	= { .type = NLA_STRING,
				    .maxlen = WSC_LAT_NAME_MAX + 1 },
	[WSC_LAT_A_ITERATIONS]	= U32_ATTR,
	[WSC_LAT_A_CPU]		= U32_ATTR,
	[WSC_LAT_A_COUNT]	= U64_ATTR,
	[WSC_LAT_A_ERRORS]	= U64_ATTR,
	[WSC_LAT_A_WARMUP]	= U32_ATTR,
	[WSC_LAT_A_MEAN_PS]	= U64_ATTR,
	[WSC_LAT_A_MEDIAN_PS]	= U64_ATTR,
	[WSC_LAT_A_STDDEV_PS]	= U64_ATTR,
	[WSC_LAT_A_MIN_PS]	= U64_ATTR,
	[WSC_LAT_A_MAX_PS]	= U64_ATTR,
	[WSC_LAT_A_CI95_LO_PS]	= U64_ATTR,
	[WSC_LAT_A_CI95_HI_PS]	= U64_ATTR,
	[WSC_LAT_A_P50_PS]	= U64_ATTR,
	[WSC_LAT_A_P95_PS]	= U64_ATTR,
	[WSC_LAT_A_P99_PS]	= U64_ATTR,
	[WSC_LAT_A_TIMER_PS]	= U64_ATTR,
	[WSC_LAT_A_BLOCK_PS]	= U64_ATTR,
	[WSC_LAT_A_BLOCK_OPS]	= U32_ATTR,
	[WSC_LAT_A_RUN_ID]	= U64_ATTR,
	[WSC_LAT_A_DURATION_NS]	= U64_ATTR,
	[WSC_LAT_A_FIRST_INDEX]	= U64_ATTR,
	[WSC_LAT_A_SAMPLE]	= U64_ATTR,
	[WSC_LAT_A_BUCKET]	= { .type = NLA_NESTED },
	[WSC_LAT_A_TRACE_PID]	= U32_ATTR,
	[WSC_LAT_A_TRACE_CGROUP] = { .type = NLA_STRING,
				     .maxlen = WSC_TRACE_CGROUP_MAX + 1 },
	[WSC_LAT_A_TRACE_STATE]	= U32_ATTR,
	[WSC_LAT_A_TRACE_END]	= U32_ATTR,
	[WSC_LAT_A_TRACE_TASKS]	= U64_ATTR,
	[WSC_LAT_A_TRACE_LIVE]	= U32_ATTR,
	[WSC_LAT_A_TRACE_TASK_SLOTS] = U32_ATTR,
	[WSC_LAT_A_TRACE_HIST_SLOTS] = U32_ATTR,
	[WSC_LAT_A_TRACE_LOST_TASKS] = U64_ATTR,
	[WSC_LAT_A_TRACE_LOST_CALLS] = U64_ATTR,
	[WSC_LAT_A_TRACE_LOST_EXITS] = U64_ATTR,
	[WSC_LAT_A_TRACE_LOST_HIST] = U64_ATTR,
	[WSC_LAT_A_TRACE_FOREIGN] = U64_ATTR,
	[WSC_LAT_A_TRACE_UNMATCHED] = U64_ATTR,
	[WSC_LAT_A_TRACE_UNFINISHED] = U64_ATTR,
	[WSC_LAT_A_TRACE_NR]	= U32_ATTR,
	[WSC_LAT_A_TRACE_CALLS]	= U64_ATTR,
	[WSC_LAT_A_TRACE_TOTAL_NS] = U64_ATTR,
	[WSC_LAT_A_TRACE_MAX_NS] = U64_ATTR,
};

struct nla_policy lat_bucket_policy[WSC_LAT_BUCKET_MAX + 1] = {
	[WSC_LAT_BUCKET_CPU]	 = U32_ATTR,
	[WSC_LAT_BUCKET_LOW_NS]	 = U64_ATTR,
	[WSC_LAT_BUCKET_HIGH_NS] = U64_ATTR,
	[WSC_LAT_BUCKET_COUNT]	 = U64_ATTR,
};

static struct nla_policy lat_ext_ack_policy[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG]	= { .type = NLA_STRING },
};

/* libnl's error codes back to the errno they came from, roughly. */
static int lat_errno(int nlerr)
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

void lat_set_error(struct wsc_lat *lat, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(lat->error, sizeof(lat->error), fmt, ap);
	va_end(ap);
}

/* A failure found while parsing: the first one is the one reported. */
int lat_req_fail(struct lat_req *req, int err, const char *fmt, ...)
{
	va_list ap;

	if (req->err)
		return NL_OK;
	req->err = err;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(req->lat->error, sizeof(req->lat->error), fmt, ap);
		va_end(ap);
	}
	return NL_OK;
}

/*
 * Keep the NLMSGERR_ATTR_MSG of an ack, an error or the end of a dump:
 * the attributes after the first @hdrlen bytes of @nlh's payload.
 */
static void lat_keep_ext_ack(struct wsc_lat *lat, struct nlmsghdr *nlh,
			     int hdrlen)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (hdrlen < 0 || nlmsg_datalen(nlh) < (int)NLMSG_ALIGN(hdrlen))
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, nlmsg_attrdata(nlh, hdrlen),
		      nlmsg_attrlen(nlh, hdrlen), lat_ext_ack_policy) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		nla_strlcpy(lat->error, tb[NLMSGERR_ATTR_MSG], sizeof(lat->error));
}

/* The payload before an ack's or error's TLVs: capped, or with the request. */
static int lat_err_hdrlen(struct nlmsghdr *nlh, struct nlmsgerr *e)
{
	if (nlh->nlmsg_flags & NLM_F_CAPPED)
		return (int)sizeof(*e);
	return (int)(sizeof(e->error) + e->msg.nlmsg_len);
}

static int lat_on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	/* libnl hands us the payload; the header sits just before it. */
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct lat_req *req = arg;

	(void)who;
	if (!req->err) {
		lat_keep_ext_ack(req->lat, nlh, lat_err_hdrlen(nlh, e));
		req->err = e->error < 0 ? e->error : -EPROTO;
	}
	req->done = true;
	return NL_STOP;
}

static int lat_on_ack(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct lat_req *req = arg;

	if (!req->err)
		lat_keep_ext_ack(req->lat, nlh,
				 lat_err_hdrlen(nlh, nlmsg_data(nlh)));
	req->done = true;
	return NL_STOP;
}

/* The end of a dump: an int, negative when the dump failed, then TLVs. */
static int lat_on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct lat_req *req = arg;
	int status = 0;

	if (nlmsg_datalen(nlh) >= (int)sizeof(status))
		memcpy(&status, nlmsg_data(nlh), sizeof(status));
	if (status < 0 && !req->err) {
		lat_keep_ext_ack(req->lat, nlh, sizeof(status));
		req->err = status;
	}
	req->done = true;
	return NL_STOP;
}

static int lat_on_valid(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[WSC_LAT_A_MAX + 1];
	struct lat_req *req = arg;
	int ret;

	if (req->err)
		return NL_OK;		/* draining after a failure */
	if (nlh->nlmsg_type != req->lat->family)
		return lat_req_fail(req, -EPROTO,
				    "unexpected netlink message type %u",
				    nlh->nlmsg_type);
	if (!genlmsg_valid_hdr(nlh, 0))
		return lat_req_fail(req, -EBADMSG, "truncated message from the kernel");
	ret = nla_parse(tb, WSC_LAT_A_MAX, genlmsg_attrdata(nlmsg_data(nlh), 0),
			genlmsg_attrlen(nlmsg_data(nlh), 0), lat_policy);
	if (ret < 0)
		return lat_req_fail(req, -EBADMSG,
				    "malformed message from the kernel (%s)",
				    nl_geterror(ret));
	req->messages++;
	if (req->parse)
		return req->parse(req, tb, nlh);
	return NL_OK;
}

/*
 * Send @msg (consumed) and read until the request is answered.  Returns
 * 0 or -errno, the kernel's or our own; lat->error says why when it can.
 */
int lat_transact(struct wsc_lat *lat, struct nl_msg *msg,
			struct lat_req *req)
{
	struct nl_cb *cb;
	int ret;

	lat->error[0] = '\0';
	if (lat->broken) {
		nlmsg_free(msg);
		lat_set_error(lat, "an earlier receive failed; open the lab again");
		return -ENOTCONN;
	}
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, lat_on_valid, req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, lat_on_finish, req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, lat_on_ack, req);
	nl_cb_err(cb, NL_CB_CUSTOM, lat_on_error, req);

	ret = nl_send_auto(lat->sk, msg);
	nlmsg_free(msg);
	if (ret < 0) {
		nl_cb_put(cb);
		lat_set_error(lat, "sending the request failed: %s",
			      nl_geterror(ret));
		return lat_errno(ret);
	}
	while (!req->done) {
		ret = nl_recvmsgs(lat->sk, cb);
		if (ret < 0 && !req->done) {
			/* Not the kernel's answer: the transport failed. */
			lat->broken = true;
			lat_set_error(lat, "receiving the answer failed: %s",
				      nl_geterror(ret));
			req->err = lat_errno(ret);
			break;
		}
	}
	nl_cb_put(cb);
	return req->err;
}

struct nl_msg *lat_msg(struct wsc_lat *lat, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, lat->family, 0, flags,
			 cmd, WSC_LAT_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Names are checked here so that nothing malformed reaches the kernel. */
static int lat_check_name(struct wsc_lat *lat, const char *experiment)
{
	if (!lat)
		return -EINVAL;
	lat->error[0] = '\0';
	if (!experiment || !experiment[0])
		return -EINVAL;
	if (strlen(experiment) > WSC_LAT_NAME_MAX) {
		lat_set_error(lat, "experiment name longer than %d characters",
			      WSC_LAT_NAME_MAX);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* A request naming one experiment. */
static struct nl_msg *lat_msg_exp(struct wsc_lat *lat, uint8_t cmd, int flags,
				  const char *experiment)
{
	struct nl_msg *msg = lat_msg(lat, cmd, flags);

	if (msg && experiment &&
	    nla_put_string(msg, WSC_LAT_A_EXPERIMENT, experiment) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

int wsc_lat_open(struct wsc_lat **out)
{
	struct wsc_lat *lat;
	int one = 1, ret;

	if (!out)
		return -EINVAL;
	lat = calloc(1, sizeof(*lat));
	if (!lat)
		return -ENOMEM;
	lat->sk = nl_socket_alloc();
	if (!lat->sk) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = genl_connect(lat->sk);
	if (ret < 0) {
		ret = lat_errno(ret);
		goto err_socket;
	}
	/*
	 * Extended acks: refusals carry the kernel's reason.  This is what
	 * nl_socket_set_ext_ack() does in newer libnl; the libnl 3.7 of
	 * Debian 12 does not have it.  Capped acks: errors do not echo the
	 * request back.
	 */
	if (setsockopt(nl_socket_get_fd(lat->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		       &one, sizeof(one)) ||
	    setsockopt(nl_socket_get_fd(lat->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		       &one, sizeof(one))) {
		ret = -errno;
		goto err_socket;
	}
	ret = genl_ctrl_resolve(lat->sk, WSC_LAT_GENL_NAME);
	if (ret < 0) {
		/* ENOENT: no such family, i.e. wsc.ko is not loaded. */
		ret = lat_errno(ret);
		goto err_socket;
	}
	lat->family = ret;
	*out = lat;
	return 0;

err_socket:
	nl_socket_free(lat->sk);
err_free:
	free(lat);
	return ret;
}

void wsc_lat_close(struct wsc_lat *lat)
{
	if (!lat)
		return;
	nl_socket_free(lat->sk);
	free(lat);
}

const char *wsc_lat_error(const struct wsc_lat *lat)
{
	return lat ? lat->error : "";
}

/* Every attribute a result message must carry, and where it goes. */
static const struct {
	unsigned int attr;
	size_t offset;
} lat_sum_attrs[] = {
	{ WSC_LAT_A_COUNT,	offsetof(struct wsc_summary, count) },
	{ WSC_LAT_A_MEAN_PS,	offsetof(struct wsc_summary, mean_ps) },
	{ WSC_LAT_A_MEDIAN_PS,	offsetof(struct wsc_summary, median_ps) },
	{ WSC_LAT_A_STDDEV_PS,	offsetof(struct wsc_summary, stddev_ps) },
	{ WSC_LAT_A_MIN_PS,	offsetof(struct wsc_summary, min_ps) },
	{ WSC_LAT_A_MAX_PS,	offsetof(struct wsc_summary, max_ps) },
	{ WSC_LAT_A_CI95_LO_PS,	offsetof(struct wsc_summary, ci95_lo_ps) },
	{ WSC_LAT_A_CI95_HI_PS,	offsetof(struct wsc_summary, ci95_hi_ps) },
	{ WSC_LAT_A_P50_PS,	offsetof(struct wsc_summary, p50_ps) },
	{ WSC_LAT_A_P95_PS,	offsetof(struct wsc_summary, p95_ps) },
	{ WSC_LAT_A_P99_PS,	offsetof(struct wsc_summary, p99_ps) },
};

static const unsigned int lat_required[] = {
	WSC_LAT_A_EXPERIMENT, WSC_LAT_A_ITERATIONS, WSC_LAT_A_ERRORS,
	WSC_LAT_A_WARMUP, WSC_LAT_A_TIMER_PS, WSC_LAT_A_RUN_ID,
	WSC_LAT_A_DURATION_NS,
};

static int lat_parse_result(struct lat_req *req, struct nlattr **tb,
			    struct nlmsghdr *nlh)
{
	struct wsc_lat_stats *st = req->stats;
	struct nlattr *pos;
	unsigned int i;
	int rem;

	if (req->messages > 1)
		return lat_req_fail(req, -EPROTO, "more than one result message");
	for (i = 0; i < sizeof(lat_required) / sizeof(lat_required[0]); i++)
		if (!tb[lat_required[i]])
			return lat_req_fail(req, -EBADMSG,
					    "result without attribute %u",
					    lat_required[i]);
	for (i = 0; i < sizeof(lat_sum_attrs) / sizeof(lat_sum_attrs[0]); i++)
		if (!tb[lat_sum_attrs[i].attr])
			return lat_req_fail(req, -EBADMSG,
					    "result without attribute %u",
					    lat_sum_attrs[i].attr);

	memset(st, 0, sizeof(*st));
	nla_strlcpy(st->experiment, tb[WSC_LAT_A_EXPERIMENT],
		    sizeof(st->experiment));
	st->iterations = nla_get_u32(tb[WSC_LAT_A_ITERATIONS]);
	st->warmup = nla_get_u32(tb[WSC_LAT_A_WARMUP]);
	st->errors = nla_get_u64(tb[WSC_LAT_A_ERRORS]);
	st->timer_ps = nla_get_u64(tb[WSC_LAT_A_TIMER_PS]);
	st->run_id = nla_get_u64(tb[WSC_LAT_A_RUN_ID]);
	st->duration_ns = nla_get_u64(tb[WSC_LAT_A_DURATION_NS]);
	if (tb[WSC_LAT_A_BLOCK_PS])
		st->block_ps = nla_get_u64(tb[WSC_LAT_A_BLOCK_PS]);
	if (tb[WSC_LAT_A_BLOCK_OPS])
		st->block_ops = nla_get_u32(tb[WSC_LAT_A_BLOCK_OPS]);
	for (i = 0; i < sizeof(lat_sum_attrs) / sizeof(lat_sum_attrs[0]); i++)
		*(__u64 *)((char *)&st->sum + lat_sum_attrs[i].offset) =
			nla_get_u64(tb[lat_sum_attrs[i].attr]);

	/* CPU repeats, one per role, in role order: nla_parse kept the last. */
	nla_for_each_attr(pos, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(pos) != WSC_LAT_A_CPU)
			continue;
		if (st->nr_cpus == WSC_LAT_MAX_ROLES)
			return lat_req_fail(req, -EBADMSG,
					    "result with more than %d CPUs",
					    WSC_LAT_MAX_ROLES);
		st->cpu[st->nr_cpus++] = nla_get_u32(pos);
	}
	if (!st->nr_cpus)
		return lat_req_fail(req, -EBADMSG, "result without a CPU");
	return NL_OK;
}

/* A do request whose answer is one result message. */
static int lat_result_request(struct wsc_lat *lat, struct nl_msg *msg,
			      struct wsc_lat_stats *out)
{
	struct lat_req req = {
		.lat = lat, .parse = lat_parse_result, .stats = out,
	};
	int ret;

	ret = lat_transact(lat, msg, &req);
	if (!ret && req.messages != 1) {
		lat_set_error(lat, "the kernel acknowledged without a result");
		ret = -EPROTO;
	}
	return ret;
}

int wsc_lat_run(struct wsc_lat *lat, const char *experiment,
		uint32_t iterations, const uint32_t *cpus, unsigned int nr_cpus,
		struct wsc_lat_stats *out)
{
	struct nl_msg *msg;
	unsigned int i;
	int ret;

	ret = lat_check_name(lat, experiment);
	if (ret)
		return ret;
	if (!out || nr_cpus > WSC_LAT_MAX_ROLES || (nr_cpus && !cpus) ||
	    iterations > WSC_LAT_MAX_ITERATIONS)
		return -EINVAL;
	msg = lat_msg_exp(lat, WSC_LAT_CMD_RUN, 0, experiment);
	if (!msg)
		return -ENOMEM;
	if (iterations && nla_put_u32(msg, WSC_LAT_A_ITERATIONS, iterations) < 0)
		goto err_msg;
	for (i = 0; i < nr_cpus; i++)
		if (nla_put_u32(msg, WSC_LAT_A_CPU, cpus[i]) < 0)
			goto err_msg;
	return lat_result_request(lat, msg, out);

err_msg:
	nlmsg_free(msg);
	return -ENOMEM;
}

int wsc_lat_stats_get(struct wsc_lat *lat, const char *experiment,
		      struct wsc_lat_stats *out)
{
	struct nl_msg *msg;
	int ret;

	ret = lat_check_name(lat, experiment);
	if (ret)
		return ret;
	if (!out)
		return -EINVAL;
	msg = lat_msg_exp(lat, WSC_LAT_CMD_GET_STATS, 0, experiment);
	if (!msg)
		return -ENOMEM;
	return lat_result_request(lat, msg, out);
}

/* One message of the samples dump: FIRST_INDEX, then SAMPLEs in order. */
static int lat_parse_samples(struct lat_req *req, struct nlattr **tb,
			     struct nlmsghdr *nlh)
{
	struct nlattr *pos;
	uint64_t first;
	int rem, ret;

	if (!tb[WSC_LAT_A_FIRST_INDEX])
		return lat_req_fail(req, -EBADMSG,
				    "samples message without FIRST_INDEX");
	first = nla_get_u64(tb[WSC_LAT_A_FIRST_INDEX]);
	if (first != req->next)
		return lat_req_fail(req, -EPROTO,
				    "samples lost: expected index %llu, the message starts at %llu",
				    (unsigned long long)req->next,
				    (unsigned long long)first);
	nla_for_each_attr(pos, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(pos) != WSC_LAT_A_SAMPLE)
			continue;
		ret = req->sample_fn(req->ctx, req->next, nla_get_u64(pos));
		if (ret)
			return lat_req_fail(req, ret < 0 ? ret : -ECANCELED, NULL);
		req->next++;
	}
	return NL_OK;
}

/* Dump one experiment's samples or buckets; returns how many came. */
static int lat_dump_exp(struct wsc_lat *lat, uint8_t cmd,
			const char *experiment, struct lat_req *req)
{
	struct nl_msg *msg;
	int ret;

	ret = lat_check_name(lat, experiment);
	if (ret)
		return ret;
	msg = lat_msg_exp(lat, cmd, NLM_F_DUMP, experiment);
	if (!msg)
		return -ENOMEM;
	ret = lat_transact(lat, msg, req);
	if (ret)
		return ret;
	return req->next > INT32_MAX ? -EOVERFLOW : (int)req->next;
}

int wsc_lat_samples(struct wsc_lat *lat, const char *experiment,
		    int (*fn)(void *ctx, uint64_t index, uint64_t ns),
		    void *ctx)
{
	struct lat_req req = {
		.lat = lat, .parse = lat_parse_samples, .sample_fn = fn,
		.ctx = ctx,
	};

	if (!fn)
		return -EINVAL;
	return lat_dump_exp(lat, WSC_LAT_CMD_GET_SAMPLES, experiment, &req);
}

/* One message of the histogram dump: BUCKET nests. */
static int lat_parse_hist(struct lat_req *req, struct nlattr **tb,
			  struct nlmsghdr *nlh)
{
	struct nlattr *btb[WSC_LAT_BUCKET_MAX + 1], *pos;
	int rem, ret;

	(void)tb;
	nla_for_each_attr(pos, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		uint64_t low, high;

		if (nla_type(pos) != WSC_LAT_A_BUCKET)
			continue;
		ret = nla_parse_nested(btb, WSC_LAT_BUCKET_MAX, pos,
				       lat_bucket_policy);
		if (ret < 0)
			return lat_req_fail(req, -EBADMSG,
					    "malformed bucket (%s)",
					    nl_geterror(ret));
		if (!btb[WSC_LAT_BUCKET_CPU] || !btb[WSC_LAT_BUCKET_LOW_NS] ||
		    !btb[WSC_LAT_BUCKET_HIGH_NS] || !btb[WSC_LAT_BUCKET_COUNT])
			return lat_req_fail(req, -EBADMSG,
					    "bucket without CPU, LOW_NS, HIGH_NS or COUNT");
		low = nla_get_u64(btb[WSC_LAT_BUCKET_LOW_NS]);
		high = nla_get_u64(btb[WSC_LAT_BUCKET_HIGH_NS]);
		if (low > high)
			return lat_req_fail(req, -EBADMSG,
					    "bucket [%llu, %llu] is empty",
					    (unsigned long long)low,
					    (unsigned long long)high);
		ret = req->bucket_fn(req->ctx,
				     nla_get_u32(btb[WSC_LAT_BUCKET_CPU]),
				     low, high,
				     nla_get_u64(btb[WSC_LAT_BUCKET_COUNT]));
		if (ret)
			return lat_req_fail(req, ret < 0 ? ret : -ECANCELED, NULL);
		req->next++;
	}
	return NL_OK;
}

int wsc_lat_hist(struct wsc_lat *lat, const char *experiment,
		 int (*fn)(void *ctx, uint32_t cpu, uint64_t low_ns,
			   uint64_t high_ns, uint64_t count),
		 void *ctx)
{
	struct lat_req req = {
		.lat = lat, .parse = lat_parse_hist, .bucket_fn = fn,
		.ctx = ctx,
	};

	if (!fn)
		return -EINVAL;
	return lat_dump_exp(lat, WSC_LAT_CMD_GET_HIST, experiment, &req);
}

int wsc_lat_reset(struct wsc_lat *lat, const char *experiment)
{
	struct lat_req req = { .lat = lat };
	struct nl_msg *msg;
	int ret;

	if (!lat)
		return -EINVAL;
	if (experiment) {
		ret = lat_check_name(lat, experiment);
		if (ret)
			return ret;
	}
	msg = lat_msg_exp(lat, WSC_LAT_CMD_RESET, 0, experiment);
	if (!msg)
		return -ENOMEM;
	ret = lat_transact(lat, msg, &req);
	if (!ret && req.messages) {
		lat_set_error(lat, "unexpected reply to a reset");
		ret = -EPROTO;
	}
	return ret;
}
