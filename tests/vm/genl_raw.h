/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw generic netlink for the VM tests that talk to wsc's family through
 * libnl-genl-3 directly (t_lat_badinput; t_trace_badinput, t_trace_life,
 * t_trace_filters through trace_genl.h), not libwsc, so that what is
 * tested is the module's own checks: a socket that asks for extended
 * acks, and the callbacks that read how a request ended.
 *
 * Refusals come back two ways: in NLMSG_ERROR (the policy, do requests,
 * and dumps refused by the core), or in NLMSG_DONE for a dump the module
 * refuses once it has started.  Both are read, errno and message.
 *
 * A test's reply struct begins with GENL_ACK_MEMBERS: the callbacks fill
 * its struct genl_ack, and the test reads the same fields directly
 * (r->err, r->msg).  Include this header in exactly one file per program,
 * after harness.h.
 */
#ifndef WSC_TEST_GENL_RAW_H
#define WSC_TEST_GENL_RAW_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/wsc.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "harness.h"

/*
 * @done:      the answer is complete
 * @err:       0, or the -errno of NLMSG_ERROR or NLMSG_DONE
 * @in_done:   @err came in NLMSG_DONE (a dump refused once started)
 * @msg:       the extended ack message, "" if none
 * @miss_type: NLMSGERR_ATTR_MISS_TYPE, or what the test set before
 * @bad_attr:  NLMSGERR_ATTR_OFFS came back: the kernel named the
 *             offending attribute
 */
#define GENL_ACK_FIELDS							\
	bool done;							\
	int err;							\
	bool in_done;							\
	char msg[256];							\
	int miss_type;							\
	bool bad_attr

/* How a request ended, as the callbacks below record it. */
struct genl_ack {
	GENL_ACK_FIELDS;
};

/*
 * The first member of a reply struct: its struct genl_ack, whose fields
 * are also members of the reply itself (the same storage).
 */
#define GENL_ACK_MEMBERS						\
	union {								\
		struct genl_ack ack;					\
		struct {						\
			GENL_ACK_FIELDS;				\
		};							\
	}

/*
 * A socket for the generic netlink family @name, with extended acks;
 * its id in @family.  A family that is not there ends the test: every
 * VM test runs with wsc.ko loaded.
 */
static inline struct nl_sock *genl_raw_open(const char *name, int *family)
{
	struct nl_sock *sk;
	int one = 1;

	sk = nl_socket_alloc();
	ASSERT_TRUE(sk);
	ASSERT_EQ(genl_connect(sk), 0);
	/*
	 * libnl 3.7 has no nl_socket_set_ext_ack().  Capped acks leave the
	 * request out of NLMSG_ERROR, so the TLVs follow struct nlmsgerr.
	 */
	ASSERT_EQ(setsockopt(nl_socket_get_fd(sk), SOL_NETLINK,
			     NETLINK_EXT_ACK, &one, sizeof(one)), 0);
	ASSERT_EQ(setsockopt(nl_socket_get_fd(sk), SOL_NETLINK,
			     NETLINK_CAP_ACK, &one, sizeof(one)), 0);
	*family = genl_ctrl_resolve(sk, name);
	if (*family < 0) {
		printf("# family %s not found (is wsc.ko loaded?)\n", name);
		_exit(1);
	}
	return sk;
}

/*
 * One attribute of a request a test builds, well formed or not: @len
 * bytes at @data, or for ATTR_STR() the string and its NUL.
 */
struct genl_raw_attr {
	int type;
	int len;
	const void *data;
};

#define GENL_RAW_STRING	(-1)
#define ATTR_FLAG(type)			{ (type), 0, NULL }
#define ATTR_U16(type, v)		{ (type), 2, &(uint16_t){ (v) } }
#define ATTR_U32(type, v)		{ (type), 4, &(uint32_t){ (v) } }
#define ATTR_U64(type, v)		{ (type), 8, &(uint64_t){ (v) } }
#define ATTR_STR(type, s)		{ (type), GENL_RAW_STRING, (s) }
#define ATTR_BYTES(type, len, data)	{ (type), (len), (data) }

/* The attributes of a request, as genl_raw_msg()'s last two arguments. */
#define GENL_ATTRS(...)							\
	(const struct genl_raw_attr[]){ __VA_ARGS__ },			\
	sizeof((const struct genl_raw_attr[]){ __VA_ARGS__ }) /	\
		sizeof(struct genl_raw_attr)

/* Room for the longest attribute the tests send (a cgroup path) twice. */
#define GENL_RAW_MSG_SIZE	(2 * (WSC_TRACE_CGROUP_MAX + 1))

/*
 * A request for @cmd of @family (NLM_F_DUMP in @flags makes it a dump)
 * carrying the @n attributes @attrs in that order.
 */
static inline struct nl_msg *genl_raw_msg(int family, uint8_t cmd, int flags,
					  const struct genl_raw_attr *attrs,
					  size_t n)
{
	struct nl_msg *msg = nlmsg_alloc_size(GENL_RAW_MSG_SIZE);
	const struct genl_raw_attr *a;
	int len;

	ASSERT_TRUE(msg);
	ASSERT_TRUE(genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				flags, cmd, WSC_LAT_GENL_VERSION));
	for (a = attrs; a < attrs + n; a++) {
		len = a->len == GENL_RAW_STRING ? (int)strlen(a->data) + 1 :
						  a->len;
		ASSERT_EQ(nla_put(msg, a->type, len, a->data), 0);
	}
	return msg;
}

/* The extended ack's TLVs: the message, a missing type, an offset. */
static inline void genl_raw_ext_ack(struct genl_ack *a, void *tlvs, int len)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (len <= 0 || nla_parse(tb, NLMSGERR_ATTR_MAX, tlvs, len, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(a->msg, sizeof(a->msg), "%.*s",
			 nla_len(tb[NLMSGERR_ATTR_MSG]),
			 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		a->miss_type = (int)nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
	a->bad_attr = tb[NLMSGERR_ATTR_OFFS] != NULL;
}

/* NLMSG_ERROR: @arg is the struct genl_ack. */
static inline int genl_raw_on_error(struct sockaddr_nl *who,
				    struct nlmsgerr *e, void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct genl_ack *a = arg;
	int off = sizeof(*e);

	(void)who;
	a->err = e->error;
	a->done = true;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
		genl_raw_ext_ack(a, (char *)e + off,
				 (int)nlh->nlmsg_len - NLMSG_HDRLEN - off);
	}
	return NL_SKIP;
}

/* NLMSG_DONE: an int, the dump's errno, then perhaps the ack's TLVs. */
static inline int genl_raw_on_finish(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genl_ack *a = arg;
	int off = NLMSG_ALIGN(sizeof(int));

	a->done = true;
	if (nlmsg_datalen(nlh) < (int)sizeof(int))
		return NL_STOP;
	memcpy(&a->err, nlmsg_data(nlh), sizeof(int));
	a->in_done = a->err != 0;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		genl_raw_ext_ack(a, (char *)nlmsg_data(nlh) + off,
				 nlmsg_datalen(nlh) - off);
	return NL_STOP;
}

/* The ack of a do request that succeeded without a reply. */
static inline int genl_raw_on_ack(struct nl_msg *msg, void *arg)
{
	struct genl_ack *a = arg;

	(void)msg;
	a->done = true;
	return NL_STOP;
}

/*
 * Send @msg (and free it), then read everything that answers it until
 * @ack says it has ended: each data message to @on_valid with @arg.
 * libnl asks for an ack, so a do request that succeeds without a reply
 * still ends with one; a dump ends with NLMSG_DONE.
 */
static inline void genl_raw_send(struct nl_sock *sk, struct nl_msg *msg,
				 struct genl_ack *ack,
				 nl_recvmsg_msg_cb_t on_valid, void *arg)
{
	struct nl_cb *cb;
	int ret;

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	ASSERT_TRUE(cb);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, arg);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, genl_raw_on_finish, ack);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, genl_raw_on_ack, ack);
	nl_cb_err(cb, NL_CB_CUSTOM, genl_raw_on_error, ack);

	ret = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	ASSERT_GE(ret, 0);
	while (!ack->done) {
		ret = nl_recvmsgs(sk, cb);
		if (ret < 0) {
			printf("# nl_recvmsgs: %s\n", nl_geterror(ret));
			_exit(1);
		}
	}
	nl_cb_put(cb);
}

/* The request was refused with @errno_ and a message containing @text. */
#define EXPECT_REFUSED(r, errno_, text) do {				\
	EXPECT_EQ((r)->err, -(errno_));					\
	if (!strstr((r)->msg, (text))) {				\
		TH_LOG("%s:%d: message \"%s\" lacks \"%s\"", __FILE__,	\
		       __LINE__, (r)->msg, (text));			\
		wsc_test_failed = 1;					\
	}								\
} while (0)

/* As EXPECT_REFUSED(), and the ack names the offending attribute. */
#define EXPECT_ATTR_REFUSED(r, errno_, text) do {			\
	EXPECT_REFUSED(r, errno_, text);				\
	EXPECT_TRUE((r)->bad_attr);					\
} while (0)

#endif /* WSC_TEST_GENL_RAW_H */
