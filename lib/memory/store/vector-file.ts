import { nameError } from "../../errors";
// The vector file: a 32-byte header, the embedder id, then one record per entry.
//
//   0  "HALOVEC\0"         8  u16 version   10 u16 dims   12 u32 count
//   16 u32 body bytes      20 8 bytes: start of sha256(file with these 8 bytes zeroed)
//   28 u32 last maintenance pass (seconds since the epoch)
//   32 body: u8 idLen, embedder id, records (entry-codec.ts)
import type { Digest, VectorArena } from "../../ports";
import { decodeUtf8, encodeUtf8 } from "../../util/utf8";
import { MAX_EMBEDDING_DIMS, MAX_VECTORS_LIMIT } from "../bounds";
import { entryBound, readEntry, writeEntry } from "./entry-codec";
import { residualBytes } from "./quantize";
import { VectorStore } from "./vector-store";

/**
 * 3: each record ends with its row's 4-bit residual plane (entry-codec.ts,
 * quantize.ts). 2: rows scaled per row to the whole int8 range, no residuals.
 * 1 (wave 1): rows round(v x 127), the layout of 2. A row of 1 or 2 is still a
 * valid row (its own norm gives its scale), so such a file (and its journal)
 * loads as it is, every row with a zero residual (the row as it was, refined by
 * nothing), and the next save writes version 3: nothing converted, nothing lost.
 */
export const VECTOR_FILE_VERSION = 3;
/** The first version whose records carry the residual plane. */
export const RESIDUAL_VERSION = 3;
/** The oldest version a boot still reads. */
export const VECTOR_FILE_OLDEST_VERSION = 1;
const MAGIC = [0x48, 0x41, 0x4c, 0x4f, 0x56, 0x45, 0x43, 0x00];
const HEADER_BYTES = 32;
/** Where the checksum sits, and its size: the journal names its snapshot by these bytes and the file's length. */
export const CHECK_AT = 20;
export const CHECK_BYTES = 8;

/** A vector file that cannot be read; `message` says why in a few words. */
export class VectorFileError extends Error {
  constructor(message: string) {
    super(message);
    nameError(this, "VectorFileError");
  }
}

export function encodeVectorFile(store: Readonly<VectorStore>, embedderId: string, maintainedAt: number, digest: Digest): Uint8Array {
  const id = encodeUtf8(embedderId);
  if (id.length > 255) throw new Error("embedder id too long");
  let bound = HEADER_BYTES + 1 + id.length;
  for (let slot = 0; slot < store.count; slot++) {
    bound += entryBound(store.nsOf(slot), store.sourceOf(slot), store.contentOf(slot), store.dims, true);
  }
  const buffer = new Uint8Array(bound);
  const view = new DataView(buffer.buffer);
  buffer.set(MAGIC, 0);
  view.setUint16(8, VECTOR_FILE_VERSION, true);
  view.setUint16(10, store.dims, true);
  view.setUint32(12, store.count, true);
  view.setUint32(28, Math.max(0, Math.min(0xffffffff, Math.floor(maintainedAt / 1000))), true);
  let at = HEADER_BYTES;
  buffer[at++] = id.length;
  buffer.set(id, at);
  at += id.length;
  for (let slot = 0; slot < store.count; slot++)
    at = writeEntry(buffer, view, at, store.metaAt(slot), store.norms[slot], store.row(slot), store.residual(slot));
  view.setUint32(16, at - HEADER_BYTES, true);
  const bytes = buffer.subarray(0, at);
  bytes.set(digest.sha256(bytes).subarray(0, CHECK_BYTES), CHECK_AT);
  return bytes;
}

export interface DecodedVectorFile {
  /** The format version read (an older one is rewritten by the next save). */
  version: number;
  embedderId: string;
  store: VectorStore;
  /** When forgetting last ran (ms), 0 if never. */
  maintainedAt: number;
}

/**
 * Reads a vector file into a store of at least `capacity` entries over
 * `arena`; throws VectorFileError when it is not intact (and the arena's
 * HaloError "full" when the entries do not fit). `bytes` is briefly modified
 * (the checksum field is zeroed while hashing) and restored.
 */
export function decodeVectorFile(bytes: Uint8Array, digest: Digest, capacity: number, arena: VectorArena): DecodedVectorFile {
  if (bytes.length < HEADER_BYTES + 1) throw new VectorFileError(`too short (${bytes.length} bytes)`);
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC[i]) throw new VectorFileError("not a vector file (bad magic)");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(8, true);
  const dims = view.getUint16(10, true);
  const count = view.getUint32(12, true);
  const bodyBytes = view.getUint32(16, true);
  if (version < VECTOR_FILE_OLDEST_VERSION || version > VECTOR_FILE_VERSION) throw new VectorFileError(`unknown format version ${version}`);
  if (dims === 0 || dims > MAX_EMBEDDING_DIMS) throw new VectorFileError(`bad dimensions ${dims}`);
  if (count > MAX_VECTORS_LIMIT) throw new VectorFileError(`too many entries (${count})`);
  if (bodyBytes !== bytes.length - HEADER_BYTES)
    throw new VectorFileError(`truncated (${bytes.length - HEADER_BYTES} of ${bodyBytes} body bytes)`);
  const stored = bytes.slice(CHECK_AT, CHECK_AT + CHECK_BYTES);
  bytes.fill(0, CHECK_AT, CHECK_AT + CHECK_BYTES);
  const check = digest.sha256(bytes);
  bytes.set(stored, CHECK_AT);
  for (let i = 0; i < CHECK_BYTES; i++) if (check[i] !== stored[i]) throw new VectorFileError("checksum mismatch");
  let at = HEADER_BYTES;
  const idLen = bytes[at++];
  if (at + idLen > bytes.length) throw new VectorFileError("embedder id cut short");
  const embedderId = decodeUtf8(bytes.subarray(at, at + idLen));
  at += idLen;
  const store = new VectorStore(dims, Math.max(capacity, count), arena);
  const rows = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const withResidual = version >= RESIDUAL_VERSION;
  const half = residualBytes(dims);
  const zero = new Uint8Array(half); // an older format's rows: refined by nothing
  for (let i = 0; i < count; i++) {
    const entry = readEntry(bytes, view, at, bytes.length, dims, withResidual);
    if (typeof entry === "string") throw new VectorFileError(`entry ${i}: ${entry}`);
    if (store.slotOf(entry.meta.ns, entry.meta.id) >= 0) throw new VectorFileError(`entry ${i}: repeated id`);
    const residual = withResidual ? bytes.subarray(entry.residualOffset, entry.residualOffset + half) : zero;
    store.add(entry.meta, rows.subarray(entry.rowOffset, entry.rowOffset + dims), residual, entry.norm);
    at = entry.next;
  }
  if (at !== bytes.length) throw new VectorFileError("bytes after the last entry");
  return { version, embedderId, store, maintainedAt: view.getUint32(28, true) * 1000 };
}
