// SPDX-License-Identifier: MIT
/*
 * The latency lab's commands (wsc_lat_*): run an experiment, read its
 * result, stream its raw samples and histograms, reset; requests of the
 * "syscall_lat" family (include/uapi/linux/wsc.h) over the netlink
 * client of nl.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "nl.h"

/*
 * What a lab request's parser fills in or calls: @stats for RUN and
 * GET_STATS; @sample_fn for GET_SAMPLES, @bucket_fn for GET_HIST, with
 * @ctx, and @next the samples or buckets delivered so far.
 */
struct lab_req {
	struct wsc_lat_stats *stats;
	int (*sample_fn)(void *ctx, uint64_t index, uint64_t ns);
	int (*bucket_fn)(void *ctx, uint32_t cpu, uint64_t low_ns,
			 uint64_t high_ns, uint64_t count);
	void *ctx;
	uint64_t next;
};

/* The lab's handle: the one netlink client, under the lab's name. */
struct wsc_lat {
	struct wsc_nl nl;
};

int wsc_lat_open(struct wsc_lat **out)
{
	struct wsc_lat *lat;
	int ret;

	if (!out)
		return -EINVAL;
	lat = calloc(1, sizeof(*lat));
	if (!lat)
		return -ENOMEM;
	ret = wsc_nl_open(&lat->nl, "the lab");
	if (ret) {
		free(lat);
		return ret;
	}
	*out = lat;
	return 0;
}

void wsc_lat_close(struct wsc_lat *lat)
{
	if (!lat)
		return;
	wsc_nl_close(&lat->nl);
	free(lat);
}

const char *wsc_lat_error(const struct wsc_lat *lat)
{
	return lat ? lat->nl.error : "";
}

/* Names are checked here so that nothing malformed reaches the kernel. */
static int lab_check_name(struct wsc_lat *lat, const char *experiment)
{
	if (!lat)
		return -EINVAL;
	lat->nl.error[0] = '\0';
	if (!experiment || !experiment[0])
		return -EINVAL;
	if (strlen(experiment) > WSC_LAT_NAME_MAX) {
		wsc_nl_set_error(&lat->nl, "experiment name longer than %d characters",
				 WSC_LAT_NAME_MAX);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* A request naming one experiment. */
static struct nl_msg *lab_msg_exp(struct wsc_lat *lat, uint8_t cmd, int flags,
				  const char *experiment)
{
	struct nl_msg *msg = wsc_nl_msg(&lat->nl, cmd, flags);

	if (msg && experiment &&
	    nla_put_string(msg, WSC_LAT_A_EXPERIMENT_NAME, experiment) < 0) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Every attribute a result message must carry, and where it goes. */
static const struct {
	unsigned int attr;
	size_t offset;
} lab_sum_attrs[] = {
	{ WSC_LAT_A_RESULT_COUNT,	offsetof(struct wsc_summary, count) },
	{ WSC_LAT_A_RESULT_MEAN_PS,	offsetof(struct wsc_summary, mean_ps) },
	{ WSC_LAT_A_RESULT_MEDIAN_PS,	offsetof(struct wsc_summary, median_ps) },
	{ WSC_LAT_A_RESULT_STDDEV_PS,	offsetof(struct wsc_summary, stddev_ps) },
	{ WSC_LAT_A_RESULT_MIN_PS,	offsetof(struct wsc_summary, min_ps) },
	{ WSC_LAT_A_RESULT_MAX_PS,	offsetof(struct wsc_summary, max_ps) },
	{ WSC_LAT_A_RESULT_CI95_LO_PS,	offsetof(struct wsc_summary, ci95_lo_ps) },
	{ WSC_LAT_A_RESULT_CI95_HI_PS,	offsetof(struct wsc_summary, ci95_hi_ps) },
	{ WSC_LAT_A_RESULT_P50_PS,	offsetof(struct wsc_summary, p50_ps) },
	{ WSC_LAT_A_RESULT_P95_PS,	offsetof(struct wsc_summary, p95_ps) },
	{ WSC_LAT_A_RESULT_P99_PS,	offsetof(struct wsc_summary, p99_ps) },
};

static const unsigned int lab_required[] = {
	WSC_LAT_A_RESULT_EXPERIMENT, WSC_LAT_A_RESULT_ITERATIONS, WSC_LAT_A_RESULT_ERRORS,
	WSC_LAT_A_RESULT_WARMUP, WSC_LAT_A_RESULT_TIMER_PS, WSC_LAT_A_RESULT_RUN_ID,
	WSC_LAT_A_RESULT_DURATION_NS,
};

static int lab_parse_result(struct wsc_nl_req *req, struct nlattr **tb,
			    struct nlmsghdr *nlh)
{
	struct lab_req *lr = req->priv;
	struct wsc_lat_stats *st = lr->stats;
	struct nlattr *pos;
	unsigned int i;
	int rem;

	if (req->messages > 1)
		return wsc_nl_req_fail(req, -EPROTO, "more than one result message");
	for (i = 0; i < sizeof(lab_required) / sizeof(lab_required[0]); i++)
		if (!tb[lab_required[i]])
			return wsc_nl_req_fail(req, -EBADMSG,
					       "result without attribute %u",
					       lab_required[i]);
	for (i = 0; i < sizeof(lab_sum_attrs) / sizeof(lab_sum_attrs[0]); i++)
		if (!tb[lab_sum_attrs[i].attr])
			return wsc_nl_req_fail(req, -EBADMSG,
					       "result without attribute %u",
					       lab_sum_attrs[i].attr);

	memset(st, 0, sizeof(*st));
	nla_strlcpy(st->experiment, tb[WSC_LAT_A_RESULT_EXPERIMENT],
		    sizeof(st->experiment));
	st->iterations = nla_get_u32(tb[WSC_LAT_A_RESULT_ITERATIONS]);
	st->warmup = nla_get_u32(tb[WSC_LAT_A_RESULT_WARMUP]);
	st->errors = nla_get_u64(tb[WSC_LAT_A_RESULT_ERRORS]);
	st->timer_ps = nla_get_u64(tb[WSC_LAT_A_RESULT_TIMER_PS]);
	st->run_id = nla_get_u64(tb[WSC_LAT_A_RESULT_RUN_ID]);
	st->duration_ns = nla_get_u64(tb[WSC_LAT_A_RESULT_DURATION_NS]);
	if (tb[WSC_LAT_A_RESULT_BLOCK_PS])
		st->block_ps = nla_get_u64(tb[WSC_LAT_A_RESULT_BLOCK_PS]);
	if (tb[WSC_LAT_A_RESULT_BLOCK_OPS])
		st->block_ops = nla_get_u32(tb[WSC_LAT_A_RESULT_BLOCK_OPS]);
	for (i = 0; i < sizeof(lab_sum_attrs) / sizeof(lab_sum_attrs[0]); i++)
		*(__u64 *)((char *)&st->sum + lab_sum_attrs[i].offset) =
			nla_get_u64(tb[lab_sum_attrs[i].attr]);

	/* CPU repeats, one per role, in role order: nla_parse kept the last. */
	nla_for_each_attr(pos, wsc_nl_attrs(nlh), wsc_nl_attrs_len(nlh), rem) {
		if (nla_type(pos) != WSC_LAT_A_RESULT_CPU)
			continue;
		if (st->nr_cpus == WSC_LAT_MAX_ROLES)
			return wsc_nl_req_fail(req, -EBADMSG,
					       "result with more than %d CPUs",
					       WSC_LAT_MAX_ROLES);
		st->cpu[st->nr_cpus++] = nla_get_u32(pos);
	}
	if (!st->nr_cpus)
		return wsc_nl_req_fail(req, -EBADMSG, "result without a CPU");
	return NL_OK;
}

/* A do request whose answer is one result message. */
static int lab_result_request(struct wsc_lat *lat, struct nl_msg *msg,
			      struct wsc_lat_stats *out)
{
	struct lab_req lr = { .stats = out };
	struct wsc_nl_req req = {
		.nl = &lat->nl, .parse = lab_parse_result, .priv = &lr,
		WSC_NL_ANSWER(wsc_nl_result_policy),
	};
	int ret;

	ret = wsc_nl_transact(&lat->nl, msg, &req);
	if (!ret && req.messages != 1) {
		wsc_nl_set_error(&lat->nl, "the kernel acknowledged without a result");
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

	ret = lab_check_name(lat, experiment);
	if (ret)
		return ret;
	if (!out || nr_cpus > WSC_LAT_MAX_ROLES || (nr_cpus && !cpus) ||
	    iterations > WSC_LAT_MAX_ITERATIONS)
		return -EINVAL;
	msg = lab_msg_exp(lat, WSC_LAT_CMD_RUN, 0, experiment);
	if (!msg)
		return -ENOMEM;
	if (iterations && nla_put_u32(msg, WSC_LAT_A_EXPERIMENT_ITERATIONS, iterations) < 0)
		goto free_msg;
	for (i = 0; i < nr_cpus; i++)
		if (nla_put_u32(msg, WSC_LAT_A_EXPERIMENT_CPU, cpus[i]) < 0)
			goto free_msg;
	return lab_result_request(lat, msg, out);

free_msg:
	nlmsg_free(msg);
	return -ENOMEM;
}

int wsc_lat_stats_get(struct wsc_lat *lat, const char *experiment,
		      struct wsc_lat_stats *out)
{
	struct nl_msg *msg;
	int ret;

	ret = lab_check_name(lat, experiment);
	if (ret)
		return ret;
	if (!out)
		return -EINVAL;
	msg = lab_msg_exp(lat, WSC_LAT_CMD_GET_STATS, 0, experiment);
	if (!msg)
		return -ENOMEM;
	return lab_result_request(lat, msg, out);
}

/* One message of the samples dump: FIRST_INDEX, then SAMPLEs in order. */
static int lab_parse_samples(struct wsc_nl_req *req, struct nlattr **tb,
			     struct nlmsghdr *nlh)
{
	struct lab_req *lr = req->priv;
	struct nlattr *pos;
	uint64_t first;
	int rem, ret;

	if (!tb[WSC_LAT_A_RESULT_FIRST_INDEX])
		return wsc_nl_req_fail(req, -EBADMSG,
				       "samples message without FIRST_INDEX");
	first = nla_get_u64(tb[WSC_LAT_A_RESULT_FIRST_INDEX]);
	if (first != lr->next)
		return wsc_nl_req_fail(req, -EPROTO,
				       "samples lost: expected index %llu, the message starts at %llu",
				       (unsigned long long)lr->next,
				       (unsigned long long)first);
	nla_for_each_attr(pos, wsc_nl_attrs(nlh), wsc_nl_attrs_len(nlh), rem) {
		if (nla_type(pos) != WSC_LAT_A_RESULT_SAMPLE)
			continue;
		ret = lr->sample_fn(lr->ctx, lr->next, nla_get_u64(pos));
		if (ret)
			return wsc_nl_req_fail(req, ret < 0 ? ret : -ECANCELED, NULL);
		lr->next++;
	}
	return NL_OK;
}

/* Dump one experiment's samples or buckets; returns how many came. */
static int lab_dump_exp(struct wsc_lat *lat, uint8_t cmd,
			const char *experiment, struct wsc_nl_req *req)
{
	const struct lab_req *lr;
	struct nl_msg *msg;
	int ret;

	ret = lab_check_name(lat, experiment);
	if (ret)
		return ret;
	msg = lab_msg_exp(lat, cmd, NLM_F_DUMP, experiment);
	if (!msg)
		return -ENOMEM;
	req->nl = &lat->nl;
	ret = wsc_nl_transact(&lat->nl, msg, req);
	if (ret)
		return ret;
	lr = req->priv;
	return lr->next > INT32_MAX ? -EOVERFLOW : (int)lr->next;
}

int wsc_lat_samples(struct wsc_lat *lat, const char *experiment,
		    int (*fn)(void *ctx, uint64_t index, uint64_t ns),
		    void *ctx)
{
	struct lab_req lr = { .sample_fn = fn, .ctx = ctx };
	struct wsc_nl_req req = { .parse = lab_parse_samples, .priv = &lr,
				  WSC_NL_ANSWER(wsc_nl_result_policy) };

	if (!fn)
		return -EINVAL;
	return lab_dump_exp(lat, WSC_LAT_CMD_GET_SAMPLES, experiment, &req);
}

/* One message of the histogram dump: BUCKET nests. */
static int lab_parse_hist(struct wsc_nl_req *req, struct nlattr **tb,
			  struct nlmsghdr *nlh)
{
	struct lab_req *lr = req->priv;
	struct nlattr *btb[WSC_LAT_A_BUCKET_MAX + 1], *pos;
	int rem, ret;

	(void)tb;
	nla_for_each_attr(pos, wsc_nl_attrs(nlh), wsc_nl_attrs_len(nlh), rem) {
		uint64_t low, high;

		if (nla_type(pos) != WSC_LAT_A_RESULT_BUCKET)
			continue;
		ret = nla_parse_nested(btb, WSC_LAT_A_BUCKET_MAX, pos,
				       wsc_nl_bucket_policy);
		if (ret < 0)
			return wsc_nl_req_fail(req, -EBADMSG,
					       "malformed bucket (%s)",
					       nl_geterror(ret));
		if (!btb[WSC_LAT_A_BUCKET_CPU] || !btb[WSC_LAT_A_BUCKET_LOW_NS] ||
		    !btb[WSC_LAT_A_BUCKET_HIGH_NS] || !btb[WSC_LAT_A_BUCKET_COUNT])
			return wsc_nl_req_fail(req, -EBADMSG,
					       "bucket without CPU, LOW_NS, HIGH_NS or COUNT");
		low = nla_get_u64(btb[WSC_LAT_A_BUCKET_LOW_NS]);
		high = nla_get_u64(btb[WSC_LAT_A_BUCKET_HIGH_NS]);
		if (low > high)
			return wsc_nl_req_fail(req, -EBADMSG,
					       "bucket [%llu, %llu] is empty",
					       (unsigned long long)low,
					       (unsigned long long)high);
		ret = lr->bucket_fn(lr->ctx,
				     nla_get_u32(btb[WSC_LAT_A_BUCKET_CPU]),
				     low, high,
				     nla_get_u64(btb[WSC_LAT_A_BUCKET_COUNT]));
		if (ret)
			return wsc_nl_req_fail(req, ret < 0 ? ret : -ECANCELED, NULL);
		lr->next++;
	}
	return NL_OK;
}

int wsc_lat_hist(struct wsc_lat *lat, const char *experiment,
		 int (*fn)(void *ctx, uint32_t cpu, uint64_t low_ns,
			   uint64_t high_ns, uint64_t count),
		 void *ctx)
{
	struct lab_req lr = { .bucket_fn = fn, .ctx = ctx };
	struct wsc_nl_req req = { .parse = lab_parse_hist, .priv = &lr,
				  WSC_NL_ANSWER(wsc_nl_result_policy) };

	if (!fn)
		return -EINVAL;
	return lab_dump_exp(lat, WSC_LAT_CMD_GET_HIST, experiment, &req);
}

int wsc_lat_reset(struct wsc_lat *lat, const char *experiment)
{
	struct nl_msg *msg;
	int ret;

	if (!lat)
		return -EINVAL;
	if (experiment) {
		ret = lab_check_name(lat, experiment);
		if (ret)
			return ret;
	}
	msg = lab_msg_exp(lat, WSC_LAT_CMD_RESET, 0, experiment);
	if (!msg)
		return -ENOMEM;
	return wsc_nl_do_ack(&lat->nl, msg);
}
