// SPDX-License-Identifier: MIT
/*
 * wsc: batch and measure system calls.  A table of subcommands.
 */
#include <stdio.h>
#include <string.h>

#include "bench/cmd_bench.h"
#include "common/args.h"
#include "common/env.h"
#include "cp/cmd_cp.h"
#include "diff/cmd_diff.h"
#include "info/cmd_info.h"
#include "klat/cmd_klat.h"
#include "ls/cmd_ls.h"
#include "trace/cmd_trace.h"
#include "libwsc.h"

struct wsc_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

static const struct wsc_cmd wsc_cmds[] = {
	{ "info",  "show the loaded module's ABI, limits and allowlist", cmd_info },
	{ "bench", "time system calls: conventional, wrapped, io_uring", cmd_bench },
	{ "klat",  "the latency lab: the module's in-kernel experiments", cmd_klat },
	{ "cp",    "N cp transactions: the WSC paper's programs and ours", cmd_cp },
	{ "ls",    "list a folder with one wrapped entry of stat calls", cmd_ls },
	{ "trace", "per-syscall latency histograms of a command, process or cgroup", cmd_trace },
	{ "diff",  "compare two reports of trace or bench, past thresholds", cmd_diff },
};

#define WSC_NR_CMDS (sizeof(wsc_cmds) / sizeof(wsc_cmds[0]))

static void wsc_usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: wsc <command> [options]\n"
		   "       wsc <command> --help\n\n"
		   "Commands:\n");
	for (i = 0; i < WSC_NR_CMDS; i++)
		fprintf(f, "  %-10s %s\n", wsc_cmds[i].name, wsc_cmds[i].summary);
	fprintf(f, "\nOptions:\n"
		   "  -h, --help     show this help\n"
		   "  -V, --version  show the version\n");
}

/* The voice of args.h for wsc itself: the commands in one line, no help. */
static int wsc_usage_error(const char *what, const char *arg)
{
	size_t i;

	fprintf(stderr, "wsc: %s", what);
	if (arg)
		fprintf(stderr, " '%s'", arg);
	fprintf(stderr, " (commands:");
	for (i = 0; i < WSC_NR_CMDS; i++)
		fprintf(stderr, " %s", wsc_cmds[i].name);
	fprintf(stderr, ")\nTry 'wsc --help'.\n");
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	size_t i;

	/* The environment record keeps the command line as typed. */
	env_set_command(argc, argv);
	if (argc < 2)
		return wsc_usage_error("which command?", NULL);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		wsc_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("wsc %s (ABI %u)\n", wsc_version(), WSC_ABI_VERSION);
		return 0;
	}
	for (i = 0; i < WSC_NR_CMDS; i++) {
		if (!strcmp(argv[1], wsc_cmds[i].name))
			return wsc_cmds[i].run(argc - 1, argv + 1);
	}
	return wsc_usage_error(argv[1][0] == '-' ? "unknown option" :
			       "unknown command", argv[1]);
}
