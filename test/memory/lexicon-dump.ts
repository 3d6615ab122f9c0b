// Reads a lexical index's regions (lib/memory/recall/lexicon-layout.ts) for tests: the live terms with
// their postings, the documents, and a digest of the bytes in use. Views are made with explicit lengths,
// so it reads native arena memory on XS too. No Node imports.
import {
  D_CAPACITY,
  D_COUNT,
  D_LIVE,
  D_TOTAL,
  docsBytes,
  docsOffsets,
  H_CAPACITY,
  H_TOP,
  HEAP_HEADER_WORDS,
  RECORD_FREE,
  RECORD_HEADER_WORDS,
  RECORD_SIZE_MASK,
  RECORD_TERM_SHIFT,
  TABLE_HEADER_WORDS,
} from "../../lib/memory/recall/lexicon-layout.ts";
import { decodeUtf8 } from "../../lib/util/utf8.ts";

export interface Regions {
  heap: ArrayBuffer;
  table: ArrayBuffer;
  docs: ArrayBuffer;
}

export interface DumpedTerm {
  term: string;
  /** "id:tf" per posting, sorted by id. */
  postings: string[];
}

function heapWords(heap: ArrayBuffer): Uint32Array {
  return new Uint32Array(heap, 0, new Uint32Array(heap, 0, HEAP_HEADER_WORDS)[H_CAPACITY]);
}

/** The documents: id -> length in terms, and the header's live count and length sum. */
export function dumpDocs(docs: ArrayBuffer): { lengths: Map<number, number>; live: number; total: number } {
  const header = new Uint32Array(docs, 0, 8);
  const capacity = header[D_CAPACITY];
  const at = docsOffsets(capacity);
  const ids = new Uint32Array(docs, at.ids, capacity);
  const lengths = new Int32Array(docs, at.lengths, capacity);
  const out = new Map<number, number>();
  for (let doc = 0; doc < header[D_COUNT]; doc++) if (lengths[doc] >= 0) out.set(ids[doc], lengths[doc]);
  return { lengths: out, live: header[D_LIVE], total: header[D_TOTAL] };
}

/** The terms entries hold (df > 0), sorted, each with its postings as entry ids and counts. */
export function dumpTerms(r: Regions): DumpedTerm[] {
  const words = heapWords(r.heap);
  const bytes = new Uint8Array(r.heap, 0, words.length * 4);
  const header = new Uint32Array(r.docs, 0, 8);
  const ids = new Uint32Array(r.docs, docsOffsets(header[D_CAPACITY]).ids, header[D_CAPACITY]);
  const out: DumpedTerm[] = [];
  for (let at = HEAP_HEADER_WORDS; at < words[H_TOP]; at += words[at] & RECORD_SIZE_MASK) {
    const df = words[at + 2];
    if (words[at] & RECORD_FREE || df === 0) continue;
    const length = (words[at] >>> RECORD_TERM_SHIFT) & 0x7ff;
    const start = (at + RECORD_HEADER_WORDS) * 4;
    const base = at + RECORD_HEADER_WORDS + ((length + 3) >> 2);
    const postings: string[] = [];
    for (let i = 0; i < df; i++) postings.push(`${ids[words[base + i] >>> 16]}:${words[base + i] & 0xffff}`);
    postings.sort((a, b) => Number(a.split(":")[0]) - Number(b.split(":")[0]));
    out.push({ term: decodeUtf8(bytes.subarray(start, start + length)), postings });
  }
  return out.sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

/** FNV-1a over 32-bit words, as hex. */
function wordsHash(words: Uint32Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** A digest of every byte in use: the heap to its top, the whole table, the whole docs region. */
export function regionsDigest(r: Regions): string {
  const words = heapWords(r.heap);
  const cells = new Uint32Array(r.table, 0, TABLE_HEADER_WORDS)[0];
  const docs = new Uint32Array(r.docs, 0, docsBytes(new Uint32Array(r.docs, 0, 8)[D_CAPACITY]) / 4);
  return `${wordsHash(words.subarray(0, words[H_TOP]))}.${wordsHash(new Uint32Array(r.table, 0, TABLE_HEADER_WORDS + cells))}.${wordsHash(docs)}`;
}
