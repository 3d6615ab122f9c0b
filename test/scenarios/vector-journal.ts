// The vector journal (memory/vectors.journal) replayed frame by frame at boot: a
// journal of many commits is read with no buffer larger than its longest frame;
// a header announcing more than the longest legal frame is a torn frame, never
// a buffer of that size; a journal cut or damaged at any byte of its last frame
// gives the commits before it and says how many bytes it drops; a card pulled
// in the middle of the read leaves memory unread. It returns a transcript; the
// Node run (Node's SHA-256) and the XS run (the C SHA-256, the native arena)
// must match line for line.
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { JOURNAL_MAX_COMMIT_OPS } from "../../lib/memory/bounds.ts";
import { readVectorFiles } from "../../lib/memory/store/boot-read.ts";
import { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH, VectorFiles } from "../../lib/memory/store/vector-files.ts";
import { journalFrameBound } from "../../lib/memory/store/vector-journal.ts";
import type { VectorStore } from "../../lib/memory/store/vector-store.ts";
import type { Digest, LexiconKernels, Storage, VectorArena } from "../../lib/ports.ts";
import { concatBytes } from "../../lib/util/bytes.ts";
import { recordingStorage } from "../support/recording-storage.ts";
import { sameEntries, sampleStore } from "./vector-file.ts";

const EMBEDDER = "offline-hash-v1/48";
const DIMS = 48;
const ENTRIES = 100;
const COMMITS = 40;

interface Boot {
  /** unread, or read: the journal's replay state. */
  state: string;
  commits: number;
  bytes: number;
  store?: VectorStore;
  log: string[];
}

/** A boot over `storage`: the two files read as the engine reads them (boot-read.ts). */
function boot(storage: Storage, digest: Digest, arena: VectorArena, lexicon?: LexiconKernels): Boot {
  const log: string[] = [];
  const files = new VectorFiles(storage, digest);
  const sink = { info: (m: string) => void log.push(m), warn: (m: string) => void log.push(`warning: ${m}`) };
  const read = readVectorFiles(storage, files, sink, { capacity: ENTRIES, arena, lexicon }, 0);
  if (read.state === "unread" || !read.file) return { state: read.state, commits: 0, bytes: 0, log };
  const { journal, store } = read.file;
  return { state: journal.state, commits: journal.commits, bytes: journal.bytes, store, log };
}

/** Where each frame of `journal` starts and ends. */
function framesOf(journal: Uint8Array): Array<{ start: number; end: number }> {
  const view = new DataView(journal.buffer, journal.byteOffset, journal.byteLength);
  const frames = [];
  for (let at = 0; at + 12 <= journal.length;) {
    const end = at + 12 + view.getUint32(at, true);
    frames.push({ start: at, end });
    at = end;
  }
  return frames;
}

/** A frame header announcing `length` payload bytes, its checksum field zero. */
function header(length: number): Uint8Array {
  const bytes = new Uint8Array(12);
  new DataView(bytes.buffer).setUint32(0, length, true);
  return bytes;
}

/** An intact frame of `payload`. */
function frame(payload: Uint8Array, digest: Digest): Uint8Array {
  const bytes = concatBytes([header(payload.length), payload]);
  bytes.set(digest.sha256(payload).subarray(0, 8), 4);
  return bytes;
}

/** `lexicon`: the lexical index's kernels (the C ones on XS, as on the device; TypeScript when not given). */
export async function runVectorJournalScenario(
  digest: Digest,
  arena: VectorArena = simVectorArena(),
  lexicon?: LexiconKernels,
): Promise<string[]> {
  const out: string[] = [];
  const card = memoryStorage();
  const files = new VectorFiles(card, digest);
  const store = sampleStore(DIMS, ENTRIES, arena, false, lexicon);
  store.resize(ENTRIES + COMMITS);
  files.save(store, EMBEDDER, 0); // no snapshot yet: this writes one
  const snapshot = card.files.get(VECTOR_FILE_PATH);
  // Commits of 1 to 12 changes (importance moved, an entry added, one removed), one of JOURNAL_MAX_COMMIT_OPS in
  // the middle, the last of one (every byte of it is damaged below, a boot each).
  for (let c = 0; c < COMMITS; c++) {
    const changes = c === COMMITS / 2 ? JOURNAL_MAX_COMMIT_OPS : c === COMMITS - 1 ? 1 : 1 + ((c * 7) % 12);
    for (let i = 0; i < changes; i++) {
      const slot = (c * 13 + i * 5) % store.count;
      if (i % 9 === 4) store.remove(slot);
      else if (i % 9 === 7) {
        const meta = { ...store.metaAt(slot), id: 5000 + c * 100 + i, content: `Commit ${c}, change ${i}: a new fact` };
        store.add(meta, store.row(slot), store.residual(slot));
      } else {
        store.importance[slot] = ((c + i) % 10) / 10;
        store.touch(slot);
      }
    }
    files.save(store, EMBEDDER, 0);
  }
  const journal = card.files.get(VECTOR_JOURNAL_PATH)!;
  const frames = framesOf(journal);
  const last = frames[frames.length - 1];
  let longest = 0;
  for (const f of frames) longest = Math.max(longest, f.end - f.start - 12);
  out.push(
    `${COMMITS} commits appended, ${journal.length} bytes in ${frames.length} frames, the longest ${longest} payload bytes; ` +
      `snapshot ${card.files.get(VECTOR_FILE_PATH) === snapshot ? "kept" : "REWRITTEN"}`,
  );

  // Replayed a frame at a time: a header, then exactly that frame's payload, into one buffer.
  const recorded = recordingStorage(card, VECTOR_JOURNAL_PATH);
  const whole = boot(recorded, digest, arena, lexicon);
  out.push(
    `boot: ${whole.state}, ${whole.commits} commits, ${whole.bytes} bytes, ${whole.store && sameEntries(whole.store, store) ? "the same entries" : "DIFFERENT ENTRIES"}; ` +
      `ranged reads ${recorded.ranges}, largest read ${recorded.largestRead}, largest buffer ${recorded.largestBuffer}, whole reads ${recorded.wholeReads}`,
  );

  /** Boots over the card holding `bytes` as its journal: one line, the entries compared with `expected`. */
  const damaged = (label: string, bytes: Uint8Array, expected: VectorStore): string => {
    card.files.set(VECTOR_JOURNAL_PATH, bytes);
    const r = recordingStorage(card, VECTOR_JOURNAL_PATH);
    const b = boot(r, digest, arena, lexicon);
    const same = b.store && sameEntries(b.store, expected) ? "the same entries" : "DIFFERENT ENTRIES";
    b.store?.release(); // each boot is a reboot: the arena (which keeps the device's budget) gets it back
    return `${label}: ${b.state}, ${b.commits} commits, ${b.bytes} bytes, ${same}, largest buffer ${r.largestBuffer}; ${b.log.join(" | ")}`;
  };
  const bound = journalFrameBound(DIMS, true);
  card.files.set(VECTOR_JOURNAL_PATH, journal.subarray(0, last.start));
  const before = boot(card, digest, arena, lexicon).store!;
  card.files.set(VECTOR_JOURNAL_PATH, journal.subarray(0, frames[0].end));
  const baseOnly = boot(card, digest, arena, lexicon).store!;
  out.push(`the longest legal frame at ${DIMS} dimensions: ${bound} payload bytes`);
  out.push(damaged("a header announcing 4 GB after the last frame", concatBytes([journal, header(0xffffffff)]), store));
  out.push(
    damaged(
      "a header announcing one byte more than the longest legal frame, and that many bytes after it",
      concatBytes([journal, header(bound + 1), new Uint8Array(bound + 1)]),
      store,
    ),
  );
  out.push(
    damaged(
      "the base frame announcing one byte more than the longest legal frame, and that many bytes after it",
      concatBytes([header(bound + 1), new Uint8Array(bound + 1)]),
      baseOnly,
    ),
  );
  out.push(
    damaged(
      "an intact frame of one byte more than the longest legal frame in place of the base",
      concatBytes([frame(new Uint8Array(bound + 1).fill(1), digest), journal.subarray(frames[0].end)]),
      baseOnly,
    ),
  );
  out.push(
    damaged(
      "a commit frame of the longest legal length with garbage in it",
      concatBytes([journal, frame(new Uint8Array(bound), digest)]),
      store,
    ),
  );

  // The last frame cut, or one of its bytes flipped, at every byte: the commits before it, the rest dropped.
  const tally = (label: string, count: number, bytesAt: (i: number) => Uint8Array, dropped: (i: number) => number): void => {
    let asBefore = 0;
    let logged = 0;
    let largest = 0;
    for (let i = 0; i < count; i++) {
      card.files.set(VECTOR_JOURNAL_PATH, bytesAt(i));
      const r = recordingStorage(card, VECTOR_JOURNAL_PATH);
      const b = boot(r, digest, arena, lexicon);
      largest = Math.max(largest, r.largestBuffer);
      if (b.state === "torn" && b.commits === COMMITS - 1 && b.bytes === last.start && b.store && sameEntries(b.store, before)) asBefore++;
      const line = `warning: memory: ${VECTOR_JOURNAL_PATH} ends in a torn or damaged record; dropped its last ${dropped(i)} bytes`;
      if (b.log.includes(line)) logged++;
      b.store?.release();
    }
    out.push(
      `${label}: ${count} journals, ${asBefore} torn with the commits before it, ${logged} logged with the bytes dropped; largest buffer ${largest}`,
    );
  };
  const size = last.end - last.start;
  tally(
    `the last frame (${size} bytes) cut after each of its bytes but the last`,
    size - 1,
    (i) => journal.slice(0, last.start + 1 + i),
    (i) => 1 + i,
  );
  tally(
    `the last frame with each of its bytes flipped`,
    size,
    (i) => {
      const bad = journal.slice();
      bad[last.start + i] ^= 0x5a;
      return bad;
    },
    () => size,
  );

  // A card pulled in the middle of the journal's read: memory unread, both files where they were; read once it is back.
  for (const at of [1, 2, frames.length, 2 * frames.length]) {
    card.files.set(VECTOR_JOURNAL_PATH, journal);
    let reads = 0;
    const pulling: Storage = {
      ...card,
      readRange: (path, offset, into) => {
        if (path === VECTOR_JOURNAL_PATH && ++reads === at) card.pull();
        return card.readRange(path, offset, into);
      },
    };
    const b = boot(pulling, digest, arena, lexicon);
    const kept = card.files.get(VECTOR_JOURNAL_PATH) === journal && card.files.get(VECTOR_FILE_PATH) === snapshot;
    const aside = [...card.files.keys()].filter((k) => k.includes(".bad-")).length;
    card.insert();
    const again = boot(card, digest, arena, lexicon);
    out.push(
      `card pulled at the journal's read ${at} of ${2 * frames.length}: ${b.state}, files ${kept ? "kept" : "CHANGED"}, ${aside} set aside, ` +
        `${b.log.length} log lines; reinserted: ${again.state}, ${again.commits} commits, ${again.store && sameEntries(again.store, store) ? "the same entries" : "DIFFERENT ENTRIES"}`,
    );
    b.store?.release();
    again.store?.release();
  }
  return out;
}
