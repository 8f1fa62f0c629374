// SPDX-License-Identifier: MIT
/*
 * The machine's calibration as `wsc trace --advise` stores it: what one
 * kernel entry costs here, and from it the break-even, the smallest
 * batch that a wrapped submission makes cheaper than plain calls.  The
 * library needs only the break-even (WSC_BATCH_BREAK_EVEN), read once
 * per process: a calibration is redone on demand, not while a program
 * runs.  Documentation/advise.md describes the file.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "calibration.h"

/* A calibration file is a dozen short lines; more is not one. */
#define WSC_CALIBRATION_MAX_BYTES	16384

/* Leading and trailing blanks off @s, in place. */
static char *wsc_cal_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\r'))
		end--;
	*end = '\0';
	return s;
}

/* A decimal unsigned value and nothing else, at most @max. */
static int wsc_cal_uint(const char *s, unsigned int max, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/*
 * One line: a comment, a blank, or key=value with an optional trailing
 * comment.  Keys the library does not use are skipped, known keys with a
 * bad value make the whole file bad: a half-understood calibration must
 * not steer batches.
 */
static int wsc_cal_line(char *line, struct wsc_calibration *cal)
{
	char *hash = strchr(line, '#');
	char *eq, *key, *value;

	if (hash)
		*hash = '\0';
	line = wsc_cal_trim(line);
	if (!*line)
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		return -EINVAL;
	*eq = '\0';
	key = wsc_cal_trim(line);
	value = wsc_cal_trim(eq + 1);
	if (!strcmp(key, "version"))
		return wsc_cal_uint(value, UINT_MAX, &cal->version);
	if (!strcmp(key, "break_even")) {
		cal->has_break_even = true;
		return wsc_cal_uint(value, WSC_CALIBRATION_MAX_N,
				    &cal->break_even);
	}
	return 0;
}

int wsc_calibration_parse(const char *text, struct wsc_calibration *cal)
{
	char *copy, *line, *next;
	int ret = 0;

	memset(cal, 0, sizeof(*cal));
	copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	for (line = copy; line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ret = wsc_cal_line(line, cal);
	}
	free(copy);
	if (ret)
		return ret;
	/* Another version's meaning is unknown; none is not a calibration. */
	if (cal->version != WSC_CALIBRATION_VERSION || !cal->has_break_even)
		return -EINVAL;
	return 0;
}

int wsc_calibration_path(char *buf, size_t len)
{
	const char *env = getenv("WSC_CALIBRATION");
	const char *base;
	struct utsname u;
	int n;

	if (env && *env) {
		n = snprintf(buf, len, "%s", env);
		return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
	}
	if (uname(&u))
		return -errno;
	/*
	 * As the writer chooses: the system's folder when a calibration is
	 * there or could be written there, else the user's cache.
	 */
	n = snprintf(buf, len, "%s/calibration/%s.conf", WSC_CALIBRATION_SYSTEM_DIR,
		     u.release);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	if (access(buf, F_OK) == 0 || access(WSC_CALIBRATION_SYSTEM_DIR, W_OK) == 0)
		return 0;
	base = getenv("XDG_CACHE_HOME");
	if (base && *base)
		n = snprintf(buf, len, "%s/wsc/calibration/%s.conf", base,
			     u.release);
	else if ((base = getenv("HOME")) && *base)
		n = snprintf(buf, len, "%s/.cache/wsc/calibration/%s.conf",
			     base, u.release);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int wsc_calibration_load(const char *path, struct wsc_calibration *cal)
{
	char *text;
	size_t got;
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	text = malloc(WSC_CALIBRATION_MAX_BYTES + 1);
	if (!text) {
		fclose(f);
		return -ENOMEM;
	}
	got = fread(text, 1, WSC_CALIBRATION_MAX_BYTES + 1, f);
	if (ferror(f))
		ret = -EIO;
	else if (got > WSC_CALIBRATION_MAX_BYTES)
		ret = -EFBIG;
	else {
		text[got] = '\0';
		ret = wsc_calibration_parse(text, cal);
	}
	free(text);
	fclose(f);
	return ret;
}

static pthread_once_t wsc_break_even_once = PTHREAD_ONCE_INIT;
static unsigned int wsc_break_even_value;

static void wsc_break_even_read(void)
{
	struct wsc_calibration cal;
	char path[PATH_MAX];

	if (wsc_calibration_path(path, sizeof(path)) ||
	    wsc_calibration_load(path, &cal))
		return;
	/* The file's 0: no batch up to the largest pays, so none does. */
	wsc_break_even_value = cal.break_even ? cal.break_even :
				WSC_BREAK_EVEN_NEVER;
}

unsigned int wsc_break_even(void)
{
	pthread_once(&wsc_break_even_once, wsc_break_even_read);
	return wsc_break_even_value;
}
