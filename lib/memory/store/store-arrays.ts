// The vector store's typed arrays laid over arena memory (ports.ts VectorArena):
// one allocation for the rows, every per-row field and the id table
// (slot-table.ts), one per namespace mask; the texts have pages of their own
// (text-pages.ts), the lexical index regions of its own (recall/lexicon-layout.ts).
// On XS the arena is native memory the garbage collector neither scans nor
// moves; this file decides the layout, the copy on resize and what fits.
import type { VectorArena } from "../../ports";
import { MAX_VECTORS_LIMIT } from "../bounds";
import { residualBytes } from "./quantize";
import { SLOT_TABLE_CELLS } from "./slot-table";

/**
 * Bytes of per-row fields beside the row: created, lastRecalled (8 each), norm, scale, importance, id (4 each),
 * two id-table cells (4 each), namespace, text page, text offset, content length (2 each), flags, ttl class,
 * source length (1 each).
 */
export const ROW_FIELD_BYTES = 51;
/** Text bytes (content and source) the capacity clamp allows an entry on average; longer texts leave room for fewer. */
export const TEXT_BYTES_PER_ENTRY = 128;
/**
 * Lexical index bytes the capacity clamp allows an entry on average: its postings, its share of the
 * term records, the term table and its document's 24 bytes, with the regions' room to grow. Measured on
 * the XS host's 5,000-entry stores: 66 bytes for facts of 46 bytes of text, 111 for 65, 117 for 124,
 * 175 for 104 bytes holding two words no other entry has.
 */
export const LEXICON_BYTES_PER_ENTRY = 160;
/** Namespace masks (a byte per row each) the capacity clamp leaves room for. */
export const MASK_RESERVE_NAMESPACES = 8;
/** Share of the arena budget the clamp leaves free: more masks, the journal's growth on replay. */
export const ARENA_MARGIN = 0.1;

/** Bytes one entry takes in the store's main allocation: its int8 row, its residual plane (dims / 2, rounded up) and its fields. */
export function rowBytes(dims: number): number {
  return dims + residualBytes(dims) + ROW_FIELD_BYTES;
}

/** Bytes one entry costs in the arena: its row, residuals and fields, the reserved mask bytes, its texts' and its index's allowances. */
export function bytesPerEntry(dims: number): number {
  return rowBytes(dims) + MASK_RESERVE_NAMESPACES + TEXT_BYTES_PER_ENTRY + LEXICON_BYTES_PER_ENTRY;
}

/** The most entries a store of `dims` may hold on a host whose arena gives `budgetBytes` (never above MAX_VECTORS_LIMIT). */
export function maxVectorsFitting(budgetBytes: number, dims: number): number {
  const fit = Math.floor((budgetBytes * (1 - ARENA_MARGIN)) / bytesPerEntry(dims));
  return Math.max(0, Math.min(MAX_VECTORS_LIMIT, fit));
}

/** The rows and per-row fields of a store, and the arena memory under them (undefined: nothing allocated yet). */
export interface RowArrays {
  memory: ArrayBuffer | undefined;
  vectors: Int8Array;
  /** Per row, residualBytes(dims) bytes of 4-bit residuals (quantize.ts): read by the re-rank only, never by the scan. */
  residuals: Uint8Array;
  norms: Float32Array;
  /** Per row, 1 / its int8 norm: the kernel ranks by dot x scale, the cosine up to the query's norm. */
  scales: Float32Array;
  importance: Float32Array;
  created: Float64Array;
  lastRecalled: Float64Array;
  flags: Uint8Array;
  ttlClass: Uint8Array;
  ids: Uint32Array;
  /** SLOT_TABLE_CELLS cells per row of capacity: (namespace, id) -> slot + 1 (slot-table.ts). Rebuilt, not copied, on resize. */
  slotTable: Int32Array;
  nsIndex: Uint16Array;
  /** Where the row's texts are (text-pages.ts). */
  textPage: Uint16Array;
  textOffset: Uint16Array;
  contentBytes: Uint16Array;
  sourceBytes: Uint8Array;
}

/** Zero-length arrays: a store that has not taken its memory yet. */
export function emptyRowArrays(): RowArrays {
  return {
    memory: undefined,
    vectors: new Int8Array(0),
    residuals: new Uint8Array(0),
    norms: new Float32Array(0),
    scales: new Float32Array(0),
    importance: new Float32Array(0),
    created: new Float64Array(0),
    lastRecalled: new Float64Array(0),
    flags: new Uint8Array(0),
    ttlClass: new Uint8Array(0),
    ids: new Uint32Array(0),
    slotTable: new Int32Array(0),
    nsIndex: new Uint16Array(0),
    textPage: new Uint16Array(0),
    textOffset: new Uint16Array(0),
    contentBytes: new Uint16Array(0),
    sourceBytes: new Uint8Array(0),
  };
}

/**
 * One allocation of capacity x rowBytes(dims) bytes. The 8-byte fields come
 * first, then the 4-, 2- and 1-byte ones (the rows, then their residuals,
 * last), so every array starts on a multiple of its element size (the arena
 * starts on an 8-byte boundary).
 */
export function allocateRowArrays(arena: VectorArena, dims: number, capacity: number): RowArrays {
  const c = capacity;
  const memory = allocate(arena, c * rowBytes(dims));
  return {
    memory,
    created: new Float64Array(memory, 0, c),
    lastRecalled: new Float64Array(memory, 8 * c, c),
    norms: new Float32Array(memory, 16 * c, c),
    scales: new Float32Array(memory, 20 * c, c),
    importance: new Float32Array(memory, 24 * c, c),
    ids: new Uint32Array(memory, 28 * c, c),
    slotTable: new Int32Array(memory, 32 * c, SLOT_TABLE_CELLS * c),
    nsIndex: new Uint16Array(memory, 40 * c, c),
    textPage: new Uint16Array(memory, 42 * c, c),
    textOffset: new Uint16Array(memory, 44 * c, c),
    contentBytes: new Uint16Array(memory, 46 * c, c),
    flags: new Uint8Array(memory, 48 * c, c),
    ttlClass: new Uint8Array(memory, 49 * c, c),
    sourceBytes: new Uint8Array(memory, 50 * c, c),
    vectors: new Int8Array(memory, 51 * c, c * dims),
    residuals: new Uint8Array(memory, (51 + dims) * c, c * residualBytes(dims)),
  };
}

/** One element per row: what copying a row needs of a field's typed array. */
export interface RowField {
  [row: number]: number;
  set(values: ArrayLike<number>): void;
  subarray(begin: number, end: number): ArrayLike<number>;
}

/** The fields of `a` that hold one element per row (not the rows, their residuals or the id table), in one order. */
export function perRowFields(a: Omit<RowArrays, "memory">): RowField[] {
  return [
    a.created,
    a.lastRecalled,
    a.norms,
    a.scales,
    a.importance,
    a.ids,
    a.nsIndex,
    a.textPage,
    a.textOffset,
    a.contentBytes,
    a.flags,
    a.ttlClass,
    a.sourceBytes,
  ];
}

/** Copies the first `count` entries of `from` into `to` (not the id table: its cells depend on the capacity). */
export function copyRowArrays(from: Omit<RowArrays, "memory">, to: RowArrays, count: number, dims: number): void {
  to.vectors.set(from.vectors.subarray(0, count * dims));
  to.residuals.set(from.residuals.subarray(0, count * residualBytes(dims)));
  const target = perRowFields(to);
  const source = perRowFields(from);
  for (let i = 0; i < source.length; i++) target[i].set(source[i].subarray(0, count));
}

/** A namespace's mask: a byte per row, in its own allocation. */
export interface Mask {
  memory: ArrayBuffer;
  bytes: Uint8Array;
}

export function allocateMask(arena: VectorArena, capacity: number): Mask {
  const memory = allocate(arena, capacity);
  return { memory, bytes: new Uint8Array(memory, 0, capacity) };
}

// An empty request still takes a few bytes, so every allocation is a real buffer.
function allocate(arena: VectorArena, bytes: number): ArrayBuffer {
  return arena.allocate(Math.max(8, bytes));
}
