// SPDX-License-Identifier: GPL-2.0
/*
 * The allowlist: which system calls may be wrapped.  The list itself,
 * and why a call is on it or not, is in include/wsc_calls.h, shared with
 * libwsc.  Data only, at the bottom of the module: symbols.c finds the
 * handlers of its calls, dispatch.c joins the two.
 */
#include <linux/kernel.h>
#include <asm/unistd.h>

#include <wsc_calls.h>

#include "wsc.h"
#include "calls.h"

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

static const char *const wsc_group_names[WSC_GROUP_COUNT] = WSC_GROUP_NAMES;

/**
 * wsc_calls_group_name() - short name of a group, as /proc and the CLI print it
 * @group: enum wsc_group
 */
const char *wsc_calls_group_name(unsigned int group)
{
	return group < WSC_GROUP_COUNT ? wsc_group_names[group] : "?";
}
