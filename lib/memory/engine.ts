import { HaloError } from "../errors";
// The memory engine: the live vector store and its file, the config, the
// scratchpad and the archive. Every operation (writes.ts, recall/search.ts,
// forgetting/archive-ops.ts, config-ops.ts) runs inside transact(): the checks
// once, writes one at a time, the re-checks after an await in one place
// (transaction.ts), and the save of what changed at the end.
import type { Clock, Digest, Kernels, Log, Settings, Storage, VectorArena } from "../ports";
import { CARD_ABSENT_SENTENCE, cardError } from "../store/card";
import { MAINTAIN_INTERVAL_MS, RECALL_FLUSH_INTERVAL_MS, REEMBED_SETTINGS_KEY } from "./bounds";
import { loadMemConfig, type MemConfig } from "./config";
import type { Embedder } from "./embedders/embedder";
import { forget } from "./forgetting/forgetting";
import { archiveExpired, MemoryArchive } from "./forgetting/archive";
import { Scratchpad } from "./scratchpad";
import { readVectorFiles } from "./store/boot-read";
import { maxVectorsFitting } from "./store/store-arrays";
import { VECTOR_FILE_VERSION } from "./store/vector-file";
import { VECTOR_FILE_PATH, VectorFiles } from "./store/vector-files";
import { VectorStore } from "./store/vector-store";
import { openTx, type MemoryTx, type TxKind, type TxNeeds, type TxState } from "./transaction";

export { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH } from "./store/vector-files";
export type { MemoryTx, TxKind, TxNeeds } from "./transaction";

export interface MemoryDeps {
  clock: Clock;
  log: Log;
  settings: Settings;
  digest: Digest;
  kernels: Kernels;
  /** Where the store's rows and per-row fields live (native memory on XS). */
  arena: VectorArena;
  embedder: Embedder;
  /** The SD card; without one, memory lives in RAM only. */
  storage?: Storage;
}

/** The store as status gauges, the turn and tests read it (changes go through transact). */
export type StoreView = Readonly<VectorStore>;

const BUSY_SENTENCE = "memory is being re-embedded; try again in a moment.";

export class MemoryEngine {
  readonly scratchpad: Scratchpad;
  private readonly deps: MemoryDeps;
  /** The store, the knobs and the embedders, as transactions see them (transaction.ts). */
  private readonly state: TxState;
  /** The SD archive of expired entries (a device with a card slot). */
  readonly archive: MemoryArchive | undefined;
  private readonly files: VectorFiles | undefined;
  private loaded = false;
  /** Why nothing may be saved (a damaged file that could not be moved aside). */
  private blocked: string | undefined;
  /** An exclusive transaction (re-embed) runs: every other one is refused. */
  private busy = false;
  /** The write transaction in flight (others wait for it). */
  private writing: Promise<void> | undefined;
  private lastMaintain: number;
  /** RAM holds acknowledged changes the card lacks (a save failed). */
  private dirty = false;
  /** When unsaved recall boosts or decay began (0: none). */
  private softDirtySince = 0;

  constructor(deps: MemoryDeps) {
    this.deps = deps;
    const config = loadMemConfig(deps.settings, deps.log, maxVectorsFitting(deps.arena.budgetBytes(), deps.embedder.dims));
    this.state = {
      store: new VectorStore(deps.embedder.dims, config.max_vectors, deps.arena, deps.kernels.lexicon),
      config,
      embedder: deps.embedder,
      storeEmbedderId: deps.embedder.id,
    };
    this.scratchpad = new Scratchpad(deps.settings, deps.log);
    this.archive = deps.storage ? new MemoryArchive(deps.storage, deps.log) : undefined;
    this.files = deps.storage ? new VectorFiles(deps.storage, deps.digest) : undefined;
    this.lastMaintain = deps.clock.now();
    this.load();
  }

  /** The live store, read-only (status gauges, the turn, tests). */
  get store(): StoreView {
    return this.state.store;
  }

  get config(): Readonly<MemConfig> {
    return this.state.config;
  }

  /** The most entries this host's vector arena fits at the current embedder's dimensions: max_vectors never exceeds it. */
  get vectorLimit(): number {
    return maxVectorsFitting(this.deps.arena.budgetBytes(), this.state.embedder.dims);
  }

  /** Where the store's memory comes from (status gauges read its use). */
  get arena(): VectorArena {
    return this.deps.arena;
  }

  /** The embedder the stored vectors were made with. */
  get storeEmbedderId(): string {
    return this.state.storeEmbedderId;
  }

  /** The embedder new vectors are made with. */
  get embedder(): Embedder {
    return this.state.embedder;
  }

  get settings(): Settings {
    return this.deps.settings;
  }

  /** The SD card, when the device has a slot. */
  get storage(): Storage | undefined {
    return this.deps.storage;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  /**
   * Runs `work` against a consistent store: refuses while a re-embed runs, does
   * the housekeeping and the checks `needs` names once, waits for the write in
   * flight (write and exclusive), and at the end of a write saves what changed.
   * `work` may await (embedding): the tx's embed methods re-check the needs after.
   */
  async transact<T>(kind: TxKind, work: (tx: MemoryTx) => T | Promise<T>, needs: TxNeeds = {}): Promise<T> {
    if (this.busy) throw new HaloError("busy", BUSY_SENTENCE);
    if (kind === "read") return this.begin(kind, needs, work);
    while (this.writing) {
      await this.writing;
      if (this.busy) throw new HaloError("busy", BUSY_SENTENCE);
    }
    let done!: () => void;
    this.writing = new Promise<void>((ok) => (done = ok));
    try {
      return await this.begin(kind, needs, work);
    } finally {
      this.writing = undefined;
      done();
    }
  }

  /** A transaction that never awaits (pin, config, archive list): it runs at once, between the awaits of others (they re-check). */
  transactNow<T>(kind: "read" | "write", work: (tx: MemoryTx) => T, needs: TxNeeds = {}): T {
    if (this.busy) throw new HaloError("busy", BUSY_SENTENCE);
    return this.begin(kind, needs, work);
  }

  /** Switches to another embedder (the owner API; a re-embed follows when memories exist). */
  useEmbedder(embedder: Embedder): void {
    this.state.embedder = embedder;
  }

  private begin<T>(kind: TxKind, needs: TxNeeds, work: (tx: MemoryTx) => T): T {
    if (needs.housekeeping !== false) this.housekeeping();
    const check = (): void => this.check(kind, needs);
    check();
    const startStore = this.state.store;
    let savedAt = startStore.version;
    const commit = (): void => {
      this.save();
      savedAt = this.state.store.version;
    };
    const saveIfChanged = (): void => {
      if (kind !== "read" && this.state.store === startStore && startStore.version !== savedAt) this.save();
    };
    const services = {
      deps: this.deps,
      archive: this.archive,
      check,
      commit,
      markSoftDirty: () => this.markSoftDirty(),
      vectorLimit: () => this.vectorLimit,
    };
    const exclusive = kind === "exclusive";
    const release = (): void => {
      if (exclusive) this.busy = false;
    };
    if (exclusive) this.busy = true;
    let result: T;
    try {
      result = work(openTx(this.state, services));
    } catch (e) {
      release();
      throw e;
    }
    if (!(result instanceof Promise)) {
      release();
      saveIfChanged();
      return result;
    }
    return result.then(
      (value) => (release(), saveIfChanged(), value),
      (e: unknown) => (release(), Promise.reject(e)),
    ) as T;
  }

  private check(kind: TxKind, needs: TxNeeds): void {
    if (needs.writable ?? kind !== "read") this.requireWritable();
    if (needs.loaded ?? kind === "read") this.requireLoaded();
    if (needs.embedder ?? true) this.requireCurrentEmbedder(kind === "read");
  }

  /** The embedder a re-embed in place was cut on its way to (its rows flagged FLAG_REEMBEDDED), or undefined. */
  reembedTarget(): string | undefined {
    return this.deps.settings.get(REEMBED_SETTINGS_KEY);
  }

  /** Load when the card came back, forget when due, save what is pending. */
  private housekeeping(): void {
    if (!this.loaded) this.load();
    this.maintainIfDue();
    this.flushIfDue();
  }

  private requireLoaded(): void {
    if (!this.loaded) throw new HaloError("no-card", CARD_ABSENT_SENTENCE);
  }

  private requireWritable(): void {
    const storage = this.deps.storage;
    if (storage && !storage.present()) throw new HaloError("no-card", CARD_ABSENT_SENTENCE);
    if (!this.loaded) throw new HaloError("unavailable", "the memory file could not be read from the SD card.");
    if (this.blocked) throw new HaloError("unavailable", `${this.blocked}.`);
  }

  /**
   * Refuses when the stored vectors come from another embedder than the current one; an empty store takes
   * the current one. A re-embed in place cut on its way to the current embedder still lets reads run: the
   * rows it made are searched by vector, the others by their words (recall/search.ts).
   */
  private requireCurrentEmbedder(read: boolean): void {
    const current = this.state.embedder;
    if (this.state.storeEmbedderId === current.id) return;
    const halfway = this.reembedTarget() === current.id && this.state.store.dims === current.dims;
    if (halfway && read) return;
    if (halfway && this.state.store.count > 0)
      throw new HaloError(
        "unavailable",
        `a re-embed to ${current.id} was cut part way; memories are searchable, and an admin resumes it with memory.config action reembed.`,
      );
    if (this.state.store.count === 0) {
      this.state.store.release();
      this.state.store = new VectorStore(current.dims, this.state.config.max_vectors, this.deps.arena, this.deps.kernels.lexicon);
      this.state.storeEmbedderId = current.id;
      return;
    }
    throw new HaloError(
      "unavailable",
      `the embedding model changed (stored ${this.state.storeEmbedderId}, now ${current.id}); an admin re-embeds with memory.config action reembed.`,
    );
  }

  /**
   * Saves the store's changes now (a journal commit, or a whole snapshot: vector-files.ts). Throws a
   * HaloError when the card refuses; the change stays in RAM and is saved later.
   */
  private save(): void {
    const { storage } = this.deps;
    const files = this.files;
    if (!storage || !files) {
      this.state.store.changes.clear();
      return;
    }
    if (this.blocked) throw new HaloError("unavailable", `${this.blocked}.`);
    try {
      files.save(this.state.store, this.state.storeEmbedderId, this.lastMaintain);
    } catch (e) {
      this.dirty = true;
      throw cardError(storage, e);
    }
    this.dirty = false;
    this.softDirtySince = 0;
  }

  private markSoftDirty(): void {
    if (this.softDirtySince === 0) this.softDirtySince = this.now();
  }

  private load(): void {
    const { storage, log } = this.deps;
    const files = this.files;
    if (!storage || !files) {
      this.loaded = true;
      return;
    }
    const into = { capacity: this.state.config.max_vectors, arena: this.deps.arena, lexicon: this.deps.kernels.lexicon };
    const read = readVectorFiles(storage, files, log, into, this.now());
    if (read.state === "unread") return;
    this.loaded = true;
    if (read.blocked) this.blocked = read.blocked;
    const file = read.file;
    if (!file) return;
    if (this.state.store !== file.store) this.state.store.release();
    this.state.store = file.store;
    this.state.storeEmbedderId = file.embedderId;
    if (file.maintainedAt > 0) this.lastMaintain = file.maintainedAt;
    if (file.version < VECTOR_FILE_VERSION) this.migrate(file.version);
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

  private maintainIfDue(): void {
    const now = this.now();
    if (now - this.lastMaintain < MAINTAIN_INTERVAL_MS) return;
    this.state.store.changes.maintain(now, this.lastMaintain, this.state.config.decay_factor);
    const report = forget(this.state.store, now, this.lastMaintain, this.state.config.decay_factor);
    this.lastMaintain = now;
    if (report.expired.length > 0)
      archiveExpired(this.archive, this.deps.storage, this.deps.log, report.expired, this.state.storeEmbedderId, now);
    if (report.expired.length > 0 || report.pruned > 0) this.dirty = true;
    else this.markSoftDirty();
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
