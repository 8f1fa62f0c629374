// SPDX-License-Identifier: MIT
/*
 * /dev/wsc from userspace: opening it, asking what it offers, and the
 * native runner.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "internal.h"

/* The ABI's layout is fixed: the module checks the same. */
_Static_assert(sizeof(struct wsc_entry) == 56, "wsc_entry layout");
_Static_assert(sizeof(struct wsc_result) == 16, "wsc_result layout");
_Static_assert(sizeof(struct wsc_submit) == 32, "wsc_submit layout");
_Static_assert(sizeof(struct wsc_version) == 32, "wsc_version layout");
_Static_assert(sizeof(struct wsc_call_info) == 40, "wsc_call_info layout");
_Static_assert(sizeof(struct wsc_policy) == 32, "wsc_policy layout");

int wsc_device_open(void)
{
	const char *path = getenv("WSC_DEVICE");
	int fd;

	if (!path || !*path)
		path = "/dev/" WSC_DEVICE_NAME;
	fd = open(path, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int wsc_device_version(int fd, struct wsc_version *v)
{
	memset(v, 0, sizeof(*v));
	return ioctl(fd, WSC_IOC_VERSION, v) ? -errno : 0;
}

int wsc_device_policy(int fd, struct wsc_policy *p)
{
	memset(p, 0, sizeof(*p));
	return ioctl(fd, WSC_IOC_POLICY, p) ? -errno : 0;
}

int wsc_device_call_info(int fd, unsigned int index,
			 struct wsc_call_info *info)
{
	memset(info, 0, sizeof(*info));
	info->index = index;
	return ioctl(fd, WSC_IOC_CALL_INFO, info) ? -errno : 0;
}

int wsc_run_ioctl(void *ctx, const struct wsc_entry *ent,
		  struct wsc_result *res, uint32_t count, uint32_t flags,
		  uint32_t *error_index)
{
	struct wsc_batch *b = ctx;
	struct wsc_submit s = {
		.entries	= (uintptr_t)ent,
		.results	= (uintptr_t)res,
		.count		= count,
		.flags		= flags,
		.error_index	= WSC_NO_INDEX,
	};
	int ret;

	ret = ioctl(b->fd, WSC_IOC_SUBMIT, &s);
	if (ret < 0) {
		ret = -errno;
		*error_index = s.error_index;
		/* The reasons come with a refusal (0 from a module before 1.0). */
		if (ret == -EOPNOTSUPP)
			b->refusal_given = s.refused;
		return ret;
	}
	return ret;
}
