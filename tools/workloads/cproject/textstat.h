/* SPDX-License-Identifier: MIT */
/*
 * textstat: statistics of plain text files (lines, characters, words,
 * sentences, a readability score and the most frequent words).
 *
 * The program is a workload of wsc's tools (tools/workloads/workload
 * builds it with make): small, self-contained, plain C.
 */
#ifndef TEXTSTAT_H
#define TEXTSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* util.c: failing allocation ends the program with a message. */
extern const char *progname;
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xmemdup0(const char *s, size_t n);

/* buffer.c: a whole file in memory. */
struct buf {
	char *data;
	size_t len;
	size_t cap;
};
int buf_read_file(struct buf *b, const char *path);	/* "-" is stdin */
void buf_free(struct buf *b);

/* utf8.c */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);
static inline int utf8_is_continuation(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

/* chars.c: byte and character classes. */
struct char_stats {
	uint64_t bytes;
	uint64_t codepoints;	/* valid UTF-8 sequences, ASCII included */
	uint64_t invalid;	/* bytes that start no valid sequence */
	uint64_t letters;	/* ASCII letters */
	uint64_t upper;
	uint64_t lower;
	uint64_t digits;
	uint64_t spaces;
	uint64_t punct;
	uint64_t control;	/* other ASCII control bytes */
	uint64_t non_ascii;	/* code points above U+007F */
};
void chars_scan(const char *s, size_t n, struct char_stats *cs);
void chars_add(struct char_stats *to, const struct char_stats *from);

/* lines.c */
struct line_stats {
	uint64_t lines;
	uint64_t blank;		/* only white space */
	uint64_t total_len;	/* bytes, newlines excluded */
	uint64_t longest;	/* bytes */
	uint64_t longest_at;	/* 1-based line number of the longest */
	int missing_newline;	/* the last line has no '\n' */
};
void lines_scan(const char *s, size_t n, struct line_stats *ls);
void lines_add(struct line_stats *to, const struct line_stats *from);

/* hash.c: words and how often each was seen. */
struct word_table;
struct word_count {
	const char *word;	/* owned by the table */
	size_t len;
	uint64_t count;
};
struct word_table *wt_new(void);
void wt_free(struct word_table *wt);
void wt_add(struct word_table *wt, const char *word, size_t len, uint64_t n);
void wt_merge(struct word_table *to, const struct word_table *from);
size_t wt_unique(const struct word_table *wt);
/* Calls fn for every entry, in no particular order. */
void wt_each(const struct word_table *wt,
	     void (*fn)(const struct word_count *wc, void *arg), void *arg);

/* sort.c: the most frequent words, most frequent first, ties by word. */
struct word_count *wt_top(const struct word_table *wt, size_t *n);

/* words.c */
#define WORD_LEN_BUCKETS 16	/* 1..15 code points, then 16 or more */
struct word_stats {
	uint64_t words;
	uint64_t codepoints;	/* summed over the words */
	uint64_t longest;
	uint64_t syllables;
	uint64_t len_hist[WORD_LEN_BUCKETS];
};
void words_scan(const char *s, size_t n, struct word_stats *ws,
		struct word_table *wt);
void words_add(struct word_stats *to, const struct word_stats *from);

/* readability.c */
unsigned syllables_estimate(const char *word, size_t len);
uint64_t sentences_count(const char *s, size_t n);
double flesch_reading_ease(uint64_t words, uint64_t sentences,
			   uint64_t syllables);
const char *flesch_label(double score);

/* report.c */
struct text_stats {
	const char *name;
	struct char_stats chars;
	struct line_stats lines;
	struct word_stats words;
	uint64_t sentences;
	struct word_table *table;
	int is_total;	/* the sum of several files */
};
struct report_options {
	size_t top;		/* most frequent words to list */
	int histogram;		/* show the word length histogram */
	int brief;		/* one line per file */
};
void report_print(FILE *out, const struct text_stats *st,
		  const struct report_options *opt);
void report_brief_header(FILE *out);
void report_brief(FILE *out, const struct text_stats *st);

#endif /* TEXTSTAT_H */
