/*
 * The records of the lexicon kernels (lexicon.c): the regions' layout
 * (lib/memory/recall/lexicon-layout.ts), fetching them from their buffers, the
 * term table's probe, the room an entry's terms need, appending and dropping
 * postings, and the docs' id -> document table, as
 * lib/memory/recall/lexicon-records.ts does. Included by lexicon.c only.
 */
#ifndef LEXICON_RECORDS_H
#define LEXICON_RECORDS_H

#include "xsmc.h"
#include "lexicon_tokens.h"

#define LEXICON_CAPACITY 0
#define LEXICON_TOP 1
#define LEXICON_GARBAGE 2
#define LEXICON_TERMS 3
#define LEXICON_HEAP_HEADER 8
#define LEXICON_RECORD_HEADER 3
#define LEXICON_SIZE_MASK 0xFFFFFu
#define LEXICON_TERM_SHIFT 20
#define LEXICON_FREE 0x80000000u
#define LEXICON_TABLE_HEADER 2
#define LEXICON_DOCS_HEADER 32
#define LEXICON_D_CAPACITY 0
#define LEXICON_D_COUNT 1
#define LEXICON_D_FREE 2
#define LEXICON_D_LIVE 3
#define LEXICON_D_TOTAL 4
#define LEXICON_DOC_LIMIT 65536
#define LEXICON_NEED_TABLE -1
#define LEXICON_NEED_DOCS -2

typedef struct {
	uint32_t *words;
	uint8_t *bytes;
} LexiconHeap;

typedef struct {
	uint32_t *words; /* header included */
	uint32_t mask;
} LexiconTable;

typedef struct {
	uint32_t *header;
	uint32_t capacity;
	double *acc;
	uint32_t *ids;
	int32_t *lengths;
	int32_t *cells;
} LexiconDocs;

/* Region fetching: each throws the twin's RangeError when a header does not fit its buffer. */

static void lexiconHeapOf(xsMachine *the, xsSlot *slot, LexiconHeap *heap)
{
	void *data;
	xsUnsignedValue length;
	uint32_t *words;
	xsmcGetBufferWritable(*slot, &data, &length);
	words = (uint32_t *)data;
	if ((length < LEXICON_HEAP_HEADER * 4) || (words[LEXICON_CAPACITY] < LEXICON_HEAP_HEADER)
		|| (words[LEXICON_CAPACITY] > length / 4) || (words[LEXICON_TOP] < LEXICON_HEAP_HEADER)
		|| (words[LEXICON_TOP] > words[LEXICON_CAPACITY]))
		xsRangeError("bad heap");
	heap->words = words;
	heap->bytes = (uint8_t *)data;
}

static void lexiconTableOf(xsMachine *the, xsSlot *slot, LexiconTable *table)
{
	void *data;
	xsUnsignedValue length;
	uint32_t cells;
	xsmcGetBufferWritable(*slot, &data, &length);
	cells = (length < LEXICON_TABLE_HEADER * 4) ? 0 : ((uint32_t *)data)[0];
	if ((cells < 2) || (cells & (cells - 1)) || (cells > length / 4 - LEXICON_TABLE_HEADER))
		xsRangeError("bad table");
	table->words = (uint32_t *)data;
	table->mask = cells - 1;
}

static void lexiconDocsOf(xsMachine *the, xsSlot *slot, LexiconDocs *docs)
{
	void *data;
	xsUnsignedValue length;
	uint32_t *header, capacity;
	xsmcGetBufferWritable(*slot, &data, &length);
	header = (uint32_t *)data;
	capacity = (length < LEXICON_DOCS_HEADER) ? 0 : header[LEXICON_D_CAPACITY];
	if ((capacity < 1) || (capacity > LEXICON_DOC_LIMIT) || (header[LEXICON_D_COUNT] > capacity)
		|| (header[LEXICON_D_FREE] > header[LEXICON_D_COUNT]) || ((xsUnsignedValue)LEXICON_DOCS_HEADER + 24 * capacity > length))
		xsRangeError("bad docs");
	docs->header = header;
	docs->capacity = capacity;
	docs->acc = (double *)((uint8_t *)data + LEXICON_DOCS_HEADER);
	docs->ids = (uint32_t *)((uint8_t *)data + LEXICON_DOCS_HEADER + 8 * capacity);
	docs->lengths = (int32_t *)((uint8_t *)data + LEXICON_DOCS_HEADER + 12 * capacity);
	docs->cells = (int32_t *)((uint8_t *)data + LEXICON_DOCS_HEADER + 16 * capacity);
}

/* Records (lexicon-layout.ts). */

#define lexiconSizeOf(WORDS, RECORD) ((WORDS)[RECORD] & LEXICON_SIZE_MASK)
#define lexiconTermBytesOf(WORDS, RECORD) (((WORDS)[RECORD] >> LEXICON_TERM_SHIFT) & 0x7FF)
#define lexiconPostingsOf(WORDS, RECORD) ((RECORD) + LEXICON_RECORD_HEADER + ((lexiconTermBytesOf(WORDS, RECORD) + 3) >> 2))
#define lexiconRoomOf(WORDS, RECORD) ((RECORD) + lexiconSizeOf(WORDS, RECORD) - lexiconPostingsOf(WORDS, RECORD))

static uint32_t lexiconRecordWords(uint32_t termBytes, uint32_t capacity)
{
	return LEXICON_RECORD_HEADER + ((termBytes + 3) >> 2) + capacity;
}

static uint32_t lexiconGrown(uint32_t capacity)
{
	return capacity + (capacity >> 1) + 1;
}

/* The table word holding term k of `list`, or the empty one where it would go. */
static uint32_t *lexiconProbe(xsMachine *the, LexiconHeap *heap, LexiconTable *table, const uint8_t *text, LexiconTerms *list, int k)
{
	uint32_t hash = list->hash[k], length = list->bytes[k], top = heap->words[LEXICON_TOP];
	uint32_t cell = hash & table->mask, step, record, *at;
	for (step = 0; step <= table->mask; step++) {
		at = &table->words[LEXICON_TABLE_HEADER + cell];
		record = *at;
		if (!record)
			return at;
		if ((record < LEXICON_HEAP_HEADER) || (record >= top))
			break;
		if ((heap->words[record + 1] == hash) && (lexiconTermBytesOf(heap->words, record) == length)) {
			if (record + lexiconRecordWords(length, 0) > top)
				break;
			if (!memcmp(heap->bytes + (record + LEXICON_RECORD_HEADER) * 4, text + list->start[k], length))
				return at;
		}
		cell = (cell + 1) & table->mask;
	}
	xsRangeError("bad table");
	return NULL;
}

/* 0 when the terms fit (the table at most three quarters full after, the heap's room), else the room code. */
static int32_t lexiconPlan(xsMachine *the, LexiconHeap *heap, LexiconTable *table, const uint8_t *text, LexiconTerms *list)
{
	uint32_t *words = heap->words, need = 0, fresh = 0, record, room;
	int k;
	for (k = 0; k < list->count; k++) {
		record = *lexiconProbe(the, heap, table, text, list, k);
		if (!record) {
			fresh++;
			need += lexiconRecordWords(list->bytes[k], 1);
		}
		else {
			room = lexiconRoomOf(words, record);
			if (words[record + 2] == room)
				need += lexiconRecordWords(list->bytes[k], lexiconGrown(room));
		}
	}
	if ((uint64_t)(words[LEXICON_TERMS] + fresh) * 4 > ((uint64_t)table->mask + 1) * 3)
		return LEXICON_NEED_TABLE;
	if ((uint64_t)words[LEXICON_TOP] + need > words[LEXICON_CAPACITY])
		return -(int32_t)(words[LEXICON_TOP] + need);
	return 0;
}

/* Appends (doc, tf) to term k's postings: a new record, a dead one revived, or one moved to the top with more room. */
static void lexiconPost(xsMachine *the, LexiconHeap *heap, LexiconTable *table, const uint8_t *text, LexiconTerms *list, int k, uint32_t doc)
{
	uint32_t *words = heap->words, *at = lexiconProbe(the, heap, table, text, list, k);
	uint32_t record = *at, length = list->bytes[k], size, df, moved;
	if (!record) {
		record = words[LEXICON_TOP];
		size = lexiconRecordWords(length, 1);
		words[record] = size | (length << LEXICON_TERM_SHIFT);
		words[record + 1] = list->hash[k];
		words[record + 2] = 0;
		words[lexiconPostingsOf(words, record) - 1] = 0; /* the term's last word, padding included */
		memcpy(heap->bytes + (record + LEXICON_RECORD_HEADER) * 4, text + list->start[k], length);
		words[LEXICON_TOP] += size;
		words[LEXICON_TERMS]++;
		*at = record;
	}
	else if (!words[record + 2])
		words[LEXICON_GARBAGE] -= lexiconSizeOf(words, record);
	df = words[record + 2];
	if (df == lexiconRoomOf(words, record)) {
		moved = words[LEXICON_TOP];
		size = lexiconRecordWords(length, lexiconGrown(df));
		memmove(&words[moved], &words[record], (lexiconPostingsOf(words, record) + df - record) * 4);
		words[moved] = size | (length << LEXICON_TERM_SHIFT);
		words[LEXICON_GARBAGE] += lexiconSizeOf(words, record);
		words[record] |= LEXICON_FREE;
		words[LEXICON_TOP] += size;
		*at = moved;
		record = moved;
	}
	words[lexiconPostingsOf(words, record) + df] = (doc << 16) | list->tf[k];
	words[record + 2] = df + 1;
}

/* Drops doc's posting from term k's record, if it has one; a term left with none dies. */
static void lexiconUnpost(xsMachine *the, LexiconHeap *heap, LexiconTable *table, const uint8_t *text, LexiconTerms *list, int k, uint32_t doc)
{
	uint32_t *words = heap->words, record = *lexiconProbe(the, heap, table, text, list, k), df, base, i;
	if (!record)
		return;
	df = words[record + 2];
	base = lexiconPostingsOf(words, record);
	for (i = 0; i < df; i++) {
		if ((words[base + i] >> 16) != doc)
			continue;
		words[base + i] = words[base + df - 1];
		words[record + 2] = df - 1;
		if (df == 1)
			words[LEXICON_GARBAGE] += lexiconSizeOf(words, record);
		return;
	}
}

/* The docs' id -> document + 1 table (slot-table.ts's hash and probing, 2 x capacity cells). */

static uint32_t lexiconIdHome(uint32_t id, uint32_t cells)
{
	return ((id ^ 0x9E3779B1u) * 0x85EBCA6Bu) % cells;
}

static uint32_t lexiconIdCell(xsMachine *the, LexiconDocs *docs, uint32_t id)
{
	uint32_t n = 2 * docs->capacity, cell = lexiconIdHome(id, n), step;
	int32_t held;
	for (step = 0; step < n; step++) {
		held = docs->cells[cell];
		if (!held || ((held > 0) && ((uint32_t)held <= docs->capacity) && (docs->ids[held - 1] == id)))
			return cell;
		cell = (cell + 1 == n) ? 0 : cell + 1;
	}
	xsRangeError("bad docs");
	return 0;
}

static void lexiconDeleteId(xsMachine *the, LexiconDocs *docs, uint32_t id)
{
	uint32_t n = 2 * docs->capacity, hole = lexiconIdCell(the, docs, id), cell = hole, want;
	int32_t held;
	docs->cells[hole] = 0;
	for (;;) {
		cell = (cell + 1 == n) ? 0 : cell + 1;
		held = docs->cells[cell];
		if (!held)
			return;
		want = lexiconIdHome(docs->ids[held - 1], n);
		if ((hole <= cell) ? ((hole < want) && (want <= cell)) : ((hole < want) || (want <= cell)))
			continue;
		docs->cells[hole] = held;
		docs->cells[cell] = 0;
		hole = cell;
	}
}

#endif
