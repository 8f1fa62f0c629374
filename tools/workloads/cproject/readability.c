// SPDX-License-Identifier: MIT
/*
 * Readability: an estimate of English syllables per word, sentences, and
 * the Flesch reading-ease score built from them,
 *   206.835 - 1.015 * words/sentences - 84.6 * syllables/words.
 */
#include "textstat.h"

static int is_vowel(char c)
{
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' ||
	       c == 'y';
}

static int is_ascii_letter(char c)
{
	return c >= 'a' && c <= 'z';
}

/*
 * Vowel groups, less a silent final 'e' ("make": 1, but "table": 2), at
 * least one.  The word is lower case; words with no ASCII letter (numbers,
 * other scripts) count one syllable each.
 */
unsigned syllables_estimate(const char *w, size_t n)
{
	unsigned groups = 0;
	int in_group = 0, letters = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!is_ascii_letter(w[i])) {
			in_group = 0;
			continue;
		}
		letters = 1;
		if (is_vowel(w[i])) {
			if (!in_group)
				groups++;
			in_group = 1;
		} else {
			in_group = 0;
		}
	}
	if (!letters)
		return 1;
	if (groups > 1 && n >= 3 && w[n - 1] == 'e' && !is_vowel(w[n - 2]) &&
	    !(w[n - 2] == 'l' && !is_vowel(w[n - 3])))
		groups--;
	return groups ? groups : 1;
}

/*
 * Sentences end with '.', '!' or '?' (a run of them counts once) that
 * follows a letter or digit and is followed by white space, a closing
 * quote or bracket, or the end of the text.  "e.g. this" counts two: the
 * estimate is rough, like every readability formula.  Text with words but
 * no terminator is one sentence.
 */
uint64_t sentences_count(const char *s, size_t n)
{
	uint64_t count = 0;
	int seen_word = 0;
	size_t i = 0;

	while (i < n) {
		char c = s[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || (unsigned char)c >= 0xC0) {
			seen_word = 1;
			i++;
			continue;
		}
		if ((c == '.' || c == '!' || c == '?') && seen_word) {
			size_t j = i;

			while (j < n && (s[j] == '.' || s[j] == '!' || s[j] == '?'))
				j++;
			while (j < n && (s[j] == '"' || s[j] == '\'' ||
					 s[j] == ')' || s[j] == ']'))
				j++;
			if (j == n || s[j] == ' ' || s[j] == '\n' ||
			    s[j] == '\t' || s[j] == '\r') {
				count++;
				seen_word = 0;
			}
			i = j;
			continue;
		}
		i++;
	}
	return count + (seen_word ? 1 : 0);
}

double flesch_reading_ease(uint64_t words, uint64_t sentences,
			   uint64_t syllables)
{
	if (words == 0 || sentences == 0)
		return 0.0;
	return 206.835 - 1.015 * ((double)words / (double)sentences) -
	       84.6 * ((double)syllables / (double)words);
}

const char *flesch_label(double score)
{
	if (score >= 90)
		return "very easy";
	if (score >= 70)
		return "easy";
	if (score >= 60)
		return "plain";
	if (score >= 50)
		return "fairly difficult";
	if (score >= 30)
		return "difficult";
	return "very difficult";
}
