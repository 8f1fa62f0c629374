// SPDX-License-Identifier: MIT
/*
 * wsc klat: the module's latency lab.  Runs one in-kernel experiment
 * (include/wsc_experiments.h) over the "syscall_lat" netlink family and
 * reports the statistics of its raw samples, computed in the kernel by
 * the same code libwsc runs (wsc_summary.h): one table shape for every
 * experiment, raw and net of the clock's own cost (the clock is read
 * inside every sample, so its cost is in every raw figure), or one JSON
 * object; the raw samples as CSV on request.
 *
 *   wsc klat <experiment> [--iters N] [--cpus A[,B]] [--csv FILE] [--json]
 *   wsc klat show [<experiment>] [--json]
 *   wsc klat reset [<experiment>]
 *   wsc klat --list [--json]
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_klat.h"
#include "common/args.h"
#include "common/cpu.h"
#include "common/csv.h"
#include "common/env.h"
#include "common/help.h"
#include "common/interrupt.h"
#include "common/json.h"
#include "common/module_hint.h"
#include "common/report.h"
#include "libwsc.h"
#include "wsc_experiments.h"

struct klat_exp {
	const char *name;
	unsigned int roles;
	unsigned int flags;
	const char *what;
};

#define KLAT_ROW(id, n, r, f, w) [WSC_EXP_##id] = { n, r, f, w },
static const struct klat_exp klat_exps[WSC_NR_EXPERIMENTS] = {
	WSC_FOR_EACH_EXPERIMENT(KLAT_ROW)
};
#undef KLAT_ROW

enum klat_action { KLAT_RUN, KLAT_SHOW, KLAT_RESET, KLAT_LIST };

struct klat_opts {
	enum klat_action action;
	const struct klat_exp *exp;	/* NULL: every experiment */
	uint32_t iters;			/* 0: the kernel's default */
	uint32_t cpus[WSC_LAT_MAX_ROLES];
	unsigned int nr_cpus;
	bool json;
	const char *csv;
};

/*
 * The experiments, a line each (--list, which scripts read a line at a
 * time), or wrapped within the terminal's width under @indent (--help).
 */
static void klat_list(FILE *f, const char *indent)
{
	char head[64];
	unsigned int i;

	for (i = 0; i < WSC_NR_EXPERIMENTS; i++) {
		snprintf(head, sizeof(head), "%s%-19s %u ", indent,
			 klat_exps[i].name, klat_exps[i].roles);
		if (*indent)
			help_item(f, head, klat_exps[i].what);
		else
			fprintf(f, "%s %s\n", head, klat_exps[i].what);
	}
}

static void klat_usage(FILE *f)
{
	fprintf(f,
		"Usage: wsc klat <experiment> [--iters N] [--cpus A[,B]] [--csv FILE] [--json]\n"
		"       wsc klat show [<experiment>] [--json]\n"
		"       wsc klat reset [<experiment>]\n"
		"       wsc klat --list [--json]\n\n"
		"The latency lab: run one of the wsc module's in-kernel experiments and\n"
		"report the statistics of its raw samples in ns: count, mean, median,\n"
		"stddev (the standard deviation of the samples), min, max, ci95 (the\n"
		"mean +- 1.96 standard errors), p50, p95, p99.  Row \"raw\" is as\n"
		"measured; row \"net\" has the clock's median cost subtracted.  \"show\"\n"
		"prints results already taken (all of them without an experiment),\n"
		"\"reset\" forgets them.\n\n"
		"  -n, --iters N      samples to take, 1..%u (default %u)\n"
		"  -c, --cpus A[,B]   one CPU per role of the experiment (default: the\n"
		"                     first online CPUs)\n"
		"      --cpu A[,B]    the same as --cpus\n"
		"  -j, --json         print one JSON object instead of the table\n"
		"      --csv FILE     write the raw samples to FILE as \"index,ns\"\n"
		"  -l, --list         list the experiments\n"
		"  -h, --help         show this help\n\n"
		"Experiments (name, CPUs, what a sample is):\n",
		WSC_LAT_MAX_ITERATIONS, WSC_LAT_DEFAULT_ITERATIONS);
	klat_list(f, "  ");
	fprintf(f, "\nNeeds wsc.ko loaded; running and resetting need CAP_SYS_ADMIN.  Under\n"
		   "emulation the absolute times are emulated: compare within one machine.\n");
}

static const struct klat_exp *klat_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < WSC_NR_EXPERIMENTS; i++)
		if (!strcmp(name, klat_exps[i].name))
			return &klat_exps[i];
	return NULL;
}

/* "A" or "A,B": CPUs that exist; their number is checked later. */
static int klat_parse_cpus(const char *s, struct klat_opts *o)
{
	int cpus[WSC_LAT_MAX_ROLES], ret;
	unsigned int i;

	ret = parse_cpu_list("klat", "--cpus", s, cpus, WSC_LAT_MAX_ROLES,
			     &o->nr_cpus);
	if (ret)
		return ret;
	for (i = 0; i < o->nr_cpus; i++)
		o->cpus[i] = (uint32_t)cpus[i];
	return 0;
}

static int klat_check_cpus(const struct klat_opts *o)
{
	unsigned int i;

	if (!o->nr_cpus)
		return 0;
	if (o->nr_cpus != o->exp->roles)
		return usage_error("klat", "%s uses %u CPU%s, --cpus gave %u", o->exp->name,
				o->exp->roles, o->exp->roles == 1 ? "" : "s",
				o->nr_cpus);
	if (o->nr_cpus == 2 && o->cpus[0] == o->cpus[1])
		return usage_error("klat", "%s needs two different CPUs", o->exp->name);
	for (i = 0; i < o->nr_cpus; i++) {
		if (cpu_offline((int)o->cpus[i]))
			return usage_error("klat", "CPU %u is offline", o->cpus[i]);
	}
	return 0;
}

/* A kernel (or transport) failure: exit code 1 with the kernel's reason. */
static int klat_fail(struct wsc_lat *lat, const char *experiment, int err)
{
	const char *why = wsc_lat_error(lat);

	if (why[0])
		fprintf(stderr, "wsc klat: %s: %s\n", strerror(-err), why);
	else if (err == -ENODATA && experiment)
		fprintf(stderr, "wsc klat: %s: %s has no result (run it first)\n",
			strerror(-err), experiment);
	else if (err == -EPERM)
		fprintf(stderr, "wsc klat: %s: running and resetting need CAP_SYS_ADMIN\n",
			strerror(-err));
	else
		fprintf(stderr, "wsc klat: %s\n", strerror(-err));
	return 1;
}

static int klat_open(struct wsc_lat **lat)
{
	int ret = wsc_lat_open(lat);

	if (ret)
		module_report("klat", ret, true);
	return ret;
}

static void klat_print_cpus(FILE *f, const struct klat_exp *e,
			    const struct wsc_lat_stats *st)
{
	if (st->nr_cpus == 1) {
		fprintf(f, "# CPU: %u\n", st->cpu[0]);
	} else if (e && (e->flags & WSC_EXPF_WAKE)) {
		fprintf(f, "# CPUs: %u (waker), %u (woken, measured)\n",
			st->cpu[0], st->cpu[1]);
	} else {
		fprintf(f, "# CPUs: %u, %u (both measured)\n", st->cpu[0], st->cpu[1]);
	}
}

/*
 * An interrupted run, said the same way wherever the signal came: the
 * samples the kernel kept of those asked for, and why.  The kernel keeps
 * all of a run that had ended before the signal, and none of one the
 * signal stopped (kmod/lab.c): a run has no part to keep.
 */
static void klat_interrupt_words(FILE *f, const char *prefix, uint32_t kept,
				 uint32_t asked)
{
	interrupt_print(f, prefix, "%u of %u samples: %s", kept, asked,
			kept ? "the run had ended before the signal; its figures are whole" :
			"the run was stopped, and the kernel keeps none of a stopped run's samples");
}

static void klat_print_table(const struct wsc_lat_stats *st, bool ran,
			     bool signalled)
{
	const struct klat_exp *e = klat_find(st->experiment);
	struct report_row rows[2];

	printf("# wsc klat %s: %s\n", st->experiment, e ? e->what : "?");
	if (signalled)
		klat_interrupt_words(stdout, "# ", st->iterations, st->iterations);
	if (e && (e->flags & WSC_EXPF_SPINLOCK) && env_preempt_rt())
		printf("# note: %s\n", ENV_RT_SPINLOCK_NOTE);
	if (st->errors)
		printf("# WARNING: %llu of %u samples refused (negative): the figures are of the other %llu\n",
		       (unsigned long long)st->errors, st->iterations,
		       (unsigned long long)st->sum.count);
	printf("# run %llu (%s): %u iterations; figures in ns; stddev is the spread of the samples, ci95 the mean +- 1.96 standard errors\n",
	       (unsigned long long)st->run_id,
	       ran ? "just taken" : "kept from earlier", st->iterations);
	env_print_text(stdout);

	rows[0] = (struct report_row){ .label = "raw", .sum = &st->sum };
	rows[1] = (struct report_row){ .label = "net", .sum = &st->sum,
				       .off_ps = st->timer_ps };
	report_table(stdout, "row", rows, 2, NULL);

	printf("# net = raw minus the timer (the clock's median cost, below), floored at 0; stddev unchanged\n");
	printf("# errors: %llu samples refused (negative)", (unsigned long long)st->errors);
	if (st->sum.count + st->errors != st->iterations)
		printf("; %llu iterations unaccounted for",
		       (unsigned long long)(st->iterations - st->sum.count - st->errors));
	printf("\n");
	printf("# timer: " PS_FMT " ns, the median cost of a back-to-back ktime_get_ns() pair on the measuring CPU, this run\n",
	       PS_ARG(st->timer_ps));
	if (st->block_ops)
		printf("# block estimate: " PS_FMT " ns per operation, from blocks of %u operations timed together (clock not subtracted)\n",
		       PS_ARG(st->block_ps), st->block_ops);
	printf("# warm-up: %u iterations per CPU, discarded\n", st->warmup);
	klat_print_cpus(stdout, e, st);
	printf("# run id: %llu\n", (unsigned long long)st->run_id);
	printf("# duration: %llu.%03llu ms\n",
	       (unsigned long long)(st->duration_ns / 1000000),
	       (unsigned long long)(st->duration_ns / 1000 % 1000));
	env_print_note(stdout);
}

/* One result's figures, as an object; klat_print_json() adds to it. */
static struct json_object *klat_result_json(const struct wsc_lat_stats *st)
{
	const struct klat_exp *e = klat_find(st->experiment);
	struct json_object *o = json_object_new_object();
	struct json_object *cpus = json_object_new_array();
	unsigned int i;

	json_put(o, "experiment", json_new_str(st->experiment));
	json_put(o, "description", json_new_str(e ? e->what : ""));
	json_put(o, "iterations", json_new_u64(st->iterations));
	for (i = 0; i < st->nr_cpus; i++)
		json_object_array_add(cpus, json_new_u64(st->cpu[i]));
	json_put(o, "cpus", cpus);
	json_put(o, "warmup", json_new_u64(st->warmup));
	json_put(o, "count", json_new_u64(st->sum.count));
	json_put(o, "errors", json_new_u64(st->errors));
	report_put_figures(o, &st->sum, st->timer_ps);
	json_put(o, "block_ns", st->block_ops ?
		 json_new_ps_as_ns(st->block_ps) : NULL);
	json_put(o, "block_ops", st->block_ops ?
		 json_new_u64(st->block_ops) : NULL);
	json_put(o, "run_id", json_new_u64(st->run_id));
	json_put(o, "duration_ns", json_new_u64(st->duration_ns));
	return o;
}

/* A result: its samples are all there, the run having ended. */
static void klat_print_json(const struct wsc_lat_stats *st, bool signalled)
{
	struct json_object *o = klat_result_json(st);

	json_put(o, "iterations_done", json_new_u64(st->iterations));
	json_put(o, "interrupted", json_new_flag(signalled));
	json_put(o, "environment", env_json());
	json_emit_line(stdout, o);
	if (signalled)
		klat_interrupt_words(stderr, "wsc klat: ", st->iterations,
				     st->iterations);
}

/*
 * A run a signal stopped, or kept from starting: the kernel keeps none
 * of a stopped run's samples (kmod/lab.c), so what was measured is
 * nothing, and the report says that rather than nothing at all.
 */
static void klat_print_interrupted(const struct klat_opts *o, uint32_t asked)
{
	if (o->json) {
		struct json_object *j = json_object_new_object();

		json_put(j, "experiment", json_new_str(o->exp->name));
		json_put(j, "description", json_new_str(o->exp->what));
		json_put(j, "iterations", json_new_u64(asked));
		json_put(j, "iterations_done", json_new_u64(0));
		json_put(j, "count", json_new_u64(0));
		json_put(j, "interrupted", json_new_flag(true));
		json_put(j, "environment", env_json());
		json_emit_line(stdout, j);
		klat_interrupt_words(stderr, "wsc klat: ", 0, asked);
		return;
	}
	printf("# wsc klat %s: %s\n", o->exp->name, o->exp->what);
	klat_interrupt_words(stdout, "# ", 0, asked);
	env_print_note(stdout);
}

/* The samples dump into the CSV, kept too for a check against the result. */
struct klat_csv {
	FILE *f;
	uint64_t *copy;
	uint64_t cap;
	uint64_t rows;
};

static int klat_csv_row(void *ctx, uint64_t index, uint64_t ns)
{
	struct klat_csv *c = ctx;

	if (c->rows == c->cap)
		return -EOVERFLOW;	/* more samples than the result counts */
	c->copy[c->rows++] = ns;
	if (fprintf(c->f, "%llu,%llu\n", (unsigned long long)index,
		    (unsigned long long)ns) < 0)
		return -EIO;
	return 0;
}

/*
 * Write every raw sample of @st's experiment to @f.  The rows must be as
 * many as the result counts, and summarise to the same figures: else a
 * later run replaced the result, or something was lost.
 */
static int klat_write_csv(struct wsc_lat *lat, FILE *f, const char *path,
			  const struct wsc_lat_stats *st)
{
	struct klat_csv c = { .f = f, .cap = st->sum.count };
	struct wsc_summary again;
	int ret;

	c.copy = malloc((c.cap + 1) * sizeof(*c.copy));
	if (!c.copy) {
		fprintf(stderr, "wsc klat: no memory for %llu samples\n",
			(unsigned long long)c.cap);
		return 1;
	}
	fprintf(f, "index,ns\n");
	ret = wsc_lat_samples(lat, st->experiment, klat_csv_row, &c);
	if (ret < 0) {
		free(c.copy);
		if (ret == -EOVERFLOW || ret == -EIO) {
			fprintf(stderr, "wsc klat: writing %s: %s\n", path,
				ret == -EIO ? "write error" :
				"more samples than the result counts");
			return 1;
		}
		return klat_fail(lat, st->experiment, ret);
	}
	if (c.rows != st->sum.count) {
		fprintf(stderr, "wsc klat: %s: %llu samples written, the result counts %llu\n",
			path, (unsigned long long)c.rows,
			(unsigned long long)st->sum.count);
		free(c.copy);
		return 1;
	}
	wsc_stats_summary(c.copy, c.rows, &again);
	free(c.copy);
	if (memcmp(&again, &st->sum, sizeof(again))) {
		fprintf(stderr, "wsc klat: %s: the samples do not give the result's figures (replaced by another run?)\n",
			path);
		return 1;
	}
	return 0;
}

/*
 * Run an experiment.  A signal at any point from here on ends the command
 * one way (wsc-klat(8), EXIT STATUS): whatever the kernel kept, the line
 * "interrupted by SIGINT: N of M samples: why", and exit status 130.  The
 * run is one request whose wait the signal cuts short; a signal after
 * the run ended leaves its whole result, reported with the same line.
 */
static int klat_experiment(const struct klat_opts *o)
{
	uint32_t asked = o->iters ? o->iters : WSC_LAT_DEFAULT_ITERATIONS;
	struct wsc_lat_stats st;
	struct wsc_lat *lat;
	struct csv_out csv = { NULL };
	bool signalled;
	int ret, failed = 0;

	interrupt_arm();
	if (o->csv) {
		ret = csv_open(&csv, "klat", o->csv);
		if (ret)
			return ret;
	}
	ret = klat_open(&lat);
	if (ret) {
		ret = 1;
		goto out_csv;
	}
	if (!o->json && isatty(STDERR_FILENO))
		fprintf(stderr, "wsc klat: running %s...\r", o->exp->name);
	/* A signal before the request: no run to stop. */
	ret = interrupted() ? -EINTR :
	      wsc_lat_run(lat, o->exp->name, o->iters, o->cpus, o->nr_cpus, &st);
	if (!o->json && isatty(STDERR_FILENO))
		fprintf(stderr, "%60s\r", "");
	if (ret && interrupted()) {
		klat_print_interrupted(o, asked);
		ret = INTERRUPT_EXIT;
		goto out_lat;
	}
	if (ret) {
		ret = klat_fail(lat, o->exp->name, ret);
		goto out_lat;
	}
	/* The samples first: a signal during their dump is in the report. */
	if (csv.f)
		failed = klat_write_csv(lat, csv.f, o->csv, &st);
	/* Looked at once: the words and the exit status agree. */
	signalled = interrupted();
	if (o->json)
		klat_print_json(&st, signalled);
	else
		klat_print_table(&st, true, signalled);
	fflush(stdout);
	ret = csv_commit(&csv, "klat", failed);
	if (signalled)
		ret = INTERRUPT_EXIT;
out_lat:
	wsc_lat_close(lat);
out_csv:
	csv_abort(&csv);
	return ret;
}

static int klat_show(const struct klat_opts *o)
{
	struct json_object *doc = NULL, *results = NULL;
	struct wsc_lat_stats st;
	struct wsc_lat *lat;
	unsigned int i, found = 0;
	int ret = 0;

	if (klat_open(&lat))
		return 1;
	if (o->exp) {
		ret = wsc_lat_stats_get(lat, o->exp->name, &st);
		if (ret) {
			ret = klat_fail(lat, o->exp->name, ret);
		} else if (o->json) {
			klat_print_json(&st, false);
		} else {
			klat_print_table(&st, false, false);
		}
		goto out;
	}

	if (o->json) {
		doc = json_object_new_object();
		results = json_object_new_array();
		json_put(doc, "results", results);
	}
	for (i = 0; i < WSC_NR_EXPERIMENTS; i++) {
		ret = wsc_lat_stats_get(lat, klat_exps[i].name, &st);
		if (ret == -ENODATA)
			continue;
		if (ret) {
			/* The results so far, valid JSON, without the rest. */
			if (doc)
				json_emit_line(stdout, doc);
			fflush(stdout);
			ret = klat_fail(lat, klat_exps[i].name, ret);
			goto out;
		}
		if (results) {
			json_object_array_add(results, klat_result_json(&st));
		} else {
			if (found)
				printf("\n");
			klat_print_table(&st, false, false);
		}
		found++;
	}
	ret = 0;
	if (doc) {
		json_put(doc, "environment", env_json());
		json_emit_line(stdout, doc);
	} else if (!found) {
		printf("# wsc klat: no results (run an experiment first)\n");
	}
out:
	wsc_lat_close(lat);
	return ret;
}

static int klat_reset(const struct klat_opts *o)
{
	struct wsc_lat *lat;
	int ret;

	if (klat_open(&lat))
		return 1;
	ret = wsc_lat_reset(lat, o->exp ? o->exp->name : NULL);
	if (ret)
		ret = klat_fail(lat, o->exp ? o->exp->name : NULL, ret);
	wsc_lat_close(lat);
	return ret;
}

static int klat_print_list(bool json)
{
	struct json_object *doc, *list;
	unsigned int i;

	if (!json) {
		printf("# experiment        CPUs  what a sample is\n");
		klat_list(stdout, "");
		return 0;
	}
	list = json_object_new_array();
	for (i = 0; i < WSC_NR_EXPERIMENTS; i++) {
		const struct klat_exp *e = &klat_exps[i];
		struct json_object *j = json_object_new_object();

		json_put(j, "name", json_new_str(e->name));
		json_put(j, "cpus", json_new_u64(e->roles));
		json_put(j, "block", json_new_flag(e->flags & WSC_EXPF_BLOCK));
		json_put(j, "wake", json_new_flag(e->flags & WSC_EXPF_WAKE));
		json_put(j, "description", json_new_str(e->what));
		json_object_array_add(list, j);
	}
	doc = json_object_new_object();
	json_put(doc, "experiments", list);
	json_emit_line(stdout, doc);
	return 0;
}

/* What klat's options said besides @o: what the checks after need. */
struct klat_args {
	struct klat_opts *o;
	bool list;
	bool has_iters;
	bool has_cpus;
};

/* --iters and --cpus; 0 or the exit code. */
static int klat_value(void *ctx, int c, const char *arg)
{
	struct klat_args *a = ctx;

	switch (c) {
	case 'n':
		a->has_iters = true;
		return parse_uint("klat", "--iters", arg, 1,
				  WSC_LAT_MAX_ITERATIONS, &a->o->iters);
	case 'c':
		a->has_cpus = true;
		return klat_parse_cpus(arg, a->o);
	}
	return EXIT_USAGE;	/* getopt_long() returns no other */
}

/* 0: run; -1: done, exit 0 (--help); else the exit code. */
static int klat_parse(struct klat_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		OPT_ITERS('n'), OPT_CPUS('c'), OPT_CSV('C'),
		{ "list",  no_argument,       NULL, 'l' },
		OPT_JSON, OPT_HELP, OPT_END
	};
	struct klat_args a = { .o = o };
	const struct opt_set set[] = {
		{ 'j', &o->json, NULL },
		{ 'C', NULL, &o->csv },
		{ 'l', &a.list, NULL },
		{ 0 }
	};
	const struct opt_parser p = {
		.cmd = "klat", .shortopts = ":n:c:jlh", .longopts = opts,
		.set = set, .usage = klat_usage, .value = klat_value, .ctx = &a,
	};
	const char *what, *name = NULL;
	int ret = opt_parse(&p, argc, argv);

	if (ret)
		return ret;

	if (a.list) {
		if (optind != argc)
			return usage_error("klat", "unexpected argument '%s'", argv[optind]);
		if (a.has_iters || a.has_cpus || o->csv)
			return usage_error("klat", "--list takes no other option than --json");
		o->action = KLAT_LIST;
		return 0;
	}
	if (optind >= argc)
		return usage_error("klat", "which experiment? (wsc klat --list)");
	what = argv[optind++];
	if (!strcmp(what, "show")) {
		o->action = KLAT_SHOW;
	} else if (!strcmp(what, "reset")) {
		o->action = KLAT_RESET;
	} else {
		name = what;
	}
	if (o->action != KLAT_RUN && optind < argc)
		name = argv[optind++];
	if (optind < argc)
		return usage_error("klat", "unexpected argument '%s'", argv[optind]);
	if (name) {
		o->exp = klat_find(name);
		if (!o->exp)
			return usage_error("klat", "unknown experiment '%s' (wsc klat --list)", name);
	}

	if (o->action == KLAT_RUN)
		return klat_check_cpus(o);
	if (a.has_iters || a.has_cpus || o->csv)
		return usage_error("klat", "--iters, --cpus and --csv go with a run, not '%s'", what);
	if (o->action == KLAT_RESET && o->json)
		return usage_error("klat", "reset prints nothing: no --json");
	return 0;
}

static int klat_run(const struct klat_opts *o)
{
	switch (o->action) {
	case KLAT_LIST:
		return klat_print_list(o->json);
	case KLAT_SHOW:
		return klat_show(o);
	case KLAT_RESET:
		return klat_reset(o);
	default:
		return klat_experiment(o);
	}
}

int cmd_klat(int argc, char **argv)
{
	struct klat_opts o = { .action = KLAT_RUN };
	int ret = klat_parse(&o, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	return klat_run(&o);
}
