// A Storage wrapper that records how one file is read and written: the largest
// buffer a ranged read asked for (and the largest ArrayBuffer under it), the
// ranged reads, the largest piece a streamed write took, and how often it was
// read or written whole. No Node imports (XS scenarios use it).
import type { Storage } from "../../lib/ports.ts";

export interface RecordingStorage extends Storage {
  largestRead: number;
  /** The largest ArrayBuffer a ranged read's `into` was a view of. */
  largestBuffer: number;
  ranges: number;
  largestPiece: number;
  /** Bytes written through writeAtomicFrom, all pieces counted. */
  streamedBytes: number;
  wholeReads: number;
  wholeWrites: number;
}

export function recordingStorage(inner: Storage, path: string): RecordingStorage {
  const r: RecordingStorage = {
    ...inner,
    largestRead: 0,
    largestBuffer: 0,
    ranges: 0,
    largestPiece: 0,
    streamedBytes: 0,
    wholeReads: 0,
    wholeWrites: 0,
  };
  r.read = (p) => {
    if (p === path) r.wholeReads++;
    return inner.read(p);
  };
  r.writeAtomic = (p, data) => {
    if (p === path) r.wholeWrites++;
    inner.writeAtomic(p, data);
  };
  r.readRange = (p, offset, into) => {
    if (p === path) {
      r.largestRead = Math.max(r.largestRead, into.length);
      r.largestBuffer = Math.max(r.largestBuffer, into.buffer.byteLength);
      r.ranges++;
    }
    return inner.readRange(p, offset, into);
  };
  r.writeAtomicFrom = (p, next) =>
    inner.writeAtomicFrom(p, () => {
      const piece = next();
      if (p === path && piece) {
        r.largestPiece = Math.max(r.largestPiece, piece.length);
        r.streamedBytes += piece.length;
      }
      return piece;
    });
  return r;
}
