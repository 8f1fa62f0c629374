// SPDX-License-Identifier: GPL-2.0
/*
 * t_calls_close: a release inside a batch acts as it does between two
 * conventional calls.  The last reference to an open file goes with
 * close, dup2/dup3 over a descriptor, munmap of a file mapping; the
 * kernel defers the release itself (fput()) to the task's return to user
 * space, which a batch postpones until its end.  The module runs that
 * deferred work between entries (Documentation/abi.md, "Releases inside
 * a batch"), so that an entry after the release sees it: end of file,
 * EPIPE, POLLHUP, a lock gone.
 *
 * Each test runs a short sequence once as one batch and once as
 * conventional calls, each time from the same starting state (made
 * afresh, with the same descriptor numbers), and compares result by
 * result.  The twin-call machinery is in twin.h.
 */
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>

#include "twin.h"

#define SEQ_MAX		4
#define SEQ_FDS		4

/*
 * One run of a sequence: its entries and every object and buffer they
 * use, made by a setup function.  @fd lists the descriptors to close
 * after the run (-1: none); @after, if set, runs right after the calls.
 */
struct seq {
	struct wsc_entry e[SEQ_MAX];
	unsigned int n;
	long ret[SEQ_MAX];
	int fd[SEQ_FDS];
	char buf[8];
	struct pollfd pfd;
	struct flock fl;
	void *map;
	bool sigpipe;
	void (*after)(struct seq *s);
};

/* Run @s's entries conventionally, in the ABI's chain order. */
static void seq_conventional(struct seq *s)
{
	bool stopped = false;
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		const struct wsc_entry *e = &s->e[i];
		const __u64 *a = e->args;

		if (e->flags & WSC_ENTRY_NEW_CHAIN)
			stopped = false;
		if (stopped)
			s->ret[i] = -ECANCELED;
		else if (e->nr == WSC_NR_NOP)
			s->ret[i] = (long)a[0];
		else
			s->ret[i] = sys_do(e->nr, a[0], a[1], a[2], a[3], a[4],
					   a[5]);
		if (is_err(s->ret[i]) &&
		    !(e->flags & WSC_ENTRY_IGNORE_FAILURE))
			stopped = true;
	}
}

/* Run @s's entries as one batch: all of them must have a result. */
static void seq_wrapped(struct seq *s)
{
	struct wsc_result r[SEQ_MAX];
	unsigned int i;

	memset(r, 0, sizeof(r));
	ASSERT_EQ(wsc_test_submit(dev(), s->e, r, s->n, 0, NULL), (int)s->n);
	for (i = 0; i < s->n; i++)
		s->ret[i] = r[i].ret;
}

static void seq_run(struct seq *s, void (*setup)(struct seq *s),
		    void (*run)(struct seq *s))
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < SEQ_FDS; i++)
		s->fd[i] = -1;
	setup(s);
	ASSERT_LE(s->n, SEQ_MAX);
	run(s);
	if (s->after)
		s->after(s);
	for (i = 0; i < SEQ_FDS; i++) {
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	}
}

/*
 * The sequence @setup makes, wrapped into @w and conventionally into @c,
 * each from a fresh start; every result must be the same both ways and
 * equal @expect (ANY: need only agree).
 */
static void twin_seq(const char *what, void (*setup)(struct seq *s),
		     const long *expect, struct seq *w, struct seq *c)
{
	unsigned int i;

	dev();		/* opened once, high, before any object */
	seq_run(w, setup, seq_wrapped);
	seq_run(c, setup, seq_conventional);
	for (i = 0; i < w->n; i++) {
		char call[80];

		snprintf(call, sizeof(call), "%s, entry %u", what, i);
		same(expect[i], w->ret[i], c->ret[i], call, __FILE__,
		     __LINE__);
	}
}

/* A non-blocking pipe whose ends are fd[0] and fd[1]. */
static void seq_pipe(struct seq *s)
{
	ASSERT_EQ(pipe2(s->fd, O_NONBLOCK | O_CLOEXEC), 0);
}

/* SIGPIPE blocked, so that a write to a pipe with no reader only queues it. */
static void block_sigpipe(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	ASSERT_EQ(sigprocmask(SIG_BLOCK, &set, NULL), 0);
}

/* @after: note whether SIGPIPE is pending, taking it off the queue. */
static void take_sigpipe(struct seq *s)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	s->sigpipe = sigtimedwait(&set, NULL, &zero) == SIGPIPE;
}

static void close_w_read(struct seq *s)
{
	seq_pipe(s);
	s->e[0] = ENT1(__NR_close, s->fd[1]);
	s->e[1] = ENT3(__NR_read, s->fd[0], s->buf, 1);
	s->n = 2;
}

TEST(close_write_end_then_read_is_eof_not_eagain)
{
	const long expect[] = { 0, 0 };
	struct seq w, c;

	twin_seq("close(w); read(r)", close_w_read, expect, &w, &c);
}

static void close_r_write(struct seq *s)
{
	seq_pipe(s);
	s->e[0] = ENT1(__NR_close, s->fd[0]);
	s->e[1] = ENT3(__NR_write, s->fd[1], "x", 1);
	s->e[2] = ENT0(__NR_getpid);
	s->e[2].flags = WSC_ENTRY_NEW_CHAIN;
	s->n = 3;
	s->after = take_sigpipe;
}

TEST(close_read_end_then_write_is_epipe_sigpipe_blocked)
{
	const long expect[] = { 0, -EPIPE, getpid() };
	struct seq w, c;

	/* Blocked: the signal stays queued and does not stop the batch. */
	block_sigpipe();
	twin_seq("close(r); write(w); getpid", close_r_write, expect, &w, &c);
	EXPECT_TRUE(w.sigpipe);
	EXPECT_TRUE(c.sigpipe);
}

TEST(close_read_end_then_write_is_epipe_sigpipe_ignored)
{
	const long expect[] = { 0, -EPIPE, getpid() };
	struct seq w, c;

	/* Ignored: nothing is queued, and the batch runs on. */
	ASSERT_TRUE(signal(SIGPIPE, SIG_IGN) != SIG_ERR);
	twin_seq("close(r); write(w); getpid", close_r_write, expect, &w, &c);
	EXPECT_FALSE(w.sigpipe);
	EXPECT_FALSE(c.sigpipe);
}

static volatile sig_atomic_t sigpipe_hits;

static void on_sigpipe(int sig)
{
	(void)sig;
	sigpipe_hits++;
}

TEST(close_read_end_then_write_sigpipe_caught_stops_batch)
{
	struct sigaction sa = { .sa_handler = on_sigpipe };
	struct wsc_result r[3];
	struct seq s;

	/*
	 * Caught: the write's SIGPIPE is a pending signal, so the batch
	 * stops before its next call and the handler runs once, on the way
	 * out of the ioctl, as it runs once after the conventional write.
	 */
	ASSERT_EQ(sigaction(SIGPIPE, &sa, NULL), 0);
	memset(&s, 0, sizeof(s));
	close_r_write(&s);
	EXPECT_EQ(wsc_test_submit(dev(), s.e, r, 3, 0, NULL), 2);
	EXPECT_EQ(r[0].ret, 0);
	EXPECT_EQ(r[1].ret, -EPIPE);
	EXPECT_EQ(sigpipe_hits, 1);
	close(s.fd[1]);

	memset(&s, 0, sizeof(s));
	close_r_write(&s);
	EXPECT_EQ(S(__NR_close, s.fd[0]), 0);
	EXPECT_EQ(S(__NR_write, s.fd[1], "x", 1), -EPIPE);
	EXPECT_EQ(sigpipe_hits, 2);
	close(s.fd[1]);
}

static void close_w_poll(struct seq *s)
{
	seq_pipe(s);
	s->pfd.fd = s->fd[0];
	s->pfd.events = POLLIN;
	s->e[0] = ENT1(__NR_close, s->fd[1]);
	s->e[1] = ENT3(__NR_poll, &s->pfd, 1, 0);
	s->n = 2;
}

TEST(close_write_end_then_poll_sees_pollhup)
{
	const long expect[] = { 0, 1 };
	struct seq w, c;

	twin_seq("close(w); poll(r)", close_w_poll, expect, &w, &c);
	EXPECT_EQ(w.pfd.revents, POLLHUP);
	EXPECT_EQ(c.pfd.revents, POLLHUP);
}

/* fd[2]: /dev/null, a descriptor to duplicate over a pipe's end. */
static void seq_pipe_and_null(struct seq *s)
{
	seq_pipe(s);
	s->fd[2] = open("/dev/null", O_RDWR | O_CLOEXEC);
	ASSERT_GE(s->fd[2], 0);
}

static void dup3_over_w_read(struct seq *s)
{
	seq_pipe_and_null(s);
	s->e[0] = ENT3(__NR_dup3, s->fd[2], s->fd[1], O_CLOEXEC);
	s->e[1] = ENT3(__NR_read, s->fd[0], s->buf, 1);
	s->n = 2;
}

TEST(dup3_over_write_end_then_read_is_eof_not_eagain)
{
	long expect[] = { ANY, 0 };
	struct seq w, c;

	/*
	 * dup3 releases what its target held through filp_close() and
	 * fput(), deferred on every kernel: close(2) became synchronous in
	 * 6.7, dup2 and dup3 did not.
	 */
	twin_seq("dup3(null, w); read(r)", dup3_over_w_read, expect, &w, &c);
	EXPECT_EQ(w.ret[0], w.fd[1]);
}

static void dup2_over_r_write(struct seq *s)
{
	seq_pipe_and_null(s);
	s->e[0] = ENT2(__NR_dup2, s->fd[2], s->fd[0]);
	s->e[1] = ENT3(__NR_write, s->fd[1], "x", 1);
	s->n = 2;
	s->after = take_sigpipe;
}

TEST(dup2_over_read_end_then_write_is_epipe)
{
	long expect[] = { ANY, -EPIPE };
	struct seq w, c;

	block_sigpipe();
	twin_seq("dup2(null, r); write(w)", dup2_over_r_write, expect, &w, &c);
	EXPECT_EQ(w.ret[0], w.fd[0]);
	EXPECT_TRUE(w.sigpipe);
	EXPECT_TRUE(c.sigpipe);
}

/*
 * An open file description's lock goes with its final release
 * (locks_remove_file() in __fput()): for a regular file, the observable
 * of that release.  fd[0] holds a write lock on a memfd (tmpfs: locks
 * local to this kernel, wherever the tests' own files live); fd[1], a
 * second open of it, cannot take one yet.
 */
static void seq_locked(struct seq *s)
{
	char path[32];

	s->fd[0] = memfd_create("wsc-lock", MFD_CLOEXEC);
	ASSERT_GE(s->fd[0], 0);
	ASSERT_EQ(ftruncate(s->fd[0], PG), 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", s->fd[0]);
	s->fd[1] = xopen(path, O_RDWR);
	s->fl.l_type = F_WRLCK;
	s->fl.l_whence = SEEK_SET;
	ASSERT_EQ(S(__NR_fcntl, s->fd[0], F_OFD_SETLK, &s->fl), 0);
	ASSERT_EQ(S(__NR_fcntl, s->fd[1], F_OFD_SETLK, &s->fl), -EAGAIN);
}

static void close_locked_lock(struct seq *s)
{
	seq_locked(s);
	s->e[0] = ENT1(__NR_close, s->fd[0]);
	s->e[1] = ENT3(__NR_fcntl, s->fd[1], F_OFD_SETLK, &s->fl);
	s->n = 2;
}

TEST(close_releases_ofd_lock_before_next_entry)
{
	const long expect[] = { 0, 0 };
	struct seq w, c;

	twin_seq("close(locked); lock(other)", close_locked_lock, expect,
		 &w, &c);
}

static void dup2_over_locked_lock(struct seq *s)
{
	seq_locked(s);
	s->fd[2] = open("/dev/null", O_RDWR | O_CLOEXEC);
	ASSERT_GE(s->fd[2], 0);
	s->e[0] = ENT2(__NR_dup2, s->fd[2], s->fd[0]);
	s->e[1] = ENT3(__NR_fcntl, s->fd[1], F_OFD_SETLK, &s->fl);
	s->n = 2;
}

TEST(dup2_over_locked_releases_ofd_lock_before_next_entry)
{
	const long expect[] = { ANY, 0 };
	struct seq w, c;

	twin_seq("dup2(null, locked); lock(other)", dup2_over_locked_lock,
		 expect, &w, &c);
	EXPECT_EQ(w.ret[0], w.fd[0]);
}

static void munmap_locked_lock(struct seq *s)
{
	seq_locked(s);
	/* The mapping holds the locked file once its descriptor is closed. */
	s->map = mmap(NULL, PG, PROT_READ, MAP_SHARED, s->fd[0], 0);
	ASSERT_TRUE(s->map != MAP_FAILED);
	close(s->fd[0]);
	s->fd[0] = -1;
	ASSERT_EQ(S(__NR_fcntl, s->fd[1], F_OFD_SETLK, &s->fl), -EAGAIN);
	s->e[0] = ENT2(__NR_munmap, s->map, PG);
	s->e[1] = ENT3(__NR_fcntl, s->fd[1], F_OFD_SETLK, &s->fl);
	s->n = 2;
}

TEST(munmap_of_last_reference_releases_ofd_lock)
{
	const long expect[] = { 0, 0 };
	struct seq w, c;

	twin_seq("munmap(last reference); lock(other)", munmap_locked_lock,
		 expect, &w, &c);
}

static void close_peer_recv_send(struct seq *s)
{
	unix_pair(SOCK_STREAM, s->fd);
	s->e[0] = ENT1(__NR_close, s->fd[0]);
	s->e[1] = wsc_ent(__NR_recvfrom, s->fd[1], A(s->buf), 1,
			  MSG_DONTWAIT, 0, 0);
	s->e[2] = wsc_ent(__NR_sendto, s->fd[1], A("x"), 1,
			  MSG_DONTWAIT | MSG_NOSIGNAL, 0, 0);
	s->n = 3;
}

TEST(close_socket_peer_then_recv_is_eof_and_send_is_epipe)
{
	const long expect[] = { 0, 0, -EPIPE };
	struct seq w, c;

	twin_seq("close(peer); recv; send", close_peer_recv_send, expect,
		 &w, &c);
}

static void close_w_nop_read(struct seq *s)
{
	seq_pipe(s);
	s->e[0] = ENT1(__NR_close, s->fd[1]);
	s->e[1] = NOP(-EIO);
	s->e[2] = ENT3(__NR_read, s->fd[0], s->buf, 1);
	s->e[2].flags = WSC_ENTRY_NEW_CHAIN;
	s->n = 3;
}

TEST(close_then_read_after_a_nop_and_a_new_chain_is_eof)
{
	const long expect[] = { 0, -EIO, 0 };
	struct seq w, c;

	/* The release runs before the next call, whatever lies between. */
	twin_seq("close(w); nop; read(r)", close_w_nop_read, expect, &w, &c);
}

TEST_HARNESS_MAIN
