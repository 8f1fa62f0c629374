// SPDX-License-Identifier: MIT
/* Ranking the words of a table by frequency. */
#include <stdlib.h>
#include <string.h>

#include "textstat.h"

struct collect {
	struct word_count *out;
	size_t n;
};

static void collect_one(const struct word_count *wc, void *arg)
{
	struct collect *c = arg;

	c->out[c->n++] = *wc;
}

static int by_count_then_word(const void *a, const void *b)
{
	const struct word_count *x = a, *y = b;
	size_t common;
	int cmp;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	common = x->len < y->len ? x->len : y->len;
	cmp = memcmp(x->word, y->word, common);
	if (cmp)
		return cmp;
	return (x->len > y->len) - (x->len < y->len);
}

/*
 * Returns every word of the table, most frequent first, equally frequent
 * ones in byte order, and their number in *n.  The words still belong to
 * the table; the caller frees only the array.
 */
struct word_count *wt_top(const struct word_table *wt, size_t *n)
{
	struct collect c;

	c.out = xcalloc(wt_unique(wt), sizeof(*c.out));
	c.n = 0;
	wt_each(wt, collect_one, &c);
	qsort(c.out, c.n, sizeof(*c.out), by_count_then_word);
	*n = c.n;
	return c.out;
}
