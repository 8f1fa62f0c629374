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

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct option;

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
 * The long options several commands take, spelled once as wsc(8)'s
 * OPTIONS has them, for their getopt_long() tables: --json and --help
 * everywhere, --iters, --csv FILE, --rounds with its old name
 * --repetitions, --cpus with --cpu.  @c is what getopt_long() returns.
 */
#define OPT_JSON	{ "json", no_argument, NULL, 'j' }
#define OPT_HELP	{ "help", no_argument, NULL, 'h' }
#define OPT_ITERS(c)	{ "iters", required_argument, NULL, (c) }
#define OPT_CSV(c)	{ "csv", required_argument, NULL, (c) }
#define OPT_ROUNDS(c)	{ "rounds", required_argument, NULL, (c) }, \
			{ "repetitions", required_argument, NULL, (c) }
#define OPT_CPUS(c)	{ "cpus", required_argument, NULL, (c) }, \
			{ "cpu", required_argument, NULL, (c) }
#define OPT_END		{ NULL, 0, NULL, 0 }

/**
 * struct opt_set - an option that only sets a flag or keeps its value
 * @c:    getopt_long()'s value for it
 * @flag: set to true by an option without a value, or NULL
 * @arg:  given the option's value, or NULL
 *
 * A table of them ends with { 0 }.
 */
struct opt_set {
	int c;
	bool *flag;
	const char **arg;
};

/* @c's entry of @set applied: true; false when @set has none. */
bool opt_set_apply(const struct opt_set *set, int c, const char *arg);

/**
 * struct opt_parser - a command's getopt_long() loop, as opt_parse() runs it
 * @cmd:       "bench fit", for the messages
 * @shortopts: as getopt_long() takes them, starting with ':'
 * @longopts:  likewise
 * @set:       the options that only set a flag or keep their value
 * @usage:     -h and --help: the usage, to stdout
 * @value:     every other option: 0, or the exit code with the mistake
 *             said (its argument @ctx)
 * @ctx:       the command's own
 * @no_operands: the command takes none: one left is a mistake
 */
struct opt_parser {
	const char *cmd;
	const char *shortopts;
	const struct option *longopts;
	const struct opt_set *set;
	void (*usage)(FILE *f);
	int (*value)(void *ctx, int c, const char *arg);
	void *ctx;
	bool no_operands;
};

/*
 * Every option of @argv through @p: 0 when all were taken (optind at the
 * first operand), -1 after -h (done: exit 0), or the exit code of the
 * first mistake, said.
 */
int opt_parse(const struct opt_parser *p, int argc, char **argv);

/*
 * The values: 0, or the usage error printed and EXIT_USAGE.  @opt is the
 * option's name as the messages give it ("--iters").
 */
int parse_u64(const char *cmd, const char *opt, const char *s, uint64_t min,
	      uint64_t max, uint64_t *out);
/* The same into an unsigned int (@max fits one); @out is left alone on error. */
int parse_uint(const char *cmd, const char *opt, const char *s,
	       unsigned int min, unsigned int max, unsigned int *out);
/* A CPU this machine has (whether online is the caller's to check). */
int parse_cpu(const char *cmd, const char *opt, const char *s, int *cpu);
/* "A[,B...]": at most @max CPUs, each one parse_cpu() takes. */
int parse_cpu_list(const char *cmd, const char *opt, const char *s, int *cpus,
		   unsigned int max, unsigned int *n);

#endif /* WSC_CLI_ARGS_H */
