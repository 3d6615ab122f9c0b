/*
 * The tokenizer of the lexicon kernels (lexicon.c): the index terms of a
 * lower-cased UTF-8 text, hashed (FNV-1a) and counted, as
 * lib/memory/recall/lexicon-tokens.ts reads them. Included by lexicon.c only.
 */
#ifndef LEXICON_TOKENS_H
#define LEXICON_TOKENS_H

#include <stdint.h>
#include <string.h>

#define LEXICON_TERM_MAX 2047
#define LEXICON_TF_MAX 65535
#define LEXICON_ENTRY_TERMS 64 /* LEXICAL_MAX_TERMS_PER_ENTRY in lib/memory/bounds.ts */

/* A text's distinct terms, first seen first (lexicon-tokens.ts TermList). */
typedef struct {
	int count;
	int max;
	uint32_t total;
	uint32_t start[LEXICON_ENTRY_TERMS];
	uint32_t bytes[LEXICON_ENTRY_TERMS];
	uint32_t hash[LEXICON_ENTRY_TERMS];
	uint32_t tf[LEXICON_ENTRY_TERMS];
} LexiconTerms;

/* The stopwords of lexicon-tokens.ts, each after its length (a byte). */
static const char *const gLexiconStopwords[] = {
	"\001a", "\002an", "\003and", "\003are", "\002as", "\002at", "\002be", "\004been", "\003but", "\002by",
	"\003did", "\002do", "\004does", "\003for", "\004from", "\003had", "\003has", "\004have", "\002he",
	"\003her", "\003his", "\001i", "\002in", "\002is", "\002it", "\003its", "\002me", "\002my", "\002of",
	"\002on", "\002or", "\003our", "\003she", "\002so", "\004that", "\003the", "\005their", "\004them",
	"\005there", "\004they", "\004this", "\002to", "\003was", "\002we", "\004were", "\004what", "\004when",
	"\005where", "\005which", "\003who", "\003why", "\004will", "\004with", "\003you", "\004your", NULL
};

/* Tokenizing (lexicon-tokens.ts): the words of lower-cased UTF-8, their terms hashed and counted. */

static int lexiconWordChar(uint32_t c)
{
	if (c < 0xC0)
		return ((c >= 'a') && (c <= 'z')) || ((c >= '0') && (c <= '9'));
	return (c <= 0x24F) || ((c >= 0x370) && (c <= 0x4FF)) || ((c >= 0x3040) && (c <= 0x30FF))
		|| ((c >= 0x4E00) && (c <= 0x9FFF)) || ((c >= 0xAC00) && (c <= 0xD7AF));
}

static uint32_t lexiconHash(const uint8_t *bytes, uint32_t length)
{
	uint32_t h = 0x811C9DC5u, i;
	for (i = 0; i < length; i++)
		h = (h ^ bytes[i]) * 0x01000193u;
	return h;
}

static int lexiconStopword(const uint8_t *word, uint32_t length)
{
	const char *const *stop;
	if (length > 5)
		return 0;
	for (stop = gLexiconStopwords; *stop; stop++) {
		if (((uint8_t)(*stop)[0] == length) && ((uint8_t)(*stop)[1] == word[0]) && !memcmp(*stop + 1, word, length))
			return 1;
	}
	return 0;
}

static void lexiconNote(const uint8_t *text, uint32_t start, uint32_t end, uint32_t units, uint32_t last, uint32_t prev, LexiconTerms *list)
{
	uint32_t length = end - start, hash;
	int k;
	if ((units < 2) && !((last >= '0') && (last <= '9')))
		return;
	if (lexiconStopword(text + start, length))
		return;
	/* A plural "s" is cut, not of -ss, -us, -is. */
	if ((units > 3) && (last == 's') && (prev != 's') && (prev != 'u') && (prev != 'i'))
		length--;
	if (length > LEXICON_TERM_MAX)
		length = LEXICON_TERM_MAX;
	hash = lexiconHash(text + start, length);
	for (k = 0; k < list->count; k++) {
		if ((list->hash[k] != hash) || (list->bytes[k] != length) || memcmp(text + list->start[k], text + start, length))
			continue;
		if (list->tf[k] < LEXICON_TF_MAX)
			list->tf[k]++;
		list->total++;
		return;
	}
	if (list->count == list->max)
		return;
	k = list->count++;
	list->start[k] = start;
	list->bytes[k] = length;
	list->hash[k] = hash;
	list->tf[k] = 1;
	list->total++;
}

static void lexiconTokenize(const uint8_t *text, uint32_t n, int max, LexiconTerms *list)
{
	uint32_t i = 0, start = 0, units = 0, last = 0, prev = 0, c, size, b;
	int inWord = 0;
	list->count = 0;
	list->max = max;
	list->total = 0;
	while (i < n) {
		b = text[i];
		c = 0xFFFD;
		size = 1;
		#define lexiconFollows(AT) (((AT) < n) && ((text[AT] & 0xC0) == 0x80))
		if (b < 0x80)
			c = b;
		else if ((b >= 0xC2) && (b < 0xE0) && lexiconFollows(i + 1)) {
			c = ((b & 0x1F) << 6) | (text[i + 1] & 0x3F);
			size = 2;
		}
		else if ((b >= 0xE0) && (b < 0xF0) && lexiconFollows(i + 1) && lexiconFollows(i + 2)) {
			c = ((b & 0x0F) << 12) | ((text[i + 1] & 0x3F) << 6) | (text[i + 2] & 0x3F);
			size = 3;
		}
		else if ((b >= 0xF0) && (b < 0xF8) && lexiconFollows(i + 1) && lexiconFollows(i + 2) && lexiconFollows(i + 3))
			size = 4; /* outside the Basic Multilingual Plane: never a word character */
		#undef lexiconFollows
		if (lexiconWordChar(c)) {
			if (!inWord) {
				inWord = 1;
				start = i;
				units = 0;
				last = 0;
			}
			prev = last;
			last = c;
			units++;
		}
		else if (inWord) {
			lexiconNote(text, start, i, units, last, prev, list);
			inWord = 0;
		}
		i += size;
	}
	if (inWord)
		lexiconNote(text, start, n, units, last, prev, list);
}
#endif
