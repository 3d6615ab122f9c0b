import { HaloError } from "../errors";
// The memory engine: the live vector store and its file, the config, the
// scratchpad and the archive, with the housekeeping every call shares (load
// when the card appears, forgetting when due, saving). The operations are in
// writes.ts, search.ts and archive-ops.ts.
import type { Clock, Digest, Kernels, Log, Settings, Storage } from "../ports";
import { CARD_ABSENT_SENTENCE, cardError } from "../store/card";
import { MAINTAIN_INTERVAL_MS, RECALL_FLUSH_INTERVAL_MS } from "./bounds";
import { loadMemConfig, type MemConfig } from "./config";
import type { Embedder } from "./embedders/embedder";
import { forget, type Removed } from "./forgetting/forgetting";
import { MemoryArchive } from "./forgetting/archive";
import { normalizeL2, quantizeInt8 } from "./store/quantize";
import type { QueryVector } from "./recall/similarity";
import { Scratchpad } from "./scratchpad";
import { VECTOR_FILE_VERSION, VectorFileError } from "./store/vector-file";
import { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH, VectorFiles } from "./store/vector-files";
import { VectorStore } from "./store/vector-store";

export { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH } from "./store/vector-files";

export interface MemoryDeps {
  clock: Clock;
  log: Log;
  settings: Settings;
  digest: Digest;
  kernels: Kernels;
  embedder: Embedder;
  /** The SD card; without one, memory lives in RAM only. */
  storage?: Storage;
}

export class MemoryEngine {
  readonly deps: MemoryDeps;
  store: VectorStore;
  config: MemConfig;
  /** The embedder the stored vectors were made with (differs from deps.embedder until a re-embed). */
  storeEmbedderId: string;
  readonly scratchpad: Scratchpad;
  readonly archive: MemoryArchive | undefined;
  private readonly files: VectorFiles | undefined;
  private loaded = false;
  /** Why nothing may be saved (a damaged file that could not be moved aside). */
  private blocked: string | undefined;
  private busy = false;
  private lastMaintain: number;
  /** RAM holds acknowledged changes the card lacks (a save failed). */
  private dirty = false;
  /** When unsaved recall boosts or decay began (0: none). */
  private softDirtySince = 0;

  constructor(deps: MemoryDeps) {
    this.deps = deps;
    this.config = loadMemConfig(deps.settings, deps.log);
    this.store = new VectorStore(deps.embedder.dims, this.config.max_vectors);
    this.storeEmbedderId = deps.embedder.id;
    this.scratchpad = new Scratchpad(deps.settings, deps.log);
    this.archive = deps.storage ? new MemoryArchive(deps.storage, deps.log) : undefined;
    this.files = deps.storage ? new VectorFiles(deps.storage, deps.digest) : undefined;
    this.lastMaintain = deps.clock.now();
    this.load();
  }

  now(): number {
    return this.deps.clock.now();
  }

  /** Start of every operation: load when the card came back, forget when due, save what is pending. */
  prepare(): void {
    if (this.busy) throw new HaloError("busy", "memory is being re-embedded; try again in a moment.");
    if (!this.loaded) this.load();
    this.maintainIfDue();
    this.flushIfDue();
  }

  /** Refuses (HaloError) when the card holding the memories was never read (absent since boot). */
  requireLoaded(): void {
    if (!this.loaded) throw new HaloError("no-card", CARD_ABSENT_SENTENCE);
  }

  /** Refuses (HaloError) when a change could not be saved. */
  requireWritable(): void {
    if (this.busy) throw new HaloError("busy", "memory is being re-embedded; try again in a moment.");
    const storage = this.deps.storage;
    if (storage && !storage.present()) throw new HaloError("no-card", CARD_ABSENT_SENTENCE);
    if (!this.loaded) throw new HaloError("unavailable", "the memory file could not be read from the SD card.");
    if (this.blocked) throw new HaloError("unavailable", `${this.blocked}.`);
  }

  /** Refuses (HaloError) when the stored vectors come from another embedder than the current one. */
  requireCurrentEmbedder(): void {
    const current = this.deps.embedder;
    if (this.storeEmbedderId === current.id) return;
    if (this.store.count === 0) {
      this.store = new VectorStore(current.dims, this.config.max_vectors);
      this.storeEmbedderId = current.id;
      return;
    }
    throw new HaloError(
      "unavailable",
      `the embedding model changed (stored ${this.storeEmbedderId}, now ${current.id}); an admin re-embeds with memory.config action reembed.`,
    );
  }

  /** Embeds one text as a row to store (quantizeInt8: its own scale, the whole int8 range). */
  async embedRow(text: string): Promise<Int8Array> {
    return (await this.embedRows([text]))[0];
  }

  /** Rows to store, one per text. */
  async embedRows(texts: string[]): Promise<Int8Array[]> {
    return (await this.embedUnit(texts)).map((v) => quantizeTo(v, quantizeInt8));
  }

  /** Embeds one text as a query: its int8 row for the kernel scan and its unit vector for the re-rank (the row is also what a write stores). */
  async embedQuery(text: string): Promise<QueryVector> {
    const unit = (await this.embedUnit([text]))[0];
    return { row: quantizeTo(unit, quantizeInt8), unit };
  }

  /** The current embedder's vectors for `texts`, checked and L2-normalized. */
  private async embedUnit(texts: string[]): Promise<Float32Array[]> {
    const { embedder } = this.deps;
    let vectors: Float32Array[];
    try {
      vectors = await embedder.embed(texts);
    } catch (e) {
      throw new HaloError("unavailable", `embedding failed: ${e instanceof Error ? e.message : "unknown error"}`);
    }
    return vectors.map((v) => {
      if (!v || v.length !== embedder.dims) throw new HaloError("unavailable", "the embedder returned a vector of the wrong size.");
      if (!normalizeL2(v)) throw new HaloError("invalid-arguments", "the text has nothing to embed (no words).");
      return v;
    });
  }

  /** Makes sure one more entry fits in the arrays (grows up to max_vectors). */
  ensureCapacity(): void {
    if (this.store.count >= this.store.capacity && this.store.capacity < this.config.max_vectors)
      this.store.resize(this.config.max_vectors);
  }

  /**
   * Saves the store's changes now (a journal commit, or a whole snapshot: vector-files.ts). Throws a
   * HaloError when the card refuses; the change stays in RAM and is saved later.
   */
  save(): void {
    const { storage } = this.deps;
    const files = this.files;
    if (!storage || !files) {
      this.store.changes.clear();
      return;
    }
    if (this.blocked) throw new HaloError("unavailable", `${this.blocked}.`);
    try {
      files.save(this.store, this.storeEmbedderId, this.lastMaintain);
    } catch (e) {
      this.dirty = true;
      throw cardError(storage, e);
    }
    this.dirty = false;
    this.softDirtySince = 0;
  }

  /** Recall boosts and decay: saved with the next change, or after RECALL_FLUSH_INTERVAL_MS. */
  markSoftDirty(): void {
    if (this.softDirtySince === 0) this.softDirtySince = this.now();
  }

  /** A note for results when nothing is persisted at all. */
  persistenceNote(): string {
    return this.deps.storage ? "" : " (kept in RAM only: this device has no SD card)";
  }

  /** Runs `work` with every other operation refused (re-embedding). */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy) throw new HaloError("busy", "memory is being re-embedded; try again in a moment.");
    this.busy = true;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }

  /** Replaces the store (re-embed, capacity change) and saves it. */
  replaceStore(store: VectorStore, embedderId: string): void {
    this.store = store;
    this.storeEmbedderId = embedderId;
    this.save();
  }

  private load(): void {
    const { storage, log } = this.deps;
    const files = this.files;
    if (!storage || !files) {
      this.loaded = true;
      return;
    }
    let snapshot: Uint8Array | undefined;
    let journal: Uint8Array | undefined;
    try {
      if (!storage.present()) return;
      snapshot = storage.read(VECTOR_FILE_PATH);
      journal = storage.read(VECTOR_JOURNAL_PATH);
    } catch {
      return;
    }
    this.loaded = true;
    try {
      const file = files.open(snapshot, journal, this.config.max_vectors);
      if (journal && journal.length > 0 && (!file || file.journal.state === "stale"))
        log.info(`memory: ${VECTOR_JOURNAL_PATH} belongs to an earlier snapshot; ignored`);
      if (!file) return;
      this.store = file.store;
      this.storeEmbedderId = file.embedderId;
      if (file.maintainedAt > 0) this.lastMaintain = file.maintainedAt;
      if (file.journal.state === "torn")
        log.warn(
          `memory: ${VECTOR_JOURNAL_PATH} ends in a torn or damaged record; dropped its last ${journal!.length - file.journal.bytes} bytes`,
        );
      log.info(`memory: loaded ${file.store.count} memories (${file.embedderId})`);
      if (file.version < VECTOR_FILE_VERSION) this.migrate(file.version);
    } catch (e) {
      if (!(e instanceof VectorFileError)) throw e;
      this.setAside(e.message, journal !== undefined);
    }
  }

  /** Rewrites a store read from an older format in the current one (its rows stay as they are: vector-file.ts). */
  private migrate(from: number): void {
    this.dirty = true;
    try {
      this.save();
      this.deps.log.info(`memory: ${VECTOR_FILE_PATH} rewritten from format ${from} to ${VECTOR_FILE_VERSION}`);
    } catch {
      this.deps.log.warn(`memory: ${VECTOR_FILE_PATH} is in format ${from}; rewriting it failed and is retried on the next call`);
    }
  }

  /** Moves a damaged snapshot (and the journal that extends it) aside; never overwrites them. */
  private setAside(why: string, withJournal: boolean): void {
    const { storage, log } = this.deps;
    const suffix = `.bad-${Math.floor(this.now() / 1000)}`;
    const aside = VECTOR_FILE_PATH + suffix;
    try {
      // The journal first: a snapshot left behind alone is set aside again on the next boot.
      if (withJournal) storage!.rename(VECTOR_JOURNAL_PATH, VECTOR_JOURNAL_PATH + suffix);
      storage!.rename(VECTOR_FILE_PATH, aside);
      this.files!.reset();
      log.warn(`memory: ${VECTOR_FILE_PATH} is unreadable (${why}); kept aside as ${aside}; starting with an empty store`);
    } catch {
      this.blocked = `the memory file is damaged (${why}) and could not be moved aside`;
      log.warn(`memory: ${VECTOR_FILE_PATH} is unreadable (${why}) and could not be moved aside; memory is read-only`);
    }
  }

  private maintainIfDue(): void {
    const now = this.now();
    if (now - this.lastMaintain < MAINTAIN_INTERVAL_MS) return;
    this.store.changes.maintain(now, this.lastMaintain, this.config.decay_factor);
    const report = forget(this.store, now, this.lastMaintain, this.config.decay_factor);
    this.lastMaintain = now;
    if (report.expired.length > 0) this.archiveExpired(report.expired, now);
    if (report.expired.length > 0 || report.pruned > 0) this.dirty = true;
    else this.markSoftDirty();
  }

  private archiveExpired(expired: Removed[], now: number): void {
    const { storage, log } = this.deps;
    if (!this.archive || !storage?.present()) {
      log.info(`memory: ${expired.length} memories reached their TTL and were dropped (no SD archive)`);
      return;
    }
    try {
      this.archive.add(expired, this.storeEmbedderId, now);
      log.info(`memory: ${expired.length} memories reached their TTL and moved to the archive`);
    } catch {
      log.warn(`memory: ${expired.length} expired memories could not be archived and were dropped`);
    }
  }

  private flushIfDue(): void {
    const storage = this.deps.storage;
    const soft = this.softDirtySince !== 0 && this.now() - this.softDirtySince >= RECALL_FLUSH_INTERVAL_MS;
    if (!(this.dirty || soft) || !storage || !this.loaded || this.blocked || !storage.present()) return;
    try {
      this.save();
    } catch {
      this.deps.log.warn("memory: a pending save failed; it is retried on the next call");
    }
  }
}

function quantizeTo(v: Float32Array, quantize: (v: Float32Array, out: Int8Array) => void): Int8Array {
  const row = new Int8Array(v.length);
  quantize(v, row);
  return row;
}
