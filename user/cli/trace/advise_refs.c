// SPDX-License-Identifier: MIT
/*
 * wsc trace --advise: the references a libwsc chain would carry
 * (wsc_entry_ref(3)).  A later call of a run takes an earlier call's
 * result when an argument in a descriptor's place equals a descriptor
 * the earlier call returned (openat's fd passed to read), or an argument
 * in a byte count's place equals the bytes a read-like call returned
 * (read's count passed to write).  The latest such earlier call is the
 * source: a descriptor closed and reopened in a run refers to its
 * reopening.  The source is looked for in the call's own batch (a run
 * of more than 1024 calls is several), as a chain carries none across.
 * Only these two kinds are looked for: any other equality
 * (a pid, a flag) would be chance.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "advise.h"

enum ref_kind { REF_NONE, REF_FD, REF_BYTES };

/* What @nr's result is, when a later call can take it. */
static enum ref_kind result_kind(unsigned int nr)
{
	switch (nr) {
	case SYS_open:
	case SYS_openat:
	case SYS_dup:
	case SYS_dup2:
	case SYS_dup3:
		return REF_FD;
	case SYS_read:
	case SYS_pread64:
	case SYS_readv:
	case SYS_recvfrom:
	case SYS_recvmsg:
		return REF_BYTES;
	}
	return REF_NONE;
}

/* What argument @arg of @nr is, when it can take an earlier result. */
static enum ref_kind arg_kind(unsigned int nr, unsigned int arg)
{
	switch (nr) {
	case SYS_read:
	case SYS_readv:
	case SYS_pread64:
	case SYS_recvfrom:
	case SYS_recvmsg:
	case SYS_sendmsg:
	case SYS_writev:
	case SYS_close:
	case SYS_lseek:
	case SYS_fstat:
	case SYS_newfstatat:
	case SYS_statx:
	case SYS_faccessat:
	case SYS_openat:
	case SYS_dup:
	case SYS_dup2:
	case SYS_dup3:
	case SYS_fcntl:
	case SYS_getdents64:
	case SYS_fsync:
	case SYS_fdatasync:
	case SYS_unlinkat:
	case SYS_mkdirat:
		return arg == 0 ? REF_FD : REF_NONE;
	case SYS_write:
	case SYS_pwrite64:
	case SYS_sendto:
		return arg == 0 ? REF_FD : arg == 2 ? REF_BYTES : REF_NONE;
	case SYS_renameat:
		return arg == 0 || arg == 2 ? REF_FD : REF_NONE;
	case SYS_mmap:
		return arg == 4 ? REF_FD : REF_NONE;
	}
	return REF_NONE;
}

/* Does @value, in a place of @kind, equal the result of @src? */
static bool takes(const struct wsc_trace_event *src, enum ref_kind kind,
		  uint64_t value)
{
	if (src->ret < 0 || result_kind(src->nr) != kind)
		return false;
	/* A descriptor is an int: the register's upper half is not its. */
	if (kind == REF_FD)
		return (uint32_t)value == (uint32_t)src->ret;
	return value == (uint64_t)src->ret;
}

static int ref_add(struct advise_ref **out, size_t *len, size_t *cap,
		   const struct advise_ref *ref)
{
	if (advise_grow(out, cap, *len + 1, sizeof(*ref), SIZE_MAX))
		return -ENOMEM;
	(*out)[(*len)++] = *ref;
	return 0;
}

int advise_run_refs(const struct wsc_trace_event *ev, size_t n,
		    struct advise_ref **out, size_t *len, size_t *cap)
{
	size_t call, src, first;
	unsigned int arg;

	for (call = 1; call < n; call++) {
		first = call - call % ADVISE_BATCH_MAX;
		for (arg = 0; arg < 6; arg++) {
			enum ref_kind kind = arg_kind(ev[call].nr, arg);
			struct advise_ref ref = { .call = (uint32_t)call,
						  .arg = (uint8_t)arg };

			if (kind == REF_NONE)
				continue;
			for (src = call; src-- > first;) {
				if (!takes(&ev[src], kind, ev[call].args[arg]))
					continue;
				ref.source = (uint32_t)src;
				if (ref_add(out, len, cap, &ref))
					return -ENOMEM;
				break;
			}
		}
	}
	return 0;
}
