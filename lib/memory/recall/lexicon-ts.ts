// The lexical index's kernels in TypeScript (ports.ts LexiconKernels over the
// layout of lexicon-layout.ts): what Node uses, and the reference for the C
// kernels (modules/vector/lexicon.c), which give the same results, the same
// bytes in the regions and the same errors. docs/memory-kernel.md has the contract.
import { LEXICAL_MAX_QUERY_TERMS, LEXICAL_MAX_TERMS_PER_ENTRY } from "../bounds";
import type { LexiconKernels } from "../../ports";
import {
  D_COUNT,
  D_FREE,
  D_LIVE,
  D_TOTAL,
  DOC_LIMIT,
  H_GARBAGE,
  H_TERMS,
  H_TOP,
  HEAP_HEADER_WORDS,
  NEED_DOCS,
  RECORD_FREE,
  RECORD_HEADER_WORDS,
  TABLE_HEADER_WORDS,
} from "./lexicon-layout";
import {
  checkId,
  deleteId,
  docsOf,
  encode,
  heapOf,
  idCell,
  plan,
  post,
  postingsOf,
  probe,
  sizeOf,
  tableOf,
  unpost,
} from "./lexicon-records";
import { tokenize } from "./lexicon-tokens";

const K1 = 1.2;
const B = 0.75;

function add(heapMemory: ArrayBuffer, tableMemory: ArrayBuffer, docsMemory: ArrayBuffer, text: string, id: number): number {
  const heap = heapOf(heapMemory);
  const table = tableOf(tableMemory);
  const docs = docsOf(docsMemory);
  const bytes = encode(text);
  checkId(id);
  const cell = idCell(docs, id);
  if (docs.cells[cell] !== 0) throw new Error("indexed twice");
  const { header } = docs;
  if (header[D_FREE] === 0) {
    if (header[D_COUNT] >= DOC_LIMIT) throw new RangeError("too many entries");
    if (header[D_COUNT] >= docs.capacity) return NEED_DOCS;
  }
  const list = tokenize(bytes, LEXICAL_MAX_TERMS_PER_ENTRY);
  const room = plan(heap, table, bytes, list);
  if (room < 0) return room;
  let doc = header[D_COUNT];
  if (header[D_FREE] > 0) {
    doc = header[D_FREE] - 1;
    header[D_FREE] = docs.ids[doc];
  } else header[D_COUNT]++;
  for (let k = 0; k < list.count; k++) post(heap, table, bytes, list, k, doc);
  docs.ids[doc] = id;
  docs.lengths[doc] = list.total;
  docs.cells[cell] = doc + 1;
  header[D_LIVE]++;
  header[D_TOTAL] += list.total;
  return list.total;
}

function reserve(heapMemory: ArrayBuffer, tableMemory: ArrayBuffer, text: string): number {
  const heap = heapOf(heapMemory);
  const table = tableOf(tableMemory);
  const bytes = encode(text);
  return plan(heap, table, bytes, tokenize(bytes, LEXICAL_MAX_TERMS_PER_ENTRY));
}

function remove(heapMemory: ArrayBuffer, tableMemory: ArrayBuffer, docsMemory: ArrayBuffer, text: string, id: number): number {
  const heap = heapOf(heapMemory);
  const table = tableOf(tableMemory);
  const docs = docsOf(docsMemory);
  const bytes = encode(text);
  checkId(id);
  const held = docs.cells[idCell(docs, id)];
  if (held === 0) return -1;
  const doc = held - 1;
  const list = tokenize(bytes, LEXICAL_MAX_TERMS_PER_ENTRY);
  for (let k = 0; k < list.count; k++) unpost(heap, table, bytes, list, k, doc);
  deleteId(docs, id);
  const { header } = docs;
  const length = docs.lengths[doc];
  docs.lengths[doc] = -1;
  docs.ids[doc] = header[D_FREE];
  header[D_FREE] = doc + 1;
  header[D_LIVE]--;
  header[D_TOTAL] -= length;
  return length;
}

function lookup(heapMemory: ArrayBuffer, tableMemory: ArrayBuffer, query: string, out: Int32Array): number {
  const heap = heapOf(heapMemory);
  const table = tableOf(tableMemory);
  const bytes = encode(query);
  if (!(out instanceof Int32Array) || out.length < 2 * LEXICAL_MAX_QUERY_TERMS) throw new RangeError("bad out");
  const list = tokenize(bytes, LEXICAL_MAX_QUERY_TERMS);
  for (let j = 0; j < list.count; j++) {
    const record = table[probe(heap, table, bytes, list, j)];
    out[2 * j] = record;
    out[2 * j + 1] = record === 0 ? 0 : heap.words[record + 2];
  }
  return list.count;
}

/** Puts (id, score) among the best `count` pairs of `out` (sorted, at most `limit`) if it ranks; returns the new count. */
function keep(out: Float64Array, count: number, limit: number, id: number, score: number): number {
  let at = count;
  if (count === limit) {
    at = count - 1;
    if (!(score > out[2 * at + 1] || (score === out[2 * at + 1] && id < out[2 * at]))) return count;
  } else count++;
  for (; at > 0 && (score > out[2 * at - 1] || (score === out[2 * at - 1] && id < out[2 * at - 2])); at--) {
    out[2 * at] = out[2 * at - 2];
    out[2 * at + 1] = out[2 * at - 1];
  }
  out[2 * at] = id;
  out[2 * at + 1] = score;
  return count;
}

function score(
  heapMemory: ArrayBuffer,
  docsMemory: ArrayBuffer,
  terms: Int32Array,
  idfs: Float64Array,
  count: number,
  average: number,
  mass: number,
  limit: number,
  out: Float64Array,
): number {
  const heap = heapOf(heapMemory);
  const docs = docsOf(docsMemory);
  if (!Number.isInteger(count) || count < 0 || count > LEXICAL_MAX_QUERY_TERMS) throw new RangeError("bad count");
  if (!(terms instanceof Int32Array) || terms.length < 2 * count) throw new RangeError("bad terms");
  if (!(idfs instanceof Float64Array) || idfs.length < count) throw new RangeError("bad idfs");
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError("bad limit");
  if (!(out instanceof Float64Array) || out.length < 2 * limit) throw new RangeError("bad out");
  const words = heap.words;
  const { acc, lengths, ids } = docs;
  const docCount = docs.header[D_COUNT];
  for (let j = 0; j < count; j++) {
    const record = terms[2 * j];
    if (record === 0) continue;
    if (record < HEAP_HEADER_WORDS || record >= words[H_TOP]) throw new RangeError("bad terms");
    const df = words[record + 2];
    const base = postingsOf(words, record);
    if (base + df > words[H_TOP]) throw new RangeError("bad heap");
    const idf = idfs[j];
    for (let i = 0; i < df; i++) {
      const posting = words[base + i];
      const doc = posting >>> 16;
      if (doc >= docCount) throw new RangeError("bad heap");
      const tf = posting & 0xffff;
      // The definition's arithmetic, in its order (lexical.ts): the same doubles as the reference.
      const norm = K1 * (1 - B + (B * lengths[doc]) / average);
      const x = (tf * (K1 + 1)) / (tf + norm);
      acc[doc] += idf * (x < 1 ? x : 1);
    }
  }
  let found = 0;
  for (let doc = 0; doc < docCount; doc++) {
    const sum = acc[doc];
    if (sum === 0) continue;
    acc[doc] = 0;
    if (limit > 0) found = keep(out, found, limit, ids[doc], sum / mass);
  }
  return found;
}

function rebuild(heapMemory: ArrayBuffer, tableMemory: ArrayBuffer): void {
  const heap = heapOf(heapMemory);
  const table = tableOf(tableMemory);
  const words = heap.words;
  const cells = table[0];
  if (words[H_TERMS] * 4 > cells * 3) throw new RangeError("bad table");
  const top = words[H_TOP];
  for (let r = HEAP_HEADER_WORDS; r < top; r += sizeOf(words, r)) {
    const size = sizeOf(words, r);
    if (size < RECORD_HEADER_WORDS || r + size > top || postingsOf(words, r) > r + size) throw new RangeError("bad heap");
  }
  table.fill(0, TABLE_HEADER_WORDS);
  let terms = 0;
  for (let r = HEAP_HEADER_WORDS; r < top; r += sizeOf(words, r)) {
    if (words[r] & RECORD_FREE) continue;
    if (words[r + 2] === 0) {
      words[r] = (words[r] | RECORD_FREE) >>> 0; // dead: its words are counted as garbage already
      continue;
    }
    let cell = words[r + 1] & (cells - 1);
    while (table[TABLE_HEADER_WORDS + cell] !== 0) cell = (cell + 1) & (cells - 1);
    table[TABLE_HEADER_WORDS + cell] = r;
    terms++;
  }
  words[H_TERMS] = terms;
}

function compact(heapMemory: ArrayBuffer, tableMemory: ArrayBuffer): void {
  const heap = heapOf(heapMemory);
  const words = heap.words;
  if (words[H_TERMS] * 4 > tableOf(tableMemory)[0] * 3) throw new RangeError("bad table");
  const top = words[H_TOP];
  let to = HEAP_HEADER_WORDS;
  for (let r = HEAP_HEADER_WORDS; r < top;) {
    const size = sizeOf(words, r);
    if (size < RECORD_HEADER_WORDS || r + size > top) throw new RangeError("bad heap");
    if ((words[r] & RECORD_FREE) === 0 && words[r + 2] > 0) {
      if (to !== r) words.copyWithin(to, r, r + size);
      to += size;
    }
    r += size;
  }
  words[H_TOP] = to;
  words[H_GARBAGE] = 0;
  rebuild(heapMemory, tableMemory);
}

function moveDocs(fromMemory: ArrayBuffer, toMemory: ArrayBuffer): void {
  const from = docsOf(fromMemory);
  const to = docsOf(toMemory);
  const count = from.header[D_COUNT];
  if (to.header[D_COUNT] !== 0 || to.capacity < count) throw new RangeError("bad docs");
  for (const field of [D_COUNT, D_FREE, D_LIVE, D_TOTAL]) to.header[field] = from.header[field];
  to.ids.set(from.ids.subarray(0, count));
  to.lengths.set(from.lengths.subarray(0, count));
  for (let doc = 0; doc < count; doc++) if (to.lengths[doc] >= 0) to.cells[idCell(to, to.ids[doc])] = doc + 1;
}

/** The TypeScript lexicon kernels. */
export const tsLexiconKernels: LexiconKernels = { add, reserve, remove, lookup, score, rebuild, compact, moveDocs };
