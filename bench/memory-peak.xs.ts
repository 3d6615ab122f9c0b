// XS entry of bench/memory.mjs: how far the XS heap grows while a 5,000-entry vector file is read into a
// store (a boot) and while a store is written as one (a compaction), in pieces as the engine does and, as
// the baseline in the same run, with the whole file in one buffer; then a boot of the same file with a
// journal of JOURNAL_COMMITS commits of JOURNAL_MAX_COMMIT_OPS changes beside it (about 520 KB, under the
// quarter of the snapshot a journal may reach), replayed a frame at a time as the engine does and, as the
// baseline, read whole first. The store's rows and lexical index are in the native arena (the index built
// by the C lexicon kernels as the entries are read) and the files are hashed by the C SHA-256, as on the device. The heap is measured live: after a collection, at every piece read or written
// (a peak of uncollected garbage says more about the host's collection policy than about the code). Prints
// MEMORY-PEAK-XS {json}.
import { memoryStorage } from "../hosts/sim/ports/memory-storage.ts";
import { JOURNAL_MAX_COMMIT_OPS } from "../lib/memory/bounds.ts";
import { bytesReader, readVectorFile, type RangeReader } from "../lib/memory/store/vector-file.ts";
import { encodeVectorFile, vectorFileWriter } from "../lib/memory/store/vector-file-write.ts";
import { VECTOR_JOURNAL_PATH, VectorFiles } from "../lib/memory/store/vector-files.ts";
import type { VectorStore } from "../lib/memory/store/vector-store.ts";
import { CHUNK_STORE_ROWS, filledStore } from "./store-chunks.ts";
import { nativeDigest } from "../modules/sha256/sha256.ts";
import { nativeArena } from "../modules/vector/arena.ts";
import { nativeLexiconKernels } from "../modules/vector/lexicon.ts";

const ENTRIES = CHUNK_STORE_ROWS;
const PATH = "memory/vectors.bin";
const JOURNAL_COMMITS = 16;
const EMBEDDER = "offline-hash-v1/256";
const TOPICS = ["garden", "car", "dentist", "birthday", "recipe", "holiday", "office", "printer", "wifi", "music"];

/** A store like bench/memory-bench.ts's (its facts' texts, one namespace), with rows made up rather than embedded. */
function benchStore(): VectorStore {
  return filledStore(
    nativeArena,
    ENTRIES,
    (i) => `Fact ${i}: the ${TOPICS[i % TOPICS.length]} note number ${i} mentions item${i} and place${i % 97}`,
    nativeLexiconKernels,
  );
}

interface Growth {
  /** The live heap at its largest over the samples, over the heap before. */
  peak: number;
  /** What stays once the work is done (the store a boot read; nothing for a save). */
  kept: number;
}

/** How far the live heap grows while `work` runs, sampled whenever it calls `sample` and at its end. */
function growth(work: (sample: () => void) => unknown): Growth {
  const before = xsHeapInfo(true).heapBytes;
  let peak = 0;
  const sample = (): void => {
    peak = Math.max(peak, xsHeapInfo(true).heapBytes - before);
  };
  const result = work(sample);
  sample();
  const kept = xsHeapInfo(true).heapBytes - before;
  if (result === undefined) throw new Error("nothing was made"); // and `result` is alive until here
  return { peak, kept };
}

/** `read` with a sample before every piece. */
function sampled(read: RangeReader, sample: () => void): RangeReader {
  return (offset, into) => {
    sample();
    return read(offset, into);
  };
}

const card = memoryStorage();
let fileBytes = 0;
let save: Growth;
let saveWhole: Growth;
{
  const store = benchStore();
  // A save: the pieces go to a card that keeps none of them, so what is held is the writer's alone.
  save = growth((sample) => {
    const writer = vectorFileWriter(store, EMBEDDER, 0, nativeDigest);
    for (let piece = writer.next(); piece !== undefined; piece = writer.next()) sample();
    return writer;
  });
  saveWhole = growth((sample) => {
    const bytes = encodeVectorFile(store, EMBEDDER, 0, nativeDigest);
    sample(); // the whole file, as writeAtomic took it
    return bytes;
  });
  card.writeAtomicFrom(PATH, vectorFileWriter(store, EMBEDDER, 0, nativeDigest).next);
  fileBytes = card.stat(PATH)!.size;
}
// Each boot's store is dropped (and its arena memory collected) before the next one is measured.
const boot = growth((sample) => {
  const read: RangeReader = (offset, into) => card.readRange(PATH, offset, into) ?? 0;
  return readVectorFile(sampled(read, sample), nativeDigest, ENTRIES, nativeArena, undefined, nativeLexiconKernels).store;
});
const bootWhole = growth((sample) => {
  const bytes = card.read(PATH)!;
  return readVectorFile(sampled(bytesReader(bytes), sample), nativeDigest, ENTRIES, nativeArena, undefined, nativeLexiconKernels).store;
});

// The journal: the snapshot written again by VectorFiles (which then knows it), then commits that each
// move the importance of JOURNAL_MAX_COMMIT_OPS entries; a save that found the journal past its bound
// would write a snapshot instead, which the check below refuses. Each boot reads both files as a new
// VectorFiles (boot-read.ts), the journal streamed or, as the baseline, read whole first.
{
  const files = new VectorFiles(card, nativeDigest);
  const store = benchStore();
  files.save(store, EMBEDDER, 0);
  const snapshot = card.files.get(PATH);
  for (let c = 0; c < JOURNAL_COMMITS; c++) {
    for (let i = 0; i < JOURNAL_MAX_COMMIT_OPS; i++) {
      const slot = ((c * JOURNAL_MAX_COMMIT_OPS + i) * 7) % ENTRIES;
      store.importance[slot] = ((c + i) % 10) / 10;
      store.touch(slot);
    }
    files.save(store, EMBEDDER, 0);
  }
  if (card.files.get(PATH) !== snapshot) throw new Error("the journal outgrew its bound");
}
const journalBytes = card.stat(VECTOR_JOURNAL_PATH)!.size;
const snapshotReader = (sample: () => void): RangeReader => sampled((offset, into) => card.readRange(PATH, offset, into) ?? 0, sample);
const bootJournal = growth((sample) => {
  const read: RangeReader = (offset, into) => card.readRange(VECTOR_JOURNAL_PATH, offset, into) ?? 0;
  const loaded = new VectorFiles(card, nativeDigest).open(
    snapshotReader(sample),
    { length: journalBytes, read: sampled(read, sample) },
    ENTRIES,
    nativeArena,
    nativeLexiconKernels,
  );
  if (loaded?.journal.commits !== JOURNAL_COMMITS) throw new Error("the journal was not replayed");
  return loaded.store;
});
const bootJournalWhole = growth((sample) => {
  const bytes = card.read(VECTOR_JOURNAL_PATH)!;
  const loaded = new VectorFiles(card, nativeDigest).open(
    snapshotReader(sample),
    { length: bytes.length, read: sampled(bytesReader(bytes), sample) },
    ENTRIES,
    nativeArena,
    nativeLexiconKernels,
  );
  if (loaded?.journal.commits !== JOURNAL_COMMITS) throw new Error("the journal was not replayed");
  return loaded.store;
});
print(
  `MEMORY-PEAK-XS ${JSON.stringify({ entries: ENTRIES, fileBytes, boot, bootWhole, save, saveWhole, journalBytes, bootJournal, bootJournalWhole })}`,
);
