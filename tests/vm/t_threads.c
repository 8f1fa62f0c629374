// SPDX-License-Identifier: GPL-2.0
/*
 * Eight threads submit at once on two vCPUs, some on their own descriptor
 * and some sharing one, while another thread reads /proc/syscall_lat in a
 * loop.  Every result must belong to the thread that asked.
 */
#include <pthread.h>
#include <sys/syscall.h>

#include "util.h"

enum { THREADS = 8, ROUNDS = 300, BATCH = 64 };

static int shared_fd;
static volatile int stop_reading;

static void *submitter(void *arg)
{
	long id = (long)arg;
	struct wsc_entry ent[BATCH];
	struct wsc_result res[BATCH];
	int fd = id % 2 ? shared_fd : wsc_test_open();
	pid_t tid = gettid();
	int r, i;

	for (r = 0; r < ROUNDS; r++) {
		int n = 1 + (r * 7 + (int)id) % BATCH;

		for (i = 0; i < n; i++)
			ent[i] = i % 3 ? ENT0(SYS_gettid) : NOP(id * 1000 + i);
		if (wsc_test_submit(fd, ent, res, n, r % 4 ? 0 : WSC_SUBMIT_TIMING,
				    NULL) != n)
			return (void *)1;
		for (i = 0; i < n; i++) {
			if (res[i].ret != (i % 3 ? tid : id * 1000 + i))
				return (void *)2;
		}
	}
	if (fd != shared_fd)
		close(fd);
	return NULL;
}

static void *proc_reader(void *arg)
{
	char buf[4096];
	long reads = 0;

	(void)arg;
	while (!stop_reading) {
		FILE *f = fopen("/proc/syscall_lat", "r");

		if (!f)
			return (void *)1;
		while (fread(buf, 1, sizeof(buf), f) > 0)
			;
		fclose(f);
		reads++;
	}
	return (void *)(long)(reads > 0 ? 0 : 3);
}

TEST(eight_threads_and_a_proc_reader)
{
	pthread_t t[THREADS], reader;
	void *ret;
	long i;

	shared_fd = wsc_test_open();
	ASSERT_EQ(pthread_create(&reader, NULL, proc_reader, NULL), 0);
	for (i = 0; i < THREADS; i++)
		ASSERT_EQ(pthread_create(&t[i], NULL, submitter, (void *)i), 0);
	for (i = 0; i < THREADS; i++) {
		ASSERT_EQ(pthread_join(t[i], &ret), 0);
		EXPECT_EQ((long)ret, 0);
	}
	stop_reading = 1;
	ASSERT_EQ(pthread_join(reader, &ret), 0);
	EXPECT_EQ((long)ret, 0);
}

TEST_HARNESS_MAIN
