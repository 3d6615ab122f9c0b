// Writing the vector file (vector-file.ts) in pieces for Storage.writeAtomicFrom,
// never whole. The checksum sits in the header, ahead of the records it covers,
// so the records are encoded three times, one at a time into one reusable
// buffer: to count the file's length (it is in the header, which is hashed
// first), to hash the file, and to hand it out in pieces of
// VECTOR_FILE_PIECE_BYTES. That takes about twice as long as encoding the file
// once into one buffer (5,000 entries on the XS test host: about 150 ms against
// 70), and holds one piece and one record instead of the whole file.
import type { Digest } from "../../ports";
import { VECTOR_FILE_PIECE_BYTES } from "../bounds";
import { entryBound, writeEntry } from "./entry-codec";
import { CHECK_AT, CHECK_BYTES, encodeVectorFileHead } from "./vector-file";
import type { JournalBase } from "./vector-journal";
import type { VectorStore } from "./vector-store";

export interface VectorFileWriter {
  /** The file's checksum bytes and length: what a journal extending it names it by. */
  base: JournalBase;
  /** The next piece of the file (valid until the next call), undefined after the last: a Storage.writeAtomicFrom producer. */
  next: () => Uint8Array | undefined;
}

/**
 * `store` as a vector file of the current version, to be written through `next` before the store changes.
 * Throws (before any piece) when an entry cannot be written (strings out of range, embedder id too long).
 */
export function vectorFileWriter(
  store: Readonly<VectorStore>,
  embedderId: string,
  maintainedAt: number,
  digest: Digest,
  pieceBytes: number = VECTOR_FILE_PIECE_BYTES,
): VectorFileWriter {
  if (!(pieceBytes >= 1)) throw new RangeError("bad piece size");
  const record = recordEncoder(store);
  let recordBytes = 0;
  for (let slot = 0; slot < store.count; slot++) recordBytes += record(slot).length;
  const head = encodeVectorFileHead(store.dims, store.count, recordBytes, maintainedAt, embedderId);
  const length = head.length + recordBytes;
  const hash = digest.sha256Stream();
  hash.update(head);
  for (let slot = 0; slot < store.count; slot++) hash.update(record(slot));
  const check = hash.digest().slice(0, CHECK_BYTES);
  head.set(check, CHECK_AT);

  const piece = new Uint8Array(pieceBytes);
  let pending = head; // what is left to hand out of the header or of the current record
  let at = 0;
  let slot = 0;
  let written = 0;
  const next = (): Uint8Array | undefined => {
    let filled = 0;
    while (filled < pieceBytes) {
      if (at === pending.length) {
        if (slot >= store.count) break;
        pending = record(slot++);
        at = 0;
        continue;
      }
      const n = Math.min(pieceBytes - filled, pending.length - at);
      piece.set(pending.subarray(at, at + n), filled);
      filled += n;
      at += n;
    }
    written += filled;
    if (filled > 0) return piece.subarray(0, filled);
    // A store changed between the passes would write a file its checksum does not match: refuse it (the old file stays).
    if (written !== length) throw new Error("the store changed while it was written");
    return undefined;
  };
  return { base: { check, length }, next };
}

/** Encodes the entry at a slot into one reusable buffer (grown when an entry needs more) and returns the record. */
function recordEncoder(store: Readonly<VectorStore>): (slot: number) => Uint8Array {
  let buffer = new Uint8Array(0);
  let view = new DataView(buffer.buffer);
  return (slot) => {
    const meta = store.metaAt(slot);
    const bound = entryBound(meta.ns, meta.source, meta.content, store.dims, true);
    if (bound > buffer.length) {
      buffer = new Uint8Array(bound);
      view = new DataView(buffer.buffer);
    }
    const end = writeEntry(buffer, view, 0, meta, store.norms[slot], store.row(slot), store.residual(slot));
    return buffer.subarray(0, end);
  };
}

/** The whole file in one buffer (tests and tools; the card is written in pieces): the pieces of vectorFileWriter. */
export function encodeVectorFile(store: Readonly<VectorStore>, embedderId: string, maintainedAt: number, digest: Digest): Uint8Array {
  const writer = vectorFileWriter(store, embedderId, maintainedAt, digest);
  const out = new Uint8Array(writer.base.length);
  let at = 0;
  for (let piece = writer.next(); piece !== undefined; piece = writer.next()) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}
