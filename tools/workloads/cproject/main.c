// SPDX-License-Identifier: MIT
/*
 * textstat [-b] [-H] [-n N] [FILE...]
 *
 * Statistics of each text FILE (standard input when none is given, or for
 * "-"), and their sum when there are several.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "textstat.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s [-b] [-H] [-n N] [FILE...]\n"
		"Statistics of text files: lines, characters, words, sentences,\n"
		"a readability score and the most frequent words.\n"
		"\n"
		"  -b    brief: one line per file\n"
		"  -H    show a histogram of word lengths\n"
		"  -n N  list the N most frequent words (default 10, 0: none)\n"
		"  -h    show this help\n"
		"\n"
		"With no FILE, or when FILE is -, read standard input.\n",
		progname);
}

static size_t parse_count(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v > 100000) {
		fprintf(stderr, "%s: -n wants a number from 0 to 100000, not "
			"'%s'\n", progname, s);
		exit(2);
	}
	return (size_t)v;
}

/* Counts one file; returns 0, or -1 (with a message) when unreadable. */
static int analyse(const char *path, struct text_stats *st)
{
	struct buf b;

	memset(st, 0, sizeof(*st));
	st->name = strcmp(path, "-") == 0 ? "(standard input)" : path;
	if (buf_read_file(&b, path) < 0) {
		fprintf(stderr, "%s: %s: %s\n", progname, path, strerror(errno));
		return -1;
	}
	st->table = wt_new();
	chars_scan(b.data, b.len, &st->chars);
	lines_scan(b.data, b.len, &st->lines);
	words_scan(b.data, b.len, &st->words, st->table);
	st->sentences = sentences_count(b.data, b.len);
	buf_free(&b);
	return 0;
}

static void add_into(struct text_stats *total, const struct text_stats *st)
{
	chars_add(&total->chars, &st->chars);
	lines_add(&total->lines, &st->lines);
	words_add(&total->words, &st->words);
	total->sentences += st->sentences;
	wt_merge(total->table, st->table);
}

int main(int argc, char **argv)
{
	struct report_options opt = { 10, 0, 0 };
	struct text_stats total;
	static char *const stdin_only[] = { "-", NULL };
	char *const *files;
	int nfiles, ok = 0, failed = 0, c, i;

	if (argv[0] && argv[0][0]) {
		const char *slash = strrchr(argv[0], '/');

		progname = slash ? slash + 1 : argv[0];
	}
	while ((c = getopt(argc, argv, "bHn:h")) != -1) {
		switch (c) {
		case 'b':
			opt.brief = 1;
			break;
		case 'H':
			opt.histogram = 1;
			break;
		case 'n':
			opt.top = parse_count(optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	files = optind < argc ? argv + optind : stdin_only;
	nfiles = optind < argc ? argc - optind : 1;

	memset(&total, 0, sizeof(total));
	total.name = "total";
	total.is_total = 1;
	total.table = wt_new();
	if (opt.brief)
		report_brief_header(stdout);
	for (i = 0; i < nfiles; i++) {
		struct text_stats st;

		if (analyse(files[i], &st) < 0) {
			failed++;
			continue;
		}
		if (opt.brief) {
			report_brief(stdout, &st);
		} else {
			if (ok)
				fputc('\n', stdout);
			report_print(stdout, &st, &opt);
		}
		add_into(&total, &st);
		wt_free(st.table);
		ok++;
	}
	if (ok > 1) {
		if (opt.brief) {
			report_brief(stdout, &total);
		} else {
			fputc('\n', stdout);
			report_print(stdout, &total, &opt);
		}
	}
	wt_free(total.table);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: writing the report: %s\n", progname,
			strerror(errno));
		return 1;
	}
	return failed ? 1 : 0;
}
