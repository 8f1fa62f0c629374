// SPDX-License-Identifier: GPL-2.0
/*
 * The cp example of README.md and wsc_prep_read(3), examples/cp.c, run
 * as its copy() function: a file several times its buffer arrives whole,
 * through /dev/wsc, and when an open, the read or the write fails, every
 * descriptor it opened is closed (issue 26: it copied 4096 bytes of any
 * file and left both descriptors open when the read or write failed).
 * Runs on the host too, where libwsc runs the calls plain.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "util.h"

int example_cp_main(int argc, char **argv);
#define main example_cp_main
#include "../../examples/cp.c"
#undef main

/* examples/cp.c's buffer. */
#define BUF	65536

/* Batches /dev/wsc has run: the first line of /proc/syscall_lat. */
static long long batches_run(void)
{
	long long n;

	return scan_file("/proc/syscall_lat", "# wsc: %lld batches", &n) == 1 ?
	       n : -1;
}

/* copy(@src, @dst) gives @result, and leaves no descriptor open. */
#define EXPECT_COPY(src, dst, result) do {				\
	int _fds = open_fds();						\
									\
	EXPECT_EQ(copy((src), (dst)), (result));			\
	EXPECT_EQ(open_fds(), _fds);					\
} while (0)

/* Each test (a process of its own) has its own folder. */
static char dir[] = "/tmp/wsc-example-cp-XXXXXX";

static const char *path(const char *name)
{
	static char paths[4][128];
	static bool made;
	static int next;
	char *p = paths[next++ % 4];

	if (!made) {
		ASSERT_TRUE(mkdtemp(dir) != NULL);
		made = true;
	}
	snprintf(p, sizeof(paths[0]), "%s/%s", dir, name);
	return p;
}

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT_EQ(system(cmd), 0);
}

static void put_file(const char *name, size_t size)
{
	FILE *f = fopen(path(name), "w");
	size_t i;

	ASSERT_TRUE(f != NULL);
	for (i = 0; i < size; i++)
		fputc((int)(i * 7 + i / 251) & 0xff, f);
	ASSERT_EQ(fclose(f), 0);
}

/* cmp(1) of two files: 0 when the same. */
static int cmp_files(const char *a, const char *b)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", a, b);
	return system(cmd);
}

TEST(copies_a_file_larger_than_its_buffer)
{
	/* Four buffers and a bit: five read-write entries, then EOF. */
	size_t size = 4 * BUF + 1234;
	long long before = batches_run();

	put_file("big", size);
	EXPECT_COPY(path("big"), path("big.copy"), (long long)size);
	EXPECT_EQ(cmp_files(path("big"), path("big.copy")), 0);
	if (access("/dev/wsc", F_OK) == 0) {
		/* Through the module: opens + first buffer, 4 more, closes. */
		ASSERT_GE(before, 0);
		EXPECT_GE(batches_run() - before, 6);
	}
	remove_dir();
}

TEST(copies_an_empty_file)
{
	put_file("empty", 0);
	EXPECT_COPY(path("empty"), path("empty.copy"), 0);
	EXPECT_EQ(cmp_files(path("empty"), path("empty.copy")), 0);
	remove_dir();
}

/* Each failure, where it happens: its errno, and nothing left open. */
TEST(a_failed_read_closes_both)
{
	/* A directory opens for reading; its read fails with EISDIR. */
	EXPECT_COPY("/", path("dir.copy"), -EISDIR);
	remove_dir();
}

TEST(a_failed_write_closes_both)
{
	put_file("small", 1000);
	EXPECT_COPY(path("small"), "/dev/full", -ENOSPC);
	remove_dir();
}

TEST(a_failed_write_after_the_first_buffer_closes_both)
{
	/* A file size limit of one buffer: the second write fails. */
	struct rlimit lim = { .rlim_cur = BUF, .rlim_max = RLIM_INFINITY };

	put_file("two", BUF + 10);
	signal(SIGXFSZ, SIG_IGN);
	ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
	EXPECT_COPY(path("two"), path("two.copy"), -EFBIG);
	remove_dir();
}

TEST(a_failed_open_closes_the_other)
{
	put_file("src", 10);
	EXPECT_COPY(path("src"), "/nonexistent/dir/copy", -ENOENT);
	EXPECT_COPY("/nonexistent/src", path("never"), -ENOENT);
	EXPECT_EQ(access(path("never"), F_OK), -1);
	remove_dir();
}

TEST(the_program_says_what_it_copied)
{
	char cmd[512], line[128] = "";
	FILE *f;

	put_file("prog", 3 * BUF);
	snprintf(cmd, sizeof(cmd), "build/examples/cp '%s' '%s'", path("prog"),
		 path("prog.copy"));
	f = popen(cmd, "r");
	ASSERT_TRUE(f != NULL);
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	EXPECT_EQ(pclose(f), 0);
	TH_LOG("%.*s", (int)strcspn(line, "\n"), line);
	EXPECT_EQ(strcmp(line, "copied 196608 bytes\n"), 0);
	EXPECT_EQ(cmp_files(path("prog"), path("prog.copy")), 0);
	snprintf(cmd, sizeof(cmd), "build/examples/cp / '%s' 2>/dev/null",
		 path("x"));
	EXPECT_EQ(WEXITSTATUS(system(cmd)), 1);
	remove_dir();
}

TEST_HARNESS_MAIN
