// SPDX-License-Identifier: GPL-2.0
/*
 * The table the batch loop runs calls by: for each system call number,
 * the kernel's own handler (found at load by symbols.c) and the call's
 * row in the allowlist (calls.c) and in the statistics.
 */
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#include "wsc.h"
#include "calls.h"
#include "dispatch.h"
#include "symbols.h"

struct wsc_dispatch wsc_dispatch[NR_syscalls] __read_mostly;

/**
 * wsc_dispatch_init() - fill the dispatch table from the kernel's own
 * handlers
 *
 * After wsc_symbols_init(), which found a handler for every listed call
 * or refused to load.
 *
 * Return: 0, or -EINVAL when a listed number is past this kernel's table.
 */
int wsc_dispatch_init(void)
{
	unsigned int i;

	for (i = 0; i < wsc_nr_calls; i++) {
		const struct wsc_call *c = &wsc_calls[i];

		if (i == WSC_SLOT_NOP)
			continue;
		if (WARN_ON_ONCE(c->nr >= NR_syscalls ||
				 !wsc_syscall_handler(c->nr)))
			return -EINVAL;
		wsc_dispatch[c->nr].fn = wsc_syscall_handler(c->nr);
		wsc_dispatch[c->nr].slot = i;
	}
	return 0;
}
