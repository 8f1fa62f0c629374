/* SPDX-License-Identifier: MIT */
/*
 * The wsc command: shared declarations of its subcommands.
 */
#ifndef WSC_CLI_H
#define WSC_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes: 0 success, 1 the work failed, 2 the command line was wrong. */
#define EXIT_USAGE	2

struct wsc_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

int cmd_info(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_klat(int argc, char **argv);

/* args.c: strict parsing; each prints what is wrong and returns -1. */
int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max,
	      uint64_t *out);
int parse_cpu(const char *opt, const char *s, int *cpu);
void usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* env.c: what a result was measured on (METHOD.md, rule 7). */
void env_print_json(FILE *f);

/* The whole command line, for the environment record. */
extern int cli_argc;
extern char **cli_argv;
void env_print_text(FILE *f);
bool env_perf_counters_available(void);

/* Pin the calling thread to one CPU. */
int pin_to_cpu(int cpu);

/**
 * struct csv_out - a --csv file being written (csv.c)
 * @f:    the open FILE.tmp, or NULL
 * @path: FILE
 * @tmp:  FILE.tmp
 *
 * csv_open() refuses an empty name, a directory, a path too long or an
 * unwritable one with a usage error (returns EXIT_USAGE); csv_commit()
 * renames FILE.tmp to FILE unless @failed (or closing fails) and returns
 * 0 or 1; csv_abort() removes FILE.tmp.  Both are no-ops without a file.
 */
struct csv_out {
	FILE *f;
	const char *path;
	char tmp[4096];
};

int csv_open(struct csv_out *c, const char *cmd, const char *path);
int csv_commit(struct csv_out *c, const char *cmd, int failed);
void csv_abort(struct csv_out *c);

/* Print a JSON string with the escapes it needs. */
void json_string(FILE *f, const char *s);

#endif /* WSC_CLI_H */
