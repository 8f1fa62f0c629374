// SPDX-License-Identifier: MIT
/* Character classes.  ASCII is classified by hand (no locale involved). */
#include "textstat.h"

static void classify_ascii(unsigned char c, struct char_stats *cs)
{
	if (c >= 'A' && c <= 'Z') {
		cs->letters++;
		cs->upper++;
	} else if (c >= 'a' && c <= 'z') {
		cs->letters++;
		cs->lower++;
	} else if (c >= '0' && c <= '9') {
		cs->digits++;
	} else if (c == ' ' || (c >= '\t' && c <= '\r')) {
		cs->spaces++;
	} else if (c < 0x20 || c == 0x7F) {
		cs->control++;
	} else {
		cs->punct++;
	}
}

void chars_scan(const char *s, size_t n, struct char_stats *cs)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	cs->bytes += n;
	while (i < n) {
		uint32_t cp;
		size_t len;

		if (p[i] < 0x80) {
			classify_ascii(p[i], cs);
			cs->codepoints++;
			i++;
			continue;
		}
		len = utf8_decode(p + i, n - i, &cp);
		if (len == 0) {
			cs->invalid++;
			i++;
			continue;
		}
		cs->codepoints++;
		cs->non_ascii++;
		i += len;
	}
}

void chars_add(struct char_stats *to, const struct char_stats *from)
{
	to->bytes += from->bytes;
	to->codepoints += from->codepoints;
	to->invalid += from->invalid;
	to->letters += from->letters;
	to->upper += from->upper;
	to->lower += from->lower;
	to->digits += from->digits;
	to->spaces += from->spaces;
	to->punct += from->punct;
	to->control += from->control;
	to->non_ascii += from->non_ascii;
}
