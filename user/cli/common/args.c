// SPDX-License-Identifier: MIT
/*
 * Command-line parsing helpers: numbers are checked whole and in range,
 * and every mistake is said in the one form of args.h.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
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

int usage_getopt(const char *cmd, int c, char **argv)
{
	/* glibc has stepped past the word it refused, whole or not. */
	const char *word = optind > 0 ? argv[optind - 1] : "";
	int len = (int)strcspn(word, "=");

	if (c == ':') {
		if (optopt && strncmp(word, "--", 2))
			return usage_error(cmd, "option '-%c' needs a value", optopt);
		return usage_error(cmd, "option '%.*s' needs a value", len, word);
	}
	if (!strncmp(word, "--", 2)) {
		/* A known long option given "=VALUE" it does not take. */
		if (optopt && word[len] == '=')
			return usage_error(cmd, "option '%.*s' takes no value",
					   len, word);
		return usage_error(cmd, "unknown option '%.*s'", len, word);
	}
	if (optopt && isprint(optopt))
		return usage_error(cmd, "unknown option '-%c'", optopt);
	return usage_error(cmd, "unknown option '%s'", word);
}

bool opt_set_apply(const struct opt_set *set, int c, const char *arg)
{
	for (; set && set->c; set++) {
		if (set->c != c)
			continue;
		if (set->flag)
			*set->flag = true;
		if (set->arg)
			*set->arg = arg;
		return true;
	}
	return false;
}

int opt_parse(const struct opt_parser *p, int argc, char **argv)
{
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, p->shortopts, p->longopts,
				NULL)) != -1) {
		if (opt_set_apply(p->set, c, optarg))
			continue;
		if (c == 'h') {
			p->usage(stdout);
			return -1;
		}
		if (c == '?' || c == ':')
			return usage_getopt(p->cmd, c, argv);
		ret = p->value ? p->value(p->ctx, c, optarg) :
				 usage_getopt(p->cmd, c, argv);
		if (ret)
			return ret;
	}
	if (p->no_operands && optind < argc)
		return usage_error(p->cmd, "unexpected argument '%s'",
				   argv[optind]);
	return 0;
}

int parse_u64(const char *cmd, const char *opt, const char *s, uint64_t min,
	      uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s)
		s = "";
	/* strtoull takes "-1", "+1" and leading blanks: only digits here. */
	if (!isdigit((unsigned char)s[0]))
		goto not_number;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		goto not_number;
	if (errno == ERANGE || v < min || v > max)
		return usage_error(cmd, "%s: %s is out of range %" PRIu64 "..%" PRIu64,
				   opt, s, min, max);
	*out = v;
	return 0;

not_number:
	return usage_error(cmd, "%s: '%s' is not a whole number", opt, s);
}

int parse_uint(const char *cmd, const char *opt, const char *s,
	       unsigned int min, unsigned int max, unsigned int *out)
{
	uint64_t v;
	int ret = parse_u64(cmd, opt, s, min, max, &v);

	if (!ret)
		*out = (unsigned int)v;
	return ret;
}

int parse_cpu(const char *cmd, const char *opt, const char *s, int *cpu)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	uint64_t v;
	int ret;

	ret = parse_u64(cmd, opt, s, 0, ncpu > 0 ? (uint64_t)ncpu - 1 : 0, &v);
	if (ret)
		return ret;
	*cpu = (int)v;
	return 0;
}

int parse_cpu_list(const char *cmd, const char *opt, const char *s, int *cpus,
		   unsigned int max, unsigned int *n)
{
	char buf[64], *tok, *save = NULL;
	int ret;

	if (strlen(s) >= sizeof(buf) || !s[0] || s[0] == ',' ||
	    s[strlen(s) - 1] == ',' || strstr(s, ",,"))
		return usage_error(cmd, "%s: '%s' is not a CPU list (A or A,B)",
				   opt, s);
	strcpy(buf, s);
	*n = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == max)
			return usage_error(cmd, "%s: at most %u CPU%s", opt, max,
					   max == 1 ? "" : "s");
		ret = parse_cpu(cmd, opt, tok, &cpus[*n]);
		if (ret)
			return ret;
		(*n)++;
	}
	return 0;
}
