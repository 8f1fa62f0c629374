// SPDX-License-Identifier: MIT
/*
 * wsc ls --compare: the DMSM paper timed ls over folders of 5 and 408 files.
 * Three ways to list each folder, interleaved round by round after an
 * untimed warm-up round, in orders that give none of them the caches (or
 * the cold caches) another leaves more often than the others (ls_order):
 *
 *   wsc           the long listing, its stat calls one wrapped batch
 *   conventional  the same listing, its stat calls a loop of fstatat()
 *   system        fork + exec of the system's ls -l, reaped: a process
 *
 * Every round is checked: wsc's listing must equal conventional's byte for
 * byte and the system ls's field by field, or nothing is claimed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/csv.h"
#include "common/env.h"
#include "common/interrupt.h"
#include "common/json.h"
#include "common/report.h"
#include "libwsc.h"
#include "ls.h"

enum ls_variant {
	LS_V_WSC,
	LS_V_CONVENTIONAL,
	LS_V_SYSTEM,
	LS_NR_VARIANTS,
};

static const char *const ls_variant_name[LS_NR_VARIANTS] = {
	[LS_V_WSC]		= "wsc",
	[LS_V_CONVENTIONAL]	= "conventional",
	[LS_V_SYSTEM]		= "system",
};

/*
 * The order of the variants, round by round, a cycle of 6: each runs first
 * twice, and over the cycle (its end joined to its start) each follows
 * each other one exactly 3 times.  What a variant leaves behind (the
 * system ls, a whole process, evicts caches and, under TCG, translated
 * code) so falls on the other two alike: a plain rotation (WCS, CSW, SWC)
 * had wsc run right after the system ls twice as often as conventional.
 * The warm-up round is round 0: with the default 11 rounds, two cycles.
 */
#define LS_NR_ORDERS	6
static const enum ls_variant ls_order[LS_NR_ORDERS][LS_NR_VARIANTS] = {
	{ LS_V_WSC, LS_V_CONVENTIONAL, LS_V_SYSTEM },
	{ LS_V_CONVENTIONAL, LS_V_SYSTEM, LS_V_WSC },
	{ LS_V_CONVENTIONAL, LS_V_WSC, LS_V_SYSTEM },
	{ LS_V_WSC, LS_V_SYSTEM, LS_V_CONVENTIONAL },
	{ LS_V_SYSTEM, LS_V_CONVENTIONAL, LS_V_WSC },
	{ LS_V_SYSTEM, LS_V_WSC, LS_V_CONVENTIONAL },
};

/* The folders made when none is given: the DMSM paper's two sizes. */
static const unsigned int ls_gen_files[] = { 5, 408 };
#define LS_NR_GEN	(sizeof(ls_gen_files) / sizeof(ls_gen_files[0]))

/**
 * struct ls_folder - one folder's samples
 * @path:    the folder
 * @files:   names listed
 * @ns:      whole listings per variant, one per timed round
 * @stat_ns: the stat phase alone, for wsc and conventional
 * @agree:   every round so far agreed (a disagreement is told once)
 * @done:    timed rounds taken: all of them, or fewer after a signal
 */
struct ls_folder {
	char path[4096];
	size_t files;
	unsigned int done;
	uint64_t *ns[LS_NR_VARIANTS];
	uint64_t *stat_ns[LS_V_SYSTEM];
	bool agree;
};

/* A summary of samples, in ns. */
struct ls_fig {
	double median;
	uint64_t min;
	uint64_t max;
};

struct ls_run {
	const struct ls_compare_opts *o;
	struct ls_system sys;
	struct ls_dir dir;
	struct ls_buf buf[LS_NR_VARIANTS];
	struct ls_folder *f;
	unsigned int nr_f;
	unsigned int nr_alloc;	/* folders whose samples are allocated */
	/* The folder made for the generated ones; short enough for a path
	 * to any of their files to fit in an &ls_folder.path. */
	char top[4064];
	bool progress;
};

/* i * 37 % 8192 bytes: sizes spread over many 1 KiB blocks. */
static int ls_make_file(int dfd, unsigned int i)
{
	static char data[8192];
	size_t size = (size_t)i * 37 % sizeof(data);
	char name[32];
	ssize_t n;
	int fd;

	if (!data[0])
		for (n = 0; n < (ssize_t)sizeof(data); n++)
			data[n] = (char)('a' + n % 26);
	snprintf(name, sizeof(name), "file-%04u", i);
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	n = write(fd, data, size);
	if (n != (ssize_t)size) {
		int err = n < 0 ? -errno : -EIO;

		close(fd);
		return err;
	}
	return close(fd) ? -errno : 0;
}

static void ls_remove_folders(struct ls_run *r)
{
	unsigned int i, j;
	char name[32];
	int dfd;

	/* Only the names made: nothing else in SCRATCH is touched. */
	for (i = 0; i < r->nr_f; i++) {
		dfd = open(r->f[i].path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		for (j = 1; dfd >= 0 && j <= ls_gen_files[i]; j++) {
			snprintf(name, sizeof(name), "file-%04u", j);
			unlinkat(dfd, name, 0);
		}
		if (dfd >= 0)
			close(dfd);
		rmdir(r->f[i].path);
	}
	rmdir(r->top);
}

/* A fresh folder under --dir (or $TMPDIR, /tmp), one subfolder per size. */
static int ls_make_folders(struct ls_run *r)
{
	const char *base = r->o->scratch;
	unsigned int i, j;
	int dfd, ret;

	if (!base)
		base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	if ((size_t)snprintf(r->top, sizeof(r->top), "%s/wsc-ls.XXXXXX",
			     base) >= sizeof(r->top)) {
		fprintf(stderr, "wsc ls: %s: path too long\n", base);
		return -1;
	}
	if (!mkdtemp(r->top)) {
		fprintf(stderr, "wsc ls: cannot make a folder in %s: %s\n", base,
			strerror(errno));
		return -1;
	}
	for (i = 0; i < LS_NR_GEN; i++) {
		struct ls_folder *f = &r->f[i];

		snprintf(f->path, sizeof(f->path), "%s/files-%u", r->top,
			 ls_gen_files[i]);
		r->nr_f = i + 1;	/* what ls_remove_folders() undoes */
		if (mkdir(f->path, 0755)) {
			ret = -errno;
			goto fail;
		}
		dfd = open(f->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0) {
			ret = -errno;
			goto fail;
		}
		for (j = 1, ret = 0; j <= ls_gen_files[i] && !ret; j++)
			ret = ls_make_file(dfd, j);
		close(dfd);
		if (ret)
			goto fail;
	}
	return 0;

fail:
	fprintf(stderr, "wsc ls: cannot make the files of %s: %s\n",
		r->f[r->nr_f - 1].path, strerror(-ret));
	ls_remove_folders(r);
	return -1;
}

/* One listing of @f by @v; its time, and the stat phase's. */
static int ls_run_once(struct ls_run *r, struct ls_folder *f,
		       enum ls_variant v, uint64_t *ns, uint64_t *stat_ns)
{
	uint64_t t0;
	int ret;

	t0 = clock_now_ns();
	if (v == LS_V_SYSTEM)
		ret = ls_system_run(&r->sys, f->path, &r->buf[v]);
	else
		ret = ls_list(&r->dir, f->path,
			      v == LS_V_WSC ? LS_WSC : LS_CONVENTIONAL, true,
			      &r->buf[v], stat_ns);
	*ns = clock_now_ns() - t0;
	if (ret > 0) {
		/* Timing a listing with holes in it would claim nothing. */
		ls_dir_report(&r->dir);
		fprintf(stderr, "wsc ls: %s: %d name%s could not be stat'ed\n",
			f->path, ret, ret == 1 ? "" : "s");
	}
	if (v != LS_V_SYSTEM)
		f->files = r->dir.n;
	return ret ? -1 : 0;
}

/*
 * Whether wsc's listing and variant @v's (called @name) agree, by fields
 * when @fields (ls_agree()); when not, the first line apart is said (the two
 * "@verb") and the folder marked.
 */
static bool ls_listings_agree(struct ls_folder *f, const struct ls_buf *b,
			      enum ls_variant v, bool fields, const char *name,
			      const char *verb)
{
	size_t nr = ls_agree(&b[LS_V_WSC], &b[v], fields);
	char label[32];

	if (!nr)
		return true;
	fprintf(stderr, "wsc ls: %s: the wsc and %s listings %s at line %zu:\n",
		f->path, name, verb, nr);
	snprintf(label, sizeof(label), "%s:", name);
	ls_print_line("wsc:", &b[LS_V_WSC], nr);
	ls_print_line(label, &b[v], nr);
	f->agree = false;
	return false;
}

/* The round's three listings must say the same; told once per folder. */
static void ls_check_round(struct ls_run *r, struct ls_folder *f)
{
	if (f->agree && ls_listings_agree(f, r->buf, LS_V_CONVENTIONAL, false,
					  "conventional", "differ"))
		ls_listings_agree(f, r->buf, LS_V_SYSTEM, true, "system ls",
				  "disagree");
}

/* Round 0 is the warm-up: run, checked, not kept. */
static int ls_run_folder(struct ls_run *r, unsigned int fi)
{
	struct ls_folder *f = &r->f[fi];
	unsigned int reps = r->o->reps, round, k;
	uint64_t ns, stat_ns = 0;

	f->agree = true;
	f->done = 0;
	for (round = 0; round <= reps; round++) {
		/* Between rounds: a round cut short is not kept. */
		if (interrupted())
			break;
		if (r->progress)
			fprintf(stderr, "wsc ls: folder %u of %u, round %u of %u\r",
				fi + 1, r->nr_f, round, reps);
		for (k = 0; k < LS_NR_VARIANTS; k++) {
			enum ls_variant v = ls_order[round % LS_NR_ORDERS][k];

			if (ls_run_once(r, f, v, &ns, &stat_ns))
				return interrupted() ? 0 : -1;
			if (!round)
				continue;
			f->ns[v][round - 1] = ns;
			if (v != LS_V_SYSTEM)
				f->stat_ns[v][round - 1] = stat_ns;
		}
		if (interrupted())
			break;
		ls_check_round(r, f);
		if (round)
			f->done = round;
	}
	if (r->progress)
		fprintf(stderr, "%60s\r", "");
	return 0;
}

static struct ls_fig ls_figures(const uint64_t *ns, unsigned int n)
{
	struct ls_fig fig = { .min = UINT64_MAX };
	double *v = malloc(n * sizeof(*v));
	unsigned int i;

	for (i = 0; i < n; i++) {
		fig.min = ns[i] < fig.min ? ns[i] : fig.min;
		fig.max = ns[i] > fig.max ? ns[i] : fig.max;
		if (v)
			v[i] = (double)ns[i];
	}
	fig.median = v ? wsc_stats_median(v, n) : NAN;
	free(v);
	return fig;
}

/* @base: the conventional median the speedup is over; 0 for the baseline. */
static void ls_print_row(const char *label, const struct ls_fig *fig,
			 double base)
{
	char words[40];

	printf("%-20s %12.3f %12.3f %12.3f  %s\n", label, fig->median / 1e3,
	       (double)fig->min / 1e3, (double)fig->max / 1e3,
	       base > 0 ? speedup_words(words, sizeof(words),
					speedup_of(base, fig->median)) :
	       "baseline");
}

/* The measured folder with the most files: the one the summary is about. */
static const struct ls_folder *ls_main_folder(const struct ls_run *r)
{
	const struct ls_folder *best = NULL;
	unsigned int i;

	for (i = 0; i < r->nr_f; i++)
		if (r->f[i].done && (!best || r->f[i].files >= best->files))
			best = &r->f[i];
	return best;
}

/* Every folder measured agreed; one a signal came before is not judged. */
static bool ls_verified(const struct ls_run *r)
{
	unsigned int i;

	for (i = 0; i < r->nr_f; i++)
		if (r->f[i].done && !r->f[i].agree)
			return false;
	return true;
}

static void ls_print_tables(const struct ls_run *r)
{
	unsigned int reps, i, v;
	const struct ls_folder *t = ls_main_folder(r);
	struct ls_fig fig, conv, sfig, sconv;
	char words[40];

	printf("# wsc ls --compare: %u timed rounds per variant after one warm-up round, the variants interleaved in a 6-round order: each first twice, each after each other equally often\n",
	       r->o->reps);
	if (interrupted())
		interrupt_print(stdout, "# ", "the folders below with the rounds taken until then");
	printf("# wsc: the stat calls as one batch of newfstatat entries through /dev/wsc; conventional: a loop of fstatat(); both read the names with getdents64 and format ls -l's text in memory\n");
	printf("# system: fork + exec of %s -l --time-style=long-iso (LC_ALL=C), output drained from a pipe, reaped: a whole process\n",
	       r->sys.path);
	printf("# stat phase: the stat calls alone; wsc's listing also opens and closes /dev/wsc, its stat phase does not\n");
	printf("# times in us (CLOCK_MONOTONIC); speedup over conventional: its median / the variant's, above 1 is faster\n");
	env_print_text(stdout);
	for (i = 0; i < r->nr_f; i++) {
		const struct ls_folder *f = &r->f[i];

		reps = f->done;
		if (!reps) {
			printf("\n# %s: not measured (interrupted before)\n", f->path);
			continue;
		}
		printf("\n# %s: %zu files", f->path, f->files);
		if (reps != r->o->reps)
			printf(", %u of %u rounds (interrupted)", reps, r->o->reps);
		printf("\n%-20s %12s %12s %12s  %s\n", "variant", "median_us",
		       "min_us", "max_us", "vs conventional");
		conv = ls_figures(f->ns[LS_V_CONVENTIONAL], reps);
		for (v = 0; v < LS_NR_VARIANTS; v++) {
			fig = ls_figures(f->ns[v], reps);
			ls_print_row(ls_variant_name[v], &fig,
				     v == LS_V_CONVENTIONAL ? 0 : conv.median);
		}
		sconv = ls_figures(f->stat_ns[LS_V_CONVENTIONAL], reps);
		sfig = ls_figures(f->stat_ns[LS_V_WSC], reps);
		ls_print_row("wsc stat phase", &sfig, sconv.median);
		ls_print_row("conventional stat", &sconv, 0);
	}
	printf("\n");
	if (ls_verified(r))
		printf("# verified: every round, wsc's listing equals conventional's byte for byte and the system ls's field by field\n");
	else
		printf("# NOT verified: the listings disagreed (above, on stderr); the times claim nothing\n");

	if (t) {
		reps = t->done;
		printf("wsc over %zu files: %s than conventional\n", t->files,
		       speedup_words(words, sizeof(words),
				     speedup_of(ls_figures(t->ns[LS_V_CONVENTIONAL], reps).median,
						ls_figures(t->ns[LS_V_WSC], reps).median)));
		printf("wsc's stat phase alone over %zu files: %s than conventional's\n",
		       t->files,
		       speedup_words(words, sizeof(words),
				     speedup_of(ls_figures(t->stat_ns[LS_V_CONVENTIONAL], reps).median,
						ls_figures(t->stat_ns[LS_V_WSC], reps).median)));
	}
	if (interrupted())
		interrupt_print(stdout, "", "the figures are of the rounds taken until then");
	env_print_note(stdout);
}

/* A speedup, or null when there is none (no memory for the median). */
/* One variant of one folder; the system's ls has no stat phase. */
static struct json_object *ls_variant_json(const struct ls_folder *f,
					   unsigned int v)
{
	struct json_object *o = json_object_new_object();
	unsigned int reps = f->done;
	struct ls_fig fig = ls_figures(f->ns[v], reps);
	struct ls_fig conv = ls_figures(f->ns[LS_V_CONVENTIONAL], reps);
	struct ls_fig sfig, sconv;

	json_put(o, "files", json_new_u64(f->files));
	json_put(o, "dir", json_new_str(f->path));
	json_put(o, "repetitions_done", json_new_u64(reps));
	json_put(o, "variant", json_new_str(ls_variant_name[v]));
	json_put(o, "median_ns", json_new_fixed(0, fig.median));
	json_put(o, "min_ns", json_new_u64(fig.min));
	json_put(o, "max_ns", json_new_u64(fig.max));
	/* Conventional's median / this one's: above 1 is faster. */
	json_put(o, "speedup",
		 json_new_fixed(4, speedup_of(conv.median, fig.median)));
	if (v == LS_V_SYSTEM) {
		json_put(o, "stat_median_ns", NULL);
		json_put(o, "stat_speedup", NULL);
		return o;
	}
	sfig = ls_figures(f->stat_ns[v], reps);
	sconv = ls_figures(f->stat_ns[LS_V_CONVENTIONAL], reps);
	json_put(o, "stat_median_ns", json_new_fixed(0, sfig.median));
	json_put(o, "stat_speedup",
		 json_new_fixed(4, speedup_of(sconv.median, sfig.median)));
	return o;
}

static void ls_print_json(const struct ls_run *r)
{
	struct json_object *o = json_object_new_object();
	struct json_object *results = json_object_new_array();
	unsigned int i, v;

	json_put(o, "verified", json_new_flag(ls_verified(r)));
	json_put(o, "repetitions", json_new_u64(r->o->reps));
	json_put(o, "interrupted", json_new_flag(interrupted()));
	for (i = 0; i < r->nr_f; i++) {
		if (!r->f[i].done)
			continue;
		for (v = 0; v < LS_NR_VARIANTS; v++)
			json_object_array_add(results,
					      ls_variant_json(&r->f[i], v));
	}
	json_put(o, "results", results);
	json_put(o, "environment", env_json());
	json_emit_line(stdout, o);
}

/* files,variant,phase,repetition,ns: every sample, rounds from 1. */
static int ls_write_csv(const struct ls_run *r, FILE *f)
{
	unsigned int i, k, v;

	fprintf(f, "files,variant,phase,repetition,ns\n");
	for (i = 0; i < r->nr_f; i++) {
		const struct ls_folder *d = &r->f[i];

		for (k = 0; k < d->done; k++) {
			for (v = 0; v < LS_NR_VARIANTS; v++)
				fprintf(f, "%zu,%s,listing,%u,%llu\n", d->files,
					ls_variant_name[v], k + 1,
					(unsigned long long)d->ns[v][k]);
			for (v = 0; v < LS_V_SYSTEM; v++)
				fprintf(f, "%zu,%s,stat,%u,%llu\n", d->files,
					ls_variant_name[v], k + 1,
					(unsigned long long)d->stat_ns[v][k]);
		}
	}
	return ferror(f) ? -1 : 0;
}

/* Every sample's room, before the first is taken. */
static int ls_alloc_samples(struct ls_run *r, unsigned int n)
{
	unsigned int i, v;

	r->f = calloc(n, sizeof(*r->f));
	if (!r->f)
		return -ENOMEM;
	r->nr_alloc = n;
	for (i = 0; i < n; i++) {
		for (v = 0; v < LS_NR_VARIANTS; v++) {
			r->f[i].ns[v] = calloc(r->o->reps, sizeof(uint64_t));
			if (!r->f[i].ns[v])
				return -ENOMEM;
		}
		for (v = 0; v < LS_V_SYSTEM; v++) {
			r->f[i].stat_ns[v] = calloc(r->o->reps, sizeof(uint64_t));
			if (!r->f[i].stat_ns[v])
				return -ENOMEM;
		}
	}
	return 0;
}

static void ls_free_run(struct ls_run *r)
{
	unsigned int i, v;

	for (i = 0; i < r->nr_alloc; i++) {
		for (v = 0; v < LS_NR_VARIANTS; v++)
			free(r->f[i].ns[v]);
		for (v = 0; v < LS_V_SYSTEM; v++)
			free(r->f[i].stat_ns[v]);
	}
	free(r->f);
	for (v = 0; v < LS_NR_VARIANTS; v++)
		ls_buf_free(&r->buf[v]);
	ls_dir_free(&r->dir);
	ls_system_free(&r->sys);
}

int ls_compare(const struct ls_compare_opts *o)
{
	struct ls_run r = { .o = o, .dir = LS_DIR_INIT };
	struct csv_out csv = { NULL };
	unsigned int i, n = o->dirs ? o->nr_dirs : LS_NR_GEN;
	int ret = 1;

	/* Everything that can refuse, before anything is made. */
	if (ls_wsc_probe() || ls_system_find(&r.sys))
		goto out;
	/* From here a signal ends the run with the rounds taken. */
	interrupt_arm();
	if (o->csv) {
		ret = csv_open(&csv, "ls", o->csv);
		if (ret)
			goto out;
		ret = 1;
	}
	if (ls_alloc_samples(&r, n)) {
		fprintf(stderr, "wsc ls: no memory for %u rounds\n", o->reps);
		goto out_csv;
	}
	if (o->dirs) {
		for (i = 0; i < n; i++)
			snprintf(r.f[i].path, sizeof(r.f[i].path), "%s",
				 o->dirs[i]);
		r.nr_f = n;
	} else if (ls_make_folders(&r)) {
		goto out_csv;
	}
	r.progress = !o->json && isatty(STDERR_FILENO);
	for (i = 0; i < r.nr_f && !interrupted(); i++)
		if (ls_run_folder(&r, i))
			goto out_folders;

	if (interrupted() && !r.f[0].done) {
		interrupt_print(stderr, "wsc ls: ",
				"before the first timed round ended: nothing to report");
		ret = INTERRUPT_EXIT;
		goto out_folders;
	}
	if (o->json)
		ls_print_json(&r);
	else
		ls_print_tables(&r);
	fflush(stdout);
	if (interrupted() && o->json)
		interrupt_print(stderr, "wsc ls: ",
				"the JSON is of the rounds taken until then (\"interrupted\": true)");
	ret = ls_verified(&r) ? 0 : 1;
	/* Samples of listings that disagreed are not worth a file. */
	if (csv.f && csv_commit(&csv, "ls", ret || ls_write_csv(&r, csv.f)))
		ret = 1;
	if (interrupted())
		ret = INTERRUPT_EXIT;

out_folders:
	if (!o->dirs && o->keep)
		fprintf(stderr, "wsc ls: kept %s\n", r.top);
	else if (!o->dirs)
		ls_remove_folders(&r);
out_csv:
	csv_abort(&csv);
out:
	ls_free_run(&r);
	return ret;
}
