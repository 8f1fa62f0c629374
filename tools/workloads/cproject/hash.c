// SPDX-License-Identifier: MIT
/*
 * The word table: open addressing with linear probing, FNV-1a hashes,
 * grown to twice its size when it becomes 70% full.
 */
#include <stdlib.h>
#include <string.h>

#include "textstat.h"

struct word_table {
	struct word_count *slots;	/* word == NULL: free */
	uint64_t *hashes;
	size_t size;			/* a power of two */
	size_t used;
};

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

struct word_table *wt_new(void)
{
	struct word_table *wt = xcalloc(1, sizeof(*wt));

	wt->size = 256;
	wt->slots = xcalloc(wt->size, sizeof(*wt->slots));
	wt->hashes = xcalloc(wt->size, sizeof(*wt->hashes));
	return wt;
}

void wt_free(struct word_table *wt)
{
	size_t i;

	if (!wt)
		return;
	for (i = 0; i < wt->size; i++)
		free((char *)wt->slots[i].word);
	free(wt->slots);
	free(wt->hashes);
	free(wt);
}

static size_t find_slot(const struct word_table *wt, uint64_t h,
			const char *word, size_t len)
{
	size_t mask = wt->size - 1;
	size_t i = (size_t)h & mask;

	for (;;) {
		const struct word_count *wc = &wt->slots[i];

		if (!wc->word)
			return i;
		if (wt->hashes[i] == h && wc->len == len &&
		    memcmp(wc->word, word, len) == 0)
			return i;
		i = (i + 1) & mask;
	}
}

static void grow(struct word_table *wt)
{
	struct word_count *old_slots = wt->slots;
	uint64_t *old_hashes = wt->hashes;
	size_t old_size = wt->size, i;

	if (wt->size > SIZE_MAX / 2 / sizeof(*wt->slots))
		die("too many different words");
	wt->size *= 2;
	wt->slots = xcalloc(wt->size, sizeof(*wt->slots));
	wt->hashes = xcalloc(wt->size, sizeof(*wt->hashes));
	for (i = 0; i < old_size; i++) {
		size_t j;

		if (!old_slots[i].word)
			continue;
		j = find_slot(wt, old_hashes[i], old_slots[i].word,
			      old_slots[i].len);
		wt->slots[j] = old_slots[i];
		wt->hashes[j] = old_hashes[i];
	}
	free(old_slots);
	free(old_hashes);
}

void wt_add(struct word_table *wt, const char *word, size_t len, uint64_t n)
{
	uint64_t h = fnv1a(word, len);
	size_t i = find_slot(wt, h, word, len);

	if (!wt->slots[i].word) {
		if ((wt->used + 1) * 10 > wt->size * 7) {
			grow(wt);
			i = find_slot(wt, h, word, len);
		}
		wt->slots[i].word = xmemdup0(word, len);
		wt->slots[i].len = len;
		wt->slots[i].count = 0;
		wt->hashes[i] = h;
		wt->used++;
	}
	wt->slots[i].count += n;
}

void wt_merge(struct word_table *to, const struct word_table *from)
{
	size_t i;

	for (i = 0; i < from->size; i++)
		if (from->slots[i].word)
			wt_add(to, from->slots[i].word, from->slots[i].len,
			       from->slots[i].count);
}

size_t wt_unique(const struct word_table *wt)
{
	return wt->used;
}

void wt_each(const struct word_table *wt,
	     void (*fn)(const struct word_count *wc, void *arg), void *arg)
{
	size_t i;

	for (i = 0; i < wt->size; i++)
		if (wt->slots[i].word)
			fn(&wt->slots[i], arg);
}
