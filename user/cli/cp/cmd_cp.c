// SPDX-License-Identifier: MIT
/*
 * wsc cp: the WSC paper's cp experiment (N transactions, five programs,
 * eleven portions) with our four programs beside it, and its two sweeps.
 *
 *   wsc cp [-n N] [-s SIZE] [-t T] [-r R] [-c CPU] [--cold] [--dir DIR]
 *          [--keep] [--programs LIST] [--json] [--csv FILE] [--inject K:N]
 *   wsc cp --sweep threshold|n [options]
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cmd_cp.h"
#include "common/args.h"
#include "common/clock.h"
#include "common/counters.h"
#include "common/cpu.h"
#include "common/csv.h"
#include "common/env.h"
#include "common/interrupt.h"
#include "common/json.h"
#include "common/report.h"
#include "common/rounds.h"
#include "cp_session.h"
#include "libwsc.h"

#define CP_DEFAULT_N		100
#define CP_DEFAULT_SIZE		4096
#define CP_DEFAULT_REPS		11
#define CP_MAX_N		100000
#define CP_MAX_SIZE		(64u << 20)
#define CP_MAX_BYTES		(512ull << 20)	/* N x SIZE, held twice */
#define CP_MAX_THRESHOLD	128		/* 6 x T entries per chain submission */
#define CP_MAX_REPS		1000

#define CP_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const unsigned int cp_sweep_t[] = { 1, 2, 4, 8, 16, 32, 64 };
static const unsigned int cp_sweep_n[] = { 1, 2, 4, 8, 16, 32, 64, 128 };

enum cp_sweep { CP_SWEEP_NONE, CP_SWEEP_THRESHOLD, CP_SWEEP_N };

struct cp_cmd {
	struct cp_session s;
	enum cp_sweep sweep;
	bool json;
	const char *csv;
	bool has_n, has_t, has_programs, has_dir;
	int cpu;
};

static void cp_usage(FILE *f)
{
	fprintf(f,
		"Usage: wsc cp [options]\n"
		"       wsc cp --sweep threshold|n [options]\n\n"
		"Copy N files in N cp transactions (open, open, read, write, close,\n"
		"close) with each program below, in one process, R times, the programs\n"
		"interleaved; time the WSC paper's 11 portions and ours; read every copy\n"
		"back and compare it with its source.\n\n"
		"Programs (the WSC paper's Figure 5, then ours):\n"
		"  NORMAL           the six calls of each transaction in turn\n"
		"  NORMAL+COLLECT   calls of one type in a block: N opens, N opens, N reads...\n"
		"  WSC+COLLECT      those blocks wrapped, flushed every T calls\n"
		"  NORMAL+RW        as NORMAL+COLLECT with one block of read, write pairs\n"
		"  WSC+RW           that, wrapped\n"
		"  WSC+CHAIN        each transaction one chain (results feed later calls),\n"
		"                   T transactions per kernel entry\n"
		"  WSC+CHAIN+COLLECT  T transactions per kernel entry, their calls in the\n"
		"                   COLLECT order, tied together by the same references\n"
		"  IO_URING         six linked requests per transaction on direct\n"
		"                   descriptors, T transactions per submission\n"
		"  COPY_FILE_RANGE  open, open, copy_file_range, close, close\n\n"
		"Portions: 1-5 open to close of the paper's programs; 6-9 their read and\n"
		"write part (NORMAL+COLLECT, WSC+COLLECT, NORMAL+RW, WSC+RW); 10-11 the\n"
		"write block of NORMAL+COLLECT and WSC+COLLECT; 12-15 open to close of\n"
		"WSC+CHAIN, IO_URING, COPY_FILE_RANGE and WSC+CHAIN+COLLECT.\n\n"
		"Options:\n"
		"  -n, --transactions N  files to copy, 1..%u (default %u)\n"
		"  -s, --size SIZE       bytes per file, 1..64MiB; K, KiB, M, MiB allowed\n"
		"                        (default 4KiB); N x SIZE at most 512MiB\n"
		"  -t, --threshold T     WSC threshold, 1..%u (default %u)\n"
		"  -r, --rounds R        timed rounds, 1..%u (default %u), after one\n"
		"                        warm-up\n"
		"      --repetitions R   the same as --rounds (its old name)\n"
		"  -c, --cpu N           run on CPU N (default 0)\n"
		"      --cpus N          the same as --cpu\n"
		"      --cold            drop the page cache before every run (root)\n"
		"      --dir DIR         make the scratch folder in DIR (default $TMPDIR\n"
		"                        or /tmp); use a real disk filesystem, not tmpfs\n"
		"      --keep            keep the scratch folder and its files\n"
		"  -p, --programs LIST   comma-separated programs to run (default all);\n"
		"                        ratios need NORMAL (and NORMAL+COLLECT, NORMAL+RW)\n"
		"      --sweep threshold run at T = 1, 2, 4, 8, 16, 32, 64\n"
		"      --sweep n         run at N = 1, 2, 4, ..., 128: where WSC+COLLECT\n"
		"                        starts to beat NORMAL\n"
		"      --inject KIND:K   make transaction K fail for real, to test error\n"
		"                        handling: missing-source (ENOENT) or\n"
		"                        unwritable-dest (a folder in the way: EISDIR)\n"
		"  -j, --json            one JSON object\n"
		"      --csv FILE        every portion of every repetition, raw\n"
		"  -h, --help            show this help\n\n"
		"Exit status: 0 all copies verified; 1 a copy differed, a transaction\n"
		"failed (each is named) or the run could not go on; 2 usage error.\n",
		CP_MAX_N, CP_DEFAULT_N, CP_MAX_THRESHOLD, WSC_DEFAULT_THRESHOLD,
		CP_MAX_REPS, CP_DEFAULT_REPS);
}

/* SIZE: digits, then nothing, K, KiB, M or MiB (powers of 1024). */
static int cp_parse_size(const char *s, size_t *out)
{
	char digits[32];
	uint64_t v, mult = 1;
	size_t len = 0;
	int ret;

	while (isdigit((unsigned char)s[len]) && len + 1 < sizeof(digits))
		len++;
	if (!len || len + 1 >= sizeof(digits))
		goto bad;
	memcpy(digits, s, len);
	digits[len] = '\0';
	if (!strcmp(s + len, "K") || !strcmp(s + len, "KiB"))
		mult = 1024;
	else if (!strcmp(s + len, "M") || !strcmp(s + len, "MiB"))
		mult = 1024 * 1024;
	else if (s[len])
		goto bad;
	ret = parse_u64("cp", "--size", digits, 1, CP_MAX_SIZE, &v);
	if (ret)
		return ret;
	if (v * mult > CP_MAX_SIZE)
		return usage_error("cp", "--size: %s is out of range 1..64MiB", s);
	*out = (size_t)(v * mult);
	return 0;
bad:
	return usage_error("cp", "--size: '%s' is not a size (e.g. 4096, 4K, 4KiB, 1MiB)",
			   s);
}

static int cp_parse_programs(struct cp_session *s, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	unsigned int p;

	if (!copy)
		return -1;
	memset(s->want, 0, sizeof(s->want));
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (p = 0; p < CP_NR_PROGRAMS; p++)
			if (!strcasecmp(tok, cp_program_names[p]))
				break;
		if (p == CP_NR_PROGRAMS) {
			usage_error("cp", "--programs: no program '%s' (see the list in --help)",
				    tok);
			free(copy);
			return EXIT_USAGE;
		}
		s->want[p] = true;
	}
	free(copy);
	for (p = 0; p < CP_NR_PROGRAMS; p++)
		if (s->want[p])
			return 0;
	return usage_error("cp", "--programs: no program named in '%s'", list);
}

static int cp_parse_inject(struct cp_work *w, const char *arg, uint64_t *k)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : 0;

	if (colon && len == 14 && !strncmp(arg, "missing-source", len))
		w->fault = CP_FAULT_MISSING_SOURCE;
	else if (colon && len == 15 && !strncmp(arg, "unwritable-dest", len))
		w->fault = CP_FAULT_UNWRITABLE_DEST;
	else
		return usage_error("cp", "--inject: '%s' is not missing-source:K or unwritable-dest:K",
				   arg);
	return parse_u64("cp", "--inject", colon + 1, 1, CP_MAX_N, k);
}

static int cp_usage_error(const char *msg)
{
	return usage_error("cp", "%s", msg);
}

/* The long options without a letter, past every char getopt_long() returns. */
enum {
	CP_OPT_COLD = 256, CP_OPT_DIR, CP_OPT_KEEP, CP_OPT_SWEEP,
	CP_OPT_INJECT, CP_OPT_CSV
};

/* What the options' checks need besides the command. */
struct cp_args {
	struct cp_cmd *c;
	uint64_t inject_k;
};

/* The options that take a value to check; 0 or the exit code. */
static int cp_value(void *ctx, int opt, const char *arg)
{
	struct cp_args *a = ctx;
	struct cp_cmd *c = a->c;
	struct cp_session *s = &c->s;
	struct cp_work *w = &s->w;
	int ret;

	switch (opt) {
	case 'n':
		c->has_n = true;
		return parse_uint("cp", "--transactions", arg, 1, CP_MAX_N, &w->n);
	case 's':
		return cp_parse_size(arg, &w->size);
	case 't':
		c->has_t = true;
		return parse_uint("cp", "--threshold", arg, 1, CP_MAX_THRESHOLD,
				  &w->threshold);
	case 'r':
		return parse_uint("cp", "--rounds", arg, 1, CP_MAX_REPS, &s->reps);
	case 'p':
		c->has_programs = true;
		return cp_parse_programs(s, arg);
	case 'c':
		ret = parse_cpu("cp", "--cpu", arg, &c->cpu);
		if (!ret && cpu_offline(c->cpu))
			return usage_error("cp", "CPU %d is offline", c->cpu);
		return ret;
	case CP_OPT_SWEEP:
		if (!strcmp(arg, "threshold"))
			c->sweep = CP_SWEEP_THRESHOLD;
		else if (!strcmp(arg, "n"))
			c->sweep = CP_SWEEP_N;
		else
			return cp_usage_error("--sweep takes 'threshold' or 'n'");
		return 0;
	case CP_OPT_INJECT:
		return cp_parse_inject(w, arg, &a->inject_k);
	}
	return EXIT_USAGE;	/* getopt_long() returns no other */
}

static int cp_parse(struct cp_cmd *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "transactions", required_argument, NULL, 'n' },
		{ "size",         required_argument, NULL, 's' },
		{ "threshold",    required_argument, NULL, 't' },
		{ "programs",     required_argument, NULL, 'p' },
		{ "cold",         no_argument,       NULL, CP_OPT_COLD },
		{ "dir",          required_argument, NULL, CP_OPT_DIR },
		{ "keep",         no_argument,       NULL, CP_OPT_KEEP },
		{ "sweep",        required_argument, NULL, CP_OPT_SWEEP },
		{ "inject",       required_argument, NULL, CP_OPT_INJECT },
		OPT_ROUNDS('r'), OPT_CPUS('c'), OPT_CSV(CP_OPT_CSV),
		OPT_JSON, OPT_HELP, OPT_END
	};
	struct cp_session *s = &c->s;
	struct cp_work *w = &s->w;
	struct cp_args a = { .c = c };
	const struct opt_set set[] = {
		{ CP_OPT_COLD, &s->cold, NULL },
		{ CP_OPT_KEEP, &s->keep, NULL },
		{ CP_OPT_DIR, &c->has_dir, &s->parent },
		{ 'j', &c->json, NULL },
		{ CP_OPT_CSV, NULL, &c->csv },
		{ 0 }
	};
	const struct opt_parser p = {
		.cmd = "cp", .shortopts = ":n:s:t:r:p:c:jh", .longopts = opts,
		.set = set, .usage = cp_usage, .value = cp_value, .ctx = &a,
		.no_operands = true,
	};
	uint64_t v, inject_k;
	struct stat st;
	int ret;

	optind = 1;
	ret = opt_parse(&p, argc, argv);
	if (ret)
		return ret;
	inject_k = a.inject_k;
	/* The N sweep's largest point is what must fit. */
	v = c->sweep == CP_SWEEP_N ? cp_sweep_n[CP_ARRAY_SIZE(cp_sweep_n) - 1] : w->n;
	if (v * w->size > CP_MAX_BYTES)
		return cp_usage_error("N x SIZE is above 512MiB");
	if (inject_k > w->n)
		return cp_usage_error("--inject names a transaction past N");
	w->fault_txn = inject_k ? (unsigned int)inject_k - 1 : 0;
	if (c->sweep && (s->keep || w->fault))
		return cp_usage_error("--sweep takes neither --keep nor --inject");
	if (c->sweep == CP_SWEEP_THRESHOLD && c->has_t)
		return cp_usage_error("--sweep threshold sets -t itself");
	if (c->sweep == CP_SWEEP_N && (c->has_n || w->fault))
		return cp_usage_error("--sweep n sets -n itself");
	errno = 0;
	if (stat(s->parent, &st) || !S_ISDIR(st.st_mode))
		return usage_error("cp", "%s %s: %s", c->has_dir ? "--dir" : "$TMPDIR",
				   s->parent, errno ? strerror(errno) : "not a folder");
	return 0;
}

/* One measurement at the command's settings; 0 on success. */
static int cp_measure(struct cp_cmd *c)
{
	struct cp_session *s = &c->s;
	int ret;

	ret = cp_session_open(s);
	if (ret)
		return ret;
	ret = cp_session_run(s);
	return ret;
}

/*
 * A point's programs: a line each of the table, or with --json an object
 * each in @points.
 */
static void cp_sweep_print(const struct cp_cmd *c, FILE *f,
			   const struct cp_session *s, bool first,
			   struct json_object *points)
{
	const struct cp_work *w = &s->w;
	struct cp_stat st, base = { 0 }, ev[COUNTERS_MAX];
	unsigned int i;

	if (!cp_portion_stats(s, cp_portion_by_number(1), &base, ev))
		base.median = 0;
	if (first && !c->json)
		fprintf(f, "%5s %6s  %-17s  %14s  %s\n", "T", "N", "program",
			"median us/txn", "vs NORMAL");
	for (i = 0; i < cp_nr_portions; i++) {
		const struct cp_portion *pt = &cp_portions[i];
		char words[40];
		double speedup;

		if (strcmp(pt->part, "open-close") || !cp_portion_stats(s, pt, &st, ev))
			continue;
		/* NORMAL's median / this one's: above 1 is faster (wsc(8)). */
		speedup = speedup_of((double)base.median, (double)st.median);
		if (points) {
			struct json_object *o = json_object_new_object();

			json_put(o, "threshold", json_new_u64(w->threshold));
			json_put(o, "n", json_new_u64(w->n));
			json_put(o, "program",
				 json_new_str(cp_program_names[pt->program]));
			json_put(o, "median_ns", json_new_u64(st.median));
			json_put(o, "min_ns", json_new_u64(st.min));
			json_put(o, "max_ns", json_new_u64(st.max));
			json_put(o, "speedup", json_new_fixed(4, speedup));
			json_object_array_add(points, o);
		} else {
			fprintf(f, "%5u %6u  %-17s  %14.2f  %s\n", w->threshold, w->n,
				cp_program_names[pt->program], st.median / 1e3 / w->n,
				pt->program == CP_NORMAL ? "baseline" :
				speedup_words(words, sizeof(words), speedup));
		}
	}
}

/* The sweep's JSON up to its "points", which the points then fill. */
static struct json_object *cp_sweep_json(const struct cp_cmd *c,
					 const struct cp_session *proto,
					 struct json_object **points)
{
	struct json_object *o = json_object_new_object();
	bool by_n = c->sweep == CP_SWEEP_N;

	json_put(o, "sweep", json_new_str(by_n ? "n" : "threshold"));
	json_put(o, "size", json_new_u64(proto->w.size));
	json_put(o, "repetitions", json_new_u64(proto->reps));
	json_put(o, "cold", json_new_flag(proto->cold));
	/* What the sweep varies is null; the other holds still. */
	json_put(o, "n", by_n ? NULL : json_new_u64(proto->w.n));
	json_put(o, "threshold", by_n ? json_new_u64(proto->w.threshold) : NULL);
	*points = json_object_new_array();
	json_put(o, "points", *points);
	return o;
}

/*
 * The sweep: one session per point, each in a fresh folder.  For the N
 * sweep, the crossover is the smallest N from which WSC+COLLECT's median
 * stays below NORMAL's at every larger N swept.
 */
static int cp_sweep(struct cp_cmd *c, struct csv_out *csv)
{
	const unsigned int *pts = c->sweep == CP_SWEEP_N ? cp_sweep_n : cp_sweep_t;
	unsigned int np = c->sweep == CP_SWEEP_N ? CP_ARRAY_SIZE(cp_sweep_n) :
		CP_ARRAY_SIZE(cp_sweep_t);
	struct cp_session proto = c->s;
	struct json_object *doc = NULL, *points = NULL;
	bool beats[16] = { false };
	unsigned int i, crossover = 0;
	uint64_t copies = 0, mismatches = 0, failed = 0;
	int ret = 0;

	if (c->json) {
		doc = cp_sweep_json(c, &proto, &points);
	} else {
		printf("wsc cp --sweep %s: %zu bytes per file, %u repetitions, %s cache; "
		       "open to close\n", c->sweep == CP_SWEEP_N ? "n" : "threshold",
		       proto.w.size, proto.reps, proto.cold ? "cold" : "hot");
	}
	for (i = 0; i < np && !ret; i++) {
		struct cp_stat a, b, ev[COUNTERS_MAX];

		c->s = proto;
		if (c->sweep == CP_SWEEP_N)
			c->s.w.n = pts[i];
		else
			c->s.w.threshold = pts[i];
		ret = cp_measure(c);
		/* A point cut short by a signal is left out whole. */
		if (!ret && interrupted())
			ret = -EINTR;
		if (!ret) {
			cp_sweep_print(c, stdout, &c->s, i == 0, points);
			if (csv->f)
				cp_print_csv(&c->s, csv->f, i == 0);
			cp_print_errors(&c->s, stderr);
			copies += c->s.copies;
			mismatches += c->s.mismatches;
			failed += c->s.nr_errors;
			beats[i] = cp_portion_stats(&c->s, cp_portion_by_number(1), &a, ev) &&
				   cp_portion_stats(&c->s, cp_portion_by_number(3), &b, ev) &&
				   b.median < a.median;
		}
		cp_session_close(&c->s);
	}
	if (ret == -EINTR && interrupted()) {
		/* The points that ended, valid JSON, marked as interrupted. */
		if (doc) {
			json_put(doc, "interrupted", json_new_flag(true));
			json_put(doc, "points_done", json_new_u64(i - 1));
			json_emit_lines(stdout, doc, NULL);
		} else {
			interrupt_print(stdout, "", "the points above are those that ran to their end");
		}
		return ret;
	}
	if (ret) {
		/* Stdout gets valid JSON all the same, saying the sweep failed. */
		if (doc) {
			json_put(doc, "error", json_new_str(
				 "a point could not run (see stderr)"));
			json_emit_lines(stdout, doc, NULL);
		}
		return ret;
	}
	if (c->sweep == CP_SWEEP_N) {
		for (i = np; i > 0 && beats[i - 1]; i--)
			crossover = pts[i - 1];
	}
	if (doc) {
		json_put(doc, "crossover_n",
			 crossover ? json_new_u64(crossover) : NULL);
		json_put(doc, "interrupted", json_new_flag(false));
		json_put(doc, "verified", json_new_flag(!mismatches));
		json_put(doc, "copies", json_new_u64(copies));
		json_put(doc, "failed", json_new_u64(failed));
		json_put(doc, "environment", env_json());
		json_emit_lines(stdout, doc, NULL);
	} else {
		if (c->sweep == CP_SWEEP_N && crossover)
			printf("WSC+COLLECT beats NORMAL from N = %u on (the paper: one "
			       "transaction alone costs about 2x under WSC)\n", crossover);
		else if (c->sweep == CP_SWEEP_N && (!proto.want[CP_NORMAL] ||
						     !proto.want[CP_WSC_COLLECT]))
			printf("no crossover: NORMAL and WSC+COLLECT did not both run\n");
		else if (c->sweep == CP_SWEEP_N)
			printf("WSC+COLLECT does not stay ahead of NORMAL up to N = %u\n",
			       pts[np - 1]);
		printf("verified: %" PRIu64 " copies compared byte for byte: %s\n", copies,
		       mismatches ? "SOME DIFFER" : "all equal");
		env_print_note(stdout);
	}
	return mismatches || failed ? 1 : 0;
}

int cmd_cp(int argc, char **argv)
{
	struct cp_cmd c = {
		.s = {
			.w = { .n = CP_DEFAULT_N, .size = CP_DEFAULT_SIZE,
			       .threshold = WSC_DEFAULT_THRESHOLD, .dirfd = -1 },
			.reps = CP_DEFAULT_REPS,
			.progress = true,
			.want_counters = true,
		},
	};
	struct csv_out csv = { 0 };
	unsigned int p;
	int ret;

	for (p = 0; p < CP_NR_PROGRAMS; p++)
		c.s.want[p] = true;
	c.s.parent = getenv("TMPDIR");
	if (!c.s.parent || !c.s.parent[0])
		c.s.parent = "/tmp";
	ret = cp_parse(&c, argc, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (c.csv) {
		ret = csv_open(&csv, "cp", c.csv);
		if (ret)
			return ret;
	}
	/* One CPU: no migration in the middle of a portion. */
	ret = pin_to_cpu(c.cpu);
	if (ret) {
		fprintf(stderr, "wsc cp: cannot run on CPU %d: %s\n", c.cpu,
			strerror(-ret));
		csv_abort(&csv);
		return 1;
	}
	c.s.clock_ps = clock_cost_ps();
	c.s.quiet_keep = c.json;
	/* From here a signal ends the run with what it measured. */
	interrupt_arm();
	if (c.sweep) {
		ret = cp_sweep(&c, &csv);
		if (ret == -EINTR && interrupted()) {
			/* The points that ended are in the CSV too. */
			csv_commit(&csv, "cp", 0);
			return INTERRUPT_EXIT;
		}
		if (csv_commit(&csv, "cp", ret < 0) && ret >= 0)
			ret = 1;
		return ret < 0 ? 1 : ret;
	}
	ret = cp_measure(&c);
	if (ret == -EINTR && interrupted() && !c.s.done) {
		interrupt_print(stderr, "wsc cp: ",
				"before the first repetition ended: nothing to report");
		cp_session_close(&c.s);
		csv_abort(&csv);
		return INTERRUPT_EXIT;
	}
	if (ret && !(ret == -EINTR && interrupted())) {
		cp_session_close(&c.s);
		csv_abort(&csv);
		return 1;
	}
	cp_print_errors(&c.s, stderr);
	if (c.json)
		cp_print_json(&c.s, stdout);
	else
		cp_print_table(&c.s, stdout);
	if (csv.f)
		cp_print_csv(&c.s, csv.f, true);
	ret = c.s.mismatches || c.s.nr_errors ? 1 : 0;
	if (c.s.interrupted && c.json)
		interrupt_print(stderr, "wsc cp: ",
				"the JSON is of the repetitions that ran to their end (\"interrupted\": true)");
	if (c.s.keep && c.json)
		fprintf(stderr, "wsc cp: kept %s\n", c.s.w.dir);
	cp_session_close(&c.s);
	if (csv_commit(&csv, "cp", 0))
		ret = 1;
	return c.s.interrupted ? INTERRUPT_EXIT : ret;
}
