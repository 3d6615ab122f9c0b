// The records of the lexical index's TypeScript kernels (lexicon-ts.ts): views of the three regions
// (lexicon-layout.ts), the term table's probe, the room an entry's terms need, appending and dropping
// postings, and the docs' id -> document table. modules/vector/lexicon_records.h is the C twin.
import {
  D_CAPACITY,
  D_COUNT,
  D_FREE,
  DOC_LIMIT,
  DOCS_HEADER_BYTES,
  docsOffsets,
  grownCapacity,
  H_CAPACITY,
  H_GARBAGE,
  H_TERMS,
  H_TOP,
  HEAP_HEADER_WORDS,
  NEED_TABLE,
  RECORD_FREE,
  RECORD_HEADER_WORDS,
  RECORD_SIZE_MASK,
  RECORD_TERM_SHIFT,
  recordWords,
  TABLE_HEADER_WORDS,
} from "./lexicon-layout";
import type { TermList } from "./lexicon-tokens";

export interface Heap {
  words: Uint32Array;
  bytes: Uint8Array;
}

export interface Docs {
  header: Uint32Array;
  capacity: number;
  acc: Float64Array;
  ids: Uint32Array;
  lengths: Int32Array;
  cells: Int32Array;
}

export function heapOf(memory: ArrayBuffer): Heap {
  try {
    const capacity = new Uint32Array(memory, 0, HEAP_HEADER_WORDS)[H_CAPACITY];
    const words = new Uint32Array(memory, 0, capacity);
    if (capacity >= HEAP_HEADER_WORDS && words[H_TOP] >= HEAP_HEADER_WORDS && words[H_TOP] <= capacity)
      return { words, bytes: new Uint8Array(memory, 0, capacity * 4) };
  } catch {
    // a region shorter than its header says
  }
  throw new RangeError("bad heap");
}

/** The table's words (header included); its cell count is a power of two. */
export function tableOf(memory: ArrayBuffer): Uint32Array {
  try {
    const cells = new Uint32Array(memory, 0, TABLE_HEADER_WORDS)[0];
    if (cells >= 2 && (cells & (cells - 1)) === 0) return new Uint32Array(memory, 0, TABLE_HEADER_WORDS + cells);
  } catch {
    // as heapOf
  }
  throw new RangeError("bad table");
}

export function docsOf(memory: ArrayBuffer): Docs {
  try {
    const header = new Uint32Array(memory, 0, DOCS_HEADER_BYTES / 4);
    const capacity = header[D_CAPACITY];
    if (capacity >= 1 && capacity <= DOC_LIMIT && header[D_COUNT] <= capacity && header[D_FREE] <= header[D_COUNT]) {
      const at = docsOffsets(capacity);
      return {
        header,
        capacity,
        acc: new Float64Array(memory, at.acc, capacity),
        ids: new Uint32Array(memory, at.ids, capacity),
        lengths: new Int32Array(memory, at.lengths, capacity),
        cells: new Int32Array(memory, at.cells, 2 * capacity),
      };
    }
  } catch {
    // as heapOf
  }
  throw new RangeError("bad docs");
}

export function checkId(id: number): void {
  if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id > 0xffffffff) throw new RangeError("bad id");
}

export function encode(text: string): Uint8Array {
  if (typeof text !== "string") throw new TypeError("bad text");
  return new TextEncoder().encode(text);
}

export const termBytesOf = (heap: Uint32Array, record: number): number => (heap[record] >>> RECORD_TERM_SHIFT) & 0x7ff;
export const sizeOf = (heap: Uint32Array, record: number): number => heap[record] & RECORD_SIZE_MASK;
/** Word offset of a record's first posting. */
export const postingsOf = (heap: Uint32Array, record: number): number =>
  record + RECORD_HEADER_WORDS + ((termBytesOf(heap, record) + 3) >> 2);
export const roomOf = (heap: Uint32Array, record: number): number => record + sizeOf(heap, record) - postingsOf(heap, record);

/** The table word holding term `k` of `list` (read from `text`), or the empty one where it would go. */
export function probe(heap: Heap, table: Uint32Array, text: Uint8Array, list: TermList, k: number): number {
  const mask = table[0] - 1;
  const hash = list.hash[k];
  const length = list.bytes[k];
  const start = list.start[k];
  const top = heap.words[H_TOP];
  let cell = hash & mask;
  for (let step = 0; step <= mask; step++) {
    const at = TABLE_HEADER_WORDS + cell;
    const record = table[at];
    if (record === 0) return at;
    if (record < HEAP_HEADER_WORDS || record >= top) break;
    if (heap.words[record + 1] === hash && termBytesOf(heap.words, record) === length) {
      if (record + recordWords(length, 0) > top) break;
      let i = 0;
      const from = (record + RECORD_HEADER_WORDS) * 4;
      while (i < length && heap.bytes[from + i] === text[start + i]) i++;
      if (i === length) return at;
    }
    cell = (cell + 1) & mask;
  }
  throw new RangeError("bad table");
}

/** 0 when the terms of `list` fit (the table at most three quarters full after, the heap's room), else the room code. */
export function plan(heap: Heap, table: Uint32Array, text: Uint8Array, list: TermList): number {
  const words = heap.words;
  let need = 0;
  let fresh = 0;
  for (let k = 0; k < list.count; k++) {
    const record = table[probe(heap, table, text, list, k)];
    if (record === 0) {
      fresh++;
      need += recordWords(list.bytes[k], 1);
    } else if (words[record + 2] === roomOf(words, record)) need += recordWords(list.bytes[k], grownCapacity(roomOf(words, record)));
  }
  if ((words[H_TERMS] + fresh) * 4 > table[0] * 3) return NEED_TABLE;
  if (words[H_TOP] + need > words[H_CAPACITY]) return -(words[H_TOP] + need);
  return 0;
}

/** Appends (doc, tf) to term `k`'s postings: a new record, a dead one revived, or one moved to the top with more room. */
export function post(heap: Heap, table: Uint32Array, text: Uint8Array, list: TermList, k: number, doc: number): void {
  const words = heap.words;
  const at = probe(heap, table, text, list, k);
  let record = table[at];
  const length = list.bytes[k];
  if (record === 0) {
    record = words[H_TOP];
    const size = recordWords(length, 1);
    words[record] = size | (length << RECORD_TERM_SHIFT);
    words[record + 1] = list.hash[k];
    words[record + 2] = 0;
    words[postingsOf(words, record) - 1] = 0; // the term's last word, padding included
    heap.bytes.set(text.subarray(list.start[k], list.start[k] + length), (record + RECORD_HEADER_WORDS) * 4);
    words[H_TOP] += size;
    words[H_TERMS]++;
    table[at] = record;
  } else if (words[record + 2] === 0) words[H_GARBAGE] -= sizeOf(words, record);
  const df = words[record + 2];
  if (df === roomOf(words, record)) {
    const moved = words[H_TOP];
    const size = recordWords(length, grownCapacity(df));
    words.copyWithin(moved, record, postingsOf(words, record) + df);
    words[moved] = size | (length << RECORD_TERM_SHIFT);
    words[H_GARBAGE] += sizeOf(words, record);
    words[record] = (words[record] | RECORD_FREE) >>> 0;
    words[H_TOP] += size;
    table[at] = moved;
    record = moved;
  }
  words[postingsOf(words, record) + df] = (doc << 16) | list.tf[k];
  words[record + 2] = df + 1;
}

/** Drops `doc`'s posting from term `k`'s record, if it has one; a term left with none dies. */
export function unpost(heap: Heap, table: Uint32Array, text: Uint8Array, list: TermList, k: number, doc: number): void {
  const words = heap.words;
  const record = table[probe(heap, table, text, list, k)];
  if (record === 0) return;
  const df = words[record + 2];
  const base = postingsOf(words, record);
  for (let i = 0; i < df; i++) {
    if (words[base + i] >>> 16 !== doc) continue;
    words[base + i] = words[base + df - 1];
    words[record + 2] = df - 1;
    if (df === 1) words[H_GARBAGE] += sizeOf(words, record);
    return;
  }
}

export function idHome(id: number, cells: number): number {
  return (Math.imul(id ^ 0x9e3779b1, 0x85ebca6b) >>> 0) % cells;
}

/** The cell of `id` in the docs' id table, or the empty one where it would go. */
export function idCell(docs: Docs, id: number): number {
  const n = docs.cells.length;
  let cell = idHome(id, n);
  for (let step = 0; step < n; step++) {
    const held = docs.cells[cell];
    if (held === 0 || docs.ids[held - 1] === id) return cell;
    cell = cell + 1 === n ? 0 : cell + 1;
  }
  throw new RangeError("bad docs");
}

/** Forgets `id`'s cell, moving back the later cells of its run (no tombstones: slot-table.ts deleteSlot). */
export function deleteId(docs: Docs, id: number): void {
  const { cells, ids } = docs;
  const n = cells.length;
  let hole = idCell(docs, id);
  cells[hole] = 0;
  let cell = hole;
  for (;;) {
    cell = cell + 1 === n ? 0 : cell + 1;
    const held = cells[cell];
    if (held === 0) return;
    const want = idHome(ids[held - 1], n);
    if (hole <= cell ? hole < want && want <= cell : hole < want || want <= cell) continue;
    cells[hole] = held;
    cells[cell] = 0;
    hole = cell;
  }
}
