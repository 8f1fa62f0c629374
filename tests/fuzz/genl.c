// SPDX-License-Identifier: GPL-2.0
/*
 * The syscall_lat generic netlink family, spoken raw: every byte of each
 * request is the fuzzer's, so that lengths, nesting and truncation can be
 * wrong in any way.
 *
 * A step is one of: a random request (command numbers valid and not,
 * genetlink header fields, attribute types, lengths, flags and nesting,
 * a message length shorter or longer than what was sent); a dump left
 * half-read and its socket closed; RUN, RESET and the trace commands
 * from several sockets at once; a trace of a task that exits, or of one
 * that already has.  Every answer must be a success or an errno of the
 * documented set (include/uapi/linux/wsc.h, the core's policy checks);
 * a request must never go unanswered once the core has taken it, and
 * the kernel log must stay quiet.
 *
 * A RUN is given a small ITERATIONS first, and the generator never adds
 * another: a run of the default million iterations would take minutes
 * under TCG.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "fuzz.h"

#define BUF	65536
/*
 * How long an answer may take before the request counts as unanswered.
 * Generous: a lab run of another socket keeps both vCPUs busy with
 * interrupts off in stretches, and under TCG on a loaded host a slow
 * answer must not pass for a lost one.
 */
#define RECV_WAIT_MS	30000

static int family = -1;
static uint32_t seq = 1;

static const char *const experiments[] = {
	"timer", "spinlock", "spinlock-contended", "mutex", "semaphore",
	"completion",
};

/* The errnos a refusal may carry: the module's and the core's. */
static bool documented(int err)
{
	switch (err) {
	case EINVAL: case ERANGE: case EOPNOTSUPP: case ENOENT: case ENODATA:
	case EBUSY: case ESRCH: case ENOTDIR: case EMSGSIZE: case ECANCELED:
	case EPERM: case ENAMETOOLONG:
	case EPROTO:	/* a request of another family version */
		return true;
	default:
		return false;
	}
}

static int nl_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("wsc-fuzz: netlink socket");
		exit(2);
	}
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	return fd;
}

/* ---- Building messages --------------------------------------------- */

struct msg {
	char b[BUF];
	size_t len;
};

static void put_hdr(struct msg *m, uint16_t type, uint16_t flags,
		    uint8_t cmd, uint8_t version, uint16_t reserved,
		    uint32_t s)
{
	struct nlmsghdr *h = (void *)m->b;
	struct genlmsghdr *g = (void *)(m->b + NLMSG_HDRLEN);

	memset(m->b, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = s;
	g->cmd = cmd;
	g->version = version;
	g->reserved = reserved;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

static void put_attr(struct msg *m, uint16_t type, const void *data,
		     uint16_t len)
{
	struct nlattr *a = (void *)(m->b + m->len);

	if (m->len + NLA_ALIGN(NLA_HDRLEN + len) > BUF - 64)
		return;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy(m->b + m->len + NLA_HDRLEN, data, len);
	memset(m->b + m->len + NLA_HDRLEN + len, 0,
	       NLA_ALIGN(len) - len);
	m->len += NLA_ALIGN(NLA_HDRLEN + len);
}

static void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	put_attr(m, type, &v, 4);
}

static void put_str(struct msg *m, uint16_t type, const char *s)
{
	put_attr(m, type, s, strlen(s) + 1);
}

static void finish(struct msg *m)
{
	((struct nlmsghdr *)m->b)->nlmsg_len = m->len;
}

static void nl_send(int fd, const void *buf, size_t len)
{
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	/* A refused send (a length the core rejects) is an answer too. */
	sendto(fd, buf, len, 0, (struct sockaddr *)&to, sizeof(to));
}

/* ---- Reading answers --------------------------------------------------- */

struct answer {
	bool acked, done, multi;
	int err;		/* 0 or -errno, from NLMSG_ERROR or NLMSG_DONE */
	int msgs;
	bool bad_reply;		/* a data message that does not parse */
	char why[160];
};

/* Attributes of @len bytes at @p lie within it, nests recursively. */
static bool attrs_ok(const char *p, int len, int depth)
{
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return false;
		if ((a->nla_type & NLA_F_NESTED) && depth < 4 &&
		    !attrs_ok(p + NLA_HDRLEN, a->nla_len - NLA_HDRLEN, depth + 1))
			return false;
		len -= NLA_ALIGN(a->nla_len);
		p += NLA_ALIGN(a->nla_len);
	}
	return true;
}

/*
 * Read what answers @s into @a, until @until_seq's ack (a sync request
 * sent after it) or, without one, until nothing comes for a while.
 * Returns false when the socket stayed silent past the wait.
 */
static bool nl_read(int fd, uint32_t s, uint32_t until_seq, struct answer *a)
{
	/* Per thread: the concurrent step's sockets read at once. */
	static __thread char buf[BUF];
	bool synced = false;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *h;
		ssize_t n;
		int len;

		/* Done: the sync acked and no dump of @s left open. */
		if (synced && (!a->multi || a->done))
			return true;
		if (poll(&p, 1, RECV_WAIT_MS) <= 0)
			return synced && !a->multi;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			/* ENOBUFS: the socket overflowed; not a kernel bug. */
			return true;
		}
		len = n;
		for (h = (void *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq == until_seq && until_seq != s) {
				if (h->nlmsg_type == NLMSG_ERROR)
					synced = true;
				continue;
			}
			if (h->nlmsg_seq != s)
				continue;
			if (h->nlmsg_flags & NLM_F_MULTI)
				a->multi = true;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				a->acked = true;
				a->err = e->error;
				if (until_seq == s)
					synced = true;
			} else if (h->nlmsg_type == NLMSG_DONE) {
				a->done = true;
				if (h->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
					memcpy(&a->err, NLMSG_DATA(h), sizeof(int));
				if (until_seq == s)
					synced = true;
			} else {
				a->msgs++;
				if (h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN ||
				    !attrs_ok((char *)NLMSG_DATA(h) + GENL_HDRLEN,
					      h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, 0)) {
					a->bad_reply = true;
					snprintf(a->why, sizeof(a->why),
						 "reply of type %u does not parse",
						 h->nlmsg_type);
				}
			}
		}
	}
}

/* A well-formed request and its answer: for the steps' own doings. */
static int request(int fd, uint8_t cmd, bool dump, struct msg *m,
		   struct answer *a)
{
	uint32_t s = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
	struct nlmsghdr *h = (void *)m->b;

	h->nlmsg_type = family;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
	h->nlmsg_seq = s;
	((struct genlmsghdr *)NLMSG_DATA(h))->cmd = cmd;
	((struct genlmsghdr *)NLMSG_DATA(h))->version = WSC_LAT_GENL_VERSION;
	finish(m);
	memset(a, 0, sizeof(*a));
	nl_send(fd, m->b, m->len);
	if (!nl_read(fd, s, s, a))
		return -ETIMEDOUT;
	return a->err;
}

static void simple(struct msg *m)
{
	put_hdr(m, 0, 0, 0, WSC_LAT_GENL_VERSION, 0, 0);
}

/* The family's id, from the controller. */
static int resolve(int fd)
{
	static char buf[BUF];
	struct msg *m = malloc(sizeof(*m));
	struct nlmsghdr *h;
	int len, id = -1;

	put_hdr(m, GENL_ID_CTRL, NLM_F_REQUEST, CTRL_CMD_GETFAMILY, 1, 0, 1);
	put_str(m, CTRL_ATTR_FAMILY_NAME, WSC_LAT_GENL_NAME);
	finish(m);
	nl_send(fd, m->b, m->len);
	free(m);
	len = recv(fd, buf, sizeof(buf), 0);
	for (h = (void *)buf; len > 0 && NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		struct nlattr *a;
		int alen;

		if (h->nlmsg_type != GENL_ID_CTRL)
			continue;
		a = (void *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
		alen = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
		while (alen >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN) {
			if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
				id = *(uint16_t *)((char *)a + NLA_HDRLEN);
			alen -= NLA_ALIGN(a->nla_len);
			a = (void *)((char *)a + NLA_ALIGN(a->nla_len));
		}
	}
	return id;
}

/* ---- Random requests ------------------------------------------------------ */

static void random_attrs(struct rng *r, struct msg *m, uint8_t cmd,
			 int depth)
{
	unsigned int n = rng_below(r, 6), i;

	for (i = 0; i < n; i++) {
		uint16_t type;
		char payload[64];
		uint16_t len;

		switch (rng_below(r, 8)) {
		case 0:
			put_str(m, WSC_LAT_A_EXPERIMENT_NAME,
				experiments[rng_below(r, 6)]);
			continue;
		case 1: {
			/* Too long, unterminated, empty or garbage names. */
			char s[48];
			unsigned int l = rng_below(r, sizeof(s));

			memset(s, 'a' + rng_below(r, 26), l);
			put_attr(m, WSC_LAT_A_EXPERIMENT_NAME, s, rng_chance(r, 50) ? l : 0);
			continue;
		}
		case 2:
			put_u32(m, WSC_LAT_A_EXPERIMENT_CPU, rng_chance(r, 70) ?
				rng_below(r, 4) : (uint32_t)rng_next(r));
			continue;
		case 3: {
			static const uint32_t pids[] = { 0, 1, 2, 99999, 0x7fffffff };
			uint32_t pid = rng_chance(r, 50) ? (uint32_t)getpid() :
				       pids[rng_below(r, 5)];

			put_u32(m, WSC_LAT_A_TRACE_PID, pid);
			continue;
		}
		case 4: {
			static const char *const paths[] = {
				"/", "/nonexistent", "/sys", "", "relative",
				"/init.scope/x/../..", "//",
			};

			put_str(m, WSC_LAT_A_TRACE_CGROUP, paths[rng_below(r, 7)]);
			continue;
		}
		case 5:
			if (depth < 3) {
				/* A nest, with attributes of any kind inside. */
				struct nlattr *a = (void *)(m->b + m->len);
				size_t at = m->len;

				if (m->len + 64 > BUF - 4096)
					continue;
				a->nla_type = rng_chance(r, 50) ?
					      (WSC_LAT_A_RESULT_BUCKET | NLA_F_NESTED) :
					      (uint16_t)rng_below(r, 64);
				m->len += NLA_HDRLEN;
				random_attrs(r, m, cmd, depth + 1);
				a = (void *)(m->b + at);
				a->nla_len = m->len - at;
				continue;
			}
			break;
		default:
			break;
		}
		/* Any type of any set (the trace's is the largest), any length. */
		type = rng_below(r, WSC_LAT_A_TRACE_MAX + 8);
		if (cmd == WSC_LAT_CMD_RUN &&
		    type == WSC_LAT_A_EXPERIMENT_ITERATIONS)
			type = WSC_LAT_A_EXPERIMENT_MAX + 1;
		if (rng_chance(r, 5))
			type |= NLA_F_NESTED;
		if (rng_chance(r, 5))
			type |= NLA_F_NET_BYTEORDER;
		len = rng_chance(r, 50) ? (rng_chance(r, 50) ? 4 : 8) :
		      rng_below(r, sizeof(payload));
		for (unsigned int j = 0; j < len; j++)
			payload[j] = rng_next(r);
		put_attr(m, type, payload, len);
	}
}

static void dump_request(const struct msg *m, size_t sent)
{
	repro("request of %zu bytes (nlmsg_len %u), sent %zu:", m->len,
	      ((const struct nlmsghdr *)m->b)->nlmsg_len, sent);
	repro_bytes(m->b, sent < 512 ? sent : 512);
}

static void random_request(struct rng *r, int fd, uint64_t step)
{
	static struct msg m;
	struct answer a = { 0 };
	uint32_t s = seq += 2;
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	uint8_t cmd;
	size_t sent, min_len;
	struct msg sync;

	if (rng_chance(r, 80))
		cmd = 1 + rng_below(r, WSC_LAT_CMD_MAX);
	else
		cmd = rng_chance(r, 50) ? 0 : WSC_LAT_CMD_MAX + 1 + rng_below(r, 245);
	if (rng_chance(r, 30))
		flags |= NLM_F_DUMP;
	if (rng_chance(r, 5))
		flags |= 1u << rng_below(r, 16);
	if (rng_chance(r, 3))
		flags &= ~NLM_F_ACK;
	put_hdr(&m, rng_chance(r, 97) ? family : 0x7ff0, flags, cmd,
		rng_chance(r, 90) ? WSC_LAT_GENL_VERSION : rng_below(r, 256),
		rng_chance(r, 95) ? 0 : rng_below(r, 65536), s);
	min_len = 0;
	if (cmd == WSC_LAT_CMD_RUN) {
		/* Short runs only: ITERATIONS first, and never again. */
		put_u32(&m, WSC_LAT_A_EXPERIMENT_ITERATIONS, 1 + rng_below(r, 300));
		min_len = m.len;
	}
	random_attrs(r, &m, cmd, 0);
	finish(&m);
	sent = m.len;
	if (rng_chance(r, 10)) {
		/* Truncated: the length says less, or more, than was sent. */
		struct nlmsghdr *h = (void *)m.b;

		switch (rng_below(r, 3)) {
		case 0:
			sent = min_len + rng_below(r, m.len - min_len + 1);
			if (sent < min_len)
				sent = min_len;
			if (cmd == WSC_LAT_CMD_RUN)
				h->nlmsg_len = sent;
			break;
		case 1:
			h->nlmsg_len = m.len + 1 + rng_below(r, 64);
			break;
		default:
			if (cmd != WSC_LAT_CMD_RUN)
				h->nlmsg_len = rng_below(r, m.len);
			break;
		}
	}

	/* Then a request whose ack says everything before it was read. */
	simple(&sync);
	{
		struct nlmsghdr *h = (void *)sync.b;

		h->nlmsg_type = family;
		h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		h->nlmsg_seq = s + 1;
		((struct genlmsghdr *)NLMSG_DATA(h))->cmd = WSC_LAT_CMD_TRACE_STATUS;
		finish(&sync);
	}

	step_begin("genl", step);
	nl_send(fd, m.b, sent);
	nl_send(fd, sync.b, sync.len);
	if (!nl_read(fd, s, s + 1, &a)) {
		anomaly("genl", step, "no answer within %d ms (dump %s)",
			RECV_WAIT_MS, a.multi ? "left open" : "-");
		dump_request(&m, sent);
	} else if (a.err && !documented(-a.err)) {
		anomaly("genl", step, "refused with %d (%s), not a documented errno",
			a.err, strerror(-a.err));
		dump_request(&m, sent);
	} else if (a.bad_reply) {
		anomaly("genl", step, "%s", a.why);
		dump_request(&m, sent);
	}
	step_end();
	if (F.verbose)
		printf("wsc-fuzz: genl step %llu cmd %u len %zu -> %d (%d msgs)\n",
		       (unsigned long long)step, cmd, sent, a.err, a.msgs);
}

/* ---- Steps of their own ------------------------------------------------- */

/* Experiments whose small runs are cheap: one role, no sleeping. */
static int lab_run(int fd, const char *exp, uint32_t iters)
{
	struct msg m;
	struct answer a;

	simple(&m);
	put_str(&m, WSC_LAT_A_EXPERIMENT_NAME, exp);
	put_u32(&m, WSC_LAT_A_EXPERIMENT_ITERATIONS, iters);
	return request(fd, WSC_LAT_CMD_RUN, false, &m, &a);
}

static void expect_ok(uint64_t step, const char *what, int err,
		      const int *also, int nalso)
{
	int i;

	if (!err)
		return;
	for (i = 0; i < nalso; i++)
		if (err == -also[i])
			return;
	anomaly("genl", step, "%s: %d (%s)", what, err, strerror(-err));
}

/* Start a dump, read one part, close the socket. */
static void abandoned_dump(struct rng *r, uint64_t step)
{
	static const int ok[] = { EBUSY, ENODATA, ENOENT };
	static char buf[BUF];
	int fd = nl_open(), small = 4096;
	struct msg m;
	uint8_t cmd;

	step_begin("genl", step);
	expect_ok(step, "RUN spinlock 3000", lab_run(fd, "spinlock", 3000),
		  ok, 1);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	switch (rng_below(r, 5)) {
	case 0: cmd = WSC_LAT_CMD_GET_SAMPLES; break;
	case 1: cmd = WSC_LAT_CMD_GET_HIST; break;
	case 2: cmd = WSC_LAT_CMD_GET_STATS; break;
	case 3: cmd = WSC_LAT_CMD_TRACE_EVENTS; break;
	default: cmd = WSC_LAT_CMD_TRACE_FETCH; break;
	}
	simple(&m);
	if (cmd == WSC_LAT_CMD_GET_SAMPLES || cmd == WSC_LAT_CMD_GET_HIST)
		put_str(&m, WSC_LAT_A_EXPERIMENT_NAME, "spinlock");
	{
		struct nlmsghdr *h = (void *)m.b;

		h->nlmsg_type = family;
		h->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		h->nlmsg_seq = ++seq;
		((struct genlmsghdr *)NLMSG_DATA(h))->cmd = cmd;
		finish(&m);
	}
	nl_send(fd, m.b, m.len);
	if (rng_chance(r, 70)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, RECV_WAIT_MS) > 0)
			recv(fd, buf, rng_chance(r, 50) ? 100 : sizeof(buf),
			     MSG_DONTWAIT);
	}
	close(fd);
	step_end();
}

struct worker {
	uint64_t seed, step;
	int bad;
	char why[200];
};

/* One of several sockets: RUN, RESET and the trace at once. */
static void *worker(void *arg)
{
	static const int ok[] = { EBUSY, ENOENT, ENODATA, ESRCH, ECANCELED };
	struct worker *w = arg;
	struct rng r;
	int fd = nl_open(), i;

	rng_seed(&r, w->seed);
	for (i = 0; i < 6; i++) {
		struct msg m;
		struct answer a;
		uint8_t cmd = 0;
		bool dump = false;
		int err, j;

		simple(&m);
		switch (rng_below(&r, 7)) {
		case 0:
			err = lab_run(fd, experiments[rng_below(&r, 6)],
				      10 + rng_below(&r, 200));
			break;
		case 1:
			cmd = WSC_LAT_CMD_RESET;
			if (rng_chance(&r, 50))
				put_str(&m, WSC_LAT_A_EXPERIMENT_NAME, experiments[rng_below(&r, 6)]);
			break;
		case 2:
			cmd = WSC_LAT_CMD_TRACE_START;
			put_u32(&m, WSC_LAT_A_TRACE_PID, getpid());
			/* Small rings, so that they fill and drop. */
			if (rng_chance(&r, 50))
				put_u32(&m, WSC_LAT_A_TRACE_EVENTS,
					1 + rng_below(&r, 64));
			break;
		case 3:
			cmd = WSC_LAT_CMD_TRACE_STOP;
			break;
		case 4:
			/* A drain races the other sockets' starts and resets. */
			cmd = rng_chance(&r, 50) ? WSC_LAT_CMD_TRACE_FETCH :
						   WSC_LAT_CMD_TRACE_EVENTS;
			dump = true;
			break;
		case 5:
			cmd = WSC_LAT_CMD_GET_STATS;
			dump = true;
			break;
		default:
			cmd = WSC_LAT_CMD_TRACE_RESET;
			break;
		}
		if (cmd)
			err = request(fd, cmd, dump, &m, &a);
		if (!err)
			continue;
		for (j = 0; j < 5; j++)
			if (err == -ok[j])
				break;
		if (j == 5 && !w->bad) {
			w->bad = 1;
			snprintf(w->why, sizeof(w->why), "command %u: %d (%s)",
				 cmd ? cmd : WSC_LAT_CMD_RUN, err, strerror(-err));
		}
	}
	close(fd);
	return NULL;
}

static void concurrent(struct rng *r, uint64_t step)
{
	struct worker w[3];
	pthread_t t[3];
	int i;

	step_begin("genl", step);
	/* Each of 6 requests of 3 sockets may wait RECV_WAIT_MS. */
	alarm(F.step_timeout * 10);
	for (i = 0; i < 3; i++) {
		w[i] = (struct worker){ .seed = rng_next(r), .step = step };
		pthread_create(&t[i], NULL, worker, &w[i]);
	}
	for (i = 0; i < 3; i++) {
		pthread_join(t[i], NULL);
		if (w[i].bad)
			anomaly("genl", step, "socket %d of 3: %s", i, w[i].why);
	}
	step_end();
}

/* A trace of a task that exits while traced, or has exited already. */
static void exiting_task(struct rng *r, int fd, uint64_t step)
{
	static const int ok[] = { EBUSY, ESRCH, ENOENT, ENODATA };
	struct answer a;
	struct msg m;
	bool zombie = rng_chance(r, 30);
	int status, err;
	pid_t child;

	step_begin("genl", step);
	simple(&m);
	request(fd, WSC_LAT_CMD_TRACE_STOP, false, &m, &a);
	child = fork();
	if (child == 0) {
		int i;

		for (i = 0; i < 2000 && !zombie; i++)
			getppid();
		_exit(0);
	}
	if (zombie)
		waitid(P_PID, child, NULL, WEXITED | WNOWAIT);
	simple(&m);
	put_u32(&m, WSC_LAT_A_TRACE_PID, child);
	if (rng_chance(r, 50))
		put_u32(&m, WSC_LAT_A_TRACE_EVENTS, 1 + rng_below(r, 4096));
	err = request(fd, WSC_LAT_CMD_TRACE_START, false, &m, &a);
	if (zombie && err != -ESRCH && err != -EBUSY)
		anomaly("genl", step, "TRACE_START of an exited task: %d, expected -ESRCH",
			err);
	else
		expect_ok(step, "TRACE_START of an exiting task", err, ok, 4);
	waitpid(child, &status, 0);
	simple(&m);
	expect_ok(step, "TRACE_STATUS", request(fd, WSC_LAT_CMD_TRACE_STATUS, false, &m, &a),
		  ok, 4);
	simple(&m);
	expect_ok(step, "TRACE_FETCH", request(fd, WSC_LAT_CMD_TRACE_FETCH, true, &m, &a),
		  ok, 4);
	simple(&m);
	expect_ok(step, "TRACE_EVENTS", request(fd, WSC_LAT_CMD_TRACE_EVENTS, true, &m, &a),
		  ok, 4);
	simple(&m);
	expect_ok(step, "TRACE_STOP", request(fd, WSC_LAT_CMD_TRACE_STOP, false, &m, &a),
		  ok, 4);
	step_end();
}

static void quiet_down(int fd)
{
	struct answer a;
	struct msg m;

	simple(&m);
	request(fd, WSC_LAT_CMD_TRACE_STOP, false, &m, &a);
	simple(&m);
	request(fd, WSC_LAT_CMD_TRACE_RESET, false, &m, &a);
	simple(&m);
	request(fd, WSC_LAT_CMD_RESET, false, &m, &a);
}

void genl_init(void)
{
	int fd = nl_open();

	family = resolve(fd);
	close(fd);
	if (family < 0) {
		fprintf(stderr, "wsc-fuzz: family %s not found (is wsc.ko loaded?)\n",
			WSC_LAT_GENL_NAME);
		exit(2);
	}
}

int genl_round(uint64_t seed, char *why, size_t len)
{
	struct worker w = { .seed = seed };

	worker(&w);
	if (w.bad)
		snprintf(why, len, "%s", w.why);
	return w.bad;
}

int genl_open_dump(void)
{
	static char buf[256];
	int fd = nl_open(), small = 4096;
	struct msg m;

	lab_run(fd, "spinlock", 3000);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	simple(&m);
	put_str(&m, WSC_LAT_A_EXPERIMENT_NAME, "spinlock");
	{
		struct nlmsghdr *h = (void *)m.b;

		h->nlmsg_type = family;
		h->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		h->nlmsg_seq = ++seq;
		((struct genlmsghdr *)NLMSG_DATA(h))->cmd = WSC_LAT_CMD_GET_SAMPLES;
		finish(&m);
	}
	nl_send(fd, m.b, m.len);
	recv(fd, buf, sizeof(buf), 0);
	return fd;
}

void fuzz_genl(struct rng *r)
{
	double t0 = now_s();
	uint64_t step;
	int fd = nl_open();

	genl_init();
	for (step = 0; fuzz_more(step, t0); step++) {
		unsigned int x = rng_below(r, 1000);

		if (x < 10)
			abandoned_dump(r, step);
		else if (x < 16)
			concurrent(r, step);
		else if (x < 22)
			exiting_task(r, fd, step);
		else
			random_request(r, fd, step);
		F.genl++;
		if ((step & 1023) == 1023)
			kmsg_check("genl", step);
	}
	quiet_down(fd);
	close(fd);
}
