// SPDX-License-Identifier: MIT
/* Lines: how many, how many blank, how long. */
#include <string.h>

#include "textstat.h"

static int is_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' &&
		    s[i] != '\f' && s[i] != '\v')
			return 0;
	return 1;
}

static void one_line(struct line_stats *ls, const char *s, size_t n)
{
	/* A CRLF line ending is not part of the line's length. */
	if (n > 0 && s[n - 1] == '\r')
		n--;
	ls->lines++;
	ls->total_len += n;
	if (is_blank(s, n))
		ls->blank++;
	if (n > ls->longest || ls->longest_at == 0) {
		ls->longest = n;
		ls->longest_at = ls->lines;
	}
}

void lines_scan(const char *s, size_t n, struct line_stats *ls)
{
	const char *end = s + n;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));

		if (!nl) {
			one_line(ls, s, (size_t)(end - s));
			ls->missing_newline = 1;
			break;
		}
		one_line(ls, s, (size_t)(nl - s));
		s = nl + 1;
	}
}

void lines_add(struct line_stats *to, const struct line_stats *from)
{
	/* The longest line's number is kept as counted in its own file. */
	if (from->longest > to->longest || to->longest_at == 0) {
		to->longest = from->longest;
		to->longest_at = from->longest_at;
	}
	to->lines += from->lines;
	to->blank += from->blank;
	to->total_len += from->total_len;
	to->missing_newline |= from->missing_newline;
}
