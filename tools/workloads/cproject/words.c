// SPDX-License-Identifier: MIT
/*
 * Splitting text into words.  A word is a run of letters and digits;
 * ASCII letters are folded to lower case.  Non-ASCII letters count as
 * letters (roughly: code points from U+00C0 up, except the general
 * punctuation block).  An apostrophe, ASCII or U+2019, inside a word
 * belongs to it ("don't"); at either end it is dropped ("'quoted'").
 */
#include <stdlib.h>
#include <string.h>

#include "textstat.h"

enum kind { OTHER, LETTER, APOSTROPHE };

/* What starts at s: its kind, and its length in bytes in *len. */
static enum kind next_kind(const unsigned char *s, size_t n, size_t *len)
{
	uint32_t cp;

	if (s[0] < 0x80) {
		*len = 1;
		if ((s[0] >= 'a' && s[0] <= 'z') ||
		    (s[0] >= 'A' && s[0] <= 'Z') ||
		    (s[0] >= '0' && s[0] <= '9'))
			return LETTER;
		return s[0] == '\'' ? APOSTROPHE : OTHER;
	}
	*len = utf8_decode(s, n, &cp);
	if (*len == 0) {
		*len = 1;	/* invalid byte: a separator */
		return OTHER;
	}
	if (cp == 0x2019)
		return APOSTROPHE;
	if (cp >= 0xC0 && cp != 0xD7 && cp != 0xF7 &&
	    !(cp >= 0x2000 && cp <= 0x206F) && !(cp >= 0x3000 && cp <= 0x303F))
		return LETTER;
	return OTHER;
}

struct scratch {
	char *s;
	size_t len, cap;
};

static void scratch_put(struct scratch *w, const unsigned char *p, size_t n)
{
	if (w->len + n > w->cap) {
		w->cap = (w->len + n) * 2 + 32;
		w->s = xrealloc(w->s, w->cap);
	}
	memcpy(w->s + w->len, p, n);
	w->len += n;
}

static uint64_t codepoints(const char *s, size_t n)
{
	uint64_t c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (!utf8_is_continuation((unsigned char)s[i]))
			c++;
	return c;
}

static void finish_word(struct scratch *w, struct word_stats *ws,
			struct word_table *wt)
{
	const char *s = w->s;
	size_t n = w->len;
	uint64_t cps;

	while (n > 0 && s[0] == '\'') {
		s++;
		n--;
	}
	while (n > 0 && s[n - 1] == '\'')
		n--;
	w->len = 0;
	if (n == 0)
		return;
	cps = codepoints(s, n);
	ws->words++;
	ws->codepoints += cps;
	if (cps > ws->longest)
		ws->longest = cps;
	ws->len_hist[cps < WORD_LEN_BUCKETS ? cps - 1 : WORD_LEN_BUCKETS - 1]++;
	ws->syllables += syllables_estimate(s, n);
	if (wt)
		wt_add(wt, s, n, 1);
}

void words_scan(const char *text, size_t n, struct word_stats *ws,
		struct word_table *wt)
{
	const unsigned char *s = (const unsigned char *)text;
	struct scratch w = { NULL, 0, 0 };
	size_t i = 0;

	while (i < n) {
		size_t len;
		enum kind k = next_kind(s + i, n - i, &len);

		if (k == LETTER && len == 1) {
			unsigned char c = s[i];

			if (c >= 'A' && c <= 'Z')
				c = (unsigned char)(c - 'A' + 'a');
			scratch_put(&w, &c, 1);
		} else if (k == LETTER) {
			scratch_put(&w, s + i, len);
		} else if (k == APOSTROPHE) {
			if (w.len > 0)
				scratch_put(&w, (const unsigned char *)"'", 1);
		} else if (w.len > 0) {
			finish_word(&w, ws, wt);
		}
		i += len;
	}
	if (w.len > 0)
		finish_word(&w, ws, wt);
	free(w.s);
}

void words_add(struct word_stats *to, const struct word_stats *from)
{
	size_t i;

	to->words += from->words;
	to->codepoints += from->codepoints;
	if (from->longest > to->longest)
		to->longest = from->longest;
	to->syllables += from->syllables;
	for (i = 0; i < WORD_LEN_BUCKETS; i++)
		to->len_hist[i] += from->len_hist[i];
}
