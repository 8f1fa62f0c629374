// SPDX-License-Identifier: GPL-2.0
/*
 * submit-cost [OPENS]: what a submission costs, open by open.
 *
 * For each of OPENS fresh descriptors of /dev/wsc (default 16), 300
 * times: 8 submissions of 64 no-ops, 64 submissions of one no-op and 64
 * ioctls that do nothing (an unknown command, answered -ENOTTY after the
 * kernel's whole ioctl path), each group timed as a block.  Prints one
 * line per open: the medians of ns per call at 64, ns per one-entry
 * submission, ns per do-nothing ioctl.  Each open gets a new buffer in
 * the module, so the lines show how much where that buffer lands moves
 * the figures (Documentation/results/bench-null.md, "The fixed cost").
 *
 * A benchmark, not a test: run it in the VM with wsc.ko loaded,
 *   cc -O2 -Iinclude/uapi -o build/workloads/submit-cost \
 *       tools/workloads/submit-cost.c && build/workloads/submit-cost
 * Exit status 0, 1 when a submission fails, 2 on bad usage.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/wsc.h>

#define SAMPLES		300
#define FLOOR_CMD	_IO(WSC_IOC_MAGIC, 0x7f)

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v)
{
	qsort(v, SAMPLES, sizeof(v[0]), cmp_double);
	return (v[SAMPLES / 2 - 1] + v[SAMPLES / 2]) / 2;
}

/* @n submissions of @s: 0, or -1 when one did not run whole. */
static int submit_n(int fd, struct wsc_submit *s, int n)
{
	int k;

	for (k = 0; k < n; k++)
		if (ioctl(fd, WSC_IOC_SUBMIT, s) != (int)s->count)
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static struct wsc_entry ent[64];
	static struct wsc_result res[64];
	static double b64[SAMPLES], b1[SAMPLES], floor_ns[SAMPLES];
	int opens = 16, o, i, k;
	uint64_t t0;

	if (argc > 2 || (argc == 2 && (opens = atoi(argv[1])) < 1)) {
		fprintf(stderr, "Usage: %s [OPENS]\n", argv[0]);
		return 2;
	}
	for (i = 0; i < 64; i++)
		ent[i].nr = WSC_NR_NOP;
	printf("# open: ns per call at 64 / ns per one-entry submission / ns per do-nothing ioctl\n");
	for (o = 0; o < opens; o++) {
		struct wsc_submit s64 = {
			.entries = (uintptr_t)ent,
			.results = (uintptr_t)res,
			.count = 64,
		};
		struct wsc_submit s1 = s64;
		int fd = open("/dev/wsc", O_RDWR | O_CLOEXEC);

		if (fd < 0) {
			perror("submit-cost: /dev/wsc");
			return 1;
		}
		s1.count = 1;
		for (i = 0; i < SAMPLES; i++) {
			t0 = now_ns();
			if (submit_n(fd, &s64, 8))
				goto failed;
			b64[i] = (now_ns() - t0) / 8.0 / 64;
			t0 = now_ns();
			if (submit_n(fd, &s1, 64))
				goto failed;
			b1[i] = (now_ns() - t0) / 64.0;
			t0 = now_ns();
			for (k = 0; k < 64; k++)
				ioctl(fd, FLOOR_CMD, 0);
			floor_ns[i] = (now_ns() - t0) / 64.0;
		}
		printf("%d: %.1f / %.0f / %.0f\n", o + 1, median(b64), median(b1),
		       median(floor_ns));
		close(fd);
	}
	return 0;

failed:
	perror("submit-cost: a submission did not run whole");
	return 1;
}
