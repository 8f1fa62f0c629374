/* SPDX-License-Identifier: MIT */
/*
 * The command line: strict parsing of option values, and the usage error
 * every subcommand prints the same way.
 */
#ifndef WSC_CLI_ARGS_H
#define WSC_CLI_ARGS_H

#include <stdint.h>

/* Exit codes: 0 success, 1 the work failed, 2 the command line was wrong. */
#define EXIT_USAGE	2

/* Each prints what is wrong and returns -1. */
int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
	      uint64_t *out);
int parse_cpu(const char *opt, const char *s, int *cpu);
/* "A[,B...]": at most @max CPUs, each in range (not checked online). */
int parse_cpu_list(const char *opt, const char *s, int *cpus,
		   unsigned int max, unsigned int *n);
/* Print "wsc CMD: ..." and the --help hint; returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* WSC_CLI_ARGS_H */
