// The vector file (memory/vectors.bin) read and written in pieces: pieces of
// every size give the same bytes and the same store, records straddle piece
// boundaries, every damage gives the message a check of the whole file gives,
// and a 2,000-entry file is read and written with no buffer larger than a
// piece. It returns a transcript; the Node run (Node's SHA-256) and the XS run
// (the C SHA-256 of modules/sha256, the native arena) must match line for line.
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { errorTag } from "../../lib/errors.ts";
import { VECTOR_FILE_PIECE_BYTES } from "../../lib/memory/bounds.ts";
import { residualBytes } from "../../lib/memory/store/quantize.ts";
import { bytesReader, decodeVectorFile, readVectorFile, type RangeReader } from "../../lib/memory/store/vector-file.ts";
import { encodeVectorFile, vectorFileWriter } from "../../lib/memory/store/vector-file-write.ts";
import { VectorStore } from "../../lib/memory/store/vector-store.ts";
import type { Digest, LexiconKernels, VectorArena } from "../../lib/ports.ts";
import { concatBytes } from "../../lib/util/bytes.ts";
import { toHex } from "../../lib/util/hash.ts";
import { recordingStorage } from "../support/recording-storage.ts";

const EMBEDDER = "offline-hash-v1/48";

/** A store of `count` entries of `dims` dimensions; `long` makes every string as long as the file allows. */
export function sampleStore(dims: number, count: number, arena: VectorArena, long = false, lexicon?: LexiconKernels): VectorStore {
  const store = new VectorStore(dims, count, arena, lexicon);
  const row = new Int8Array(dims);
  const residual = new Uint8Array(residualBytes(dims));
  for (let i = 0; i < count; i++) {
    for (let j = 0; j < dims; j++) row[j] = ((i * 37 + j * 11) % 255) - 127;
    row[i % dims] = 127;
    for (let j = 0; j < residual.length; j++) residual[j] = (i * 7 + j * 3) & 0xff;
    const content = long ? "é".repeat(1000) : `Fact ${i}: the spare key of shed ${i % 13} is under pot ${i} — ✓`;
    store.add(
      {
        id: 1000 + i,
        ns: long ? "n".repeat(64) : i % 3 === 0 ? "zoë" : "owner",
        content,
        source: long ? "s".repeat(255) : i % 2 ? "chat" : "",
        importance: (i % 10) / 10,
        created: Date.UTC(2026, 0, 1) + i * 1000,
        lastRecalled: Date.UTC(2026, 1, 1) + i,
        flags: i % 4 === 1 ? 1 : 0,
        ttlClass: i % 5,
      },
      row,
      residual,
    );
  }
  return store;
}

/** Whether two stores hold the same entries with the same rows, residuals and norms, slot for slot. */
export function sameEntries(a: VectorStore, b: VectorStore): boolean {
  if (a.count !== b.count || a.dims !== b.dims) return false;
  for (let s = 0; s < a.count; s++) {
    if (JSON.stringify(a.metaAt(s)) !== JSON.stringify(b.metaAt(s)) || a.norms[s] !== b.norms[s]) return false;
    const [ra, rb, qa, qb] = [a.row(s), b.row(s), a.residual(s), b.residual(s)];
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return false;
    for (let i = 0; i < qa.length; i++) if (qa[i] !== qb[i]) return false;
  }
  return true;
}

/** The writer's pieces, and the largest one. */
function writePieces(store: VectorStore, digest: Digest, pieceBytes: number): { bytes: Uint8Array; pieces: number; largest: number } {
  const writer = vectorFileWriter(store, EMBEDDER, Date.UTC(2026, 2, 1), digest, pieceBytes);
  const parts: Uint8Array[] = [];
  let largest = 0;
  for (let piece = writer.next(); piece !== undefined; piece = writer.next()) {
    parts.push(piece.slice());
    largest = Math.max(largest, piece.length);
  }
  return { bytes: concatBytes(parts), pieces: parts.length, largest };
}

/** The message a read gives: the VectorFileError's, "full" for the arena's refusal. */
function outcome(read: () => unknown): string {
  try {
    read();
    return "read";
  } catch (e) {
    return errorTag(e) === "full" ? "full" : `${(e as Error).name}: ${(e as Error).message}`;
  }
}

/** The checksum field made right again for bytes changed on purpose. */
function reseal(bytes: Uint8Array, digest: Digest): Uint8Array {
  const out = bytes.slice();
  out.fill(0, 20, 28);
  out.set(digest.sha256(out).subarray(0, 8), 20);
  return out;
}

/** Reads `bytes` in pieces of 7 and whole; one line, the two messages compared. */
function damageLine(label: string, bytes: Uint8Array, digest: Digest, arena: VectorArena): string {
  const small = outcome(() => readVectorFile(bytesReader(bytes), digest, 10, arena, 7));
  const whole = outcome(() => readVectorFile(bytesReader(bytes), digest, 10, arena, bytes.length + 1));
  return `${label}: ${small}${small === whole ? "" : ` (whole: ${whole})`}`;
}

export async function runVectorFileScenario(digest: Digest, arena: VectorArena = simVectorArena()): Promise<string[]> {
  const out: string[] = [];
  const stores: Array<[string, VectorStore]> = [
    ["small", sampleStore(48, 7, arena)],
    ["longest records", sampleStore(4096, 3, arena, true)],
  ];
  for (const [name, store] of stores) {
    const whole = encodeVectorFile(store, EMBEDDER, Date.UTC(2026, 2, 1), digest);
    out.push(`${name}: ${store.count} entries, ${whole.length} bytes, sha256 ${toHex(digest.sha256(whole))}`);
    for (const size of [1, 5, 64, 4096, VECTOR_FILE_PIECE_BYTES]) {
      const w = writePieces(store, digest, size);
      const same = w.bytes.length === whole.length && w.bytes.every((b, i) => b === whole[i]);
      out.push(
        `${name}: written in pieces of ${size}: ${w.pieces} pieces, largest ${w.largest}, ${same ? "the same bytes" : "DIFFERENT BYTES"}`,
      );
    }
    for (const size of [1, 7, 33, 1000, VECTOR_FILE_PIECE_BYTES]) {
      const file = readVectorFile(bytesReader(whole), digest, 10, arena, size);
      const base = toHex(file.base.check) === toHex(whole.subarray(20, 28)) && file.base.length === whole.length;
      out.push(
        `${name}: read in pieces of ${size}: ${file.store.count} entries (${file.embedderId}, format ${file.version}), ` +
          `${sameEntries(file.store, store) ? "the same entries" : "DIFFERENT ENTRIES"}, base ${base ? "matches" : "WRONG"}`,
      );
    }
    // Through a Storage: written with writeAtomicFrom, read back with readRange, 100 bytes at a time.
    const card = memoryStorage();
    card.writeAtomicFrom("memory/vectors.bin", vectorFileWriter(store, EMBEDDER, 0, digest, 100).next);
    const read: RangeReader = (offset, into) => card.readRange("memory/vectors.bin", offset, into) ?? 0;
    const back = readVectorFile(read, digest, 10, arena, 100);
    out.push(`${name}: through a card in pieces of 100: ${sameEntries(back.store, store) ? "the same entries" : "DIFFERENT ENTRIES"}`);
  }

  // Damage: the message does not depend on the piece size (what a whole-file check first would say).
  const store = sampleStore(48, 7, arena);
  const bytes = encodeVectorFile(store, EMBEDDER, 0, digest);
  const n = bytes.length;
  for (const cut of [0, 10, 32, 33, 40, 200, n >> 1, n - 1])
    out.push(damageLine(`cut to ${cut} bytes`, bytes.slice(0, cut), digest, arena));
  for (const at of [0, 8, 10, 12, 13, 16, 20, 28, 32, 33, 60, 100, n >> 1, n - 1]) {
    const bad = bytes.slice();
    bad[at] ^= 0x5a;
    out.push(damageLine(`byte ${at} flipped`, bad, digest, arena));
  }
  const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);
  const set16 = (b: Uint8Array, at: number, value: number): Uint8Array => {
    view(b).setUint16(at, value, true);
    return b;
  };
  const set32 = (b: Uint8Array, at: number, value: number): Uint8Array => {
    view(b).setUint32(at, value, true);
    return b;
  };
  // Where each record starts: 34 fixed bytes, the three strings, the row and its residual plane.
  const records = [32 + 1 + EMBEDDER.length];
  for (let i = 1; i < store.count; i++) {
    const at = records[i - 1];
    records.push(at + 34 + bytes[at + 26] + bytes[at + 27] + view(bytes).getUint16(at + 28, true) + 48 + residualBytes(48));
  }
  const first = records[0];
  // Each change is made to a copy of the file (`b`), whose checksum is then made right again.
  const sealed: Array<[string, (b: Uint8Array) => Uint8Array]> = [
    ["bad dimensions", (b) => set16(b, 10, 0)],
    ["too many entries", (b) => set32(b, 12, 20001)],
    ["a flag bit no format has", (b) => b.fill(0x80, first + 24, first + 25)],
    // Entries 1 and 2 share a namespace ("owner").
    ["an id repeated in its namespace", (b) => set32(b, records[2], view(b).getUint32(records[1], true))],
    ["a byte after the last entry", (b) => concatBytes([set32(b, 16, n - 32 + 1), Uint8Array.of(0)])],
    ["one entry fewer in the count", (b) => set32(b, 12, 6)],
    ["a body length 100 bytes short, and a bad first entry", (b) => set32(b, 16, n - 32 - 100).fill(0x80, first + 24, first + 25)],
    [
      "an embedder id longer than the file",
      (b) =>
        set32(set32(b, 12, 0), 16, 1 + 3)
          .fill(9, 32, 33)
          .slice(0, 36),
    ],
  ];
  for (const [label, change] of sealed)
    out.push(damageLine(`${label} (checksum resealed)`, reseal(change(bytes.slice()), digest), digest, arena));
  // An intact file the arena cannot hold is refused as "full"; the same file with its count damaged, as damaged.
  const tiny = simVectorArena(1024);
  out.push(`intact, a 1 KB arena: ${outcome(() => decodeVectorFile(bytes, digest, 10, tiny))}`);
  const counted = set32(bytes.slice(), 12, 20000);
  out.push(`count damaged to 20000, a 1 KB arena: ${outcome(() => decodeVectorFile(counted, digest, 10, tiny))}`);

  // A 2,000-entry file is written and read with no buffer larger than a piece.
  const big = sampleStore(256, 2000, arena);
  const card = recordingStorage(memoryStorage(), "memory/vectors.bin");
  const writer = vectorFileWriter(big, EMBEDDER, 0, digest);
  card.writeAtomicFrom("memory/vectors.bin", writer.next);
  const file = readVectorFile((offset, into) => card.readRange("memory/vectors.bin", offset, into) ?? 0, digest, 10, arena);
  out.push(
    `2000 entries, ${writer.base.length} bytes: read back ${file.store.count} entries, ` +
      `${sameEntries(file.store, big) ? "the same" : "DIFFERENT"}; largest read ${card.largestRead}, ` +
      `largest piece written ${card.largestPiece}, whole reads ${card.wholeReads}, whole writes ${card.wholeWrites}`,
  );
  return out;
}
