// SPDX-License-Identifier: GPL-2.0
/*
 * The trace's io_uring requests (kmod/trace_ring.c) through libwsc: a
 * process that traces itself hands known requests to a ring (5 NOPs, 3
 * READs of a file, 2 WRITEs to /dev/null, 1 OPENAT of a missing file)
 * and finds each counted exactly under its opcode, the failure under
 * ENOENT, latencies above 0, nothing lost or pending; an SQPOLL ring's
 * requests, submitted by its kernel thread, count for the process; a
 * trace without the ring flag has no ring row.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libwsc.h>

#include "util.h"

#define OPS	64	/* opcodes kept: more than any kernel of the matrix has */

/* What a fetch found: the ring rows by opcode, and the system calls. */
struct seen {
	struct wsc_trace_call op[OPS];
	uint64_t errno_of[OPS];		/* the one errno of a failed opcode */
	unsigned int ring_rows;
	unsigned int call_rows;
};

static int keep_row(void *ctx, const struct wsc_trace_call *call)
{
	struct seen *s = ctx;

	if (!call->ring) {
		s->call_rows++;
		return 0;
	}
	s->ring_rows++;
	if (call->op >= OPS || call->nr != WSC_TRACE_NR_MAX + call->op)
		return -EBADMSG;
	s->op[call->op] = *call;
	if (call->nr_errnos == 1)
		s->errno_of[call->op] = call->errnos[0][0];
	return 0;
}

/* Submit one prepared request on @ring and wait for its completion. */
static int run_one(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;
	int res;

	if (io_uring_submit(ring) != 1)
		return -EIO;
	if (io_uring_wait_cqe(ring, &cqe))
		return -EIO;
	res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return res;
}

static struct io_uring_sqe *sqe_of(struct io_uring *ring)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	ASSERT_TRUE(sqe != NULL);
	return sqe;
}

/* The known requests, each waited for; the file @path holds 8 bytes. */
static void known_requests(const char *path)
{
	struct io_uring ring;
	char buf[8];
	int fd, null, i;

	ASSERT_EQ(io_uring_queue_init(8, &ring, 0), 0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_GE(null, 0);
	for (i = 0; i < 5; i++) {
		io_uring_prep_nop(sqe_of(&ring));
		ASSERT_EQ(run_one(&ring), 0);
	}
	for (i = 0; i < 3; i++) {
		io_uring_prep_read(sqe_of(&ring), fd, buf, sizeof(buf), 0);
		ASSERT_EQ(run_one(&ring), (int)sizeof(buf));
	}
	for (i = 0; i < 2; i++) {
		io_uring_prep_write(sqe_of(&ring), null, buf, sizeof(buf), 0);
		ASSERT_EQ(run_one(&ring), (int)sizeof(buf));
	}
	io_uring_prep_openat(sqe_of(&ring), AT_FDCWD, "/nonexistent/wsc-ring",
			     O_RDONLY, 0);
	ASSERT_EQ(run_one(&ring), -ENOENT);
	io_uring_queue_exit(&ring);
	close(fd);
	close(null);
}

/* A file of 8 bytes to read; its path in @path. */
static void make_file(char *path, size_t len)
{
	int fd;

	snprintf(path, len, "/tmp/t_trace_ring.%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, "01234567", 8), 8);
	close(fd);
}

/* Trace this process with or without ring requests; @s gets the rows. */
static void trace_self(bool ring, void (*work)(const char *), const char *arg,
		       struct seen *s, uint64_t *lost, uint64_t *pending)
{
	struct wsc_trace *tr;

	ASSERT_EQ(wsc_trace_open(&tr), 0);
	ASSERT_EQ(wsc_trace_set_ring(tr, ring), 0);
	if (wsc_trace_start(tr, (uint32_t)getpid(), NULL)) {
		TH_LOG("start: %s", wsc_trace_error(tr));
		ASSERT_TRUE(false);
	}
	work(arg);
	ASSERT_EQ(wsc_trace_stop(tr), 0);
	memset(s, 0, sizeof(*s));
	ASSERT_GE(wsc_trace_fetch(tr, keep_row, s), 1);
	ASSERT_EQ(wsc_trace_ring_counts(tr, lost, pending), ring ? 1 : 0);
	wsc_trace_close(tr);
}

TEST(requests_counted_by_opcode)
{
	uint64_t lost = 1, pending = 1;
	struct seen s;
	char path[64];
	unsigned int op, rows = 0;

	make_file(path, sizeof(path));
	trace_self(true, known_requests, path, &s, &lost, &pending);
	unlink(path);
	EXPECT_EQ(s.op[IORING_OP_NOP].calls, 5);
	EXPECT_EQ(s.op[IORING_OP_READ].calls, 3);
	EXPECT_EQ(s.op[IORING_OP_WRITE].calls, 2);
	EXPECT_EQ(s.op[IORING_OP_OPENAT].calls, 1);
	EXPECT_EQ(s.op[IORING_OP_OPENAT].errors, 1);
	EXPECT_EQ(s.errno_of[IORING_OP_OPENAT], ENOENT);
	EXPECT_EQ(s.op[IORING_OP_READ].errors, 0);
	for (op = 0; op < OPS; op++) {
		if (!s.op[op].calls)
			continue;
		rows++;
		EXPECT_GT(s.op[op].total_ns, 0);
		EXPECT_GT(s.op[op].max_ns, 0);
		EXPECT_EQ(s.op[op].off_ns, s.op[op].total_ns);
		EXPECT_TRUE(s.op[op].nr_buckets >= 1);
		EXPECT_TRUE(wsc_ring_op_name(op) != NULL);
	}
	/* Those four opcodes and no other. */
	EXPECT_EQ(rows, 4);
	EXPECT_EQ(s.ring_rows, 4);
	EXPECT_GT(s.call_rows, 0);
	EXPECT_EQ(lost, 0);
	EXPECT_EQ(pending, 0);
	EXPECT_TRUE(!strcmp(wsc_ring_op_name(IORING_OP_OPENAT), "OPENAT"));
}

TEST(no_ring_rows_without_the_flag)
{
	uint64_t lost = 1, pending = 1;
	struct seen s;
	char path[64];

	make_file(path, sizeof(path));
	trace_self(false, known_requests, path, &s, &lost, &pending);
	unlink(path);
	EXPECT_EQ(s.ring_rows, 0);
	EXPECT_GT(s.call_rows, 0);
	EXPECT_EQ(lost, 0);
	EXPECT_EQ(pending, 0);
}

/* 4 NOPs through an SQPOLL ring: its kernel thread submits them. */
static void sqpoll_nops(const char *unused)
{
	struct io_uring_params p = { .flags = IORING_SETUP_SQPOLL,
				     .sq_thread_idle = 1000 };
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int i, ret;

	(void)unused;
	ret = io_uring_queue_init_params(8, &ring, &p);
	if (ret) {
		TH_LOG("SQPOLL ring: %s", strerror(-ret));
		ASSERT_EQ(ret, 0);
	}
	for (i = 0; i < 4; i++) {
		io_uring_prep_nop(sqe_of(&ring));
		ASSERT_EQ(io_uring_submit(&ring), 1);
		ASSERT_EQ(io_uring_wait_cqe(&ring, &cqe), 0);
		ASSERT_EQ(cqe->res, 0);
		io_uring_cqe_seen(&ring, cqe);
	}
	io_uring_queue_exit(&ring);
}

TEST(sqpoll_counts_for_its_process)
{
	uint64_t lost = 1, pending = 1;
	struct seen s;

	trace_self(true, sqpoll_nops, NULL, &s, &lost, &pending);
	EXPECT_EQ(s.op[IORING_OP_NOP].calls, 4);
	EXPECT_EQ(s.ring_rows, 1);
	EXPECT_EQ(lost, 0);
	EXPECT_EQ(pending, 0);
}

TEST_HARNESS_MAIN
