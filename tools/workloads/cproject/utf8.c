// SPDX-License-Identifier: MIT
/* Decoding UTF-8, strictly: no overlong forms, no surrogates. */
#include "textstat.h"

/*
 * Decodes the sequence at s (n bytes available).  Returns its length,
 * 1 to 4, and stores the code point in *cp; returns 0 when the bytes at s
 * start no valid sequence (a stray continuation byte, a truncated or
 * overlong sequence, a surrogate, or a value above U+10FFFF).
 */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c, min;
	size_t len, i;

	if (n == 0)
		return 0;
	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0) {
		len = 2;
		c = s[0] & 0x1F;
		min = 0x80;
	} else if ((s[0] & 0xF0) == 0xE0) {
		len = 3;
		c = s[0] & 0x0F;
		min = 0x800;
	} else if ((s[0] & 0xF8) == 0xF0) {
		len = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if (!utf8_is_continuation(s[i]))
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return len;
}
