/* SPDX-License-Identifier: MIT */
/*
 * What a result was measured on, recorded with every result so that a
 * number is never read without its machine (env.c).
 */
#ifndef WSC_CLI_ENV_H
#define WSC_CLI_ENV_H

#include <stdbool.h>
#include <stdio.h>

struct json_object;

/*
 * The whole command line as typed, for the record: main() passes it
 * before a subcommand's getopt_long() reorders argv.  Kept as a copy;
 * without it the record's "command" is empty.
 */
void env_set_command(int argc, char **argv);

void env_print_text(FILE *f);
/* The environment as a JSON object, for a result's "environment". */
struct json_object *env_json(void);
bool env_perf_counters_available(void);
/*
 * "note: ..." and a newline when the environment limits what the figures
 * mean (an emulator, a virtual machine, no hardware counters), nothing
 * otherwise: the same line from every measuring command, and the
 * environment's "note" key in JSON.
 */
void env_print_note(FILE *f);
bool env_preempt_rt(void);
bool env_module_version(char *buf, size_t len);

/* What the latency lab's spinlock experiments measure on a PREEMPT_RT kernel. */
#define ENV_RT_SPINLOCK_NOTE \
	"PREEMPT_RT: spinlock_t sleeps; the latency lab's spinlock experiments take it with interrupts on, and a contended sample includes the sleep"

#endif /* WSC_CLI_ENV_H */
