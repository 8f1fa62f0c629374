// SPDX-License-Identifier: MIT
/*
 * wsc trace --advise: the calibration file (Documentation/advise.md,
 * "The calibration file").  One per machine and kernel:
 *
 *   $WSC_CALIBRATION when set;
 *   else /var/lib/wsc/calibration/RELEASE.conf when /var/lib/wsc is
 *   writable or that file exists;
 *   else $XDG_CACHE_HOME/wsc/calibration/RELEASE.conf ($HOME/.cache
 *   when XDG_CACHE_HOME is unset).
 *
 * Text, key=value a line, '#' to the end of a line a comment, unknown
 * keys ignored, so that a later version can add some.  libwsc reads its
 * break_even (WSC_BATCH_BREAK_EVEN).  Written to a temporary file beside
 * it and renamed, so that no reader ever sees half of one.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "advise_calib.h"

#define CALIB_SYSTEM_DIR	"/var/lib/wsc"

int advise_calib_path(const char *release, char *buf, size_t len)
{
	const char *env = getenv("WSC_CALIBRATION");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && env[0])
		n = snprintf(buf, len, "%s", env);
	else {
		n = snprintf(buf, len, CALIB_SYSTEM_DIR "/calibration/%s.conf",
			     release);
		if (n >= 0 && (size_t)n < len &&
		    (!access(CALIB_SYSTEM_DIR, W_OK) || !access(buf, F_OK)))
			return 0;
		if (xdg && xdg[0])
			n = snprintf(buf, len, "%s/wsc/calibration/%s.conf",
				     xdg, release);
		else if (home && home[0])
			n = snprintf(buf, len, "%s/.cache/wsc/calibration/%s.conf",
				     home, release);
		else
			return -ENOENT;
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* @s without its blanks at both ends, in place. */
static char *strip(char *s)
{
	char *end;

	s += strspn(s, " \t");
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

/* A number of ns: finite, not negative, nothing after it. */
static int calib_ns(const char *v, double *out)
{
	char *end;
	double d;

	if (!v[0])
		return -EINVAL;
	d = strtod(v, &end);
	if (*end || !(d >= 0) || d > 1e12)
		return -EINVAL;
	*out = d;
	return 0;
}

static int calib_uint(const char *v, unsigned int *out)
{
	unsigned long n;
	char *end;

	if (v[0] < '0' || v[0] > '9')
		return -EINVAL;
	n = strtoul(v, &end, 10);
	if (*end || n > UINT_MAX)
		return -EINVAL;
	*out = (unsigned int)n;
	return 0;
}

/* Keys that must be there, as bits of what was seen. */
enum {
	SEEN_VERSION = 1 << 0, SEEN_KERNEL = 1 << 1, SEEN_MODULE = 1 << 2,
	SEEN_DATE = 1 << 3, SEEN_ENTRY = 1 << 4, SEEN_FIXED = 1 << 5,
	SEEN_PER_CALL = 1 << 6, SEEN_GAP_FLOOR = 1 << 7, SEEN_ALL = (1 << 8) - 1,
	SEEN_BREAK_EVEN = 1 << 8,
};

enum calib_type { CALIB_UINT, CALIB_NS, CALIB_TEXT };

/* A key, where its value goes in struct advise_calib, its seen bit. */
struct calib_field {
	const char *key;
	enum calib_type type;
	size_t off;
	size_t len;		/* CALIB_TEXT: the array's size */
	unsigned int seen;
};

#define CALIB_AT(member)	offsetof(struct advise_calib, member)
#define CALIB_TEXT_AT(member)	CALIB_AT(member), \
				sizeof(((struct advise_calib *)0)->member)

static const struct calib_field calib_fields[] = {
	{ "version", CALIB_UINT, CALIB_AT(version), 0, SEEN_VERSION },
	{ "kernel", CALIB_TEXT, CALIB_TEXT_AT(kernel), SEEN_KERNEL },
	{ "machine", CALIB_TEXT, CALIB_TEXT_AT(machine), 0 },
	{ "module", CALIB_TEXT, CALIB_TEXT_AT(module), SEEN_MODULE },
	{ "date", CALIB_TEXT, CALIB_TEXT_AT(date), SEEN_DATE },
	{ "rounds", CALIB_UINT, CALIB_AT(rounds), 0, 0 },
	{ "entry_ns", CALIB_NS, CALIB_AT(costs.entry_ns), 0, SEEN_ENTRY },
	{ "batch_fixed_ns", CALIB_NS, CALIB_AT(costs.batch_fixed_ns), 0,
	  SEEN_FIXED },
	{ "batch_per_call_ns", CALIB_NS, CALIB_AT(costs.batch_per_call_ns), 0,
	  SEEN_PER_CALL },
	{ "gap_floor_ns", CALIB_NS, CALIB_AT(gap_floor_ns), 0, SEEN_GAP_FLOOR },
	{ "break_even", CALIB_UINT, CALIB_AT(costs.break_even), 0,
	  SEEN_BREAK_EVEN },
};

/* One key's value into @c, its bit into @seen; unknown keys are skipped. */
static int calib_key(struct advise_calib *c, const char *k, const char *v,
		     unsigned int *seen)
{
	size_t i;

	for (i = 0; i < sizeof(calib_fields) / sizeof(calib_fields[0]); i++) {
		const struct calib_field *fl = &calib_fields[i];
		char *at = (char *)c + fl->off;

		if (strcmp(k, fl->key))
			continue;
		*seen |= fl->seen;
		if (fl->type == CALIB_UINT)
			return calib_uint(v, (unsigned int *)at);
		if (fl->type == CALIB_NS)
			return calib_ns(v, (double *)at);
		return (size_t)snprintf(at, fl->len, "%s", v) < fl->len ?
		       0 : -EINVAL;
	}
	return 0;
}

int advise_calib_parse(FILE *f, struct advise_calib *c)
{
	unsigned int seen = 0;
	char line[512];

	memset(c, 0, sizeof(*c));
	while (fgets(line, sizeof(line), f)) {
		char *eq, *s = line;

		s[strcspn(s, "#")] = '\0';
		s = strip(s);
		if (!s[0])
			continue;
		eq = strchr(s, '=');
		if (!eq)
			return -EINVAL;
		*eq = '\0';
		if (calib_key(c, strip(s), strip(eq + 1), &seen))
			return -EINVAL;
	}
	if ((seen & SEEN_ALL) != SEEN_ALL || c->version != ADVISE_CALIB_VERSION)
		return -EINVAL;
	/* The figures decide it; a file without it gets it from them. */
	if (!(seen & SEEN_BREAK_EVEN))
		c->costs.break_even = advise_break_even(c->costs.entry_ns,
							c->costs.batch_fixed_ns,
							c->costs.batch_per_call_ns);
	if (!c->machine[0])
		snprintf(c->machine, sizeof(c->machine), "unknown");
	return 0;
}

int advise_calib_load(const char *path, struct advise_calib *c)
{
	FILE *f = fopen(path, "re");
	int err;

	if (!f)
		return -errno;
	err = advise_calib_parse(f, c);
	fclose(f);
	if (!err)
		snprintf(c->path, sizeof(c->path), "%s", path);
	return err;
}

void advise_calib_format(FILE *f, const struct advise_calib *c)
{
	const struct advise_costs *x = &c->costs;

	fprintf(f,
		"# wsc calibration: what one kernel entry costs on this machine\n"
		"# written by wsc trace --advise (Documentation/advise.md); entry_ns:\n"
		"# a plain system call that does nothing (ENOSYS), entry to exit;\n"
		"# batch_fixed_ns and batch_per_call_ns: a wrapped batch of the no-op\n"
		"# (Theil-Sen line); break_even: the smallest batch that costs less\n"
		"# than its calls made plainly, 0 if none up to %u; gap_floor_ns\n"
		"# (wsc trace's own): two calls back to back as a trace sees them\n",
		ADVISE_BATCH_MAX);
	fprintf(f, "version=%u\nkernel=%s\nmachine=%s\nmodule=%s\ndate=%s\n"
		"rounds=%u\nentry_ns=%.1f\nbatch_fixed_ns=%.1f\n"
		"batch_per_call_ns=%.1f\nbreak_even=%u\ngap_floor_ns=%.1f\n",
		c->version, c->kernel, c->machine, c->module, c->date, c->rounds,
		x->entry_ns, x->batch_fixed_ns, x->batch_per_call_ns,
		x->break_even, c->gap_floor_ns);
}

/* mkdir -p of @path's folder. */
static int make_parents(const char *path)
{
	char dir[PATH_MAX];
	char *p;

	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return -ENAMETOOLONG;
	for (p = dir + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

int advise_calib_store(const struct advise_calib *c)
{
	char tmp[PATH_MAX];
	FILE *f;
	int err;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%d", c->path,
			     (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	err = make_parents(c->path);
	if (err)
		return err;
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	advise_calib_format(f, c);
	err = fflush(f) || fsync(fileno(f)) ? -errno : 0;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, c->path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
