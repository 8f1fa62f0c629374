// SPDX-License-Identifier: MIT
/*
 * wsc ls: list a folder like `LC_ALL=C ls -l --time-style=long-iso`, its
 * stat calls made as one wrapped batch (or, with --conventional, a loop of
 * fstatat()); or time both against the system's ls (the DMSM paper's ls
 * experiment, Documentation/papers.md).
 *
 *   wsc ls [-l] [--conventional] DIR
 *   wsc ls --compare [-r R] [--json] [--csv FILE] [--dir SCRATCH] [--keep]
 *   wsc ls --compare [-r R] [--json] [--csv FILE] DIR...
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd_ls.h"
#include "common/args.h"
#include "ls.h"

static void ls_usage(FILE *f)
{
	fprintf(f,
		"Usage: wsc ls [-l] [--conventional] DIR\n"
		"       wsc ls --compare [-r R] [--json] [--csv FILE] [--dir SCRATCH] [--keep]\n"
		"       wsc ls --compare [-r R] [--json] [--csv FILE] DIR...\n\n"
		"List DIR as `LC_ALL=C ls -l --time-style=long-iso DIR` does (names only\n"
		"without -l; names starting with '.' left out), sorted bytewise.  The stat\n"
		"call of every name goes to the kernel as one wrapped batch of newfstatat\n"
		"entries through /dev/wsc, each its own chain, so a name removed meanwhile\n"
		"fails alone (\"cannot access\", exit status 1 at the end).\n\n"
		"  -l, --long          the long listing: mode, links, owner, group, size,\n"
		"                      mtime, name, symlink target\n"
		"      --conventional  stat with a loop of fstatat() instead (no module needed)\n\n"
		"--compare times, per folder, the long listing with the batch (wsc), with\n"
		"the fstatat() loop (conventional) and the system's ls as a whole process\n"
		"(fork, exec, drain its pipe, reap: system), interleaved round by round\n"
		"after an untimed warm-up round (a 6-round order: each variant first twice\n"
		"and after each other equally often), and the stat phase alone.  Every round's\n"
		"listings must agree (wsc = conventional byte for byte, = system ls field\n"
		"by field), else exit status 1.  Without DIR, two folders of %u and %u\n"
		"files are made for the run and removed after it.\n\n"
		"  -r, --rounds R      timed rounds, 1..%u (default %u)\n"
		"      --repetitions R the same as --rounds (its old name)\n"
		"  -j, --json          one JSON object instead of the tables\n"
		"      --csv FILE      every sample: files,variant,phase,repetition,ns\n"
		"                      (phase listing or stat); written only when verified\n"
		"      --dir SCRATCH   make the folders in a fresh folder under SCRATCH\n"
		"                      (default $TMPDIR, else /tmp)\n"
		"      --keep          leave the folders made\n"
		"  -h, --help          show this help\n\n"
		"Needs wsc.ko loaded, except with --conventional or without -l.  Under\n"
		"emulation the times are emulated: only ratios within one run carry over.\n",
		5, 408, LS_MAX_REPS, LS_DEFAULT_REPS);
}

/*
 * The folders are made in SCRATCH: refuse one that cannot hold them.  A
 * name that is no folder is the command line's mistake (2); a folder we
 * may not write in, the system's refusal (1), as in wsc(8).
 */
static int ls_check_scratch(const char *dir)
{
	struct stat st;

	if (!dir[0])
		return usage_error("ls", "--dir needs a folder");
	if (stat(dir, &st))
		return usage_error("ls", "--dir %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return usage_error("ls", "--dir %s is not a folder", dir);
	if (access(dir, W_OK | X_OK)) {
		fprintf(stderr, "wsc ls: --dir: cannot write in %s: %s\n", dir,
			strerror(errno));
		return 1;
	}
	return 0;
}

static int ls_plain(const char *path, bool long_fmt, enum ls_how how)
{
	struct ls_dir d = LS_DIR_INIT;
	struct ls_buf out = { NULL };
	int ret;

	/* Without the module, say so once, and what lists without it. */
	if (long_fmt && how == LS_WSC && ls_wsc_probe()) {
		fprintf(stderr, "wsc ls: --conventional lists without the module\n");
		return 1;
	}
	ret = ls_list(&d, path, how, long_fmt, &out, NULL);
	if (ret < 0)
		goto out;
	/* Like ls: say which names failed, list the others, then fail. */
	ls_dir_report(&d);
	if (out.len && fwrite(out.p, 1, out.len, stdout) != out.len)
		ret = -EIO;
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "wsc ls: write error: %s\n", strerror(errno));
		ret = -EIO;
	}
out:
	ls_buf_free(&out);
	ls_dir_free(&d);
	return ret ? 1 : 0;
}

/**
 * struct ls_opts - what wsc ls was asked
 * @long_fmt, @conventional: -l, --conventional
 * @compare: --compare, with its options in @co
 * @dir:     the folder to list, without --compare
 */
struct ls_opts {
	bool long_fmt;
	bool conventional;
	bool compare;
	const char *dir;
	struct ls_compare_opts co;
};

/* What the options' checks need besides @co. */
struct ls_args {
	struct ls_compare_opts *co;
	bool has_reps;
};

/* -r, the one option with a value to check; 0 or the exit code. */
static int ls_value(void *ctx, int c, const char *arg)
{
	struct ls_args *a = ctx;

	if (c != 'r')
		return EXIT_USAGE;	/* getopt_long() returns no other */
	a->has_reps = true;
	return parse_uint("ls", "--rounds", arg, 1, LS_MAX_REPS, &a->co->reps);
}

/* 0: run; -1: done, exit 0 (--help); else the exit code. */
static int ls_parse(struct ls_opts *o, int argc, char **argv)
{
	enum {
		LS_OPT_CONV = 256, LS_OPT_COMPARE, LS_OPT_CSV, LS_OPT_DIR,
		LS_OPT_KEEP
	};
	static const struct option opts[] = {
		{ "long",         no_argument,       NULL, 'l' },
		{ "conventional", no_argument,       NULL, LS_OPT_CONV },
		{ "compare",      no_argument,       NULL, LS_OPT_COMPARE },
		{ "dir",          required_argument, NULL, LS_OPT_DIR },
		{ "keep",         no_argument,       NULL, LS_OPT_KEEP },
		OPT_ROUNDS('r'), OPT_CSV(LS_OPT_CSV), OPT_JSON, OPT_HELP, OPT_END
	};
	struct ls_compare_opts *co = &o->co;
	struct ls_args a = { .co = co };
	const struct opt_set set[] = {
		{ 'l', &o->long_fmt, NULL },
		{ LS_OPT_CONV, &o->conventional, NULL },
		{ LS_OPT_COMPARE, &o->compare, NULL },
		{ 'j', &co->json, NULL },
		{ LS_OPT_CSV, NULL, &co->csv },
		{ LS_OPT_DIR, NULL, &co->scratch },
		{ LS_OPT_KEEP, &co->keep, NULL },
		{ 0 }
	};
	const struct opt_parser p = {
		.cmd = "ls", .shortopts = ":lr:jh", .longopts = opts,
		.set = set, .usage = ls_usage, .value = ls_value, .ctx = &a,
	};
	int ret = opt_parse(&p, argc, argv);

	if (ret)
		return ret;

	if (!o->compare) {
		if (a.has_reps || co->json || co->csv || co->scratch || co->keep)
			return usage_error("ls", "-r, --json, --csv, --dir and --keep go with --compare");
		if (optind >= argc)
			return usage_error("ls", "which folder?");
		if (optind + 1 != argc)
			return usage_error("ls", "one folder at a time: unexpected '%s'",
				      argv[optind + 1]);
		o->dir = argv[optind];
		return 0;
	}
	if (o->long_fmt || o->conventional)
		return usage_error("ls", "--compare times the long listing both ways: no %s",
			      o->long_fmt ? "-l" : "--conventional");
	if (optind < argc) {
		if (co->scratch || co->keep)
			return usage_error("ls", "--dir and --keep go with the folders --compare makes, not with DIR");
		co->dirs = argv + optind;
		co->nr_dirs = (unsigned int)(argc - optind);
	} else if (co->scratch) {
		return ls_check_scratch(co->scratch);
	}
	return 0;
}

static int ls_run(const struct ls_opts *o)
{
	/* ls's times and ours must be in one zone, read once. */
	tzset();
	if (!o->compare)
		return ls_plain(o->dir, o->long_fmt,
				o->conventional ? LS_CONVENTIONAL : LS_WSC);
	return ls_compare(&o->co);
}

int cmd_ls(int argc, char **argv)
{
	struct ls_opts o = { .co = { .reps = LS_DEFAULT_REPS } };
	int ret = ls_parse(&o, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	return ls_run(&o);
}
