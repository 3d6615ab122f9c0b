import { nameError } from "../../errors";
// The vector file: a 32-byte header, the embedder id, then one record per entry.
//
//   0  "HALOVEC\0"         8  u16 version   10 u16 dims   12 u32 count
//   16 u32 body bytes      20 8 bytes: start of sha256(file with these 8 bytes zeroed)
//   28 u32 last maintenance pass (seconds since the epoch)
//   32 body: u8 idLen, embedder id, records (entry-codec.ts)
//
// It is read in pieces (VECTOR_FILE_PIECE_BYTES) through a window that holds
// one piece and one record, hashed as it comes, so a boot never holds the
// whole file (2.5 MB at 5,000 entries); vector-file-write.ts writes it so.
import type { Digest, LexiconKernels, Sha256Stream, VectorArena } from "../../ports";
import { decodeUtf8, encodeUtf8 } from "../../util/utf8";
import { MAX_EMBEDDING_DIMS, MAX_VECTORS_LIMIT, VECTOR_FILE_PIECE_BYTES } from "../bounds";
import { maxEntryBytes, readEntry } from "./entry-codec";
import { residualBytes } from "./quantize";
import type { JournalBase } from "./vector-journal";
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

/**
 * The header and embedder id of a file of the current version whose records take `recordBytes`, its
 * checksum field zero (vector-file-write.ts fills it in); throws when the id is too long.
 */
export function encodeVectorFileHead(
  dims: number,
  count: number,
  recordBytes: number,
  maintainedAt: number,
  embedderId: string,
): Uint8Array {
  const id = encodeUtf8(embedderId);
  if (id.length > 255) throw new Error("embedder id too long");
  const head = new Uint8Array(HEADER_BYTES + 1 + id.length);
  const view = new DataView(head.buffer);
  head.set(MAGIC, 0);
  view.setUint16(8, VECTOR_FILE_VERSION, true);
  view.setUint16(10, dims, true);
  view.setUint32(12, count, true);
  view.setUint32(16, 1 + id.length + recordBytes, true);
  view.setUint32(28, Math.max(0, Math.min(0xffffffff, Math.floor(maintainedAt / 1000))), true);
  head[HEADER_BYTES] = id.length;
  head.set(id, HEADER_BYTES + 1);
  return head;
}

/**
 * Copies the file's bytes from `offset` into `into` and returns the count, under `into.length` only at the
 * file's end (Storage.readRange over one path). What it throws (a pulled card) passes through unchanged.
 */
export type RangeReader = (offset: number, into: Uint8Array) => number;

export interface DecodedVectorFile {
  /** The format version read (an older one is rewritten by the next save). */
  version: number;
  embedderId: string;
  store: VectorStore;
  /** When forgetting last ran (ms), 0 if never. */
  maintainedAt: number;
  /** The file's checksum bytes and length: what its journal names it by. */
  base: JournalBase;
}

/** The file as it is read: a window of one piece and one record over it, every byte hashed as it arrives. */
class FileWindow {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** The unconsumed bytes are bytes[start, end). */
  start = 0;
  end = 0;
  /** Bytes read from the file so far (the file offset of bytes[end]). */
  read = 0;
  eof = false;
  /** Set when the reader threw: the card failed, the file says nothing. */
  failed = false;
  /** The checksum field as read (it is hashed as zeros). */
  readonly check = new Uint8Array(CHECK_BYTES);

  constructor(
    private readonly source: RangeReader,
    private readonly hash: Sha256Stream,
    private readonly piece: number,
    keep: number,
  ) {
    this.bytes = new Uint8Array(piece + keep);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Reads until at least `n` (at most `keep`) unconsumed bytes are held or the file ends; returns how many are held. */
  fill(n: number): number {
    while (this.end - this.start < n && !this.eof) {
      if (this.bytes.length - this.end < this.piece) {
        this.bytes.copyWithin(0, this.start, this.end);
        this.end -= this.start;
        this.start = 0;
      }
      this.take(this.end, this.piece);
    }
    return this.end - this.start;
  }

  /** Reads and hashes the rest of the file, keeping nothing (its length is then known). */
  drain(): void {
    this.start = this.end = 0;
    while (!this.eof) this.take(0, this.piece);
  }

  private take(at: number, length: number): void {
    let got: number;
    try {
      got = this.source(this.read, this.bytes.subarray(at, at + length));
    } catch (e) {
      this.failed = true;
      throw e;
    }
    if (got < length) this.eof = true;
    for (let i = Math.max(this.read, CHECK_AT); i < Math.min(this.read + got, CHECK_AT + CHECK_BYTES); i++) {
      this.check[i - CHECK_AT] = this.bytes[at + i - this.read];
      this.bytes[at + i - this.read] = 0;
    }
    this.hash.update(this.bytes.subarray(at, at + got));
    this.read += got;
    this.end = at + got;
  }
}

/**
 * Reads a vector file through `read`, `pieceBytes` at a time, into a store of at least `capacity` entries
 * over `arena` (its lexical index through `lexicon`, TypeScript when not given); throws VectorFileError when it is not intact (and the arena's HaloError "full" when the
 * entries do not fit). Entries are added as they are read and the checksum is known at the end, so on any
 * failure the rest of the file is still read: the error is the one a check of the whole file first would
 * give (a short or damaged file is refused as such, never as "full"). A store left half-built is dropped
 * and collected (the native arena collects before it refuses memory).
 */
export function readVectorFile(
  read: RangeReader,
  digest: Digest,
  capacity: number,
  arena: VectorArena,
  pieceBytes: number = VECTOR_FILE_PIECE_BYTES,
  lexicon?: LexiconKernels,
): DecodedVectorFile {
  if (!(pieceBytes >= 1)) throw new RangeError("bad piece size");
  const hash = digest.sha256Stream();
  const file = new FileWindow(read, hash, pieceBytes, maxEntryBytes(MAX_EMBEDDING_DIMS, true));
  const head = file.fill(HEADER_BYTES + 1);
  if (head < HEADER_BYTES + 1) throw new VectorFileError(`too short (${head} bytes)`);
  const { bytes, view } = file;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC[i]) throw new VectorFileError("not a vector file (bad magic)");
  const version = view.getUint16(8, true);
  const dims = view.getUint16(10, true);
  const count = view.getUint32(12, true);
  const bodyBytes = view.getUint32(16, true);
  const maintainedAt = view.getUint32(28, true) * 1000;
  if (version < VECTOR_FILE_OLDEST_VERSION || version > VECTOR_FILE_VERSION) throw new VectorFileError(`unknown format version ${version}`);
  if (dims === 0 || dims > MAX_EMBEDDING_DIMS) throw new VectorFileError(`bad dimensions ${dims}`);
  if (count > MAX_VECTORS_LIMIT) throw new VectorFileError(`too many entries (${count})`);
  file.start = HEADER_BYTES;
  let body: { embedderId: string; store: VectorStore } | undefined;
  let failure: unknown;
  try {
    body = readBody(file, version, dims, count, capacity, arena, lexicon);
  } catch (e) {
    if (file.failed) throw e;
    failure = e;
  }
  const length = HEADER_BYTES + bodyBytes;
  file.drain();
  if (file.read !== length) throw new VectorFileError(`truncated (${file.read - HEADER_BYTES} of ${bodyBytes} body bytes)`);
  const check = hash.digest();
  for (let i = 0; i < CHECK_BYTES; i++) if (check[i] !== file.check[i]) throw new VectorFileError("checksum mismatch");
  if (failure !== undefined || !body) throw failure;
  return { version, embedderId: body.embedderId, store: body.store, maintainedAt, base: { check: file.check, length } };
}

/** The embedder id and the records after the header, into a new store. */
function readBody(
  file: FileWindow,
  version: number,
  dims: number,
  count: number,
  capacity: number,
  arena: VectorArena,
  lexicon: LexiconKernels | undefined,
): { embedderId: string; store: VectorStore } {
  const { bytes, view } = file;
  const held = file.fill(256);
  const idLen = bytes[file.start];
  if (1 + idLen > held) throw new VectorFileError("embedder id cut short");
  const embedderId = decodeUtf8(bytes.subarray(file.start + 1, file.start + 1 + idLen));
  file.start += 1 + idLen;
  const store = new VectorStore(dims, Math.max(capacity, count), arena, lexicon);
  store.changes.ignoreUntilCleared(); // what is read is what the card holds (VectorFiles.open clears after the journal)
  const rows = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const withResidual = version >= RESIDUAL_VERSION;
  const half = residualBytes(dims);
  const zero = new Uint8Array(half); // an older format's rows: refined by nothing
  const longest = maxEntryBytes(dims, withResidual);
  try {
    for (let i = 0; i < count; i++) {
      const end = file.start + file.fill(longest);
      const entry = readEntry(bytes, view, file.start, end, dims, withResidual);
      if (typeof entry === "string") throw new VectorFileError(`entry ${i}: ${entry}`);
      if (store.slotOf(entry.meta.ns, entry.meta.id) >= 0) throw new VectorFileError(`entry ${i}: repeated id`);
      const residual = withResidual ? bytes.subarray(entry.residualOffset, entry.residualOffset + half) : zero;
      store.add(entry.meta, rows.subarray(entry.rowOffset, entry.rowOffset + dims), residual, entry.norm);
      file.start = entry.next;
    }
    if (file.fill(1) > 0) throw new VectorFileError("bytes after the last entry");
  } catch (e) {
    // A read cut short (a damaged file, a pulled card, a full arena) gives back what it took: the arena counts it.
    store.release();
    throw e;
  }
  return { embedderId, store };
}

/** Reads a vector file held whole in `bytes` (tests, tools): readVectorFile over the buffer. */
export function decodeVectorFile(bytes: Uint8Array, digest: Digest, capacity: number, arena: VectorArena): DecodedVectorFile {
  return readVectorFile(bytesReader(bytes), digest, capacity, arena);
}

/** A RangeReader over bytes in memory. */
export function bytesReader(bytes: Uint8Array): RangeReader {
  return (offset, into) => {
    const n = Math.max(0, Math.min(into.length, bytes.length - offset));
    into.set(bytes.subarray(offset, offset + n));
    return n;
  };
}
