// SPDX-License-Identifier: MIT
/*
 * wsc bench fit: what one kernel entry costs, plain against wrapped, as a
 * fixed part and a part per call (the line through the batch sizes).
 *
 * Two calls: the mechanism alone (an unimplemented system call number,
 * which returns ENOSYS, against the wrapped no-op) and getpid.  For each,
 * the plain system call and the wrapped one at several batch sizes run
 * interleaved in one process on one pinned CPU.  Every sample times a
 * block of FIT_BLOCK calls and divides, so that the clock's own cost
 * (reported beside the results) is spread thin; the clock is not
 * subtracted.  The wrapped variants submit prebuilt entries with the
 * ioctl itself: this measures the mechanism, not the batch builder.
 *
 * The run is cut into rounds (--rounds, default 5), each with its own
 * warm-up; every figure is computed once per round from that round's
 * medians, and reported as the median over the rounds with the smallest
 * and largest round beside it.  The line through the batch sizes is a
 * Theil-Sen fit (common/rounds.h): one wild median moves one of fifteen
 * pairwise slopes, not the line.  The headline is the ratio measured
 * directly at the largest batch (plain over batch 64, per call), which
 * no fit stands between (Documentation/results/bench-null.md, "Which
 * figure is the headline").  The measuring is common/entry_fit.c's,
 * which wsc trace --advise's calibration shares; this file is the
 * command: its options, the table, the JSON and the raw samples.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "common/args.h"
#include "common/clock.h"
#include "common/cpu.h"
#include "common/csv.h"
#include "common/entry_fit.h"
#include "common/env.h"
#include "common/interrupt.h"
#include "common/json.h"
#include "common/module_hint.h"
#include "common/progress.h"
#include "common/report.h"
#include "common/rounds.h"
#include "libwsc.h"

#define FIT_DEFAULT_ITERS	1000000
#define FIT_MAX_ITERS		1000000000ull

struct fit_opts {
	uint64_t iters;
	unsigned int rounds;
	int cpu;
	bool json;
	const char *csv;
};

static void fit_usage(FILE *f)
{
	fprintf(f,
		"Usage: wsc bench fit [options]\n\n"
		"Time plain system calls against wrapped ones at batch sizes 1, 2, 4, 8, 16\n"
		"and 64, interleaved in one run, for two calls: the mechanism alone (an\n"
		"unimplemented system call against the wrapped no-op) and getpid.  Also\n"
		"times the ioctl path alone (an unknown command), the floor of every batch.\n\n"
		"  -n, --iters N   calls per variant over all rounds, %d..%llu\n"
		"                  (default %d)\n"
		"  -r, --rounds R  rounds, each with its own warm-up and figures,\n"
		"                  1..%d (default %d); each figure is the median over\n"
		"                  the rounds, with the lowest and highest beside it\n"
		"      --repetitions R  the same as --rounds\n"
		"  -c, --cpu N     pin to CPU N (default 0)\n"
		"      --cpus N    the same as --cpu\n"
		"  -j, --json      print one JSON object instead of the table\n"
		"      --csv FILE  write every raw sample (ns per call) to FILE\n"
		"  -h, --help      show this help\n\n"
		"Needs wsc.ko loaded.  A benchmark, not a test: under emulation only the\n"
		"ratios between variants of one run carry over.\n",
		FIT_BLOCK, FIT_MAX_ITERS, FIT_DEFAULT_ITERS, ROUNDS_MAX,
		ROUNDS_DEFAULT);
}

static void print_table(const struct fit_opts *o, double clock_ns,
			const struct fit_result *res)
{
	char words[64];
	size_t c, i;

	printf("# wsc bench fit: %llu calls per variant on CPU %d in %u rounds, %d calls per sample\n",
	       (unsigned long long)o->iters, o->cpu, o->rounds, FIT_BLOCK);
	if (interrupted())
		interrupt_print(stdout, "# ", "nop ran %u of %u rounds, getpid %u",
				res[0].rounds_done, o->rounds,
				res[1].rounds_done);
	printf("# each figure: the median over the rounds of the round's figure (of its medians), [lowest-highest round]\n");
	printf("# clock_gettime costs %.1f ns (median of back-to-back pairs), not subtracted\n",
	       clock_ns);
	printf("# speedup: over the plain system call, its ns/call / the variant's: above 1 is faster\n");
	env_print_text(stdout);
	printf("%-7s %-9s %10s %21s  %s\n", "call", "variant", "ns/call",
	       "[rounds]", "speedup");
	for (c = 0; c < FIT_NR_CALLS; c++) {
		const struct fit_result *r = &res[c];
		double plain = r->v[V_SYSCALL].ns.median;

		if (!r->rounds_done) {
			printf("%-7s not measured: interrupted before its first round ended\n",
			       fit_calls[c].name);
			continue;
		}
		for (i = 0; i < FIT_NR_VARIANTS; i++) {
			const struct spread *ns = &r->v[i].ns;
			char name[16], range[32];

			if (i == V_SYSCALL)
				snprintf(name, sizeof(name), "syscall");
			else if (i == V_IOCTL)
				snprintf(name, sizeof(name), "ioctl");
			else
				snprintf(name, sizeof(name), "batch %u", r->v[i].batch);
			snprintf(range, sizeof(range), "[%.1f-%.1f]", ns->min,
				 ns->max);
			if (i == V_SYSCALL)
				snprintf(words, sizeof(words), "baseline");
			else
				speedup_words(words, sizeof(words),
					      speedup_of(plain, ns->median));
			printf("%-7s %-9s %10.1f %21s  %s\n", fit_calls[c].name,
			       name, ns->median, range, words);
		}
		printf("# %s: batch of %d: %s per call than the plain call (the headline)\n",
		       fit_calls[c].name, FIT_BLOCK,
		       speedup_words_spread(words, sizeof(words), r->ratio64.median,
					    r->ratio64.min, r->ratio64.max));
		printf("# %s: batch cost = %.1f + %.1f x size ns (Theil-Sen); break-even at %.2f calls [%.2f-%.2f]\n",
		       fit_calls[c].name, r->fixed_ns.median,
		       r->per_call_ns.median, r->break_even.median,
		       r->break_even.min, r->break_even.max);
		printf("# %s: the fit's cost per call: %s than the plain call\n",
		       fit_calls[c].name,
		       speedup_words_spread(words, sizeof(words), r->speedup.median,
					    r->speedup.min, r->speedup.max));
		printf("# %s: the ioctl path alone costs %.1f ns: %s than the plain call\n",
		       fit_calls[c].name, r->v[V_IOCTL].ns.median,
		       speedup_words(words, sizeof(words),
				     speedup_of(plain, r->v[V_IOCTL].ns.median)));
	}
	if (interrupted())
		interrupt_print(stdout, "# ", "the figures are of the rounds that ran to their end");
	env_print_note(stdout);
}

/* "KEY": MEDIAN, "KEY_spread": [MIN, MAX] */
static void put_figure(struct json_object *o, const char *key, int decimals,
		       const struct spread *s)
{
	char spread_key[64];

	snprintf(spread_key, sizeof(spread_key), "%s_spread", key);
	json_put(o, key, json_new_fixed(decimals, s->median));
	json_put(o, spread_key, json_new_spread(decimals, s));
}

/* One call's figures; null when no round of it ended, not zeros. */
static struct json_object *call_json(const struct fit_result *r)
{
	struct json_object *o, *batched, *spreads;
	char batch[16];
	size_t i;

	if (!r->rounds_done)
		return NULL;
	o = json_object_new_object();
	batched = json_object_new_object();
	spreads = json_object_new_object();
	json_put(o, "rounds_done", json_new_u64(r->rounds_done));
	put_figure(o, "syscall_ns", 2, &r->v[V_SYSCALL].ns);
	put_figure(o, "ioctl_ns", 2, &r->v[V_IOCTL].ns);
	for (i = V_BATCH; i < FIT_NR_VARIANTS; i++) {
		snprintf(batch, sizeof(batch), "%u", r->v[i].batch);
		json_put(batched, batch, json_new_fixed(2, r->v[i].ns.median));
		json_put(spreads, batch, json_new_spread(2, &r->v[i].ns));
	}
	json_put(o, "batched_ns", batched);
	json_put(o, "batched_ns_spread", spreads);
	put_figure(o, "fixed_ns", 2, &r->fixed_ns);
	put_figure(o, "per_call_ns", 2, &r->per_call_ns);
	put_figure(o, "speedup", 3, &r->speedup);
	put_figure(o, "break_even", 3, &r->break_even);
	put_figure(o, "batch64_ratio", 3, &r->ratio64);
	return o;
}

static void print_json(const struct fit_opts *o, double clock_ns,
		       const struct fit_result *res)
{
	struct json_object *j = json_object_new_object();
	size_t c;

	json_put(j, "iters", json_new_u64(o->iters));
	json_put(j, "rounds", json_new_u64(o->rounds));
	json_put(j, "cpu", json_new_i64(o->cpu));
	json_put(j, "block", json_new_i64(FIT_BLOCK));
	json_put(j, "fit", json_new_str("theil-sen"));
	json_put(j, "clock_ns", json_new_fixed(2, clock_ns));
	json_put(j, "interrupted", json_new_flag(interrupted()));
	for (c = 0; c < FIT_NR_CALLS; c++)
		json_put(j, fit_calls[c].name, call_json(&res[c]));
	json_put(j, "environment", env_json());
	json_emit_line(stdout, j);
}

static const char *const variant_names[] = {
	[V_SYSCALL] = "syscall", [V_IOCTL] = "ioctl", [V_BATCH] = "wrapped",
};

/* Raw samples go to FILE.tmp and are renamed at the end: never half a file. */
static int write_csv(FILE *f, const struct fit_result *res,
		     size_t per_round)
{
	size_t c, i, k;

	fprintf(f, "call,variant,batch,round,sample,ns_per_call\n");
	for (c = 0; c < FIT_NR_CALLS; c++) {
		for (i = 0; i < FIT_NR_VARIANTS; i++) {
			const struct fit_variant *v = &res[c].v[i];

			for (k = 0; k < v->n; k++)
				fprintf(f, "%s,%s,%u,%zu,%zu,%.2f\n",
					fit_calls[c].name,
					variant_names[i < V_BATCH ? i : V_BATCH],
					v->batch, k / per_round, k % per_round,
					v->samples[k]);
		}
	}
	return ferror(f) ? -EIO : 0;
}

static int bench_fit_run(const struct fit_opts *o)
{
	static const struct fit_voice voice = { "bench", "fit" };
	struct fit_result res[FIT_NR_CALLS];
	struct csv_out csv = { NULL };
	/* Samples per variant and round: at least one. */
	size_t nsamples = o->iters / FIT_BLOCK / o->rounds ?
			  o->iters / FIT_BLOCK / o->rounds : 1;
	double clock_ns;
	int fd, ret = 1;
	size_t c;

	memset(res, 0, sizeof(res));
	if (o->csv) {
		ret = csv_open(&csv, "bench fit", o->csv);
		if (ret)
			return ret;
		ret = 1;
	}
	/* Each round opens its own (fit_one()); this one is for the message. */
	fd = wsc_device_open();
	if (fd < 0) {
		ret = module_report("bench fit", fd, false);
		goto out_csv;
	}
	ret = pin_to_cpu(o->cpu);
	if (ret) {
		/* An offline CPU, or one outside our cpuset: a bad argument. */
		usage_error("bench fit", "cannot pin to CPU %d: %s", o->cpu,
			    strerror(-ret));
		ret = EXIT_USAGE;
		goto out_fd;
	}
	ret = 1;

	clock_ns = clock_cost_ps() / 1000.0;
	/* From here a signal ends the run with the rounds that ended. */
	interrupt_arm();
	for (c = 0; c < FIT_NR_CALLS && !interrupted(); c++) {
		ret = fit_one(&fit_calls[c], nsamples, o->rounds, &voice, &res[c]);
		if (ret == -EINTR)
			break;
		ret = 1;
		if (interrupted())
			break;
		if (res[c].rounds_done != o->rounds)
			goto out_free;
	}
	ret = 1;
	/* A round cut short left its progress line up: clear it. */
	progress_line("bench", "fit", 1, 1);
	if (interrupted() && !res[0].rounds_done) {
		interrupt_print(stderr, "wsc bench fit: ",
				"before the first round ended: nothing to report");
		ret = INTERRUPT_EXIT;
		goto out_free;
	}
	if (o->json)
		print_json(o, clock_ns, res);
	else
		print_table(o, clock_ns, res);
	fflush(stdout);
	if (interrupted() && o->json)
		interrupt_print(stderr, "wsc bench fit: ",
				"the JSON is of the rounds that ran to their end (\"interrupted\": true)");

	ret = 0;
	if (csv.f)
		ret = csv_commit(&csv, "bench fit",
				 write_csv(csv.f, res, nsamples));
	if (interrupted())
		ret = INTERRUPT_EXIT;
out_free:
	for (c = 0; c < FIT_NR_CALLS; c++)
		fit_result_free(&res[c]);
out_fd:
	close(fd);
out_csv:
	csv_abort(&csv);
	return ret;
}

/* The options that take a number or a CPU; 0 or the exit code. */
static int fit_value(void *ctx, int c, const char *arg)
{
	struct fit_opts *o = ctx;

	switch (c) {
	case 'n':
		return parse_u64("bench fit", "--iters", arg, FIT_BLOCK,
				 FIT_MAX_ITERS, &o->iters);
	case 'r':
		return parse_uint("bench fit", "--rounds", arg, 1, ROUNDS_MAX,
				  &o->rounds);
	case 'c':
		return parse_cpu("bench fit", "--cpu", arg, &o->cpu);
	}
	return EXIT_USAGE;	/* getopt_long() returns no other */
}

/* 0: run; -1: done, exit 0 (--help); else the exit code. */
static int fit_parse(struct fit_opts *o, int argc, char **argv)
{
	static const struct option opts[] = {
		OPT_ITERS('n'), OPT_ROUNDS('r'), OPT_CPUS('c'), OPT_CSV('C'),
		OPT_JSON, OPT_HELP, OPT_END
	};
	const struct opt_set set[] = {
		{ 'j', &o->json, NULL },
		{ 'C', NULL, &o->csv },
		{ 0 }
	};
	const struct opt_parser p = {
		.cmd = "bench fit", .shortopts = ":n:r:c:jh", .longopts = opts,
		.set = set, .usage = fit_usage, .value = fit_value, .ctx = o,
		.no_operands = true,
	};

	return opt_parse(&p, argc, argv);
}

int bench_fit(int argc, char **argv)
{
	struct fit_opts o = {
		.iters = FIT_DEFAULT_ITERS,
		.rounds = ROUNDS_DEFAULT,
	};
	int ret = fit_parse(&o, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	return bench_fit_run(&o);
}
