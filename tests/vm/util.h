/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the VM tests: raw submissions to /dev/wsc, bypassing libwsc
 * so that the module's own checks are what is tested.
 */
#ifndef WSC_TEST_UTIL_H
#define WSC_TEST_UTIL_H

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/wsc.h>

#include "harness.h"

/* Open /dev/wsc or fail the test: every VM test runs with wsc.ko loaded. */
static inline int wsc_test_open(void)
{
	int fd = open("/dev/wsc", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		printf("# open /dev/wsc: %s (is wsc.ko loaded?)\n", strerror(errno));
		_exit(1);
	}
	return fd;
}

static inline struct wsc_entry wsc_ent(uint32_t nr, uint64_t a0, uint64_t a1,
				       uint64_t a2, uint64_t a3, uint64_t a4,
				       uint64_t a5)
{
	struct wsc_entry e = { .nr = nr, .args = { a0, a1, a2, a3, a4, a5 } };

	return e;
}

#define ENT0(nr)			wsc_ent(nr, 0, 0, 0, 0, 0, 0)
#define ENT1(nr, a)			wsc_ent(nr, (uint64_t)(a), 0, 0, 0, 0, 0)
#define ENT2(nr, a, b)			wsc_ent(nr, (uint64_t)(a), (uint64_t)(b), 0, 0, 0, 0)
#define ENT3(nr, a, b, c)		wsc_ent(nr, (uint64_t)(a), (uint64_t)(b), (uint64_t)(c), 0, 0, 0)
#define ENT4(nr, a, b, c, d)		wsc_ent(nr, (uint64_t)(a), (uint64_t)(b), (uint64_t)(c), (uint64_t)(d), 0, 0)
#define NOP(value)			ENT1(WSC_NR_NOP, (int64_t)(value))

/*
 * Submit @count entries; returns the ioctl's result or -errno, and the
 * error index the module reported (WSC_NO_INDEX if none).
 */
static inline int wsc_test_submit(int fd, struct wsc_entry *ent,
				  struct wsc_result *res, uint32_t count,
				  uint32_t flags, uint32_t *error_index)
{
	struct wsc_submit s = {
		.entries = (uintptr_t)ent,
		.results = (uintptr_t)res,
		.count = count,
		.flags = flags,
		.error_index = WSC_NO_INDEX,
	};
	int ret = ioctl(fd, WSC_IOC_SUBMIT, &s);

	if (error_index)
		*error_index = s.error_index;
	return ret < 0 ? -errno : ret;
}

/* WSC_IOC_POLICY's refusal bits for the calling thread; ~0u on error. */
static inline uint32_t policy_refused(int fd)
{
	struct wsc_policy p;

	memset(&p, 0xff, sizeof(p));
	if (ioctl(fd, WSC_IOC_POLICY, &p))
		return ~0u;
	return p.refused;
}

/*
 * Read the file @path with fscanf()'s @fmt into the pointers that follow:
 * the number of items read, or -1 if the file cannot be opened.
 */
__attribute__((format(scanf, 2, 3)))
static inline int scan_file(const char *path, const char *fmt, ...)
{
	va_list ap;
	FILE *f;
	int n;

	f = fopen(path, "re");
	if (!f)
		return -1;
	va_start(ap, fmt);
	n = vfscanf(f, fmt, ap);
	va_end(ap);
	fclose(f);
	return n;
}

/* Descriptors this process has open: the entries of /proc/self/fd. */
static inline int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	ASSERT_TRUE(d != NULL);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the one opendir() holds */
}

/* Write @value to the file @path (sysfs, cgroupfs): 0 or -errno. */
static inline int write_file(const char *path, const char *value)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	n = n < 0 ? -errno : 0;
	close(fd);
	return (int)n;
}

/*
 * Write @value to the module parameter @name (the administrator's switch,
 * /sys/module/wsc/parameters/): 0 or -errno.
 */
static inline int write_param(const char *name, const char *value)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/module/wsc/parameters/%s", name);
	return write_file(path, value);
}

#endif /* WSC_TEST_UTIL_H */
