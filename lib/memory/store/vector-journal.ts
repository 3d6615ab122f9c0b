// The vector journal, memory/vectors.journal: small changes appended beside the
// snapshot (vector-file.ts) instead of rewriting it. Little-endian frames:
//
//   frame:   u32 payload bytes | 8 bytes: start of sha256(payload) | payload
//   payload: u8 1 (base)   | "HVJ1" | the snapshot's 8 checksum bytes | u32 the snapshot's length
//            u8 2 (commit) | u16 op count | ops       (one save = one commit: all or nothing)
//   op:      u8 1 (upsert)   | entry record (entry-codec.ts, int8 row of the snapshot's dims, then its
//                               residual plane when the snapshot's format has one: 3 on)
//            u8 2 (remove)   | u32 id | u8 nsLen | ns
//            u8 3 (maintain) | f64 now | f64 last pass | f64 decay factor   (forgetting.ts replays it)
//
// The first frame names the snapshot the journal extends; a journal naming
// another snapshot (left over when a compaction was cut before it removed the
// journal) is ignored. Replay stops at the first torn or damaged frame. A boot
// reads the journal frame by frame (replayJournal), never whole. A
// journal's records have the layout of its snapshot's format: commits are
// only appended to a journal whose snapshot is in the current format
// (vector-files.ts compacts an older one first), and the journal of an older
// snapshot is replayed in that snapshot's layout.
import type { Digest } from "../../ports";
import { decodeUtf8, encodeUtf8 } from "../../util/utf8";
import { JOURNAL_MAX_COMMIT_OPS, MEMORY_NS_MAX_BYTES, VECTOR_FILE_PIECE_BYTES } from "../bounds";
import { entryBound, maxEntryBytes, readEntry, writeEntry } from "./entry-codec";
import { residualBytes } from "./quantize";
import { forget } from "../forgetting/forgetting";
import { OP_MAINTAIN, OP_REMOVE, OP_UPSERT, type StoreOp } from "./store-changes";
import { CHECK_BYTES, type RangeReader } from "./vector-file";
import type { VectorStore } from "./vector-store";

const FRAME_HEADER = 12;
const KIND_BASE = 1;
const KIND_COMMIT = 2;
const MAGIC = [0x48, 0x56, 0x4a, 0x31];
const BASE_PAYLOAD = 1 + MAGIC.length + CHECK_BYTES + 4;

/**
 * The snapshot a journal extends: its checksum field and its length (the snapshot's reader and writer
 * give them, vector-file.ts and vector-file-write.ts, without the file in one buffer).
 */
export interface JournalBase {
  check: Uint8Array;
  length: number;
}

/** The journal's first frame, naming its snapshot. */
export function encodeBase(base: JournalBase, digest: Digest): Uint8Array {
  const payload = new Uint8Array(BASE_PAYLOAD);
  payload[0] = KIND_BASE;
  payload.set(MAGIC, 1);
  payload.set(base.check, 1 + MAGIC.length);
  new DataView(payload.buffer).setUint32(1 + MAGIC.length + CHECK_BYTES, base.length, true);
  return frame(payload, payload.length, digest);
}

/** One commit frame holding `ops` (at most JOURNAL_MAX_COMMIT_OPS), in the current format (records with residuals). */
export function encodeCommit(ops: StoreOp[], digest: Digest): Uint8Array {
  let bound = 3;
  for (const op of ops) {
    if (op.kind === OP_UPSERT) bound += 1 + entryBound(op.meta.ns, op.meta.source, op.meta.content, op.row.length, true);
    else if (op.kind === OP_REMOVE) bound += 6 + 3 * op.ns.length;
    else bound += 25;
  }
  const payload = new Uint8Array(bound);
  const view = new DataView(payload.buffer);
  payload[0] = KIND_COMMIT;
  view.setUint16(1, ops.length, true);
  let at = 3;
  for (const op of ops) {
    payload[at++] = op.kind;
    if (op.kind === OP_UPSERT) at = writeEntry(payload, view, at, op.meta, op.norm, op.row, op.residual);
    else if (op.kind === OP_REMOVE) {
      const ns = encodeUtf8(op.ns);
      view.setUint32(at, op.id, true);
      payload[at + 4] = ns.length;
      payload.set(ns, at + 5);
      at += 5 + ns.length;
    } else {
      view.setFloat64(at, op.now, true);
      view.setFloat64(at + 8, op.lastPass, true);
      view.setFloat64(at + 16, op.decayFactor, true);
      at += 24;
    }
  }
  return frame(payload, at, digest);
}

export interface JournalReplay {
  /** empty: no frames; ok: every frame applied; torn: a damaged frame and all after it dropped; stale: names another snapshot, ignored. */
  state: "empty" | "ok" | "torn" | "stale";
  commits: number;
  /** Bytes of intact frames (with `torn`, the bytes dropped are the rest of the file). */
  bytes: number;
  /** `now` of the last maintenance pass replayed, 0 if none. */
  maintainedAt: number;
  /** Maintenance passes replayed. */
  passes: number;
}

/** The journal as a boot reads it: its length (Storage.stat) and its bytes by range (Storage.readRange). */
export interface JournalSource {
  length: number;
  read: RangeReader;
}

/**
 * Payload bytes of the longest frame a replay accepts: a commit of JOURNAL_MAX_COMMIT_OPS upserts of the
 * longest record (171 KB at 256 dimensions with residuals). No commit a save writes is longer, and no
 * longer one could be read: a header announcing more is a damaged frame.
 */
export function journalFrameBound(dims: number, withResidual: boolean): number {
  return 3 + JOURNAL_MAX_COMMIT_OPS * (1 + maxEntryBytes(dims, withResidual));
}

/**
 * Applies the journal `source` (none: no journal file) to `store` (loaded from the snapshot named by
 * `base`, undefined when there is none), whose records end with a residual plane when `withResidual`
 * (the snapshot's format has them; without, every upserted row gets a zero residual). It is read frame
 * by frame, each frame's header and then its payload, into one buffer grown to the longest frame met and
 * never past journalFrameBound; a commit is applied once its whole frame checks out. What the source
 * throws (a pulled card) passes through, the store then half-replayed. The changes this records in the
 * store are not new: the caller clears them.
 */
export function replayJournal(
  source: JournalSource | undefined,
  base: JournalBase | undefined,
  store: VectorStore,
  digest: Digest,
  withResidual: boolean,
): JournalReplay {
  const result: JournalReplay = { state: "empty", commits: 0, bytes: 0, maintainedAt: 0, passes: 0 };
  if (!source || source.length === 0) return result;
  const frames = new FrameReader(source, digest, journalFrameBound(store.dims, withResidual));
  const first = frames.read(0, true);
  if (first === TORN) return { ...result, state: "torn" };
  if (!base || first === FOREIGN || !namesBase(frames.payload, frames.view, 0, first, base)) return { ...result, state: "stale" };
  let at = FRAME_HEADER + first;
  result.state = "ok";
  while (at < source.length) {
    const length = frames.read(at, false);
    const ops = length < 0 ? undefined : readCommit(frames.payload, frames.view, 0, length, store.dims, withResidual);
    if (!ops) {
      result.state = "torn";
      break;
    }
    for (const op of ops) {
      const time = apply(store, op);
      if (time > 0) {
        result.maintainedAt = time;
        result.passes++;
      }
    }
    at += FRAME_HEADER + length;
    result.commits++;
  }
  result.bytes = result.state === "torn" ? at : source.length;
  return result;
}

/** What FrameReader.read gives for a frame that is not intact, and for an intact one too long to be held. */
const TORN = -1;
const FOREIGN = -2;

/** The journal's frames read one at a time into one buffer, grown to the longest frame met and never past `bound`. */
class FrameReader {
  private readonly header = new Uint8Array(FRAME_HEADER);
  private readonly headerView = new DataView(this.header.buffer);
  /** The last frame read's payload is payload[0, its length). */
  payload = new Uint8Array(0);
  view = new DataView(this.payload.buffer);

  constructor(
    private readonly source: JournalSource,
    private readonly digest: Digest,
    private readonly bound: number,
  ) {}

  /**
   * The payload length of the intact frame at `at`, its payload then in `payload`; TORN when it is cut
   * short or fails its checksum. A frame longer than the bound is never held: it is TORN, or, with
   * `first` (an intact first frame that is no base makes the journal stale, not torn), FOREIGN when its
   * payload, hashed a piece at a time, checks out.
   */
  read(at: number, first: boolean): number {
    const { length: total, read } = this.source;
    if (at + FRAME_HEADER > total || read(at, this.header) < FRAME_HEADER) return TORN;
    const length = this.headerView.getUint32(0, true);
    if (length === 0 || length > total - at - FRAME_HEADER) return TORN;
    if (length > this.bound) return first && this.intactInPieces(at + FRAME_HEADER, length) ? FOREIGN : TORN;
    if (this.payload.length < length) this.grow(length);
    const body = this.payload.subarray(0, length);
    if (read(at + FRAME_HEADER, body) < length) return TORN;
    return this.checks(this.digest.sha256(body)) ? length : TORN;
  }

  private intactInPieces(at: number, length: number): boolean {
    if (this.payload.length < VECTOR_FILE_PIECE_BYTES) this.grow(VECTOR_FILE_PIECE_BYTES);
    const hash = this.digest.sha256Stream();
    for (let done = 0; done < length;) {
      const piece = this.payload.subarray(0, Math.min(this.payload.length, length - done));
      if (this.source.read(at + done, piece) < piece.length) return false;
      hash.update(piece);
      done += piece.length;
    }
    return this.checks(hash.digest());
  }

  private grow(length: number): void {
    this.payload = new Uint8Array(length);
    this.view = new DataView(this.payload.buffer);
  }

  /** Whether `check` starts with the header's checksum bytes. */
  private checks(check: Uint8Array): boolean {
    for (let i = 0; i < CHECK_BYTES; i++) if (check[i] !== this.header[4 + i]) return false;
    return true;
  }
}

function apply(store: VectorStore, op: StoreOp): number {
  if (op.kind === OP_MAINTAIN) {
    forget(store, op.now, op.lastPass, op.decayFactor);
    return op.now;
  }
  const slot = op.kind === OP_UPSERT ? store.slotOf(op.meta.ns, op.meta.id) : store.slotOf(op.ns, op.id);
  if (op.kind === OP_REMOVE) {
    if (slot >= 0) store.remove(slot);
  } else if (slot >= 0) store.replace(slot, op.meta, op.row, op.residual, op.norm);
  else {
    if (store.count >= store.capacity) store.resize(store.capacity + JOURNAL_MAX_COMMIT_OPS);
    store.add(op.meta, op.row, op.residual, op.norm);
  }
  return 0;
}

function namesBase(bytes: Uint8Array, view: DataView, at: number, length: number, base: JournalBase): boolean {
  if (length !== BASE_PAYLOAD || bytes[at] !== KIND_BASE) return false;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[at + 1 + i] !== MAGIC[i]) return false;
  for (let i = 0; i < CHECK_BYTES; i++) if (bytes[at + 1 + MAGIC.length + i] !== base.check[i]) return false;
  return view.getUint32(at + 1 + MAGIC.length + CHECK_BYTES, true) === base.length;
}

/** The ops of the commit payload in [at, end), or undefined when it is not one. */
function readCommit(
  bytes: Uint8Array,
  view: DataView,
  at: number,
  end: number,
  dims: number,
  withResidual: boolean,
): StoreOp[] | undefined {
  if (end - at < 3 || bytes[at] !== KIND_COMMIT) return undefined;
  const count = view.getUint16(at + 1, true);
  if (count > JOURNAL_MAX_COMMIT_OPS) return undefined;
  const ops: StoreOp[] = [];
  const half = residualBytes(dims);
  at += 3;
  for (let i = 0; i < count; i++) {
    if (at >= end) return undefined;
    const kind = bytes[at++];
    if (kind === OP_UPSERT) {
      const entry = readEntry(bytes, view, at, end, dims, withResidual);
      if (typeof entry === "string") return undefined;
      const row = new Int8Array(bytes.buffer, bytes.byteOffset + entry.rowOffset, dims);
      const residual = withResidual ? bytes.subarray(entry.residualOffset, entry.residualOffset + half) : new Uint8Array(half);
      ops.push({ kind, meta: entry.meta, norm: entry.norm, row, residual });
      at = entry.next;
    } else if (kind === OP_REMOVE) {
      if (at + 5 > end) return undefined;
      const nsLen = bytes[at + 4];
      if (nsLen === 0 || nsLen > MEMORY_NS_MAX_BYTES || at + 5 + nsLen > end) return undefined;
      ops.push({ kind, id: view.getUint32(at, true), ns: decodeUtf8(bytes.subarray(at + 5, at + 5 + nsLen)) });
      at += 5 + nsLen;
    } else if (kind === OP_MAINTAIN) {
      if (at + 24 > end) return undefined;
      const now = view.getFloat64(at, true);
      const lastPass = view.getFloat64(at + 8, true);
      const decayFactor = view.getFloat64(at + 16, true);
      if (!Number.isFinite(now) || !Number.isFinite(lastPass) || !(decayFactor > 0 && decayFactor <= 1)) return undefined;
      ops.push({ kind, now, lastPass, decayFactor });
      at += 24;
    } else return undefined;
  }
  return at === end ? ops : undefined;
}

function frame(payload: Uint8Array, length: number, digest: Digest): Uint8Array {
  const out = new Uint8Array(FRAME_HEADER + length);
  const body = payload.subarray(0, length);
  new DataView(out.buffer).setUint32(0, length, true);
  out.set(digest.sha256(body).subarray(0, CHECK_BYTES), 4);
  out.set(body, FRAME_HEADER);
  return out;
}
