// SPDX-License-Identifier: MIT
/*
 * The conventional runner: the same batch, one real system call per
 * entry, with the module's rules for validation, references, chains and
 * timing.  It is the fallback where /dev/wsc is absent and the baseline
 * of every comparison, so its results must equal the module's.
 */
#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "internal.h"

int wsc_validate(const struct wsc_entry *ent, uint32_t count,
		 uint32_t *error_index)
{
	uint32_t i, k;

	*error_index = WSC_NO_INDEX;
	if (count == 0)
		return -EINVAL;
	if (count > WSC_MAX_ENTRIES)
		return -E2BIG;
	for (i = 0; i < count; i++) {
		const struct wsc_entry *e = &ent[i];

		*error_index = i;
		if (e->reserved || (e->flags & ~WSC_ENTRY_ALL_FLAGS) ||
		    (e->ref_mask & ~WSC_ALL_ARGS_MASK))
			return -EINVAL;
		if (!wsc_call_allowed(e->nr))
			return -ENOSYS;
		for (k = 0; k < WSC_MAX_ARGS; k++) {
			if ((e->ref_mask & (1u << k)) && e->args[k] >= i)
				return -EINVAL;
		}
	}
	*error_index = WSC_NO_INDEX;
	return 0;
}

static uint64_t wsc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static int64_t wsc_call_conventional(uint32_t nr, const uint64_t a[])
{
	long ret;

	ret = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	return ret == -1 ? -errno : ret;
}

int wsc_run_conventional(void *ctx, const struct wsc_entry *ent,
			 struct wsc_result *res, uint32_t count,
			 uint32_t flags, uint32_t *error_index)
{
	bool stopped = false;
	uint32_t i, k;
	int ret;

	(void)ctx;
	if (flags & ~WSC_SUBMIT_ALL_FLAGS) {
		*error_index = WSC_NO_INDEX;
		return -EINVAL;
	}
	ret = wsc_validate(ent, count, error_index);
	if (ret)
		return ret;

	for (i = 0; i < count; i++) {
		const struct wsc_entry *e = &ent[i];
		uint64_t args[WSC_MAX_ARGS];
		uint64_t t0 = 0;
		int64_t r;

		res[i].duration_ns = 0;
		if (e->flags & WSC_ENTRY_NEW_CHAIN)
			stopped = false;
		if (stopped) {
			res[i].ret = -ECANCELED;
			continue;
		}
		r = 0;
		for (k = 0; k < WSC_MAX_ARGS; k++) {
			args[k] = e->args[k];
			if (!(e->ref_mask & (1u << k)))
				continue;
			args[k] = (uint64_t)res[e->args[k]].ret;
			if (wsc_failed(res[e->args[k]].ret))
				r = -ECANCELED;
		}
		if (r == 0 && e->nr == WSC_NR_NOP) {
			/* The no-op runs nothing: there is nothing to time. */
			r = (int64_t)args[0];
		} else if (r == 0) {
			if (flags & WSC_SUBMIT_TIMING)
				t0 = wsc_now_ns();
			r = wsc_call_conventional(e->nr, args);
			if (flags & WSC_SUBMIT_TIMING)
				res[i].duration_ns = wsc_now_ns() - t0;
		}
		res[i].ret = r;
		if (wsc_failed(r) && !(e->flags & WSC_ENTRY_IGNORE_FAILURE))
			stopped = true;
	}
	return count;
}
