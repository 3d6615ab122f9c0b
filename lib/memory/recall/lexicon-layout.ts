// The lexical index's layout in arena memory: one namespace's index is three
// regions (the LexiconKernels port works on them; modules/vector/lexicon.c has
// the same figures). Each region starts with a header that records its size, so
// the kernels never need a region's byteLength (a native arena buffer has none
// in JS). Words are 32-bit, in the platform's byte order.
//
// heap (u32 words): header, then records from HEAP_HEADER_WORDS to top. A record
//   is [size | term bytes << 20 | FREE, FNV-1a hash of the term, entries holding
//   it (df)], the term's UTF-8 padded to words, then room for its postings (doc
//   << 16 | tf). A term no entry holds any more (df 0) stays in the table, dead,
//   until a rebuild or compaction; a record that moved or died is a hole.
// table (u32 cells): [cells, 0], then `cells` cells (a power of two), each the
//   word offset of a record (0: empty); linear probing from hash & (cells - 1),
//   at most three quarters full.
// docs: a header of DOCS_HEADER_BYTES, then per document number (capacity D) a
//   f64 score accumulator (0 between searches), the entry's id, its length in
//   terms (-1: a free number; a free number's id holds the next free one + 1) and
//   two cells of an id -> document + 1 table (slot-table.ts's hash and probing).
import type { VectorArena } from "../../ports";

/** Heap header words: capacity (words), top, hole and dead-term words, terms in the table. */
export const H_CAPACITY = 0;
export const H_TOP = 1;
export const H_GARBAGE = 2;
export const H_TERMS = 3;
export const HEAP_HEADER_WORDS = 8;
/** Words before a record's term bytes. */
export const RECORD_HEADER_WORDS = 3;
export const RECORD_SIZE_MASK = 0xfffff;
export const RECORD_TERM_SHIFT = 20;
export const RECORD_FREE = 0x80000000;
/** Bytes of a term kept (a longer word is cut; a stored text has at most 2,000). */
export const TERM_MAX_BYTES = 2047;
export const TABLE_HEADER_WORDS = 2;
/** Docs header (u32): capacity D, numbers handed out, first free number + 1, entries, sum of lengths. */
export const D_CAPACITY = 0;
export const D_COUNT = 1;
export const D_FREE = 2;
export const D_LIVE = 3;
export const D_TOTAL = 4;
export const DOCS_HEADER_BYTES = 32;
/** A posting packs doc << 16 | tf: at most 65,536 entries per namespace, a count saturates at 65,535. */
export const DOC_LIMIT = 65536;
export const TF_MAX = 65535;
/** Room codes of add and reserve (any other negative -n: a heap of n words). */
export const NEED_TABLE = -1;
export const NEED_DOCS = -2;

export const HEAP_MIN_WORDS = 256;
export const TABLE_MIN_CELLS = 64;
export const DOCS_MIN = 16;

/** A full posting list's next capacity (half as much again: the spare room is at most a third). */
export function grownCapacity(capacity: number): number {
  return capacity + (capacity >> 1) + 1;
}

/** Words a new record of a `termBytes` term with room for `capacity` postings takes. */
export function recordWords(termBytes: number, capacity: number): number {
  return RECORD_HEADER_WORDS + ((termBytes + 3) >> 2) + capacity;
}

/** Bytes of a docs region for `capacity` document numbers. */
export function docsBytes(capacity: number): number {
  return DOCS_HEADER_BYTES + 24 * capacity;
}

/** Byte offsets of the docs region's arrays for `capacity` document numbers. */
export function docsOffsets(capacity: number): { acc: number; ids: number; lengths: number; cells: number } {
  const acc = DOCS_HEADER_BYTES;
  return { acc, ids: acc + 8 * capacity, lengths: acc + 12 * capacity, cells: acc + 16 * capacity };
}

/** A new heap of `words` words (header written). Throws the arena's HaloError "full". */
export function newHeap(arena: VectorArena, words: number): ArrayBuffer {
  const memory = arena.allocate(words * 4);
  const header = new Uint32Array(memory, 0, HEAP_HEADER_WORDS);
  header[H_CAPACITY] = words;
  header[H_TOP] = HEAP_HEADER_WORDS;
  return memory;
}

/** A new empty table of `cells` cells (a power of two). */
export function newTable(arena: VectorArena, cells: number): ArrayBuffer {
  const memory = arena.allocate((TABLE_HEADER_WORDS + cells) * 4);
  new Uint32Array(memory, 0, TABLE_HEADER_WORDS)[0] = cells;
  return memory;
}

/** A new empty docs region for `capacity` document numbers. */
export function newDocs(arena: VectorArena, capacity: number): ArrayBuffer {
  const memory = arena.allocate(docsBytes(capacity));
  new Uint32Array(memory, 0, DOCS_HEADER_BYTES / 4)[D_CAPACITY] = capacity;
  return memory;
}

/** The cell count of a table. */
export function tableCells(table: ArrayBuffer): number {
  return new Uint32Array(table, 0, TABLE_HEADER_WORDS)[0];
}

/** The docs region's header (a view of its first words). */
export function docsHeader(docs: ArrayBuffer): Uint32Array {
  return new Uint32Array(docs, 0, DOCS_HEADER_BYTES / 4);
}

/** The heap's header (a view of its first words). */
export function heapHeader(heap: ArrayBuffer): Uint32Array {
  return new Uint32Array(heap, 0, HEAP_HEADER_WORDS);
}
