// SPDX-License-Identifier: MIT
/*
 * wsc bench: the system call latency suite (the DMSM paper's calls and the
 * latency-lab report's; Documentation/papers.md) against io_uring, and
 * `wsc bench fit` (bench_fit.c).
 *
 *   wsc bench <call> [--iters N] [--cpus A[,B]] [--size N] [--json] [--csv DIR]
 *   wsc bench --all [--output DIR] [--iters N] [--cpus A,B] [--size N]
 *   wsc bench --list [--json]
 *   wsc bench fit [options]
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_bench.h"
#include "bench.h"
#include "common/args.h"
#include "common/clock.h"
#include "common/cpu.h"
#include "common/csv.h"
#include "common/env.h"
#include "common/help.h"
#include "common/interrupt.h"
#include "common/json.h"

#define BENCH_ALL_DIR	"results/bench"

struct bench_cmd {
	struct bench_opts o;
	const struct bench_call *call;
	const char *out_dir;
	bool all;
	bool list;
	bool has_size;
	bool has_cpus;
	bool has_run_opts;	/* --iters, --cpus or --size given */
};

static void bench_usage(FILE *f)
{
	unsigned int i;

	fprintf(f,
		"Usage: wsc bench <call> [options]\n"
		"       wsc bench --all [--output DIR] [options]\n"
		"       wsc bench --list [--json]\n"
		"       wsc bench fit [options]      (wsc bench fit --help)\n\n"
		"Time a system call made conventionally, wrapped through /dev/wsc in\n"
		"batches of 1, 8 and 64 (libwsc), and through io_uring (liburing) in\n"
		"submissions of 1, 8 and 64 where an opcode exists: every variant in one\n"
		"process on one pinned CPU, interleaved, after a discarded warm-up, every\n"
		"result checked.  Figures per call, raw and net of the clock's cost.\n\n"
		"Calls:\n");
	for (i = 0; i < bench_nr_calls; i++) {
		char head[32];

		snprintf(head, sizeof(head), "  %-11s", bench_calls[i].name);
		help_item(f, head, bench_calls[i].what);
	}
	fprintf(f,
		"\nOptions:\n"
		"  -n, --iters N    samples per variant, 1..%llu (default %d); a sample\n"
		"                   of a batch variant makes B calls\n"
		"  -r, --rounds R   also compute every ratio in each of R stretches of\n"
		"                   consecutive samples and report the lowest and the\n"
		"                   highest beside it, 1..%d (default %d)\n"
		"      --repetitions R  the same as --rounds\n"
		"  -c, --cpus A[,B] measure on CPU A; sem and futex wake a thread on B\n"
		"                   (default 0,1)\n"
		"      --cpu A[,B]  the same as --cpus\n"
		"  -s, --size N     bytes per read or write for read, write, pipe-read and\n"
		"                   pipe-write, 1..%d (default %d)\n"
		"  -j, --json       one JSON object: a record per variant\n"
		"      --csv DIR    write every raw sample to DIR/<call>.csv\n"
		"  -a, --all        run every call; write DIR/<call>.json and .csv, an\n"
		"                   environment record and a summary; print the summary;\n"
		"                   first say how long it will take (an estimate)\n"
		"  -o, --output DIR the folder for --all (default %s)\n"
		"      --out DIR    the same as --output (its old name)\n"
		"  -l, --list       list the calls\n"
		"  -h, --help       show this help\n\n"
		"Needs wsc.ko loaded.  A benchmark, not a test: under emulation only the\n"
		"ratios between the variants of one run carry over.\n",
		(unsigned long long)BENCH_MAX_ITERS, BENCH_DEFAULT_ITERS, ROUNDS_MAX,
		ROUNDS_DEFAULT,
		BENCH_MAX_SIZE, BENCH_DEFAULT_SIZE, BENCH_ALL_DIR);
}

/* mkdir -p: 0 or -errno. */
static int make_dirs(const char *dir)
{
	char path[4096], *p;

	if (strlen(dir) >= sizeof(path))
		return -ENAMETOOLONG;
	strcpy(path, dir);
	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(path, 0777) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * An output folder: made if missing, and writable, before anything runs.
 * What the command line says wrong (no name, a file) is a usage error;
 * what the system refuses (permissions, a read-only file system) is a
 * failure, exit status 1, as wsc-bench(8) says.
 */
static int check_dir(const char *opt, const char *dir)
{
	struct stat st;
	int ret;

	if (!dir[0])
		return usage_error("bench", "%s needs a folder", opt);
	if (strlen(dir) > 3900)
		return usage_error("bench", "%s: path too long", opt);
	if (!stat(dir, &st) && !S_ISDIR(st.st_mode))
		return usage_error("bench", "%s: %s is not a folder", opt, dir);
	ret = make_dirs(dir);
	if (ret) {
		fprintf(stderr, "wsc bench: %s: cannot make %s: %s\n", opt, dir,
			strerror(-ret));
		return 1;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return usage_error("bench", "%s: %s is not a folder", opt, dir);
	if (access(dir, W_OK | X_OK)) {
		fprintf(stderr, "wsc bench: %s: cannot write in %s: %s\n", opt,
			dir, strerror(errno));
		return 1;
	}
	return 0;
}

/* The woken thread's CPU matters to sem and futex only. */
static int check_cpus(const struct bench_cmd *b, bool wake)
{
	if (cpu_offline(b->o.cpu))
		return usage_error("bench", "CPU %d is offline", b->o.cpu);
	if (!wake)
		return 0;
	if (cpu_offline(b->o.partner))
		return usage_error("bench", "CPU %d is offline (the woken thread's; --cpus A,B)",
				 b->o.partner);
	if (b->o.cpu == b->o.partner)
		return usage_error("bench", "the waker and the woken thread need two different CPUs: --cpus A,B");
	return 0;
}

/* Write one file through FILE.tmp and a rename; 0, or 1 on failure. */
static int write_file(const char *dir, const char *name, const char *ext,
		      int (*write)(FILE *f, const struct bench_result *r,
				   const struct bench_opts *o),
		      const struct bench_result *r, const struct bench_opts *o)
{
	struct csv_out out = { NULL };
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	ret = csv_open(&out, "bench", path);
	if (ret)
		return 1;
	ret = csv_commit(&out, "bench", write(out.f, r, o));
	if (!ret)
		fprintf(stderr, "wsc bench: wrote %s\n", path);
	return ret;
}

static int put_csv(FILE *f, const struct bench_result *r,
		   const struct bench_opts *o)
{
	(void)o;
	return bench_write_csv(f, r);
}

static int put_json(FILE *f, const struct bench_result *r,
		    const struct bench_opts *o)
{
	bench_print_json(f, r, o);
	return ferror(f) ? -1 : 0;
}

static int put_env(FILE *f, const struct bench_result *r,
		   const struct bench_opts *o)
{
	(void)r, (void)o;
	json_emit_line(f, env_json());
	return ferror(f) ? -1 : 0;
}

static int put_summary(FILE *f, const struct bench_result *r,
		       const struct bench_opts *o);

static int bench_one(const struct bench_cmd *b)
{
	struct bench_result *r = calloc(1, sizeof(*r));
	int ret = 1;

	if (!r)
		return 1;
	if (bench_run(b->call, &b->o, r)) {
		if (interrupted())
			ret = INTERRUPT_EXIT;
		goto out;
	}
	if (r->interrupted && !r->done) {
		interrupt_print(stderr, "wsc bench: ",
				"before the first sample after the warm-up: nothing to report");
		ret = INTERRUPT_EXIT;
		goto out;
	}
	if (b->o.json)
		bench_print_json(stdout, r, &b->o);
	else
		bench_print_table(stdout, r, &b->o);
	fflush(stdout);
	if (r->interrupted && b->o.json)
		interrupt_print(stderr, "wsc bench: ",
				"the JSON is of the samples taken until then (\"interrupted\": true)");
	ret = 0;
	if (b->o.csv_dir)
		ret = write_file(b->o.csv_dir, b->call->name, "csv", put_csv, r,
				 &b->o);
	if (r->interrupted)
		ret = INTERRUPT_EXIT;
out:
	bench_result_free(r);
	free(r);
	return ret;
}

/* --all's results, for the summary written at the end. */
static struct bench_result **all_res;
static unsigned int all_n;

static int put_summary(FILE *f, const struct bench_result *r,
		       const struct bench_opts *o)
{
	(void)r;
	fprintf(f, "# wsc bench --all: %llu samples per variant on CPU %d\n",
		(unsigned long long)o->iters, o->cpu);
	if (interrupted())
		interrupt_print(f, "# ", "the calls below are those measured until then, the last one in part");
	env_print_text(f);
	bench_print_matrix(f, all_res, all_n);
	env_print_note(f);
	return ferror(f) ? -1 : 0;
}

/* The files --all writes, gone from @dir (nothing else is touched). */
static void remove_results(const char *dir)
{
	static const char *const fixed[] = { "environment.json", "summary.txt" };
	char path[4096];
	unsigned int i;

	for (i = 0; i < bench_nr_calls; i++) {
		snprintf(path, sizeof(path), "%s/%s.json", dir, bench_calls[i].name);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s.csv", dir, bench_calls[i].name);
		unlink(path);
	}
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, fixed[i]);
		unlink(path);
	}
}

/* A wake-up needs a second online CPU: without one, --all skips it. */
static bool call_skipped(const struct bench_cmd *b,
			 const struct bench_call *call)
{
	return (call->flags & BENCH_F_WAKE) &&
	       (b->o.cpu == b->o.partner || cpu_offline(b->o.partner));
}

/* "45 s", "2 min 7 s", "1 h 3 min": a duration for people. */
static void duration_words(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = (ns + 500000000) / 1000000000;

	if (s < 1)
		s = 1;
	if (s < 60)
		snprintf(buf, len, "%llu s", (unsigned long long)s);
	else if (s < 3600)
		snprintf(buf, len, "%llu min %llu s", (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%llu h %llu min", (unsigned long long)(s / 3600),
			 (unsigned long long)(s / 60 % 60));
}

/*
 * How long --all will take, from a short run of every call first: its
 * setup and BENCH_CAL_ROUNDS rounds (one sample of every variant each)
 * timed, scaled to the rounds asked for, warm-up included.  Printed on
 * stderr, where bench says what it writes.  0, or the exit code (the
 * calibration failed as the run would, or a signal came).
 */
#define BENCH_CAL_ROUNDS	4

static int bench_estimate(const struct bench_cmd *b)
{
	struct bench_opts cal = b->o;
	struct bench_result *r = calloc(1, sizeof(*r));
	uint64_t rounds = bench_warmup(&b->o) + b->o.iters;
	uint64_t t0 = clock_now_ns(), est = 0;
	unsigned int i, n = 0;
	char total[32], took[32];
	int ret = 0;

	if (!r)
		return 1;
	cal.iters = BENCH_CAL_ROUNDS;
	cal.calibrate = true;
	for (i = 0; i < bench_nr_calls && !interrupted(); i++) {
		const struct bench_call *call = &bench_calls[i];

		if (call_skipped(b, call))
			continue;
		ret = bench_run(call, &cal, r);
		bench_result_free(r);
		if (ret || interrupted() || !r->done) {
			ret = interrupted() ? 0 : 1;
			break;
		}
		est += r->setup_ns + r->rounds_ns * rounds / r->done;
		n++;
	}
	free(r);
	if (ret || interrupted())
		return ret;
	duration_words(total, sizeof(total), est);
	duration_words(took, sizeof(took), clock_now_ns() - t0);
	fprintf(stderr, "wsc bench: --all will take about %s (an estimate: %llu rounds of each of %u calls, scaled from %d rounds of each timed first, in %s)\n",
		total, (unsigned long long)rounds, n, BENCH_CAL_ROUNDS, took);
	return 0;
}

static int bench_all(const struct bench_cmd *b)
{
	struct bench_result **res = calloc(bench_nr_calls, sizeof(*res));
	unsigned int i, n = 0;
	int ret = 1;

	if (!res)
		return 1;
	/* A folder of an earlier run must not mix its files with ours. */
	remove_results(b->out_dir);
	if (write_file(b->out_dir, "environment", "json", put_env, NULL, &b->o))
		goto out;
	if (bench_estimate(b))
		goto out;
	for (i = 0; i < bench_nr_calls; i++) {
		const struct bench_call *call = &bench_calls[i];
		struct bench_result *r;

		if (call_skipped(b, call)) {
			fprintf(stderr, "wsc bench: %s skipped: a wake-up needs a second online CPU (--cpus A,B)\n",
				call->name);
			continue;
		}
		if (interrupted())
			break;
		r = calloc(1, sizeof(*r));
		if (!r)
			goto out;
		res[n++] = r;
		if (bench_run(call, &b->o, r)) {
			if (interrupted())
				ret = INTERRUPT_EXIT;
			goto out;
		}
		/* Cut short before its first sample: no file for it. */
		if (r->interrupted && !r->done) {
			bench_result_free(r);
			free(r);
			res[--n] = NULL;
			break;
		}
		if (write_file(b->out_dir, call->name, "json", put_json, r, &b->o) ||
		    write_file(b->out_dir, call->name, "csv", put_csv, r, &b->o))
			goto out;
		/* The samples are on disk: keep only the figures. */
		bench_result_free(r);
	}
	all_res = res;
	all_n = n;
	if (interrupted())
		interrupt_print(stdout, "# ", "the calls below are those measured until then, the last one in part");
	bench_print_matrix(stdout, res, n);
	env_print_note(stdout);
	ret = write_file(b->out_dir, "summary", "txt", put_summary, NULL, &b->o);
	if (interrupted())
		ret = INTERRUPT_EXIT;
out:
	for (i = 0; i < n; i++) {
		bench_result_free(res[i]);
		free(res[i]);
	}
	free(res);
	return ret;
}

static int bench_list(bool json)
{
	struct json_object *list;
	unsigned int i;

	if (!json) {
		for (i = 0; i < bench_nr_calls; i++)
			printf("%-11s %s\n", bench_calls[i].name, bench_calls[i].what);
		return 0;
	}
	list = json_object_new_array();
	for (i = 0; i < bench_nr_calls; i++) {
		const struct bench_call *c = &bench_calls[i];
		struct json_object *j = json_object_new_object();

		json_put(j, "call", json_new_str(c->name));
		json_put(j, "description", json_new_str(c->what));
		json_put(j, "io_uring", json_new_flag(c->flags & BENCH_F_URING));
		json_put(j, "wake", json_new_flag(c->flags & BENCH_F_WAKE));
		json_put(j, "size", json_new_flag(c->flags & BENCH_F_SIZE));
		json_object_array_add(list, j);
	}
	json_emit_line(stdout, list);
	return 0;
}

/* What the options say together, before anything runs. */
static int bench_check(struct bench_cmd *b, int argc, char **argv)
{
	if (b->list) {
		if (optind != argc)
			return usage_error("bench", "unexpected argument '%s'", argv[optind]);
		if (b->has_run_opts || b->all || b->out_dir || b->o.csv_dir)
			return usage_error("bench", "--list takes no other option than --json");
		return 0;
	}
	if (b->all) {
		if (optind != argc)
			return usage_error("bench", "--all runs every call: unexpected '%s'",
					 argv[optind]);
		if (b->o.json || b->o.csv_dir)
			return usage_error("bench", "--all writes JSON and CSV to --output DIR; --json and --csv do not apply");
		/* With the woken thread's CPU unusable, sem and futex are skipped. */
		return check_cpus(b, b->has_cpus);
	}
	if (b->out_dir)
		return usage_error("bench", "--output goes with --all");
	if (optind >= argc)
		return usage_error("bench", "which call? (wsc bench --list)");
	b->call = bench_find(argv[optind]);
	if (!b->call)
		return usage_error("bench", "unknown call '%s' (wsc bench --list)", argv[optind]);
	if (optind + 1 != argc)
		return usage_error("bench", "unexpected argument '%s'", argv[optind + 1]);
	if (b->has_size && !(b->call->flags & BENCH_F_SIZE))
		return usage_error("bench", "--size applies to read, write, pipe-read and pipe-write, not %s",
				 b->call->name);
	return check_cpus(b, b->call->flags & BENCH_F_WAKE);
}

static int bench_set_cpus(struct bench_cmd *b, const char *arg)
{
	int cpus[2], ret;
	unsigned int n;

	ret = parse_cpu_list("bench", "--cpus", arg, cpus, 2, &n);
	if (ret)
		return ret;
	b->o.cpu = cpus[0];
	if (n == 2) {
		b->o.partner = cpus[1];
	} else {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		b->o.partner = ncpu > 1 ? (cpus[0] + 1) % (int)ncpu : cpus[0];
	}
	b->has_cpus = n == 2;
	return 0;
}

/* The options that take a number or CPUs; 0 or the exit code. */
static int bench_cmd_value(void *ctx, int c, const char *arg)
{
	struct bench_cmd *b = ctx;
	uint64_t v;
	int ret;

	b->has_run_opts = true;
	switch (c) {
	case 'n':
		return parse_u64("bench", "--iters", arg, 1, BENCH_MAX_ITERS,
				 &b->o.iters);
	case 'r':
		return parse_uint("bench", "--rounds", arg, 1, ROUNDS_MAX,
				  &b->o.rounds);
	case 'c':
		return bench_set_cpus(b, arg);
	case 's':
		ret = parse_u64("bench", "--size", arg, 1, BENCH_MAX_SIZE, &v);
		if (!ret) {
			b->o.size = (size_t)v;
			b->has_size = true;
		}
		return ret;
	}
	return EXIT_USAGE;	/* getopt_long() returns no other */
}

/* 0: run; -1: done, exit 0 (--help); else the exit code. */
static int bench_cmd_parse(struct bench_cmd *b, int argc, char **argv)
{
	static const struct option opts[] = {
		OPT_ITERS('n'), OPT_ROUNDS('r'), OPT_CPUS('c'), OPT_CSV('C'),
		{ "size",  required_argument, NULL, 's' },
		{ "all",   no_argument,       NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "out",   required_argument, NULL, 'o' },	/* its old name */
		{ "list",  no_argument,       NULL, 'l' },
		OPT_JSON, OPT_HELP, OPT_END
	};
	const struct opt_set set[] = {
		{ 'j', &b->o.json, NULL },
		{ 'C', NULL, &b->o.csv_dir },
		{ 'a', &b->all, NULL },
		{ 'o', NULL, &b->out_dir },
		{ 'l', &b->list, NULL },
		{ 0 }
	};
	const struct opt_parser p = {
		.cmd = "bench", .shortopts = ":n:r:c:s:jao:lh", .longopts = opts,
		.set = set, .usage = bench_usage, .value = bench_cmd_value,
		.ctx = b,
	};
	int ret = opt_parse(&p, argc, argv);

	if (ret)
		return ret;
	if (b->all && !b->out_dir)
		b->out_dir = BENCH_ALL_DIR;
	return bench_check(b, argc, argv);
}

static int bench_cmd_run(const struct bench_cmd *b)
{
	int ret;

	if (b->list)
		return bench_list(b->o.json);
	ret = pin_to_cpu(b->o.cpu);
	if (ret)
		return usage_error("bench", "cannot pin to CPU %d: %s", b->o.cpu,
				 strerror(-ret));
	/* Last of the checks: a refused command makes no folder. */
	ret = b->all ? check_dir("--output", b->out_dir) : 0;
	if (!ret && b->o.csv_dir)
		ret = check_dir("--csv", b->o.csv_dir);
	if (ret)
		return ret;
	/* From here a signal ends the run with what it measured. */
	interrupt_arm();
	return b->all ? bench_all(b) : bench_one(b);
}

int cmd_bench(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct bench_cmd b = {
		.o = {
			.iters = BENCH_DEFAULT_ITERS,
			.rounds = ROUNDS_DEFAULT,
			.size = BENCH_DEFAULT_SIZE,
			.partner = ncpu > 1 ? 1 : 0,
		},
	};
	int ret;

	/* "wsc bench fit ..." has options of its own. */
	if (argc > 1 && !strcmp(argv[1], "fit"))
		return bench_fit(argc - 1, argv + 1);
	ret = bench_cmd_parse(&b, argc, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	return bench_cmd_run(&b);
}
