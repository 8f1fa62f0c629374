// SPDX-License-Identifier: MIT
/*
 * Command-line parsing helpers: numbers are checked whole and in range.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "wsc %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'wsc %s --help'.\n", cmd);
	return EXIT_USAGE;
}

int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
	      uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull accepts "-1" and leading blanks: refuse both. */
	if (!s || !isdigit((unsigned char)s[0])) {
		fprintf(stderr, "%s: '%s' is not a non-negative integer\n",
			opt, s ? s : "");
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end) {
		fprintf(stderr, "%s: '%s' is not a valid number\n", opt, s);
		return -1;
	}
	if (v < min || v > max) {
		fprintf(stderr, "%s: %llu is out of range [%" PRIu64 ", %" PRIu64 "]\n",
			opt, v, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_cpu(const char *opt, const char *s, int *cpu)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t v;

	if (parse_u64(opt, s, 0, ncpu > 0 ? (uint64_t)ncpu - 1 : 0, &v))
		return -1;
	*cpu = (int)v;
	return 0;
}

int parse_cpu_list(const char *opt, const char *s, int *cpus,
		   unsigned int max, unsigned int *n)
{
	char buf[64], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf) || !s[0] || s[0] == ',' ||
	    s[strlen(s) - 1] == ',' || strstr(s, ",,")) {
		fprintf(stderr, "%s: '%s' is not a CPU list\n", opt, s);
		return -1;
	}
	strcpy(buf, s);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == max) {
			fprintf(stderr, "%s: at most %u CPU%s\n", opt, max,
				max == 1 ? "" : "s");
			return -1;
		}
		if (parse_cpu(opt, tok, &cpus[*n]))
			return -1;
		(*n)++;
	}
	return 0;
}
