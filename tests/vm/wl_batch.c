// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for the syscall tracepoint tests (t_syscall_tp.sh): the same
 * four calls made through one wsc batch or made plainly, so that what a
 * tracer sees of the two can be compared line by line.
 *
 *   wl_batch wsc|plain PATH [N]
 *
 * N times (1 by default): openat(AT_FDCWD, PATH, O_WRONLY | O_CREAT |
 * O_TRUNC, 0600), write(fd, "wsc-tp\n", 7), close(fd), unlinkat(AT_FDCWD,
 * PATH, 0).  In a batch, write's and close's fd refer to openat's result.
 * Both modes open /dev/wsc first, so that the calls (and the fd numbers)
 * are the same apart from the ioctl.  The path and the data live in
 * static storage: under `setarch -R` their addresses are the same from
 * one run to the next, and a tracer prints the same arguments for both.
 * Prints each call's result; exits 0 when all four succeeded every time.
 *
 *   wl_batch sleep N MS
 *
 * One batch of N (1..64) nanosleep()s of MS milliseconds each, for the
 * trace's accounting (t_trace.sh): the batch's ioctl runs N * MS ms of
 * calls, which count under nanosleep and not again in the ioctl's time.
 *
 * Raw ioctls and syscall(2), no libwsc and no libc wrapper: nothing else
 * is called between the four.  AT_FDCWD goes as a long in both, so that
 * the register a tracer prints holds the same 64 bits.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <linux/wsc.h>

static char path[256];
static const char data[] = "wsc-tp\n";
#define DATA_LEN	(sizeof(data) - 1)

static const char *const names[4] = { "openat", "write", "close", "unlinkat" };

static void once_wsc(int dev, int64_t ret[4])
{
	struct wsc_entry ent[4] = {
		{ .nr = __NR_openat,
		  .args = { (uint64_t)AT_FDCWD, (uintptr_t)path,
			    O_WRONLY | O_CREAT | O_TRUNC, 0600 } },
		{ .nr = __NR_write, .ref_mask = 1,
		  .args = { 0, (uintptr_t)data, DATA_LEN } },
		{ .nr = __NR_close, .ref_mask = 1, .args = { 0 } },
		{ .nr = __NR_unlinkat,
		  .args = { (uint64_t)AT_FDCWD, (uintptr_t)path, 0 } },
	};
	struct wsc_result res[4] = { 0 };
	struct wsc_submit s = {
		.entries = (uintptr_t)ent,
		.results = (uintptr_t)res,
		.count = 4,
	};
	long done = ioctl(dev, WSC_IOC_SUBMIT, &s);
	int i;

	for (i = 0; i < 4; i++)
		ret[i] = i < done ? res[i].ret : -ECANCELED;
	if (done < 0)
		ret[0] = -errno;
}

static void once_plain(int64_t ret[4])
{
	long fd = syscall(__NR_openat, (long)AT_FDCWD, path,
			  O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ret[0] = fd < 0 ? -errno : fd;
	ret[1] = syscall(__NR_write, fd, data, DATA_LEN);
	ret[1] = ret[1] < 0 ? -errno : ret[1];
	ret[2] = syscall(__NR_close, fd) < 0 ? -errno : 0;
	ret[3] = syscall(__NR_unlinkat, (long)AT_FDCWD, path, 0) < 0 ? -errno : 0;
}

/* One batch of @n nanosleep()s of @ms each; 0 when all of them slept. */
static int sleep_batch(unsigned long n, unsigned long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (long)(ms % 1000) * 1000000 };
	struct wsc_entry ent[64] = { 0 };
	struct wsc_result res[64] = { 0 };
	struct wsc_submit s = {
		.entries = (uintptr_t)ent,
		.results = (uintptr_t)res,
		.count = (uint32_t)n,
	};
	unsigned long i;
	long done;
	int dev;

	dev = open("/dev/wsc", O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		fprintf(stderr, "wl_batch: /dev/wsc: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		ent[i].nr = __NR_nanosleep;
		ent[i].args[0] = (uintptr_t)&ts;
		/* Each its own chain: one sleep cut short cancels no other. */
		ent[i].flags = WSC_ENTRY_NEW_CHAIN;
	}
	done = ioctl(dev, WSC_IOC_SUBMIT, &s);
	close(dev);
	if (done != (long)n) {
		fprintf(stderr, "wl_batch: %ld of %lu sleeps ran: %s\n", done,
			n, done < 0 ? strerror(errno) : "a short batch");
		return 1;
	}
	for (i = 0; i < n; i++)
		if (res[i].ret)
			return 1;
	printf("nanosleep=%lu\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n = 1, k;
	int64_t ret[4];
	int dev, i, bad = 0;
	bool batch;

	if (argc == 4 && !strcmp(argv[1], "sleep")) {
		n = strtoul(argv[2], NULL, 10);
		if (n < 1 || n > 64) {
			fprintf(stderr, "wl_batch: sleep: N is 1..64\n");
			return 2;
		}
		return sleep_batch(n, strtoul(argv[3], NULL, 10));
	}
	if (argc < 3 || argc > 4 || strlen(argv[2]) >= sizeof(path) ||
	    (strcmp(argv[1], "wsc") && strcmp(argv[1], "plain"))) {
		fprintf(stderr, "usage: wl_batch wsc|plain PATH [N]\n"
			"       wl_batch sleep N MS\n");
		return 2;
	}
	batch = !strcmp(argv[1], "wsc");
	strcpy(path, argv[2]);
	if (argc == 4)
		n = strtoul(argv[3], NULL, 10);
	dev = open("/dev/wsc", O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		fprintf(stderr, "wl_batch: /dev/wsc: %s\n", strerror(errno));
		return 1;
	}
	for (k = 0; k < n; k++) {
		if (batch)
			once_wsc(dev, ret);
		else
			once_plain(ret);
		bad |= ret[0] < 0 || ret[1] != (int64_t)DATA_LEN || ret[2] ||
		       ret[3];
	}
	for (i = 0; i < 4; i++)
		printf("%s=%lld\n", names[i], (long long)ret[i]);
	close(dev);
	return bad;
}
