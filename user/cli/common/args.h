/* SPDX-License-Identifier: MIT */
/*
 * The command line: strict parsing of option values, and the one voice in
 * which every subcommand reports a mistake in it:
 *
 *   wsc SUB: WHAT IS WRONG
 *   Try 'wsc SUB --help'.
 *
 * on stderr, no help text after it, exit status 2 (EXIT_USAGE).  Each kind
 * of mistake has one wording, whichever command or option it is in:
 *
 *   unknown option '--bogus'           option '-n' needs a value
 *   option '--json' takes no value     unexpected argument 'x'
 *   --iters: '10x' is not a whole number
 *   --iters: 0 is out of range 1..10000000
 */
#ifndef WSC_CLI_ARGS_H
#define WSC_CLI_ARGS_H

#include <stdint.h>

/*
 * Exit codes (wsc(8), EXIT STATUS): 0 success; 1 the work failed,
 * including a file the system refuses to let us write; 2 the command line
 * was wrong (EXIT_USAGE).
 */
#define EXIT_USAGE	2

/* Print @cmd's usage error in the form above; returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * getopt_long() returned '?' or ':' (@c): say which option was wrong.
 * The option string must start with ':' (after a '+', if any), and opterr
 * be 0, so that getopt itself prints nothing.  Returns EXIT_USAGE.
 */
int usage_getopt(const char *cmd, int c, char **argv);

/*
 * The values: 0, or the usage error printed and EXIT_USAGE.  @opt is the
 * option's name as the messages give it ("--iters").
 */
int parse_u64(const char *cmd, const char *opt, const char *s, uint64_t min,
	      uint64_t max, uint64_t *out);
/* A CPU this machine has (whether online is the caller's to check). */
int parse_cpu(const char *cmd, const char *opt, const char *s, int *cpu);
/* "A[,B...]": at most @max CPUs, each one parse_cpu() takes. */
int parse_cpu_list(const char *cmd, const char *opt, const char *s, int *cpus,
		   unsigned int max, unsigned int *n);

#endif /* WSC_CLI_ARGS_H */
