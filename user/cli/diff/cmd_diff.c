// SPDX-License-Identifier: MIT
/*
 * wsc diff: compare two runs, as diff(1) compares two files.
 *
 *   wsc diff [--threshold METRIC=LIMIT]... [--time cpu|wall|off] [--top N]
 *            [--json] BASE NEW
 *
 * Exit status 0: no regression past the thresholds; 1: a regression;
 * 2: trouble (a bad command line, a file that cannot be read or is no
 * wsc report, a trace against a bench).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_diff.h"
#include "common/args.h"
#include "diff.h"

/* diff(1)'s: the two files differ past the thresholds, or trouble. */
#define DIFF_EXIT_REGRESSION	1
#define DIFF_EXIT_TROUBLE	2

#define DIFF_MAX_TOP	100000

static void diff_usage(FILE *f)
{
	fprintf(f,
		"Usage: wsc diff [options] BASE NEW\n\n"
		"Compare two reports of the same kind, each a file (or - for standard\n"
		"input): wsc trace -j (per system call: calls, errors by errno, time on\n"
		"and off the CPU, p50, p99, and the totals), or wsc bench CALL --json (per\n"
		"variant: median, p99, refused samples; a folder of wsc bench --all too).\n"
		"Rows are matched by name; those past a threshold come first, then the\n"
		"others by how much the time compared changed, then the calls.  Reports of\n"
		"different targets, kernels or versions are compared all the same, and\n"
		"what differs is said first.\n\n"
		"      --threshold METRIC=LIMIT[,...]\n"
		"                   how much a row's (and the total's) figure may grow:\n"
		"                   METRIC calls, errors (each errno too), time, p50, p99;\n"
		"                   LIMIT N%% of the base's, a count (calls, errors), a time\n"
		"                   with its unit (ns, us, ms, s), or off; the same metric\n"
		"                   twice: both limits must be passed; none: no limit.\n"
		"                   Defaults: a trace calls=5%%,errors=0; a bench\n"
		"                   time=10%%,errors=0 (its time is the median)\n"
		"      --time cpu|wall|off\n"
		"                   the time a trace's rows compare and sort by (default:\n"
		"                   the base report's --time)\n"
		"      --top N      only the first N changed rows in the table\n"
		"  -j, --json       one JSON object: every row, the thresholds, the verdict\n"
		"  -h, --help       show this help\n\n"
		"Exit status: 0 no regression past the thresholds, 1 a regression, 2 trouble.\n");
}

struct diff_opts {
	struct diff_thresholds t;
	const char *time;
	bool json;
	unsigned int top;
};

enum { DIFF_OPT_THRESHOLD = 256, DIFF_OPT_TIME, DIFF_OPT_TOP };

static int diff_value_opt(void *ctx, int c, const char *arg)
{
	struct diff_opts *o = ctx;
	char why[160];

	switch (c) {
	case DIFF_OPT_THRESHOLD:
		if (diff_threshold_parse(&o->t, arg, why, sizeof(why)))
			return usage_error("diff", "--threshold %s", why);
		return 0;
	case DIFF_OPT_TIME:
		if (diff_time_value(arg) < 0)
			return usage_error("diff", "--time: '%s' is not cpu, wall or off", arg);
		o->time = arg;
		return 0;
	case DIFF_OPT_TOP:
		return parse_uint("diff", "--top", arg, 1, DIFF_MAX_TOP, &o->top);
	}
	return EXIT_USAGE;
}

/* A file that is no report: what went wrong and how to make one. */
static int trouble(const char *path, const char *why)
{
	fprintf(stderr, "wsc diff: %s: %s\n", path, why);
	fprintf(stderr, "Make reports with 'wsc trace -j -o FILE -- CMD' or 'wsc bench CALL --json > FILE'.\n");
	return DIFF_EXIT_TROUBLE;
}

static const char *kind_name(enum diff_kind k)
{
	return k == DIFF_TRACE ? "a trace report" : "a bench report";
}

static int diff_run(struct diff_opts *o, const char *base_path,
		    const char *new_path)
{
	struct diff_report base, now;
	struct diff_result res = { NULL };
	struct diff_view view = { .top = o->top, .thresholds = &o->t };
	enum diff_value tv;
	char why[320];
	int ret = DIFF_EXIT_TROUBLE;

	if (diff_load(&base, base_path, why, sizeof(why))) {
		diff_report_free(&base);
		return trouble(base_path, why);
	}
	if (diff_load(&now, new_path, why, sizeof(why))) {
		ret = trouble(new_path, why);
		goto free_base;
	}
	if (base.kind != now.kind) {
		fprintf(stderr, "wsc diff: %s is %s, %s %s: they cannot be compared\n",
			base_path, kind_name(base.kind), new_path, kind_name(now.kind));
		fprintf(stderr, "Compare two traces, or two bench reports of the same calls.\n");
		goto free_now;
	}
	if (o->time && base.kind != DIFF_TRACE) {
		ret = usage_error("diff", "--time goes with trace reports (a bench compares its median)");
		goto free_now;
	}
	diff_threshold_defaults(&o->t, base.kind);
	tv = base.kind == DIFF_BENCH ? DIFF_V_WALL :
	     (enum diff_value)diff_time_value(o->time ? o->time : base.time);
	if ((int)tv < 0)
		tv = DIFF_V_ON;
	if (diff_compare(&res, &base, &now, &o->t, tv)) {
		fprintf(stderr, "wsc diff: out of memory\n");
		goto free_now;
	}
	if (o->json)
		diff_print_json(stdout, &base, &now, &res, &view);
	else
		diff_print_table(stdout, &base, &now, &res, &view);
	ret = res.regressions ? DIFF_EXIT_REGRESSION : 0;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "wsc diff: cannot write the report\n");
		ret = DIFF_EXIT_TROUBLE;
	}
	diff_result_free(&res);
free_now:
	diff_report_free(&now);
free_base:
	diff_report_free(&base);
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threshold", required_argument, NULL, DIFF_OPT_THRESHOLD },
		{ "time",      required_argument, NULL, DIFF_OPT_TIME },
		{ "top",       required_argument, NULL, DIFF_OPT_TOP },
		OPT_JSON, OPT_HELP, OPT_END
	};
	struct diff_opts o = { .top = 0 };
	const struct opt_set set[] = {
		{ 'j', &o.json, NULL },
		{ 0 }
	};
	const struct opt_parser p = {
		.cmd = "diff", .shortopts = ":jh", .longopts = opts,
		.set = set, .usage = diff_usage, .value = diff_value_opt, .ctx = &o,
	};
	int ret = opt_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (argc - optind < 2)
		return usage_error("diff", argc == optind ? "which two reports? (BASE NEW)" :
				   "which report to compare '%s' with? (BASE NEW)",
				   argv[optind]);
	if (argc - optind > 2)
		return usage_error("diff", "two reports at a time: unexpected '%s'",
				   argv[optind + 2]);
	return diff_run(&o, argv[optind], argv[optind + 1]);
}
