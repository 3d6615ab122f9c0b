// The live store on the card: a snapshot (vector-file.ts) plus a journal of
// the changes since (vector-journal.ts). A save appends one commit to the
// journal; when the journal is past its bound, the store was replaced
// (re-embed, new embedder) or the journal's tail is damaged, it writes a new
// snapshot (temp + rename) and then removes the journal. A crash between the
// two leaves a journal naming the old snapshot, which the next boot ignores.
// The snapshot is read and written in pieces, never whole (vector-file.ts,
// vector-file-write.ts); the journal is read a frame at a time (vector-journal.ts).
import type { Digest, LexiconKernels, Storage, VectorArena } from "../../ports";
import { JOURNAL_MAX_COMMITS, JOURNAL_MAX_MAINTENANCE, JOURNAL_MAX_SHARE, JOURNAL_MIN_BYTES, VECTOR_FILE_PIECE_BYTES } from "../bounds";
import { OP_MAINTAIN } from "./store-changes";
import { readVectorFile, RESIDUAL_VERSION, VECTOR_FILE_VERSION, type DecodedVectorFile, type RangeReader } from "./vector-file";
import { vectorFileWriter } from "./vector-file-write";
import { encodeBase, encodeCommit, replayJournal, type JournalBase, type JournalReplay, type JournalSource } from "./vector-journal";
import type { VectorStore } from "./vector-store";

export const VECTOR_FILE_PATH = "memory/vectors.bin";
export const VECTOR_JOURNAL_PATH = "memory/vectors.journal";

/**
 * absent: no journal file; open: it extends the snapshot and ends intact;
 * stale: it names another snapshot (removed before the next append);
 * compact: its tail may be torn, so nothing may be appended before a new snapshot.
 */
type JournalState = "absent" | "open" | "stale" | "compact";

export interface LoadedVectors extends DecodedVectorFile {
  journal: JournalReplay;
}

export class VectorFiles {
  private base: JournalBase | undefined;
  private journal: JournalState = "absent";
  private commits = 0;
  private journalBytes = 0;
  private passes = 0;
  /** The store the card holds; any other store object (re-embed, new embedder) needs a snapshot. */
  private held: VectorStore | undefined;
  private heldEmbedderId = "";

  constructor(
    private readonly storage: Storage,
    private readonly digest: Digest,
  ) {}

  /**
   * The store in the snapshot `read` reads, with `journal` (undefined: no journal file) replayed over it;
   * throws VectorFileError when the snapshot is damaged (and what either reader throws: then nothing is
   * held, as before any read). Undefined without a snapshot (a journal without one is stale: nothing it
   * holds is acknowledged on its own).
   */
  open(
    read: RangeReader | undefined,
    journal: JournalSource | undefined,
    capacity: number,
    arena: VectorArena,
    lexicon?: LexiconKernels,
  ): LoadedVectors | undefined {
    this.base = undefined;
    this.held = undefined;
    this.journal = journal && journal.length > 0 ? "stale" : "absent";
    if (!read) return undefined;
    const file = readVectorFile(read, this.digest, capacity, arena, VECTOR_FILE_PIECE_BYTES, lexicon);
    let replay: JournalReplay;
    try {
      replay = replayJournal(journal, file.base, file.store, this.digest, file.version >= RESIDUAL_VERSION);
    } catch (e) {
      file.store.release(); // the card failed mid-journal: nothing is held, and the arena gets its memory back
      throw e;
    }
    this.base = file.base;
    this.held = file.store;
    this.heldEmbedderId = file.embedderId;
    file.store.changes.clear(); // what the card already holds
    this.journal = replay.state === "ok" ? "open" : replay.state === "torn" ? "compact" : replay.state === "stale" ? "stale" : "absent";
    // An older format is rewritten whole by the next save, never extended.
    if (file.version < VECTOR_FILE_VERSION) this.journal = "compact";
    this.commits = replay.commits;
    this.journalBytes = replay.bytes;
    this.passes = replay.passes;
    return { ...file, maintainedAt: replay.maintainedAt || file.maintainedAt, journal: replay };
  }

  /** Forgets the files (they were moved aside): the next save writes a snapshot. */
  reset(): void {
    this.base = undefined;
    this.held = undefined;
    this.journal = "absent";
  }

  /** Persists `store`'s recorded changes (or all of it); throws what the card throws. */
  save(store: VectorStore, embedderId: string, maintainedAt: number): void {
    const { ops, overflow } = store.changes;
    if (this.journal !== "compact" && this.base && this.held === store && this.heldEmbedderId === embedderId && !overflow) {
      if (ops.length === 0) {
        if (this.journal === "stale") this.removeJournal();
        return;
      }
      const commit = encodeCommit(ops, this.digest);
      const limit = Math.max(JOURNAL_MIN_BYTES, this.base.length * JOURNAL_MAX_SHARE);
      let passes = this.passes;
      for (const op of ops) if (op.kind === OP_MAINTAIN) passes++;
      if (this.commits < JOURNAL_MAX_COMMITS && this.journalBytes + commit.length <= limit && passes <= JOURNAL_MAX_MAINTENANCE) {
        this.append(commit, this.base);
        this.passes = passes;
        store.changes.clear();
        return;
      }
    }
    this.compact(store, embedderId, maintainedAt);
  }

  private append(commit: Uint8Array, base: JournalBase): void {
    if (this.journal === "stale") this.removeJournal();
    let data = commit;
    if (this.journal === "absent") {
      const head = encodeBase(base, this.digest);
      data = new Uint8Array(head.length + commit.length);
      data.set(head);
      data.set(commit, head.length);
    }
    try {
      this.storage.append(VECTOR_JOURNAL_PATH, data);
    } catch (e) {
      this.journal = "compact"; // part of the frame may have landed
      throw e;
    }
    if (this.journal === "absent") this.journalBytes = 0;
    this.journal = "open";
    this.commits++;
    this.journalBytes += data.length;
  }

  private compact(store: VectorStore, embedderId: string, maintainedAt: number): void {
    const file = vectorFileWriter(store, embedderId, maintainedAt, this.digest);
    this.storage.writeAtomicFrom(VECTOR_FILE_PATH, file.next);
    this.base = file.base;
    this.held = store;
    this.heldEmbedderId = embedderId;
    this.commits = 0;
    this.journalBytes = 0;
    this.passes = 0;
    store.changes.clear();
    // Until this removal lands, the journal names the old snapshot and a boot ignores it. A failed
    // removal fails the save (the next one retries it), so a save is only acknowledged without one.
    this.journal = "stale";
    this.removeJournal();
  }

  private removeJournal(): void {
    this.storage.remove(VECTOR_JOURNAL_PATH);
    this.journal = "absent";
  }
}
