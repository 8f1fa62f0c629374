// SPDX-License-Identifier: MIT
/*
 * The allowlist as this library knows it: the list the module was built
 * from (include/wsc_calls.h), so that the conventional fallback refuses
 * exactly what the module refuses.
 */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>

#include "internal.h"
#include "wsc_calls.h"

struct wsc_call_row {
	unsigned int nr;
	const char *name;
};

#define WSC_CALL_ROW(_name, _group, _flags) { SYS_##_name, #_name },

static const struct wsc_call_row wsc_rows[] = {
	{ WSC_NR_NOP, "nop" },
	WSC_FOR_EACH_CALL(WSC_CALL_ROW)
};

#define WSC_NR_ROWS (sizeof(wsc_rows) / sizeof(wsc_rows[0]))

static const char *const wsc_groups[WSC_GROUP_COUNT] = WSC_GROUP_NAMES;

const char *wsc_call_name(unsigned int nr)
{
	size_t i;

	for (i = 0; i < WSC_NR_ROWS; i++) {
		if (wsc_rows[i].nr == nr)
			return wsc_rows[i].name;
	}
	return NULL;
}

#define WSC_CALL_CASE(_name, _group, _flags) case SYS_##_name:

/* Called for every queued entry: a switch, not a search. */
bool wsc_call_allowed(unsigned int nr)
{
	switch (nr) {
	case WSC_NR_NOP:
	WSC_FOR_EACH_CALL(WSC_CALL_CASE)
		return true;
	default:
		return false;
	}
}

int wsc_call_number(const char *name)
{
	size_t i;

	for (i = 0; i < WSC_NR_ROWS; i++) {
		if (!strcmp(wsc_rows[i].name, name))
			return (int)wsc_rows[i].nr;
	}
	return -ENOENT;
}

const char *wsc_group_name(unsigned int group)
{
	return group < WSC_GROUP_COUNT ? wsc_groups[group] : "?";
}

const char *wsc_version(void)
{
	return WSC_VERSION;
}
