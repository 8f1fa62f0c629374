// SPDX-License-Identifier: GPL-2.0
/*
 * The trace's io_uring requests (kmod/trace_ring.c) through libwsc: a
 * process that traces itself hands known requests to a ring (5 NOPs, 3
 * READs of a file, 2 WRITEs to /dev/null, 1 OPENAT of a missing file)
 * and finds each counted exactly under its opcode, the failure under
 * ENOENT, latencies above 0, nothing lost or pending; an SQPOLL ring's
 * requests, submitted by its kernel thread, count for the process; a
 * trace without the ring flag has no ring row.  Then `wsc trace --ring`
 * of this program run with --requests: the same counts in its JSON
 * (ring rows marked "ring": true, their "op") and its --openmetrics file
 * (wsc_ring_* by opcode, not system calls), and a table that names them
 * ring:NOP ... within 100 columns.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

/*
 * The sample of --openmetrics's @text named @family whose labels end with
 * @labels ("op=\"NOP\"") has the value @value: "wsc_ring_requests_total{
 * target=...,op="NOP"} 5".
 */
static bool om_has(const char *text, const char *family, const char *labels,
		   const char *value)
{
	char tail[128];
	const char *p;

	snprintf(tail, sizeof(tail), ",%s} %s\n", labels, value);
	for (p = text; (p = strstr(p, family)); p++) {
		const char *eol = strchr(p, '\n');

		if ((p == text || p[-1] == '\n') && p[strlen(family)] == '{' &&
		    eol && (size_t)(eol + 1 - p) >= strlen(tail) &&
		    !strncmp(eol + 1 - strlen(tail), tail, strlen(tail)))
			return true;
	}
	return false;
}

/* "wsc trace --ring @opts -o @out -- this --requests @path": its status. */
static int wsc_trace_self(const char *opts, const char *out, const char *path)
{
	const char *wsc = getenv("WSC") ? getenv("WSC") : "build/wsc";
	char cmd[3 * PATH_MAX], self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0)
		return -1;
	self[n] = '\0';

	snprintf(cmd, sizeof(cmd), "%s trace --ring %s -o %s -- %s --requests %s",
		 wsc, opts, out, self, path);
	return system(cmd);
}

/* The JSON report's row named @name, or NULL. */
static struct json_object *json_row(struct json_object *doc, const char *name)
{
	struct json_object *rows, *row, *v;
	size_t i;

	if (!json_object_object_get_ex(doc, "syscalls", &rows))
		return NULL;
	for (i = 0; i < json_object_array_length(rows); i++) {
		row = json_object_array_get_idx(rows, i);
		if (json_object_object_get_ex(row, "name", &v) &&
		    !strcmp(json_object_get_string(v), name))
			return row;
	}
	return NULL;
}

static int64_t json_int(struct json_object *o, const char *key)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, key, &v) ?
	       json_object_get_int64(v) : -1;
}

TEST(cli_shows_ring_rows)
{
	static const struct { const char *name; int op, calls; } want[] = {
		{ "ring:NOP", IORING_OP_NOP, 5 },
		{ "ring:READ", IORING_OP_READ, 3 },
		{ "ring:WRITE", IORING_OP_WRITE, 2 },
		{ "ring:OPENAT", IORING_OP_OPENAT, 1 },
	};
	char path[64], out[96], om[96], opts[128], labels[32], value[16];
	char line[512], *text;
	long size;
	struct json_object *doc, *row, *v, *errnos;
	size_t i, n, widest = 0;
	bool named = false;
	FILE *f;

	make_file(path, sizeof(path));
	snprintf(out, sizeof(out), "%s.out", path);
	snprintf(om, sizeof(om), "%s.prom", path);
	snprintf(opts, sizeof(opts), "-j --openmetrics %s", om);
	ASSERT_EQ(wsc_trace_self(opts, out, path), 0);
	doc = json_object_from_file(out);
	ASSERT_TRUE(doc != NULL);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		row = json_row(doc, want[i].name);
		EXPECT_TRUE(row != NULL);
		EXPECT_EQ(json_int(row, "calls"), want[i].calls);
		EXPECT_EQ(json_int(row, "op"), want[i].op);
		EXPECT_TRUE(row && json_object_object_get_ex(row, "ring", &v) &&
			    json_object_get_boolean(v));
		EXPECT_GT(json_int(row, "max_ns"), 0);
	}
	row = json_row(doc, "ring:OPENAT");
	EXPECT_TRUE(row && json_object_object_get_ex(row, "errnos", &errnos) &&
		    json_int(errnos, "ENOENT") == 1);
	EXPECT_TRUE(json_object_object_get_ex(doc, "ring", &v) &&
		    json_int(v, "lost") == 0 && json_int(v, "pending") == 0);
	json_object_put(doc);

	/* The metrics: requests in families of their own, by opcode. */
	f = fopen(om, "r");
	ASSERT_TRUE(f != NULL);
	ASSERT_EQ(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	ASSERT_GT(size, 0);
	rewind(f);
	text = malloc((size_t)size + 1);
	ASSERT_TRUE(text != NULL);
	n = fread(text, 1, (size_t)size, f);
	text[n] = '\0';
	fclose(f);
	EXPECT_EQ(n, (size_t)size);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(labels, sizeof(labels), "op=\"%s\"", want[i].name + 5);
		snprintf(value, sizeof(value), "%d", want[i].calls);
		EXPECT_TRUE(om_has(text, "wsc_ring_requests_total", labels, value));
		EXPECT_TRUE(om_has(text, "wsc_ring_latency_seconds_count", labels, value));
	}
	EXPECT_TRUE(om_has(text, "wsc_ring_errors_total",
			   "op=\"OPENAT\",errno=\"ENOENT\"", "1"));
	EXPECT_TRUE(strstr(text, "syscall=\"ring:") == NULL);
	EXPECT_TRUE(strstr(text, "\n# EOF\n") != NULL);
	free(text);
	unlink(om);

	ASSERT_EQ(wsc_trace_self("", out, path), 0);
	f = fopen(out, "r");
	ASSERT_TRUE(f != NULL);
	/* The table's lines (the head names the command, however long). */
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		named |= !strncmp(line, "ring:READ ", 10);
		if (strncmp(line, "ring:", 5) && strncmp(line, "syscall ", 8) &&
		    strncmp(line, "total ", 6))
			continue;
		if (strlen(line) > widest)
			TH_LOG("%zu columns: %s", strlen(line), line);
		widest = strlen(line) > widest ? strlen(line) : widest;
	}
	fclose(f);
	EXPECT_TRUE(named);
	EXPECT_TRUE(widest <= 100);
	unlink(out);
	unlink(path);
}

/*
 * Run as wsc trace's command (--requests FILE): the known requests
 * alone, before the harness's main() sees the arguments.  glibc hands a
 * constructor main's arguments.
 */
__attribute__((constructor))
static void requests_only(int argc, char **argv, char **envp)
{
	(void)envp;
	if (argc == 3 && !strcmp(argv[1], "--requests")) {
		known_requests(argv[2]);
		exit(0);
	}
}

TEST_HARNESS_MAIN
