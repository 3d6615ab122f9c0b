// Frozen writers of the memory files as they were before the rows' residual
// plane (vector file formats 1 and 2, their journal, and the archive's entry
// frames): the migration tests make "old" files with these, never with the
// current encoders, so a change to the current format cannot change what
// "old" means. Little-endian throughout; the layouts are those of
// docs/memory.md before format 3.
import { djb2Bytes } from "../../lib/util/hash.ts";
import type { Digest } from "../../lib/ports.ts";
import type { EntryMeta } from "../../lib/memory/store/vector-store.ts";

/** One entry as an old file holds it: metadata, the int8 row and its stored norm. */
export interface OldEntry {
  meta: EntryMeta;
  row: Int8Array;
  norm: number;
}

/** An old journal op: an entry as it now is, or a removal. */
export type OldOp = { upsert: OldEntry } | { remove: { ns: string; id: number } };

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The record of formats 1 and 2: 34 fixed bytes, the three strings, the int8 row; no residuals. */
function oldRecord(e: OldEntry): Uint8Array {
  const ns = utf8(e.meta.ns);
  const source = utf8(e.meta.source);
  const content = utf8(e.meta.content);
  const out = new Uint8Array(34 + ns.length + source.length + content.length + e.row.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, e.meta.id, true);
  view.setFloat32(4, e.meta.importance, true);
  view.setFloat64(8, e.meta.created, true);
  view.setFloat64(16, e.meta.lastRecalled, true);
  out[24] = e.meta.flags;
  out[25] = e.meta.ttlClass;
  out[26] = ns.length;
  out[27] = source.length;
  view.setUint16(28, content.length, true);
  view.setFloat32(30, e.norm, true);
  let at = 34;
  for (const part of [ns, source, content, new Uint8Array(e.row.buffer, e.row.byteOffset, e.row.length)]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A `memory/vectors.bin` of format `version` (1: wave 1, 2: per-row scaled rows; the same layout). */
export function oldSnapshot(
  version: 1 | 2,
  dims: number,
  embedderId: string,
  entries: OldEntry[],
  digest: Digest,
  maintainedSec = 0,
): Uint8Array {
  const id = utf8(embedderId);
  const body = concat([Uint8Array.of(id.length), id, ...entries.map(oldRecord)]);
  const out = new Uint8Array(32 + body.length);
  const view = new DataView(out.buffer);
  out.set([0x48, 0x41, 0x4c, 0x4f, 0x56, 0x45, 0x43, 0x00]);
  view.setUint16(8, version, true);
  view.setUint16(10, dims, true);
  view.setUint32(12, entries.length, true);
  view.setUint32(16, body.length, true);
  view.setUint32(28, maintainedSec, true);
  out.set(body, 32);
  out.set(digest.sha256(out).subarray(0, 8), 20);
  return out;
}

function journalFrame(payload: Uint8Array, digest: Digest): Uint8Array {
  const out = new Uint8Array(12 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, true);
  out.set(digest.sha256(payload).subarray(0, 8), 4);
  out.set(payload, 12);
  return out;
}

/** A `memory/vectors.journal` extending `snapshot` by one commit per element of `commits`, in the old record layout. */
export function oldJournal(snapshot: Uint8Array, commits: OldOp[][], digest: Digest): Uint8Array {
  const base = new Uint8Array(17);
  base[0] = 1;
  base.set([0x48, 0x56, 0x4a, 0x31], 1);
  base.set(snapshot.subarray(20, 28), 5);
  new DataView(base.buffer).setUint32(13, snapshot.length, true);
  const frames = [journalFrame(base, digest)];
  for (const ops of commits) {
    const parts: Uint8Array[] = [Uint8Array.of(2, ops.length & 0xff, ops.length >> 8)];
    for (const op of ops) {
      if ("upsert" in op) parts.push(Uint8Array.of(1), oldRecord(op.upsert));
      else {
        const ns = utf8(op.remove.ns);
        const head = new Uint8Array(6);
        head[0] = 2;
        new DataView(head.buffer).setUint32(1, op.remove.id, true);
        head[5] = ns.length;
        parts.push(head, ns);
      }
    }
    frames.push(journalFrame(concat(parts), digest));
  }
  return concat(frames);
}

/** One `memory/archive.bin` entry frame (kind 1) as the archive wrote it before residuals. */
export function oldArchiveFrame(e: OldEntry, embedderId: string, archivedAt: number): Uint8Array {
  const id = utf8(embedderId);
  const head = new Uint8Array(12 + id.length);
  const view = new DataView(head.buffer);
  head[0] = 1;
  view.setFloat64(1, archivedAt, true);
  head[9] = id.length;
  head.set(id, 10);
  view.setUint16(10 + id.length, e.row.length, true);
  const payload = concat([head, oldRecord(e)]);
  const frame = new Uint8Array(12 + payload.length);
  frame.set([0x48, 0x41, 0x52, 0x31]);
  new DataView(frame.buffer).setUint32(4, payload.length, true);
  new DataView(frame.buffer).setUint32(8, djb2Bytes(payload), true);
  frame.set(payload, 12);
  return frame;
}
