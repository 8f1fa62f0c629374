/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dispatch.c: the table the batch loop runs calls by, the allowlist
 * (calls.h) joined with the handlers found at load (symbols.h).
 */
#ifndef _WSC_DISPATCH_H
#define _WSC_DISPATCH_H

#include <linux/types.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

/*
 * What the batch loop needs per system call number, packed so that one
 * cache line covers four numbers.  @fn is NULL for a number that is not
 * allowed; @slot is the row in wsc_calls[] and in the statistics.
 */
struct wsc_dispatch {
	sys_call_ptr_t fn;
	u16 slot;
};

extern struct wsc_dispatch wsc_dispatch[NR_syscalls];

int wsc_dispatch_init(void);

#endif /* _WSC_DISPATCH_H */
