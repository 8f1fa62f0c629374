// SPDX-License-Identifier: GPL-2.0
/*
 * The latency lab's generic netlink family refuses every malformed or
 * unallowed request with the right errno and an extended ack message that
 * says why, and answers a well-formed one with a complete result.  Talks
 * to the family through libnl-genl-3 directly, not libwsc, so that the
 * module's own checks are what is tested.
 *
 * Refusals come back two ways: in NLMSG_ERROR (policy, do requests, and
 * dumps refused by the core), or in NLMSG_DONE for a dump the module
 * refuses once it has started (6.1 gives a dump's start callback no
 * extack).  Both are read here, errno and message.
 *
 * With --run or --reset it is instead a helper for t_lat_module.sh: one
 * request, its outcome on stdout (the errno's name on a refusal).
 */
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/wsc.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "harness.h"
#include "genl_raw.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Little enough to keep each test quick under TCG. */
#define SMALL_RUN	1000
/* Long enough to be caught in progress, yet ends on its own. */
#define LONG_RUN	200000

struct lat_sock {
	struct nl_sock *sk;
	int family;
};

/**
 * struct lat_reply - what came back for one request
 * @ack:          how it ended (genl_raw.h), read as r->err, r->msg,
 *                r->in_done, r->bad_attr, r->miss_type (-1 if none)
 * @messages:     data messages received
 * @has, @val:    the last data message: attributes seen, and the value of
 *                each u32 and u64 one
 * @experiment:   its EXPERIMENT
 * @cpus:         its CPU attributes
 * @samples:      SAMPLE attributes over the whole dump
 * @index_gap:    a FIRST_INDEX did not follow the samples before it
 * @buckets, @bucket_total: BUCKET nests over the whole dump, and their
 *                COUNTs summed
 * @bad_bucket:   a bucket lacked an attribute, or had LOW_NS > HIGH_NS
 */
struct lat_reply {
	GENL_ACK_MEMBERS;
	int messages;
	bool has[WSC_LAT_A_RESULT_MAX + 1];
	uint64_t val[WSC_LAT_A_RESULT_MAX + 1];
	char experiment[WSC_LAT_NAME_MAX + 1];
	int cpus;
	uint64_t samples;
	bool index_gap;
	uint64_t buckets;
	uint64_t bucket_total;
	bool bad_bucket;
};

static void lat_open(struct lat_sock *ls)
{
	ls->sk = genl_raw_open(WSC_LAT_GENL_NAME, &ls->family);
}

static void lat_close(struct lat_sock *ls)
{
	nl_socket_free(ls->sk);
}

static void lat_on_bucket(struct lat_reply *r, struct nlattr *nest)
{
	struct nlattr *tb[WSC_LAT_A_BUCKET_MAX + 1];

	r->buckets++;
	if (nla_parse_nested(tb, WSC_LAT_A_BUCKET_MAX, nest, NULL) < 0 ||
	    !tb[WSC_LAT_A_BUCKET_CPU] || !tb[WSC_LAT_A_BUCKET_LOW_NS] ||
	    !tb[WSC_LAT_A_BUCKET_HIGH_NS] || !tb[WSC_LAT_A_BUCKET_COUNT] ||
	    nla_get_u64(tb[WSC_LAT_A_BUCKET_LOW_NS]) >
	    nla_get_u64(tb[WSC_LAT_A_BUCKET_HIGH_NS])) {
		r->bad_bucket = true;
		return;
	}
	r->bucket_total += nla_get_u64(tb[WSC_LAT_A_BUCKET_COUNT]);
}

static int lat_on_valid(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct lat_reply *r = arg;
	struct nlattr *nla;
	int rem, type;

	r->messages++;
	memset(r->has, 0, sizeof(r->has));
	r->cpus = 0;
	nlmsg_for_each_attr(nla, nlh, GENL_HDRLEN, rem) {
		type = nla_type(nla);
		if (type > WSC_LAT_A_RESULT_MAX)
			continue;
		r->has[type] = true;
		switch (type) {
		case WSC_LAT_A_RESULT_EXPERIMENT:
			snprintf(r->experiment, sizeof(r->experiment), "%.*s",
				 nla_len(nla), (char *)nla_data(nla));
			break;
		case WSC_LAT_A_RESULT_CPU:
			r->cpus++;
			r->val[type] = nla_get_u32(nla);
			break;
		case WSC_LAT_A_RESULT_FIRST_INDEX:
			if (nla_get_u64(nla) != r->samples)
				r->index_gap = true;
			break;
		case WSC_LAT_A_RESULT_SAMPLE:
			r->samples++;
			break;
		case WSC_LAT_A_RESULT_BUCKET:
			lat_on_bucket(r, nla);
			break;
		default:
			if (nla_len(nla) == sizeof(uint32_t))
				r->val[type] = nla_get_u32(nla);
			else if (nla_len(nla) == sizeof(uint64_t))
				r->val[type] = nla_get_u64(nla);
		}
	}
	return NL_OK;
}

/* A request for @cmd; NLM_F_DUMP in @flags makes it a dump. */
static struct nl_msg *lat_msg(const struct lat_sock *ls, uint8_t cmd,
			      int flags)
{
	return genl_raw_msg(ls->family, cmd, flags, NULL, 0);
}

/* Send @msg (and free it), then read everything that answers it. */
static void lat_send(struct lat_sock *ls, struct nl_msg *msg,
		     struct lat_reply *r)
{
	memset(r, 0, sizeof(*r));
	r->miss_type = -1;
	/* A RUN is answered when its run ends: this blocks meanwhile. */
	genl_raw_send(ls->sk, msg, &r->ack, lat_on_valid, r);
}

/* @cmd with the attributes given (genl_raw.h's ATTR_*()), in that order. */
#define lat_request(ls, cmd, flags, r, ...)				\
	lat_send((ls), genl_raw_msg((ls)->family, (cmd), (flags),	\
				    GENL_ATTRS(__VA_ARGS__)), (r))

/* @cmd about the spinlock experiment, with the attributes given besides. */
#define spinlock_request(ls, cmd, flags, r, ...)			\
	lat_request(ls, cmd, flags, r,					\
		    ATTR_STR(WSC_LAT_A_EXPERIMENT_NAME, "spinlock"), __VA_ARGS__)

/* RUN @exp with @iterations (0: none given) on @ncpus CPUs of @cpus. */
static void lat_run(struct lat_sock *ls, const char *exp, uint32_t iterations,
		    const uint32_t *cpus, int ncpus, struct lat_reply *r)
{
	struct nl_msg *msg = lat_msg(ls, WSC_LAT_CMD_RUN, 0);
	int i;

	ASSERT_EQ(nla_put_string(msg, WSC_LAT_A_EXPERIMENT_NAME, exp), 0);
	if (iterations)
		ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_EXPERIMENT_ITERATIONS, iterations), 0);
	for (i = 0; i < ncpus; i++)
		ASSERT_EQ(nla_put_u32(msg, WSC_LAT_A_EXPERIMENT_CPU, cpus[i]), 0);
	lat_send(ls, msg, r);
}

/* @cmd with EXPERIMENT @exp (NULL: none), as a dump with NLM_F_DUMP. */
static void lat_ask(struct lat_sock *ls, uint8_t cmd, int flags,
		    const char *exp, struct lat_reply *r)
{
	struct nl_msg *msg = lat_msg(ls, cmd, flags);

	if (exp)
		ASSERT_EQ(nla_put_string(msg, WSC_LAT_A_EXPERIMENT_NAME, exp), 0);
	lat_send(ls, msg, r);
}

/* Run an experiment and check that the answer is a full result. */
static void lat_run_ok(struct lat_sock *ls, const char *exp,
		       uint32_t iterations, struct lat_reply *r)
{
	lat_run(ls, exp, iterations, NULL, 0, r);
	if (r->err)
		TH_LOG("RUN %s: %d \"%s\"", exp, r->err, r->msg);
	ASSERT_EQ(r->err, 0);
	ASSERT_EQ(r->messages, 1);
}

/*
 * A test on a socket of its own: its body gets @ls, the socket, and @r
 * for the replies.
 */
#define LAT_TEST(name)							\
	static void on_socket_##name(struct lat_sock *ls,		\
				     struct lat_reply *r);		\
	TEST(name)							\
	{								\
		struct lat_sock ls;					\
		struct lat_reply r;					\
									\
		lat_open(&ls);						\
		on_socket_##name(&ls, &r);				\
	}								\
	static void on_socket_##name(struct lat_sock *ls,		\
				     struct lat_reply *r)

LAT_TEST(run_without_experiment)
{
	lat_request(ls, WSC_LAT_CMD_RUN, 0, r,
		    ATTR_U32(WSC_LAT_A_EXPERIMENT_ITERATIONS, SMALL_RUN));
	EXPECT_REFUSED(r, EINVAL, "EXPERIMENT_NAME is required");
	EXPECT_EQ(r->miss_type, WSC_LAT_A_EXPERIMENT_NAME);

	lat_ask(ls, WSC_LAT_CMD_GET_STATS, 0, NULL, r);
	EXPECT_REFUSED(r, EINVAL, "EXPERIMENT_NAME is required");
	EXPECT_EQ(r->miss_type, WSC_LAT_A_EXPERIMENT_NAME);
}

LAT_TEST(dump_without_experiment)
{
	lat_ask(ls, WSC_LAT_CMD_GET_SAMPLES, NLM_F_DUMP, NULL, r);
	EXPECT_REFUSED(r, EINVAL, "EXPERIMENT_NAME is required");
	EXPECT_TRUE(r->in_done);
	EXPECT_EQ(r->messages, 0);

	lat_ask(ls, WSC_LAT_CMD_GET_HIST, NLM_F_DUMP, NULL, r);
	EXPECT_REFUSED(r, EINVAL, "EXPERIMENT_NAME is required");
	EXPECT_EQ(r->messages, 0);
}

LAT_TEST(unknown_attribute_type)
{
	spinlock_request(ls, WSC_LAT_CMD_RUN, 0, r,
			 ATTR_U32(WSC_LAT_A_EXPERIMENT_MAX + 1, 1));
	EXPECT_ATTR_REFUSED(r, EINVAL, "Unknown attribute type");

	/* Attribute 0 is unused: just as unknown. */
	spinlock_request(ls, WSC_LAT_CMD_GET_STATS, 0, r,
			 ATTR_U32(WSC_LAT_A_EXPERIMENT_UNSPEC, 1));
	EXPECT_REFUSED(r, EINVAL, "Unknown attribute type");
}

LAT_TEST(attribute_the_command_does_not_take)
{
	/* ITERATIONS is RUN's, not GET_HIST's. */
	spinlock_request(ls, WSC_LAT_CMD_GET_HIST, NLM_F_DUMP, r,
			 ATTR_U32(WSC_LAT_A_EXPERIMENT_ITERATIONS, 1));
	EXPECT_ATTR_REFUSED(r, EINVAL, "Unsupported attribute");

	/* A result's attribute is of no request's set at all. */
	spinlock_request(ls, WSC_LAT_CMD_RUN, 0, r,
			 ATTR_U64(WSC_LAT_A_RESULT_SAMPLE, 1));
	EXPECT_ATTR_REFUSED(r, EINVAL, "Unknown attribute type");

	/* CPU is RUN's, not GET_STATS's. */
	spinlock_request(ls, WSC_LAT_CMD_GET_STATS, 0, r,
			 ATTR_U32(WSC_LAT_A_EXPERIMENT_CPU, 0));
	EXPECT_REFUSED(r, EINVAL, "Unsupported attribute");

	/* Nor does RESET take ITERATIONS. */
	lat_request(ls, WSC_LAT_CMD_RESET, 0, r,
		    ATTR_U32(WSC_LAT_A_EXPERIMENT_ITERATIONS, 1));
	EXPECT_REFUSED(r, EINVAL, "Unsupported attribute");

	/* Dumps are checked by the same policy. */
	spinlock_request(ls, WSC_LAT_CMD_GET_SAMPLES, NLM_F_DUMP, r,
			 ATTR_U32(WSC_LAT_A_EXPERIMENT_CPU, 5));
	EXPECT_REFUSED(r, EINVAL, "Unsupported attribute");
	EXPECT_FALSE(r->in_done);
}

LAT_TEST(experiment_name_too_long)
{
	char name[WSC_LAT_NAME_MAX + 2];

	/* One character over the limit. */
	memset(name, 'x', WSC_LAT_NAME_MAX + 1);
	name[WSC_LAT_NAME_MAX + 1] = '\0';
	lat_run(ls, name, SMALL_RUN, NULL, 0, r);
	EXPECT_ATTR_REFUSED(r, EINVAL, "Attribute failed policy validation");

	/* At the limit it passes the policy, and is merely unknown. */
	name[WSC_LAT_NAME_MAX] = '\0';
	lat_run(ls, name, SMALL_RUN, NULL, 0, r);
	EXPECT_REFUSED(r, ENOENT, "unknown experiment");
}

LAT_TEST(experiment_name_not_terminated)
{
	lat_request(ls, WSC_LAT_CMD_GET_STATS, 0, r,
		    ATTR_BYTES(WSC_LAT_A_EXPERIMENT_NAME, 8, "spinlock"));
	EXPECT_REFUSED(r, EINVAL, "Attribute failed policy validation");
}

LAT_TEST(iterations_wrong_length)
{
	spinlock_request(ls, WSC_LAT_CMD_RUN, 0, r,
			 ATTR_U64(WSC_LAT_A_EXPERIMENT_ITERATIONS, SMALL_RUN));
	EXPECT_ATTR_REFUSED(r, EINVAL, "invalid attribute length");

	/* A CPU as u64 is refused the same way, every one of them. */
	lat_request(ls, WSC_LAT_CMD_RUN, 0, r,
		    ATTR_STR(WSC_LAT_A_EXPERIMENT_NAME, "semaphore"),
		    ATTR_U32(WSC_LAT_A_EXPERIMENT_CPU, 0), ATTR_U64(WSC_LAT_A_EXPERIMENT_CPU, 1));
	EXPECT_REFUSED(r, EINVAL, "invalid attribute length");
}

LAT_TEST(iterations_out_of_range)
{
	/* lat_run() leaves a 0 out, so build this one by hand. */
	spinlock_request(ls, WSC_LAT_CMD_RUN, 0, r,
			 ATTR_U32(WSC_LAT_A_EXPERIMENT_ITERATIONS, 0));
	EXPECT_ATTR_REFUSED(r, ERANGE, "integer out of range");

	lat_run(ls, "spinlock", WSC_LAT_MAX_ITERATIONS + 1, NULL, 0, r);
	EXPECT_REFUSED(r, ERANGE, "integer out of range");

	lat_run(ls, "spinlock", UINT32_MAX, NULL, 0, r);
	EXPECT_REFUSED(r, ERANGE, "integer out of range");
}

LAT_TEST(unknown_experiment)
{
	lat_run(ls, "no-such-experiment", SMALL_RUN, NULL, 0, r);
	EXPECT_REFUSED(r, ENOENT, "unknown experiment");
	EXPECT_TRUE(r->bad_attr);

	lat_ask(ls, WSC_LAT_CMD_GET_STATS, 0, "Spinlock", r);
	EXPECT_REFUSED(r, ENOENT, "unknown experiment");
	lat_ask(ls, WSC_LAT_CMD_RESET, 0, "", r);
	EXPECT_REFUSED(r, ENOENT, "unknown experiment");

	lat_ask(ls, WSC_LAT_CMD_GET_HIST, NLM_F_DUMP, "spin", r);
	EXPECT_REFUSED(r, ENOENT, "unknown experiment");
	EXPECT_TRUE(r->in_done);
}

LAT_TEST(cpu_out_of_range)
{
	uint32_t cpus[] = { 4096 };

	lat_run(ls, "spinlock", SMALL_RUN, cpus, 1, r);
	EXPECT_REFUSED(r, EINVAL, "CPU out of range");
	EXPECT_TRUE(r->bad_attr);

	cpus[0] = UINT32_MAX;
	lat_run(ls, "spinlock", SMALL_RUN, cpus, 1, r);
	EXPECT_REFUSED(r, EINVAL, "CPU out of range");
}

static int cpu_set_online(int cpu, bool online)
{
	char path[64];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, online ? "1" : "0", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

TEST(cpu_offline)
{
	uint32_t cpus[] = { 1 };
	struct lat_reply r, r2;
	struct lat_sock ls;
	int ret;

	if (sysconf(_SC_NPROCESSORS_ONLN) != 2)
		SKIP("needs exactly two online CPUs");
	lat_open(&ls);
	ret = cpu_set_online(1, false);
	if (ret)
		SKIP("cannot take CPU 1 offline: %s", strerror(-ret));
	lat_run(&ls, "spinlock", SMALL_RUN, cpus, 1, &r);
	/* Now one CPU is left: not enough for a two-CPU experiment. */
	lat_run(&ls, "completion", SMALL_RUN, NULL, 0, &r2);
	/* CPU 1 back before any check can stop the test. */
	ASSERT_EQ(cpu_set_online(1, true), 0);

	EXPECT_REFUSED(&r, EINVAL, "CPU is offline");
	EXPECT_TRUE(r.bad_attr);
	EXPECT_REFUSED(&r2, EINVAL, "not enough online CPUs");

	/* And it is fine again. */
	lat_run(&ls, "spinlock", SMALL_RUN, cpus, 1, &r);
	EXPECT_EQ(r.err, 0);
	EXPECT_EQ(r.val[WSC_LAT_A_RESULT_CPU], 1);
}

LAT_TEST(cpu_count_wrong)
{
	uint32_t cpus[] = { 0, 1 };

	lat_run(ls, "spinlock", SMALL_RUN, cpus, 2, r);
	EXPECT_REFUSED(r, EINVAL, "exactly one CPU");
	EXPECT_TRUE(r->bad_attr);

	lat_run(ls, "semaphore", SMALL_RUN, cpus, 1, r);
	EXPECT_REFUSED(r, EINVAL, "exactly two CPUs");

	cpus[0] = 1;
	cpus[1] = 0;
	lat_run(ls, "timer", SMALL_RUN, cpus, 2, r);
	EXPECT_REFUSED(r, EINVAL, "exactly one CPU");
}

LAT_TEST(cpu_twice)
{
	uint32_t cpus[] = { 0, 0 };

	lat_run(ls, "semaphore", SMALL_RUN, cpus, 2, r);
	EXPECT_REFUSED(r, EINVAL, "the same CPU");
	EXPECT_TRUE(r->bad_attr);
}

/*
 * A client of another family version (libwsc 0.x sends 1) is refused,
 * its request unanswered, whether a do or a dump.
 */
LAT_TEST(another_family_version)
{
	static const uint8_t do_cmds[] = {
		WSC_LAT_CMD_RUN, WSC_LAT_CMD_GET_STATS, WSC_LAT_CMD_RESET,
		WSC_LAT_CMD_TRACE_START, WSC_LAT_CMD_TRACE_STOP,
		WSC_LAT_CMD_TRACE_STATUS, WSC_LAT_CMD_TRACE_RESET,
	};
	struct nl_msg *msg;
	unsigned int i;

	for (i = 0; i <= sizeof(do_cmds); i++) {
		/* The last one: a dump, which says so in its NLMSG_DONE. */
		msg = i < sizeof(do_cmds) ?
		      lat_msg(ls, do_cmds[i], 0) :
		      lat_msg(ls, WSC_LAT_CMD_GET_STATS, NLM_F_DUMP);
		((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(msg)))->version =
			WSC_LAT_GENL_VERSION - 1;
		lat_send(ls, msg, r);
		EXPECT_REFUSED(r, EPROTO, "speaks version 2 of the family");
		EXPECT_EQ(r->messages, 0);
		EXPECT_EQ(r->in_done, i == sizeof(do_cmds));
	}
}

LAT_TEST(reserved_header_field)
{
	struct genlmsghdr *hdr;
	struct nl_msg *msg;

	msg = genl_raw_msg(ls->family, WSC_LAT_CMD_GET_STATS, 0,
			   GENL_ATTRS(ATTR_STR(WSC_LAT_A_EXPERIMENT_NAME, "spinlock")));
	hdr = nlmsg_data(nlmsg_hdr(msg));
	hdr->reserved = 1;
	lat_send(ls, msg, r);
	EXPECT_REFUSED(r, EINVAL, "reserved field is not 0");
}

TEST(unprivileged_run_and_reset)
{
	struct lat_sock ls;
	struct lat_reply r;

	become_nobody();
	lat_open(&ls);
	lat_run(&ls, "spinlock", SMALL_RUN, NULL, 0, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN");
	EXPECT_EQ(r.messages, 0);

	lat_ask(&ls, WSC_LAT_CMD_RESET, 0, NULL, &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN");
	lat_ask(&ls, WSC_LAT_CMD_RESET, 0, "spinlock", &r);
	EXPECT_REFUSED(&r, EPERM, "CAP_SYS_ADMIN");

	/* Reading needs no privilege. */
	lat_ask(&ls, WSC_LAT_CMD_GET_STATS, NLM_F_DUMP, NULL, &r);
	EXPECT_EQ(r.err, 0);
}

static atomic_bool long_run_started;

struct long_run {
	pthread_t thread;
	struct lat_reply r;
	int busy_retries;
};

static void on_sigusr1(int sig)
{
	(void)sig;
}

/*
 * A long semaphore run.  It retries while busy: a probe of the main
 * thread may have been running when it started.
 */
static void *long_run_thread(void *arg)
{
	struct long_run *lr = arg;
	struct lat_sock ls;

	lat_open(&ls);
	atomic_store(&long_run_started, true);
	for (;;) {
		lat_run(&ls, "semaphore", LONG_RUN, NULL, 0, &lr->r);
		if (lr->r.err != -EBUSY || ++lr->busy_retries > 100)
			break;
		usleep(20000);
	}
	lat_close(&ls);
	return NULL;
}

TEST(concurrent_run_is_busy)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	static struct long_run lr;
	struct lat_sock ls;
	struct lat_reply r;
	bool busy = false;
	int i;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("needs two online CPUs");
	/* No SA_RESTART: the signal is to interrupt. */
	ASSERT_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	lat_open(&ls);
	ASSERT_EQ(pthread_create(&lr.thread, NULL, long_run_thread, &lr), 0);

	/* RESET refuses while a run is in progress: a harmless probe. */
	for (i = 0; i < 400 && !busy; i++) {
		usleep(50000);
		if (!atomic_load(&long_run_started))
			continue;
		lat_ask(&ls, WSC_LAT_CMD_RESET, 0, "mutex", &r);
		busy = r.err == -EBUSY;
	}
	ASSERT_TRUE(busy);
	EXPECT_REFUSED(&r, EBUSY, "a run is in progress");

	lat_run(&ls, "spinlock", SMALL_RUN, NULL, 0, &r);
	EXPECT_REFUSED(&r, EBUSY, "another run is in progress");
	EXPECT_EQ(r.messages, 0);

	/*
	 * A signal to the thread blocked in RUN stops the run.  (Had it
	 * ended meanwhile, its result came back instead.)
	 */
	ASSERT_EQ(pthread_kill(lr.thread, SIGUSR1), 0);
	ASSERT_EQ(pthread_join(lr.thread, NULL), 0);
	if (lr.r.err == 0) {
		TH_LOG("the long run ended before the signal");
	} else {
		EXPECT_REFUSED(&lr.r, ECANCELED, "interrupted by a signal");
		EXPECT_EQ(lr.r.messages, 0);
	}

	/* Nothing is left running. */
	lat_ask(&ls, WSC_LAT_CMD_RESET, 0, "mutex", &r);
	EXPECT_EQ(r.err, 0);
	lat_run_ok(&ls, "spinlock", SMALL_RUN, &r);
}

LAT_TEST(no_result)
{
	lat_ask(ls, WSC_LAT_CMD_RESET, 0, "completion", r);
	ASSERT_EQ(r->err, 0);

	lat_ask(ls, WSC_LAT_CMD_GET_SAMPLES, NLM_F_DUMP, "completion", r);
	EXPECT_REFUSED(r, ENODATA, "no result");
	EXPECT_TRUE(r->in_done);
	EXPECT_EQ(r->messages, 0);

	lat_ask(ls, WSC_LAT_CMD_GET_HIST, NLM_F_DUMP, "completion", r);
	EXPECT_REFUSED(r, ENODATA, "no result");
	EXPECT_EQ(r->messages, 0);

	lat_ask(ls, WSC_LAT_CMD_GET_STATS, 0, "completion", r);
	EXPECT_REFUSED(r, ENODATA, "no result");
	EXPECT_FALSE(r->in_done);
}

LAT_TEST(stats_dump_takes_no_experiment)
{
	lat_ask(ls, WSC_LAT_CMD_GET_STATS, NLM_F_DUMP, "spinlock", r);
	EXPECT_REFUSED(r, EINVAL, "takes no EXPERIMENT");
	EXPECT_TRUE(r->in_done);
}

/* The attributes every result message carries. */
static const int result_attrs[] = {
	WSC_LAT_A_RESULT_EXPERIMENT, WSC_LAT_A_RESULT_ITERATIONS, WSC_LAT_A_RESULT_CPU,
	WSC_LAT_A_RESULT_COUNT, WSC_LAT_A_RESULT_ERRORS, WSC_LAT_A_RESULT_WARMUP,
	WSC_LAT_A_RESULT_MEAN_PS, WSC_LAT_A_RESULT_MEDIAN_PS, WSC_LAT_A_RESULT_STDDEV_PS,
	WSC_LAT_A_RESULT_MIN_PS, WSC_LAT_A_RESULT_MAX_PS, WSC_LAT_A_RESULT_CI95_LO_PS,
	WSC_LAT_A_RESULT_CI95_HI_PS, WSC_LAT_A_RESULT_P50_PS, WSC_LAT_A_RESULT_P95_PS,
	WSC_LAT_A_RESULT_P99_PS, WSC_LAT_A_RESULT_TIMER_PS, WSC_LAT_A_RESULT_RUN_ID,
	WSC_LAT_A_RESULT_DURATION_NS,
};

static void expect_result(const struct lat_reply *r, const char *exp,
			  uint32_t iterations, int cpus)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(result_attrs); i++)
		if (!r->has[result_attrs[i]]) {
			TH_LOG("attribute %d missing", result_attrs[i]);
			wsc_test_failed = 1;
		}
	EXPECT_EQ(strcmp(r->experiment, exp), 0);
	EXPECT_EQ(r->val[WSC_LAT_A_RESULT_ITERATIONS], iterations);
	EXPECT_EQ(r->cpus, cpus);
	EXPECT_EQ(r->val[WSC_LAT_A_RESULT_COUNT] + r->val[WSC_LAT_A_RESULT_ERRORS],
		  iterations);
	EXPECT_LE(r->val[WSC_LAT_A_RESULT_MIN_PS], r->val[WSC_LAT_A_RESULT_MEDIAN_PS]);
	EXPECT_LE(r->val[WSC_LAT_A_RESULT_MEDIAN_PS], r->val[WSC_LAT_A_RESULT_MAX_PS]);
	EXPECT_GT(r->val[WSC_LAT_A_RESULT_RUN_ID], 0);
	/* Block timing comes whole or not at all. */
	EXPECT_EQ(r->has[WSC_LAT_A_RESULT_BLOCK_PS], r->has[WSC_LAT_A_RESULT_BLOCK_OPS]);
}

TEST(small_run)
{
	struct lat_reply r, s;
	struct lat_sock ls;
	uint64_t run_id, count;

	lat_open(&ls);
	lat_run_ok(&ls, "spinlock", SMALL_RUN, &r);
	expect_result(&r, "spinlock", SMALL_RUN, 1);
	EXPECT_TRUE(r.has[WSC_LAT_A_RESULT_BLOCK_OPS]);
	run_id = r.val[WSC_LAT_A_RESULT_RUN_ID];
	count = r.val[WSC_LAT_A_RESULT_COUNT];

	/* GET_STATS gives the same result back. */
	lat_ask(&ls, WSC_LAT_CMD_GET_STATS, 0, "spinlock", &s);
	ASSERT_EQ(s.err, 0);
	EXPECT_EQ(s.messages, 1);
	expect_result(&s, "spinlock", SMALL_RUN, 1);
	EXPECT_EQ(s.val[WSC_LAT_A_RESULT_RUN_ID], run_id);
	EXPECT_EQ(s.val[WSC_LAT_A_RESULT_MEAN_PS], r.val[WSC_LAT_A_RESULT_MEAN_PS]);

	/* Every sample, in order, and every one in the histogram. */
	lat_ask(&ls, WSC_LAT_CMD_GET_SAMPLES, NLM_F_DUMP, "spinlock", &s);
	EXPECT_EQ(s.err, 0);
	EXPECT_EQ(s.samples, count);
	EXPECT_FALSE(s.index_gap);

	lat_ask(&ls, WSC_LAT_CMD_GET_HIST, NLM_F_DUMP, "spinlock", &s);
	EXPECT_EQ(s.err, 0);
	EXPECT_GT(s.buckets, 0);
	EXPECT_FALSE(s.bad_bucket);
	EXPECT_EQ(s.bucket_total, count);

	/* The dump of every result has this one among them. */
	lat_ask(&ls, WSC_LAT_CMD_GET_STATS, NLM_F_DUMP, NULL, &s);
	EXPECT_EQ(s.err, 0);
	EXPECT_GE(s.messages, 1);
}

TEST(samples_span_many_messages)
{
	struct lat_reply r, s;
	struct lat_sock ls;

	lat_open(&ls);
	lat_run_ok(&ls, "timer", 20000, &r);
	expect_result(&r, "timer", 20000, 1);

	lat_ask(&ls, WSC_LAT_CMD_GET_SAMPLES, NLM_F_DUMP, "timer", &s);
	EXPECT_EQ(s.err, 0);
	EXPECT_GT(s.messages, 1);
	EXPECT_EQ(s.samples, r.val[WSC_LAT_A_RESULT_COUNT]);
	EXPECT_FALSE(s.index_gap);
}

TEST(two_cpu_run)
{
	struct lat_sock ls;
	struct lat_reply r, s;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("needs two online CPUs");
	lat_open(&ls);
	lat_run_ok(&ls, "completion", SMALL_RUN, &r);
	expect_result(&r, "completion", SMALL_RUN, 2);
	/* The woken side sleeps: no block timing. */
	EXPECT_FALSE(r.has[WSC_LAT_A_RESULT_BLOCK_PS]);

	lat_ask(&ls, WSC_LAT_CMD_GET_HIST, NLM_F_DUMP, "completion", &s);
	EXPECT_EQ(s.err, 0);
	EXPECT_FALSE(s.bad_bucket);
	EXPECT_EQ(s.bucket_total, r.val[WSC_LAT_A_RESULT_COUNT]);

	/* RESET forgets it. */
	lat_ask(&ls, WSC_LAT_CMD_RESET, 0, "completion", &s);
	EXPECT_EQ(s.err, 0);
	lat_ask(&ls, WSC_LAT_CMD_GET_STATS, 0, "completion", &s);
	EXPECT_EQ(s.err, -ENODATA);
}

/* Print how a request ended, for t_lat_module.sh; 0 when it succeeded. */
static int helper_report(const char *what, const struct lat_reply *r)
{
	if (r->err) {
		printf("%s: error %s: %s\n", what,
		       strerrorname_np(-r->err) ?: "?", r->msg);
		return 1;
	}
	printf("%s: ok", what);
	if (r->has[WSC_LAT_A_RESULT_RUN_ID])
		printf(" run %llu, %llu samples",
		       (unsigned long long)r->val[WSC_LAT_A_RESULT_RUN_ID],
		       (unsigned long long)r->val[WSC_LAT_A_RESULT_COUNT]);
	printf("\n");
	return 0;
}

/*
 *   --run EXPERIMENT ITERATIONS   one RUN
 *   --reset EXPERIMENT            one RESET (-EBUSY while a run is on)
 */
static int helper_main(int argc, char **argv)
{
	struct lat_sock ls;
	struct lat_reply r;
	unsigned long n;
	char *end;

	lat_open(&ls);
	if (!strcmp(argv[1], "--run") && argc == 4) {
		errno = 0;
		n = strtoul(argv[3], &end, 10);
		if (errno || *end || !*argv[3] || n > UINT32_MAX) {
			fprintf(stderr, "bad ITERATIONS '%s'\n", argv[3]);
			return 2;
		}
		lat_run(&ls, argv[2], (uint32_t)n, NULL, 0, &r);
		return helper_report("run", &r);
	}
	if (!strcmp(argv[1], "--reset") && argc == 3) {
		lat_ask(&ls, WSC_LAT_CMD_RESET, 0, argv[2], &r);
		return helper_report("reset", &r);
	}
	fprintf(stderr, "usage: %s [--run EXPERIMENT ITERATIONS | --reset EXPERIMENT | TEST...]\n",
		argv[0]);
	return 2;
}

/* The harness's main(), renamed: this program has a second use. */
int wsc_harness_main(int argc, char **argv);
#define main wsc_harness_main
TEST_HARNESS_MAIN
#undef main

int main(int argc, char **argv)
{
	if (argc > 1 && !strncmp(argv[1], "--", 2))
		return helper_main(argc, argv);
	return wsc_harness_main(argc, argv);
}
