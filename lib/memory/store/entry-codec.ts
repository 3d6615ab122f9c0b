// One memory entry as bytes: the record format shared by the vector file, its
// journal and the archive. Little-endian; strings are UTF-8 with their length in front.
//
//   u32 id | f32 importance | f64 created | f64 lastRecalled | u8 flags | u8 ttl
//   u8 nsLen | u8 sourceLen | u16 contentLen | f32 row norm | ns | source | content | int8[dims]
//   [u8[(dims + 1) / 2] residuals]
//
// The residual plane (quantize.ts: two signed 4-bit residuals a byte) ends the
// record in vector file format 3 and its journal; formats 1 and 2 and the
// archive's entry frames have none (the archive keeps it in a frame of its own).
// The row's norm is stored so a boot does not recompute it in a JS loop per entry.
import { decodeUtf8 } from "../../util/utf8";
import { MEMORY_CONTENT_MAX_BYTES, MEMORY_NS_MAX_BYTES } from "../bounds";
import { residualBytes } from "./quantize";
import { FLAG_PERMANENT, FLAG_PINNED, FLAG_REEMBEDDED, type EntryMeta } from "./vector-store";
import { TTL_CLASSES } from "../forgetting/ttl";

const FIXED_BYTES = 34;
const SOURCE_MAX_BYTES = 255;

/**
 * Bytes an entry takes at most (strings counted at 3 bytes per UTF-16 unit),
 * so a whole file can be written into one buffer with no allocation per entry:
 * on XS thousands of small buffers per save would cost far more in collection
 * than the spare bytes do.
 */
export function entryBound(ns: string, source: string, content: string, dims: number, withResidual: boolean): number {
  return FIXED_BYTES + 3 * (ns.length + source.length + content.length) + dims + (withResidual ? residualBytes(dims) : 0);
}

/** Bytes the largest record readEntry accepts takes: every string at its longest, the row and its residual plane. */
export function maxEntryBytes(dims: number, withResidual: boolean): number {
  return FIXED_BYTES + MEMORY_NS_MAX_BYTES + SOURCE_MAX_BYTES + MEMORY_CONTENT_MAX_BYTES + dims + (withResidual ? residualBytes(dims) : 0);
}

/**
 * Writes an entry and its row, then the row's residual plane when given, at `offset` (room for
 * entryBound bytes); returns the offset after it.
 */
export function writeEntry(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  meta: EntryMeta,
  norm: number,
  row: Int8Array,
  residual?: Uint8Array,
): number {
  // Made here, not at the top level: a preloaded module cannot call the host's TextEncoder while loading.
  const encoder = new TextEncoder();
  let at = offset + FIXED_BYTES;
  const nsLen = encoder.encodeInto(meta.ns, bytes.subarray(at)).written;
  at += nsLen;
  const sourceLen = encoder.encodeInto(meta.source, bytes.subarray(at)).written;
  at += sourceLen;
  const contentLen = encoder.encodeInto(meta.content, bytes.subarray(at)).written;
  return writeFixedAndRow(bytes, view, offset, meta, norm, nsLen, sourceLen, contentLen, row, residual);
}

/** Bytes of a record whose strings take these many UTF-8 bytes. */
export function recordBytes(nsLen: number, sourceLen: number, contentLen: number, dims: number, withResidual: boolean): number {
  return FIXED_BYTES + nsLen + sourceLen + contentLen + dims + (withResidual ? residualBytes(dims) : 0);
}

/**
 * writeEntry for strings already in UTF-8 (the store keeps its texts so: vector-file-write.ts copies them
 * without making a string); `bytes` has room for recordBytes(...) from `offset`.
 */
export function writeEncodedEntry(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  meta: Omit<EntryMeta, "ns" | "source" | "content">,
  norm: number,
  ns: Uint8Array,
  source: Uint8Array,
  content: Uint8Array,
  row: Int8Array,
  residual?: Uint8Array,
): number {
  let at = offset + FIXED_BYTES;
  bytes.set(ns, at);
  at += ns.length;
  bytes.set(source, at);
  at += source.length;
  bytes.set(content, at);
  return writeFixedAndRow(bytes, view, offset, meta, norm, ns.length, source.length, content.length, row, residual);
}

/** The fixed fields (after checking the strings' lengths), then the row and residual plane after the strings. */
function writeFixedAndRow(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  meta: Omit<EntryMeta, "ns" | "source" | "content">,
  norm: number,
  nsLen: number,
  sourceLen: number,
  contentLen: number,
  row: Int8Array,
  residual: Uint8Array | undefined,
): number {
  if (
    nsLen === 0 ||
    nsLen > MEMORY_NS_MAX_BYTES ||
    sourceLen > SOURCE_MAX_BYTES ||
    contentLen === 0 ||
    contentLen > MEMORY_CONTENT_MAX_BYTES
  ) {
    throw new Error("entry strings out of range");
  }
  view.setUint32(offset, meta.id, true);
  view.setFloat32(offset + 4, meta.importance, true);
  view.setFloat64(offset + 8, meta.created, true);
  view.setFloat64(offset + 16, meta.lastRecalled, true);
  view.setUint8(offset + 24, meta.flags);
  view.setUint8(offset + 25, meta.ttlClass);
  view.setUint8(offset + 26, nsLen);
  view.setUint8(offset + 27, sourceLen);
  view.setUint16(offset + 28, contentLen, true);
  view.setFloat32(offset + 30, norm, true);
  let at = offset + FIXED_BYTES + nsLen + sourceLen + contentLen;
  bytes.set(new Uint8Array(row.buffer, row.byteOffset, row.length), at);
  at += row.length;
  if (residual === undefined) return at;
  if (residual.length !== residualBytes(row.length)) throw new Error("bad residual length");
  bytes.set(residual, at);
  return at + residual.length;
}

export interface DecodedEntry {
  meta: EntryMeta;
  norm: number;
  /** Where the entry's int8 row starts in the buffer. */
  rowOffset: number;
  /** Where its residual plane starts, or -1 when the record has none (read without `withResidual`). */
  residualOffset: number;
  next: number;
}

/**
 * Reads the entry at `offset` (ending at or before `end`), its record ending with a residual plane when
 * `withResidual`, or returns why it is not a valid entry.
 */
export function readEntry(
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  end: number,
  dims: number,
  withResidual: boolean,
): DecodedEntry | string {
  if (offset + FIXED_BYTES > end) return "entry cut short";
  const flags = view.getUint8(offset + 24);
  const ttlClass = view.getUint8(offset + 25);
  const nsLen = view.getUint8(offset + 26);
  const sourceLen = view.getUint8(offset + 27);
  const contentLen = view.getUint16(offset + 28, true);
  const importance = view.getFloat32(offset + 4, true);
  const created = view.getFloat64(offset + 8, true);
  const lastRecalled = view.getFloat64(offset + 16, true);
  const norm = view.getFloat32(offset + 30, true);
  if ((flags & ~(FLAG_PINNED | FLAG_PERMANENT | FLAG_REEMBEDDED)) !== 0 || ttlClass >= TTL_CLASSES.length) return "bad flags or TTL class";
  if (nsLen === 0 || nsLen > MEMORY_NS_MAX_BYTES || contentLen === 0 || contentLen > MEMORY_CONTENT_MAX_BYTES) return "bad string lengths";
  if (!(importance >= 0 && importance <= 1) || !Number.isFinite(created) || !Number.isFinite(lastRecalled)) return "bad numbers";
  if (!(norm >= 0 && norm <= 128 * Math.sqrt(dims))) return "bad norm";
  let at = offset + FIXED_BYTES;
  const rowOffset = at + nsLen + sourceLen + contentLen;
  const next = rowOffset + dims + (withResidual ? residualBytes(dims) : 0);
  if (next > end) return "entry cut short";
  const ns = decodeUtf8(bytes.subarray(at, at + nsLen));
  at += nsLen;
  const source = decodeUtf8(bytes.subarray(at, at + sourceLen));
  at += sourceLen;
  const content = decodeUtf8(bytes.subarray(at, at + contentLen));
  at += contentLen;
  const meta: EntryMeta = { id: view.getUint32(offset, true), ns, content, source, importance, created, lastRecalled, flags, ttlClass };
  return { meta, norm, rowOffset, residualOffset: withResidual ? rowOffset + dims : -1, next };
}
