/* SPDX-License-Identifier: GPL-2.0 */
/*
 * calls.c: the allowlist, the rows of include/wsc_calls.h as the module
 * keeps them.  Data only: the handlers are symbols.c's, the table the
 * batch loop dispatches by is dispatch.c's.
 */
#ifndef _WSC_CALLS_H
#define _WSC_CALLS_H

#include <linux/types.h>

/**
 * struct wsc_call - one allowlisted system call
 * @nr:    x86-64 system call number, or WSC_NR_NOP
 * @name:  name as in the syscall table, without the sys_ prefix
 * @group: enum wsc_group
 * @flags: WSC_CALL_* flags
 */
struct wsc_call {
	unsigned int nr;
	const char *name;
	u8 group;
	u8 flags;
};

/* The row of the no-op, in wsc_calls[] and in the statistics. */
#define WSC_SLOT_NOP		0

extern const struct wsc_call wsc_calls[];
extern const unsigned int wsc_nr_calls;

const char *wsc_calls_group_name(unsigned int group);

#endif /* _WSC_CALLS_H */
