/* SPDX-License-Identifier: MIT */
/*
 * The netlink exchange of the "syscall_lat" family, shared by the lab's
 * client (lat.c) and the trace's (trace.c).
 */
#ifndef LIBWSC_LAT_NL_H
#define LIBWSC_LAT_NL_H

#include <stdbool.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "internal.h"

struct wsc_lat {
	struct nl_sock *sk;
	int family;
	bool broken;		/* a receive failed: the stream is unknown */
	char error[256];	/* the last request's extack message, or ours */
};

/*
 * One request in flight.  @parse handles each message of the family;
 * once @err is set, the remaining messages are read and ignored.
 */
struct lat_req {
	struct wsc_lat *lat;
	int (*parse)(struct lat_req *req, struct nlattr **tb,
		     struct nlmsghdr *nlh);
	bool done;
	int err;
	unsigned long messages;	/* messages of the family parsed */

	/* GET_STATS, RUN */
	struct wsc_lat_stats *stats;
	/* GET_SAMPLES */
	int (*sample_fn)(void *ctx, uint64_t index, uint64_t ns);
	/* GET_HIST */
	int (*bucket_fn)(void *ctx, uint32_t cpu, uint64_t low_ns,
			 uint64_t high_ns, uint64_t count);
	void *ctx;
	uint64_t next;		/* samples or buckets delivered */
	/* the trace's requests (trace.c) */
	void *priv;
};

/* Bucket nests: LOW_NS, HIGH_NS, COUNT and, from the lab, CPU. */
WSC_INTERNAL extern struct nla_policy lat_bucket_policy[WSC_LAT_BUCKET_MAX + 1];

WSC_INTERNAL void lat_set_error(struct wsc_lat *lat, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A failure found while parsing: the first one is kept; returns NL_OK. */
WSC_INTERNAL int lat_req_fail(struct lat_req *req, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Send @msg (consumed), read until answered; 0 or -errno. */
WSC_INTERNAL int lat_transact(struct wsc_lat *lat, struct nl_msg *msg,
			      struct lat_req *req);
/* A request of @cmd with @flags (NLM_F_DUMP or 0), or NULL. */
WSC_INTERNAL struct nl_msg *lat_msg(struct wsc_lat *lat, uint8_t cmd, int flags);

#endif /* LIBWSC_LAT_NL_H */
