// SPDX-License-Identifier: MIT
/* Printing the statistics: a full report, or one line per file. */
#include <stdlib.h>

#include "textstat.h"

#define BAR_WIDTH 40

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static double percent(uint64_t a, uint64_t b)
{
	return 100.0 * ratio(a, b);
}

static void print_bar(FILE *out, uint64_t value, uint64_t max)
{
	size_t len = max ? (size_t)((value * BAR_WIDTH + max - 1) / max) : 0;
	size_t i;

	for (i = 0; i < len; i++)
		fputc('#', out);
}

static void print_histogram(FILE *out, const struct word_stats *ws)
{
	uint64_t max = 0;
	size_t i;

	for (i = 0; i < WORD_LEN_BUCKETS; i++)
		if (ws->len_hist[i] > max)
			max = ws->len_hist[i];
	fprintf(out, "  word lengths (characters):\n");
	for (i = 0; i < WORD_LEN_BUCKETS; i++) {
		if (!ws->len_hist[i])
			continue;
		fprintf(out, "    %2zu%s %10llu %5.1f%% ", i + 1,
			i + 1 == WORD_LEN_BUCKETS ? "+" : " ",
			(unsigned long long)ws->len_hist[i],
			percent(ws->len_hist[i], ws->words));
		print_bar(out, ws->len_hist[i], max);
		fputc('\n', out);
	}
}

static void print_top(FILE *out, const struct text_stats *st, size_t top)
{
	struct word_count *ranked;
	size_t n, i;

	if (top == 0 || !st->table || wt_unique(st->table) == 0)
		return;
	ranked = wt_top(st->table, &n);
	if (top > n)
		top = n;
	fprintf(out, "  most frequent words:\n");
	for (i = 0; i < top; i++)
		fprintf(out, "    %3zu. %-20s %10llu %5.2f%%\n", i + 1,
			ranked[i].word, (unsigned long long)ranked[i].count,
			percent(ranked[i].count, st->words.words));
	free(ranked);
}

void report_print(FILE *out, const struct text_stats *st,
		  const struct report_options *opt)
{
	const struct char_stats *c = &st->chars;
	const struct line_stats *l = &st->lines;
	const struct word_stats *w = &st->words;
	double flesch = flesch_reading_ease(w->words, st->sentences,
					    w->syllables);

	fprintf(out, "%s\n", st->name);
	fprintf(out, "  bytes        %12llu  (%llu characters",
		(unsigned long long)c->bytes,
		(unsigned long long)c->codepoints);
	if (c->invalid)
		fprintf(out, ", %llu bytes not UTF-8",
			(unsigned long long)c->invalid);
	fprintf(out, ")\n");
	fprintf(out, "  lines        %12llu  (%llu blank, mean %.1f bytes, "
		"longest %llu",
		(unsigned long long)l->lines, (unsigned long long)l->blank,
		ratio(l->total_len, l->lines), (unsigned long long)l->longest);
	if (l->longest_at && !st->is_total)
		fprintf(out, " at line %llu", (unsigned long long)l->longest_at);
	fprintf(out, ")%s\n", l->missing_newline ? ", no final newline" : "");
	fprintf(out, "  words        %12llu  (%zu different, mean %.2f "
		"characters, longest %llu)\n",
		(unsigned long long)w->words,
		st->table ? wt_unique(st->table) : (size_t)0,
		ratio(w->codepoints, w->words),
		(unsigned long long)w->longest);
	fprintf(out, "  sentences    %12llu  (mean %.1f words)\n",
		(unsigned long long)st->sentences,
		ratio(w->words, st->sentences));
	if (w->words)
		fprintf(out, "  readability  %12.1f  (Flesch, %s; %.2f "
			"syllables a word)\n", flesch, flesch_label(flesch),
			ratio(w->syllables, w->words));
	fprintf(out, "  characters   letters %.1f%% (upper %.1f%%), digits "
		"%.1f%%, space %.1f%%, punctuation %.1f%%, control %.1f%%, "
		"non-ASCII %.1f%%\n",
		percent(c->letters, c->codepoints),
		percent(c->upper, c->letters),
		percent(c->digits, c->codepoints),
		percent(c->spaces, c->codepoints),
		percent(c->punct, c->codepoints),
		percent(c->control, c->codepoints),
		percent(c->non_ascii, c->codepoints));
	if (opt->histogram && w->words)
		print_histogram(out, w);
	print_top(out, st, opt->top);
}

void report_brief_header(FILE *out)
{
	fprintf(out, "%10s %8s %8s %9s %8s %7s  %s\n", "bytes", "lines",
		"words", "different", "sentences", "flesch", "file");
}

void report_brief(FILE *out, const struct text_stats *st)
{
	fprintf(out, "%10llu %8llu %8llu %9zu %8llu %7.1f  %s\n",
		(unsigned long long)st->chars.bytes,
		(unsigned long long)st->lines.lines,
		(unsigned long long)st->words.words,
		st->table ? wt_unique(st->table) : (size_t)0,
		(unsigned long long)st->sentences,
		flesch_reading_ease(st->words.words, st->sentences,
				    st->words.syllables),
		st->name);
}
