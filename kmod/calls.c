// SPDX-License-Identifier: GPL-2.0
/*
 * The allowlist: which system calls may be wrapped.  The list itself,
 * and why a call is on it or not, is in include/wsc_calls.h, shared with
 * libwsc.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <asm/unistd.h>

#include "wsc.h"
#include <wsc_calls.h>

#define WSC_CALL_ROW(_name, _group, _flags)				\
	{ .nr = __NR_##_name, .name = #_name,				\
	  .group = WSC_GROUP_##_group, .flags = (_flags) },

/* Row WSC_SLOT_NOP is the no-op; the rest follow the shared list. */
const struct wsc_call wsc_calls[] = {
	[WSC_SLOT_NOP] = { .nr = WSC_NR_NOP, .name = "nop",
			   .group = WSC_GROUP_NONE },
	WSC_FOR_EACH_CALL(WSC_CALL_ROW)
};

const unsigned int wsc_nr_calls = ARRAY_SIZE(wsc_calls);

struct wsc_dispatch wsc_dispatch[NR_syscalls] __read_mostly;

static const char *const wsc_group_names[WSC_GROUP_COUNT] = WSC_GROUP_NAMES;

/**
 * wsc_calls_group_name() - short name of a group, as /proc and the CLI print it
 * @group: enum wsc_group
 */
const char *wsc_calls_group_name(unsigned int group)
{
	return group < WSC_GROUP_COUNT ? wsc_group_names[group] : "?";
}

/**
 * wsc_calls_init() - fill the dispatch table from the kernel's own handlers
 *
 * After wsc_symbols_init(), which found a handler for every listed call
 * or refused to load.
 *
 * Return: 0, or -EINVAL when a listed number is past this kernel's table.
 */
int wsc_calls_init(void)
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
