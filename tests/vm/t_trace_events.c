// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's events (TRACE_EVENTS, wsc_trace_events()): a child makes a
 * known sequence of calls - an openat, a read, a write to /dev/null,
 * two closes, GETPIDS getpids, a libwsc batch of BATCHED getpids, its
 * exit_group - and the events must be exactly those, in that order, each
 * with its arguments, result and thread; every counted call is an event
 * drained or one counted lost, with room for all and with a ring of one;
 * draining while the trace runs loses nothing and keeps each thread's
 * order; a trace without events, a capacity over the maximum and another
 * socket's drain are refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libwsc.h>

#include "harness.h"
#include "proc_task.h"
#include "trace_genl.h"

#define GETPIDS		50
#define BATCHED		3
/* Calls of the known sequence: 2 openat, read, write, 2 close, exit_group. */
#define PLAIN_CALLS	7
/* The busy child of the live drain. */
#define BUSY_CALLS	20000
#define BUSY_RING	256
#define MAX_EVENTS	(BUSY_CALLS + 4096)

/* The events drained, in one array. */
static struct wsc_trace_event got[MAX_EVENTS];
static size_t nr_got;

static int keep(void *ctx, const struct wsc_trace_event *ev, size_t n)
{
	(void)ctx;
	if (nr_got + n > MAX_EVENTS)
		return -ENOSPC;
	memcpy(got + nr_got, ev, n * sizeof(*ev));
	nr_got += n;
	return 0;
}

static int by_thread_then_entry(const void *a, const void *b)
{
	const struct wsc_trace_event *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->enter_ns != y->enter_ns)
		return x->enter_ns < y->enter_ns ? -1 : 1;
	return 0;
}

/* The known sequence, once the parent's byte comes. */
static void known_sequence(int go)
{
	struct wsc_batch *b;
	char buf[64], c;
	int fd, null, i;

	/* Before the trace: the batch's setup makes calls of its own. */
	if (wsc_batch_create(&b, 0))
		_exit(4);
	if (read(go, &c, 1) != 1)
		_exit(2);
	fd = (int)syscall(SYS_openat, AT_FDCWD, "/dev/zero", O_RDONLY);
	if (syscall(SYS_read, fd, buf, sizeof(buf)) != sizeof(buf))
		_exit(3);
	null = (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_WRONLY);
	syscall(SYS_write, null, buf, sizeof(buf));
	syscall(SYS_close, null);
	syscall(SYS_close, fd);
	for (i = 0; i < GETPIDS; i++)
		syscall(SYS_getpid);
	for (i = 0; i < BATCHED; i++)
		wsc_prep_getpid(b);
	if (wsc_batch_submit(b) != BATCHED)
		_exit(5);
	syscall(SYS_exit_group, 0);
}

/* So many getpids, for the live drain. */
static void busy(int go)
{
	char c;
	int i;

	if (read(go, &c, 1) != 1)
		_exit(2);
	for (i = 0; i < BUSY_CALLS; i++)
		syscall(SYS_getpid);
	_exit(0);
}

/**
 * struct child - a process that waits in read() for its go byte
 * @pid: its pid
 * @go:  the pipe's write end
 */
struct child {
	pid_t pid;
	int go;
};

/*
 * Fork @work(read end); back once it waits in its read(), whose exit is
 * then the trace's one unmatched call and no event.
 */
static void spawn(struct child *ch, void (*work)(int go))
{
	int p[2], waited;

	ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
	fflush(stdout);
	ch->pid = fork();
	ASSERT_GE(ch->pid, 0);
	if (!ch->pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[1]);
		work(p[0]);
		_exit(0);
	}
	close(p[0]);
	ch->go = p[1];
	for (waited = 0; !blocked_in_read(ch->pid); waited++) {
		ASSERT_LT(waited, 1000);
		usleep(10000);
	}
}

static void go_and_reap(struct child *ch)
{
	int status;

	ASSERT_EQ(write(ch->go, "g", 1), 1);
	close(ch->go);
	while (waitpid(ch->pid, &status, 0) < 0)
		ASSERT_EQ(errno, EINTR);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static int add_calls(void *ctx, const struct wsc_trace_call *call)
{
	*(uint64_t *)ctx += call->calls;
	return 0;
}

/* Calls the trace counted, every number summed. */
static uint64_t counted(struct wsc_trace *tr)
{
	uint64_t calls = 0;

	ASSERT_GE(wsc_trace_fetch(tr, add_calls, &calls), 0);
	return calls;
}

/* Trace @work in a child with rings of @per_cpu, to its end; drain. */
static struct wsc_trace *trace_child(void (*work)(int), uint32_t per_cpu,
				     pid_t *pid, uint64_t *lost)
{
	struct wsc_trace_status st;
	struct wsc_trace *tr;
	struct child ch;
	int n, i;

	ASSERT_EQ(wsc_trace_open(&tr), 0);
	ASSERT_EQ(wsc_trace_set_events(tr, per_cpu), 0);
	spawn(&ch, work);
	n = wsc_trace_start(tr, (uint32_t)ch.pid, NULL);
	if (n)
		TH_LOG("start: %s", wsc_trace_error(tr));
	ASSERT_EQ(n, 0);
	go_and_reap(&ch);
	for (i = 0; i < 1000; i++) {
		ASSERT_EQ(wsc_trace_status(tr, &st), 0);
		if (st.state == WSC_TRACE_ENDED)
			break;
		usleep(10000);
	}
	ASSERT_EQ(st.state, WSC_TRACE_ENDED);
	nr_got = 0;
	n = wsc_trace_events(tr, keep, NULL, lost);
	if (n < 0)
		TH_LOG("events: %d %s", n, wsc_trace_error(tr));
	ASSERT_EQ(n, (int)nr_got);
	*pid = ch.pid;
	return tr;
}

/* Index of the next event after @i of call @nr, or nr_got. */
static size_t next_of(size_t i, uint16_t nr)
{
	while (i < nr_got && got[i].nr != nr)
		i++;
	return i;
}

TEST(known_sequence_exact)
{
	static const uint16_t plain[] = {
		SYS_openat, SYS_read, SYS_openat, SYS_write, SYS_close,
		SYS_close,
	};
	struct wsc_trace *tr;
	size_t i, k;
	uint64_t lost = 1;
	pid_t pid;

	tr = trace_child(known_sequence, 4096, &pid, &lost);
	EXPECT_EQ(lost, 0);
	EXPECT_EQ(nr_got, counted(tr));
	/* Nothing left: draining consumed them. */
	EXPECT_EQ(wsc_trace_events(tr, keep, NULL, NULL), 0);
	qsort(got, nr_got, sizeof(*got), by_thread_then_entry);
	ASSERT_EQ(nr_got, PLAIN_CALLS + GETPIDS + 1 + BATCHED);
	for (i = 0; i < nr_got; i++) {
		EXPECT_EQ(got[i].tid, pid);
		EXPECT_LE(got[i].enter_ns, got[i].exit_ns);
		/* One thread: each call exits before the next enters... */
		if (i && !(got[i].flags & WSC_TRACE_EVENT_WRAPPED))
			EXPECT_LE(got[i - 1].exit_ns, got[i].enter_ns);
	}
	for (i = 0; i < ARRAY_SIZE(plain); i++) {
		EXPECT_EQ(got[i].nr, plain[i]);
		EXPECT_EQ(got[i].flags, 0);
	}
	/* openat's result is the fd the later calls were given. */
	EXPECT_GE(got[0].ret, 0);
	EXPECT_EQ(got[1].args[0], (uint64_t)got[0].ret);
	EXPECT_EQ(got[1].ret, 64);
	EXPECT_EQ(got[1].args[2], 64);
	EXPECT_EQ(got[3].args[0], (uint64_t)got[2].ret);
	EXPECT_EQ(got[3].ret, 64);
	EXPECT_EQ(got[4].args[0], (uint64_t)got[2].ret);
	EXPECT_EQ(got[5].args[0], (uint64_t)got[0].ret);
	EXPECT_EQ(got[4].ret, 0);
	/* openat's dfd is an int: the register's upper half is not its. */
	EXPECT_EQ((int32_t)got[0].args[0], AT_FDCWD);
	for (k = ARRAY_SIZE(plain); k < ARRAY_SIZE(plain) + GETPIDS; k++) {
		EXPECT_EQ(got[k].nr, SYS_getpid);
		EXPECT_EQ(got[k].ret, pid);
		EXPECT_EQ(got[k].flags, 0);
	}
	/* ...but the batch's calls, which run inside its ioctl. */
	EXPECT_EQ(got[k].nr, SYS_ioctl);
	EXPECT_EQ(got[k].flags, WSC_TRACE_EVENT_BATCH);
	EXPECT_EQ(got[k].ret, BATCHED);
	for (i = k + 1; i <= k + BATCHED; i++) {
		EXPECT_EQ(got[i].nr, SYS_getpid);
		EXPECT_EQ(got[i].flags, WSC_TRACE_EVENT_WRAPPED);
		EXPECT_EQ(got[i].ret, pid);
		EXPECT_GE(got[i].enter_ns, got[k].enter_ns);
		EXPECT_LE(got[i].exit_ns, got[k].exit_ns);
	}
	EXPECT_EQ(got[nr_got - 1].nr, SYS_exit_group);
	EXPECT_EQ(got[nr_got - 1].args[0], 0);
	EXPECT_EQ(next_of(0, SYS_ioctl), k);
	wsc_trace_close(tr);
}

TEST(ring_of_one_counts_the_rest_lost)
{
	struct wsc_trace *tr;
	uint64_t lost = 0;
	pid_t pid;

	tr = trace_child(known_sequence, 1, &pid, &lost);
	/* At most one per CPU was kept; every other counted call is lost. */
	EXPECT_GE(nr_got, 1);
	EXPECT_LE(nr_got, (size_t)sysconf(_SC_NPROCESSORS_CONF));
	EXPECT_GT(lost, 0);
	EXPECT_EQ(nr_got + lost, counted(tr));
	EXPECT_EQ(counted(tr), PLAIN_CALLS + GETPIDS + 1 + BATCHED);
	wsc_trace_close(tr);
}

TEST(drained_while_running)
{
	struct wsc_trace_status st;
	struct wsc_trace *tr;
	uint64_t lost = 0;
	struct child ch;
	size_t i, getpids = 0;
	int n, drains = 0;

	ASSERT_EQ(wsc_trace_open(&tr), 0);
	ASSERT_EQ(wsc_trace_set_events(tr, BUSY_RING), 0);
	spawn(&ch, busy);
	ASSERT_EQ(wsc_trace_start(tr, (uint32_t)ch.pid, NULL), 0);
	nr_got = 0;
	ASSERT_EQ(write(ch.go, "g", 1), 1);
	close(ch.go);
	do {
		ASSERT_EQ(wsc_trace_status(tr, &st), 0);
		n = wsc_trace_events(tr, keep, NULL, &lost);
		ASSERT_GE(n, 0);
		drains++;
	} while (st.state == WSC_TRACE_ACTIVE);
	ASSERT_EQ(waitpid(ch.pid, NULL, 0), ch.pid);
	TH_LOG("%d drains, %zu events, %llu lost", drains, nr_got,
	       (unsigned long long)lost);
	EXPECT_EQ(nr_got + lost, counted(tr));
	qsort(got, nr_got, sizeof(*got), by_thread_then_entry);
	for (i = 0; i < nr_got; i++) {
		getpids += got[i].nr == SYS_getpid;
		EXPECT_EQ(got[i].tid, ch.pid);
		if (i)
			EXPECT_LE(got[i - 1].exit_ns, got[i].enter_ns);
	}
	EXPECT_LE(getpids, BUSY_CALLS);
	wsc_trace_close(tr);
}

TEST(no_events_no_drain)
{
	struct wsc_trace *tr;
	uint64_t lost = 7;

	ASSERT_EQ(wsc_trace_open(&tr), 0);
	/* No trace yet. */
	EXPECT_EQ(wsc_trace_events(tr, keep, NULL, &lost), -ENODATA);
	ASSERT_EQ(wsc_trace_start(tr, (uint32_t)getppid(), NULL), 0);
	EXPECT_EQ(wsc_trace_events(tr, keep, NULL, &lost), -ENODATA);
	EXPECT_NE(strstr(wsc_trace_error(tr), "no events"), NULL);
	EXPECT_EQ(lost, 7);
	/* Turned on, then off again before the start. */
	ASSERT_EQ(wsc_trace_stop(tr), 0);
	ASSERT_EQ(wsc_trace_set_events(tr, 16), 0);
	ASSERT_EQ(wsc_trace_set_events(tr, 0), 0);
	ASSERT_EQ(wsc_trace_start(tr, (uint32_t)getppid(), NULL), 0);
	EXPECT_EQ(wsc_trace_events(tr, keep, NULL, NULL), -ENODATA);
	wsc_trace_close(tr);
}

TEST(capacity_checked)
{
	struct wsc_trace *tr;

	ASSERT_EQ(wsc_trace_open(&tr), 0);
	EXPECT_EQ(wsc_trace_set_events(tr, WSC_TRACE_EVENTS_MAX + 1), -EINVAL);
	EXPECT_EQ(wsc_trace_set_events(tr, UINT32_MAX), -EINVAL);
	EXPECT_EQ(wsc_trace_set_events(tr, WSC_TRACE_EVENTS_MAX), 0);
	EXPECT_EQ(wsc_trace_events(tr, NULL, NULL, NULL), -EINVAL);
	wsc_trace_close(tr);
}

static struct trace_reply reply;

/* TRACE_EVENTS, a dump, on @ts, of trace @id or (0) the socket's own. */
static void drain_raw(struct trace_sock *ts, uint64_t id)
{
	if (id)
		trace_send(ts, genl_raw_msg(ts->family, WSC_LAT_CMD_TRACE_EVENTS,
					    NLM_F_DUMP,
					    GENL_ATTRS(ATTR_U64(WSC_LAT_A_TRACE_ID, id))),
			   &reply);
	else
		trace_send(ts, genl_raw_msg(ts->family, WSC_LAT_CMD_TRACE_EVENTS,
					    NLM_F_DUMP, NULL, 0), &reply);
}

/* The module's own checks, past libwsc's. */
TRACE_TEST(kernel_refuses)
{
	struct trace_sock owner, other;
	uint64_t id;

	trace_open(&owner);
	trace_open(&other);
	/* Over the maximum: the policy's range. */
	trace_request(&owner, WSC_LAT_CMD_TRACE_START, &reply,
		      ATTR_U32(WSC_LAT_A_TRACE_PID, (uint32_t)getppid()),
		      ATTR_U32(WSC_LAT_A_TRACE_EVENTS, WSC_TRACE_EVENTS_MAX + 1));
	EXPECT_EQ(reply.err, -ERANGE);
	trace_request(&owner, WSC_LAT_CMD_TRACE_START, &reply,
		      ATTR_U32(WSC_LAT_A_TRACE_PID, (uint32_t)getppid()),
		      ATTR_U32(WSC_LAT_A_TRACE_EVENTS, 8));
	ASSERT_OK(&reply, "START with EVENTS 8");
	EXPECT_EQ(reply.val[WSC_LAT_A_TRACE_EVENTS], 8);
	EXPECT_TRUE(reply.has[WSC_LAT_A_TRACE_LOST_EVENTS]);
	id = reply.val[WSC_LAT_A_TRACE_ID];
	ASSERT_GT(id, 0);
	/* Another socket may neither name it nor has one of its own. */
	drain_raw(&other, id);
	EXPECT_EQ(reply.err, -EPERM);
	drain_raw(&other, 0);
	EXPECT_EQ(reply.err, -ENODATA);
	drain_raw(&owner, id);
	ASSERT_OK(&reply, "the owner's drain");
	EXPECT_GE(reply.messages, 1);
	EXPECT_TRUE(reply.has[WSC_LAT_A_TRACE_LOST_EVENTS]);
	drain_raw(&owner, id + 1000);
	EXPECT_EQ(reply.err, -ENOENT);
	trace_close(&other);
	trace_close(&owner);
}

TEST_HARNESS_MAIN
