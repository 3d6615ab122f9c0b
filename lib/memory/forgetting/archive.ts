// The SD archive of expired memories, embedding kept: an append-only file of
// framed records, so a torn append is detected and dropped.
//
//   frame:   "HAR1" | u32 payload bytes | u32 djb2(payload) | payload
//   payload: u8 1 (entry) | f64 archivedAt | u8 idLen | embedder id | u16 dims | entry record (entry-codec.ts, no residuals)
//            u8 2 (removed) | u32 id | u8 nsLen | ns
//            u8 3 (residuals) | u32 id | u8 nsLen | ns | u16 dims | the row's residual plane ((dims + 1) / 2 bytes)
//
// A residual frame comes just before its entry frame, in the same append, and
// gives that entry its row's residuals (quantize.ts); an entry without one
// (archived before residuals existed) has a zero residual. A residual frame
// not followed by its entry (an append torn between the two) counts as damaged
// and the entry was never archived. Kept apart so firmware that knows only
// kinds 1 and 2 still reads every entry (it drops the residual frames as damaged).
// Before its first append in a session the file is read once; a torn tail or an
// oversized file is then rewritten (temp + rename) with only the live entries.
import type { Log, Storage } from "../../ports";
import { djb2Bytes } from "../../util/hash";
import { decodeUtf8, encodeUtf8 } from "../../util/utf8";
import { ARCHIVE_MAX_BYTES, MAX_EMBEDDING_DIMS } from "../bounds";
import { entryBound, readEntry, writeEntry } from "../store/entry-codec";
import { int8Norm, residualBytes } from "../store/quantize";
import type { EntryMeta } from "../store/vector-store";
import type { Removed } from "./forgetting";

export const ARCHIVE_PATH = "memory/archive.bin";
const MAGIC = [0x48, 0x41, 0x52, 0x31];
const FRAME_HEADER = 12;
const KIND_ENTRY = 1;
const KIND_REMOVED = 2;
const KIND_RESIDUAL = 3;
/** A compaction keeps the newest entries up to this share of ARCHIVE_MAX_BYTES. */
const COMPACT_TARGET = 0.75;

export interface ArchivedEntry {
  meta: EntryMeta;
  row: Int8Array;
  /** The row's residual plane (zeros for an entry archived without one). */
  residual: Uint8Array;
  /** The row's int8 norm, as stored. */
  norm: number;
  embedderId: string;
  archivedAt: number;
}

export class MemoryArchive {
  /** True once this session has read the file and left it without a torn tail. */
  private verified = false;

  constructor(
    private readonly storage: Storage,
    private readonly log: Log,
  ) {}

  /** Live archived entries (removals applied), oldest first. Throws when the card is absent. */
  load(): ArchivedEntry[] {
    return this.read().entries;
  }

  /** Adds expired entries. Throws when the card is absent or the write fails. */
  add(entries: Array<{ meta: EntryMeta; row: Int8Array; residual: Uint8Array }>, embedderId: string, archivedAt: number): void {
    if (entries.length === 0) return;
    this.verify();
    const frames: Uint8Array[] = [];
    for (const e of entries)
      frames.push(frame(residualPayload(e.meta, e.row.length, e.residual)), frame(entryPayload(e.meta, e.row, embedderId, archivedAt)));
    this.appendFrames(frames);
    const size = this.storage.stat(ARCHIVE_PATH)?.size ?? 0;
    if (size > ARCHIVE_MAX_BYTES) this.compact(this.read().entries);
  }

  /** Marks an entry as no longer archived (it was restored). */
  remove(ns: string, id: number): void {
    this.verify();
    const nsBytes = encodeUtf8(ns);
    const payload = new Uint8Array(6 + nsBytes.length);
    const view = new DataView(payload.buffer);
    payload[0] = KIND_REMOVED;
    view.setUint32(1, id, true);
    payload[5] = nsBytes.length;
    payload.set(nsBytes, 6);
    this.appendFrames([frame(payload)]);
  }

  private appendFrames(frames: Uint8Array[]): void {
    let size = 0;
    for (const f of frames) size += f.length;
    const all = new Uint8Array(size);
    let at = 0;
    for (const f of frames) {
      all.set(f, at);
      at += f.length;
    }
    try {
      this.storage.append(ARCHIVE_PATH, all);
    } catch (e) {
      this.verified = false; // a partial append may have left a torn tail
      throw e;
    }
  }

  private verify(): void {
    if (this.verified) return;
    const { entries, damaged, bytes } = this.read();
    if (damaged || bytes > ARCHIVE_MAX_BYTES) {
      this.log.warn(
        `memory: ${ARCHIVE_PATH} ${damaged ? "had a torn or damaged record" : "is over its size"}; rewriting it with ${entries.length} entries`,
      );
      this.compact(entries);
    }
    this.verified = true;
  }

  private compact(entries: ArchivedEntry[]): void {
    const frames: Uint8Array[] = [];
    let size = 0;
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i];
      const r = frame(residualPayload(e.meta, e.row.length, e.residual));
      const f = frame(entryPayload(e.meta, e.row, e.embedderId, e.archivedAt));
      if (size + r.length + f.length > ARCHIVE_MAX_BYTES * COMPACT_TARGET) break;
      frames.unshift(r, f);
      size += r.length + f.length;
    }
    const all = new Uint8Array(size);
    let at = 0;
    for (const f of frames) {
      all.set(f, at);
      at += f.length;
    }
    this.storage.writeAtomic(ARCHIVE_PATH, all);
  }

  private read(): { entries: ArchivedEntry[]; damaged: boolean; bytes: number } {
    const bytes = this.storage.read(ARCHIVE_PATH);
    if (!bytes) return { entries: [], damaged: false, bytes: 0 };
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const live = new Map<string, ArchivedEntry>();
    let damaged = false;
    /** The residual frame just read, for the entry frame that must come next. */
    let pending: PendingResidual | undefined;
    let at = 0;
    while (at < bytes.length) {
      const length = frameAt(bytes, view, at);
      const kind = length < 0 ? 0 : bytes[at + FRAME_HEADER];
      if (pending && kind !== KIND_ENTRY) damaged = true; // its entry frame is missing
      if (length < 0) {
        damaged = true;
        pending = undefined;
        at = nextMagic(bytes, at + 1);
        continue;
      }
      const payloadAt = at + FRAME_HEADER;
      at = payloadAt + length;
      const residual = pending;
      pending = undefined;
      if (kind === KIND_ENTRY) {
        const entry = readEntryPayload(bytes, view, payloadAt, payloadAt + length);
        if (!entry) damaged = true;
        else {
          const k = key(entry.meta.ns, entry.meta.id);
          if (residual && residual.key === k && residual.dims === entry.row.length) entry.residual = residual.plane;
          else if (residual) damaged = true;
          live.set(k, entry);
        }
      } else if (kind === KIND_REMOVED && length >= 6) {
        const ns = decodeUtf8(bytes.subarray(payloadAt + 6, payloadAt + 6 + bytes[payloadAt + 5]));
        live.delete(key(ns, view.getUint32(payloadAt + 1, true)));
      } else if (kind === KIND_RESIDUAL) {
        pending = readResidualPayload(bytes, view, payloadAt, payloadAt + length);
        if (!pending) damaged = true;
      } else damaged = true;
    }
    if (pending) damaged = true;
    if (damaged) this.log.warn(`memory: skipped a torn or damaged record in ${ARCHIVE_PATH}`);
    return { entries: Array.from(live.values()), damaged, bytes: bytes.length };
  }
}

function key(ns: string, id: number): string {
  return `${ns}\u0000${id}`;
}

function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER + payload.length);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  view.setUint32(4, payload.length, true);
  view.setUint32(8, djb2Bytes(payload), true);
  out.set(payload, FRAME_HEADER);
  return out;
}

/** The payload length of an intact frame at `at`, or -1. */
function frameAt(bytes: Uint8Array, view: DataView, at: number): number {
  if (at + FRAME_HEADER > bytes.length) return -1;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[at + i] !== MAGIC[i]) return -1;
  const length = view.getUint32(at + 4, true);
  if (length === 0 || at + FRAME_HEADER + length > bytes.length) return -1;
  const start = at + FRAME_HEADER;
  return djb2Bytes(bytes, start, start + length) === view.getUint32(at + 8, true) ? length : -1;
}

function nextMagic(bytes: Uint8Array, from: number): number {
  for (let i = from; i + MAGIC.length <= bytes.length; i++) {
    if (bytes[i] === MAGIC[0] && bytes[i + 1] === MAGIC[1] && bytes[i + 2] === MAGIC[2] && bytes[i + 3] === MAGIC[3]) return i;
  }
  return bytes.length;
}

function entryPayload(meta: EntryMeta, row: Int8Array, embedderId: string, archivedAt: number): Uint8Array {
  const id = encodeUtf8(embedderId);
  const buffer = new Uint8Array(12 + id.length + entryBound(meta.ns, meta.source, meta.content, row.length, false));
  const view = new DataView(buffer.buffer);
  buffer[0] = KIND_ENTRY;
  view.setFloat64(1, archivedAt, true);
  buffer[9] = id.length;
  buffer.set(id, 10);
  view.setUint16(10 + id.length, row.length, true);
  const end = writeEntry(buffer, view, 12 + id.length, meta, int8Norm(row, 0, row.length), row);
  return buffer.slice(0, end);
}

function readEntryPayload(bytes: Uint8Array, view: DataView, at: number, end: number): ArchivedEntry | undefined {
  if (at + 12 > end) return undefined;
  const archivedAt = view.getFloat64(at + 1, true);
  const idLen = bytes[at + 9];
  if (at + 12 + idLen > end) return undefined;
  const embedderId = decodeUtf8(bytes.subarray(at + 10, at + 10 + idLen));
  const dims = view.getUint16(at + 10 + idLen, true);
  if (dims === 0 || dims > MAX_EMBEDDING_DIMS) return undefined;
  const entry = readEntry(bytes, view, at + 12 + idLen, end, dims, false);
  if (typeof entry === "string" || entry.next !== end) return undefined;
  const row = new Int8Array(dims);
  row.set(new Int8Array(bytes.buffer, bytes.byteOffset + entry.rowOffset, dims));
  return { meta: entry.meta, row, residual: new Uint8Array(residualBytes(dims)), norm: entry.norm, embedderId, archivedAt };
}

/** The residual frame of an entry: its namespace and id, its row's dimensions and residual plane. */
function residualPayload(meta: EntryMeta, dims: number, residual: Uint8Array): Uint8Array {
  const ns = encodeUtf8(meta.ns);
  const buffer = new Uint8Array(8 + ns.length + residual.length);
  const view = new DataView(buffer.buffer);
  buffer[0] = KIND_RESIDUAL;
  view.setUint32(1, meta.id, true);
  buffer[5] = ns.length;
  buffer.set(ns, 6);
  view.setUint16(6 + ns.length, dims, true);
  buffer.set(residual, 8 + ns.length);
  return buffer;
}

/** A residual frame's content: the key of the entry it belongs to and the residual plane. */
interface PendingResidual {
  key: string;
  dims: number;
  plane: Uint8Array;
}

/** The residual frame at `at`, or undefined when it is malformed. */
function readResidualPayload(bytes: Uint8Array, view: DataView, at: number, end: number): PendingResidual | undefined {
  if (at + 8 > end) return undefined;
  const nsLen = bytes[at + 5];
  if (nsLen === 0 || at + 8 + nsLen > end) return undefined;
  const ns = decodeUtf8(bytes.subarray(at + 6, at + 6 + nsLen));
  const dims = view.getUint16(at + 6 + nsLen, true);
  if (dims === 0 || dims > MAX_EMBEDDING_DIMS || at + 8 + nsLen + residualBytes(dims) !== end) return undefined;
  return { key: key(ns, view.getUint32(at + 1, true)), dims, plane: bytes.slice(at + 8 + nsLen, end) };
}

/** Moves entries that reached their TTL to the archive (dropped, with a log line, without a card or when it refuses). */
export function archiveExpired(
  archive: MemoryArchive | undefined,
  storage: Storage | undefined,
  log: Log,
  expired: Removed[],
  embedderId: string,
  now: number,
): void {
  if (!archive || !storage?.present()) {
    log.info(`memory: ${expired.length} memories reached their TTL and were dropped (no SD archive)`);
    return;
  }
  try {
    archive.add(expired, embedderId, now);
    log.info(`memory: ${expired.length} memories reached their TTL and moved to the archive`);
  } catch {
    log.warn(`memory: ${expired.length} expired memories could not be archived and were dropped`);
  }
}
