// SPDX-License-Identifier: MIT
/*
 * wsc trace: what the command line's filters and durations mean.
 *
 * -e LIST takes strace's habits: "trace=" before the list is ignored, a
 * leading '!' turns the list into everything but it, and %GROUP names a
 * group; the groups here are the Nature of System Calls paper's
 * (trace_names.c, Documentation/papers.md), not strace's classes
 * (strace's %file is the calls that take a file name).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace.h"

static void set_bit(uint64_t *calls, unsigned int nr)
{
	calls[nr / 64] |= (uint64_t)1 << (nr % 64);
}

int trace_group_calls(const char *name, uint64_t *calls)
{
	const char *group, *call;
	unsigned int nr;

	/* The names of include/wsc_calls.h's WSC_GROUP_NAMES, one spelling. */
	if (!strcmp(name, "userdata") ||
	    !strcmp(name, "file") || !strcmp(name, "memory") ||
		 !strcmp(name, "signal") || !strcmp(name, "ipc") ||
		 !strcmp(name, "locking") || !strcmp(name, "other"))
		group = name;
	else
		return -1;
	for (nr = 0; nr < WSC_TRACE_NR_MAX; nr++) {
		call = trace_syscall_name(nr);
		if (call && !strcmp(trace_syscall_group(call), group))
			set_bit(calls, nr);
	}
	return 0;
}

/* One item of a list: a name, a number, %group or "all". */
static int add_item(const char *item, uint64_t *calls)
{
	unsigned long v;
	char *end;
	int nr;

	if (item[0] == '%')
		return trace_group_calls(item + 1, calls);
	if (!strcmp(item, "all")) {
		memset(calls, 0xff, TRACE_CALL_WORDS * sizeof(*calls));
		return 0;
	}
	if (isdigit((unsigned char)item[0])) {
		errno = 0;
		v = strtoul(item, &end, 10);
		if (errno || *end || v >= WSC_TRACE_NR_MAX)
			return -1;
		set_bit(calls, (unsigned int)v);
		return 0;
	}
	nr = trace_syscall_nr(item);
	if (nr < 0 || nr >= WSC_TRACE_NR_MAX)
		return -1;
	set_bit(calls, (unsigned int)nr);
	return 0;
}

int trace_parse_calls(const char *list, uint64_t *calls, char *bad,
		      size_t bad_len)
{
	uint64_t these[TRACE_CALL_WORDS] = { 0 };
	const char *p, *end;
	char item[64];
	bool negate;
	size_t i, n;

	if (!strncmp(list, "trace=", 6))
		list += 6;
	negate = list[0] == '!';
	if (negate)
		list++;
	for (p = list; ; p = end + 1) {
		end = strchrnul(p, ',');
		n = (size_t)(end - p);
		if (!n || n >= sizeof(item)) {
			snprintf(bad, bad_len, "%.*s", (int)n, p);
			return -1;
		}
		memcpy(item, p, n);
		item[n] = '\0';
		if (add_item(item, these)) {
			snprintf(bad, bad_len, "%s", item);
			return -1;
		}
		if (!*end)
			break;
	}
	for (i = 0; i < TRACE_CALL_WORDS; i++)
		calls[i] |= negate ? ~these[i] : these[i];
	return 0;
}

int trace_parse_errno(const char *s, uint32_t *err)
{
	const char *name;
	unsigned long v;
	char *end;
	uint32_t e;

	if (isdigit((unsigned char)s[0])) {
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || *end || v < 1 || v > WSC_TRACE_ERRNO_MAX)
			return -1;
		*err = (uint32_t)v;
		return 0;
	}
	for (e = 1; e <= WSC_TRACE_ERRNO_MAX; e++) {
		name = strerrorname_np((int)e);
		if (name && !strcasecmp(name, s)) {
			*err = e;
			return 0;
		}
	}
	return -1;
}

int trace_parse_seconds(const char *s, double min_s, double max_s,
			uint64_t *ns)
{
	char *end;
	double v;

	/* strtod takes blanks, signs, "nan", "inf" and hex: digits or '.' only. */
	if (!isdigit((unsigned char)s[0]) && s[0] != '.')
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min_s || v > max_s)
		return -1;
	*ns = (uint64_t)llround(v * 1e9);
	return 0;
}
