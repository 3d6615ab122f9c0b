// Writing the vector file (vector-file.ts) in pieces for Storage.writeAtomicFrom,
// never whole. The checksum sits in the header, ahead of the records it covers,
// so the file's length (in the header) is summed from the store's fields
// first, then the pieces of VECTOR_FILE_PIECE_BYTES are made twice: once to
// hash them, once to hand them out. A record is encoded straight into the
// piece (into a reusable buffer when it straddles two), its texts copied as
// the UTF-8 bytes the store keeps, so this holds one piece and one record
// instead of the whole file and makes no string.
import type { Digest } from "../../ports";
import { VECTOR_FILE_PIECE_BYTES } from "../bounds";
import { encodeUtf8 } from "../../util/utf8";
import { recordBytes, writeEncodedEntry } from "./entry-codec";
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
  let records = 0;
  for (let slot = 0; slot < store.count; slot++) records += record.size(slot);
  const head = encodeVectorFileHead(store.dims, store.count, records, maintainedAt, embedderId);
  const length = head.length + records;
  /** The file's pieces, the header as `head` holds it when the first piece is made. */
  const pieces = (): (() => Uint8Array | undefined) => {
    const piece = new Uint8Array(pieceBytes);
    const view = new DataView(piece.buffer);
    let pending = head; // what is left to hand out of the header or of a record that straddles pieces
    let at = 0;
    let slot = 0;
    let written = 0;
    return () => {
      let filled = 0;
      while (filled < pieceBytes) {
        if (at < pending.length) {
          const n = Math.min(pieceBytes - filled, pending.length - at);
          piece.set(pending.subarray(at, at + n), filled);
          filled += n;
          at += n;
        } else if (slot >= store.count) break;
        else if (record.size(slot) <= pieceBytes - filled) filled = record.encodeInto(slot++, piece, view, filled);
        else {
          pending = record.encode(slot++);
          at = 0;
        }
      }
      written += filled;
      if (filled > 0) return piece.subarray(0, filled);
      // A store changed between the passes would write a file its checksum does not match: refuse it (the old file stays).
      if (written !== length) throw new Error("the store changed while it was written");
      return undefined;
    };
  };
  const hash = digest.sha256Stream();
  const hashed = pieces();
  for (let piece = hashed(); piece !== undefined; piece = hashed()) hash.update(piece);
  const check = hash.digest().slice(0, CHECK_BYTES);
  head.set(check, CHECK_AT);
  return { base: { check, length }, next: pieces() };
}

interface RecordEncoder {
  /** Bytes of the slot's record. */
  size(slot: number): number;
  /** Writes the slot's record at `offset` (room for size(slot)); returns the offset after it. */
  encodeInto(slot: number, bytes: Uint8Array, view: DataView, offset: number): number;
  /** The slot's record in one reusable buffer (valid until the next call). */
  encode(slot: number): Uint8Array;
}

/** A store's records, its texts copied as the UTF-8 bytes it keeps; the namespaces' names encoded once each. */
function recordEncoder(store: Readonly<VectorStore>): RecordEncoder {
  let buffer = new Uint8Array(0);
  let view = new DataView(buffer.buffer);
  const names: Uint8Array[] = [];
  const nsUtf8 = (slot: number): Uint8Array => {
    const index = store.nsIndex[slot];
    names[index] ??= encodeUtf8(store.nsOf(slot));
    return names[index];
  };
  const size = (slot: number): number =>
    recordBytes(nsUtf8(slot).length, store.sourceBytes[slot], store.contentBytes[slot], store.dims, true);
  const encodeInto = (slot: number, bytes: Uint8Array, into: DataView, offset: number): number => {
    const fields = {
      id: store.ids[slot],
      importance: store.importance[slot],
      created: store.created[slot],
      lastRecalled: store.lastRecalled[slot],
      flags: store.flags[slot],
      ttlClass: store.ttlClass[slot],
    };
    const ns = nsUtf8(slot);
    const source = store.sourceUtf8(slot);
    const content = store.contentUtf8(slot);
    return writeEncodedEntry(bytes, into, offset, fields, store.norms[slot], ns, source, content, store.row(slot), store.residual(slot));
  };
  const encode = (slot: number): Uint8Array => {
    const bytes = size(slot);
    if (bytes > buffer.length) {
      buffer = new Uint8Array(bytes);
      view = new DataView(buffer.buffer);
    }
    return buffer.subarray(0, encodeInto(slot, buffer, view, 0));
  };
  return { size, encodeInto, encode };
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
