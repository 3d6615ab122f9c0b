import { HaloError } from "../errors";
// The memory engine: the live vector store and its file, the config, the
// scratchpad and the archive. Every operation (writes.ts, recall/search.ts,
// forgetting/archive-ops.ts, config-ops.ts) runs inside transact(): the checks
// once, writes one at a time, the re-checks after an await in one place
// (transaction.ts), and the save of what changed at the end.
import type { Clock, Digest, Kernels, Log, Settings, Storage } from "../ports";
import { CARD_ABSENT_SENTENCE, cardError } from "../store/card";
import { MAINTAIN_INTERVAL_MS, RECALL_FLUSH_INTERVAL_MS } from "./bounds";
import { loadMemConfig, type MemConfig } from "./config";
import { embedQuery, embedRows } from "./embedders/embed";
import type { Embedder } from "./embedders/embedder";
import { forget, type Removed } from "./forgetting/forgetting";
import { MemoryArchive } from "./forgetting/archive";
import { Scratchpad } from "./scratchpad";
import { readVectorFiles } from "./store/boot-read";
import { VECTOR_FILE_VERSION } from "./store/vector-file";
import { VECTOR_FILE_PATH, VectorFiles } from "./store/vector-files";
import { VectorStore } from "./store/vector-store";
import type { MemoryTx, TxKind, TxNeeds } from "./transaction";

export { VECTOR_FILE_PATH, VECTOR_JOURNAL_PATH } from "./store/vector-files";
export type { MemoryTx, TxKind, TxNeeds } from "./transaction";

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

/** The store as status gauges, the turn and tests read it (changes go through transact). */
export type StoreView = Readonly<VectorStore>;

const BUSY_SENTENCE = "memory is being re-embedded; try again in a moment.";

export class MemoryEngine {
  readonly scratchpad: Scratchpad;
  private readonly deps: MemoryDeps;
  private embedderNow: Embedder;
  private liveStore: VectorStore;
  private liveConfig: MemConfig;
  /** The embedder the stored vectors were made with (differs from the current one until a re-embed). */
  private storeEmbedder: string;
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
    this.embedderNow = deps.embedder;
    this.liveConfig = loadMemConfig(deps.settings, deps.log);
    this.liveStore = new VectorStore(deps.embedder.dims, this.liveConfig.max_vectors);
    this.storeEmbedder = deps.embedder.id;
    this.scratchpad = new Scratchpad(deps.settings, deps.log);
    this.archive = deps.storage ? new MemoryArchive(deps.storage, deps.log) : undefined;
    this.files = deps.storage ? new VectorFiles(deps.storage, deps.digest) : undefined;
    this.lastMaintain = deps.clock.now();
    this.load();
  }

  /** The live store, read-only (status gauges, the turn, tests). */
  get store(): StoreView {
    return this.liveStore;
  }

  get config(): Readonly<MemConfig> {
    return this.liveConfig;
  }

  /** The embedder the stored vectors were made with. */
  get storeEmbedderId(): string {
    return this.storeEmbedder;
  }

  /** The embedder new vectors are made with. */
  get embedder(): Embedder {
    return this.embedderNow;
  }

  get settings(): Settings {
    return this.deps.settings;
  }

  /** The SD card, when the device has a slot. */
  get storage(): Storage | undefined {
    return this.deps.storage;
  }

  now(): number {
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

  /**
   * A transaction that never awaits (pin, delete, config, archive list): it runs at
   * once, with the same checks and save as transact, between the awaits of others,
   * which re-check after each await.
   */
  transactNow<T>(kind: "read" | "write", work: (tx: MemoryTx) => T, needs: TxNeeds = {}): T {
    if (this.busy) throw new HaloError("busy", BUSY_SENTENCE);
    return this.begin(kind, needs, work);
  }

  /** Switches to another embedder (the owner API; a re-embed follows when memories exist). */
  useEmbedder(embedder: Embedder): void {
    this.embedderNow = embedder;
  }

  private begin<T>(kind: TxKind, needs: TxNeeds, work: (tx: MemoryTx) => T): T {
    if (needs.housekeeping !== false) this.housekeeping();
    const check = (): void => this.check(kind, needs);
    check();
    const startStore = this.liveStore;
    let savedAt = startStore.version;
    const commit = (): void => {
      this.save();
      savedAt = this.liveStore.version;
    };
    const saveIfChanged = (): void => {
      if (kind !== "read" && this.liveStore === startStore && startStore.version !== savedAt) this.save();
    };
    if (kind === "exclusive") this.busy = true;
    let result: T;
    try {
      result = work(this.txFor(check, commit));
    } catch (e) {
      if (kind === "exclusive") this.busy = false;
      throw e;
    }
    if (!(result instanceof Promise)) {
      if (kind === "exclusive") this.busy = false;
      saveIfChanged();
      return result;
    }
    return result.then(
      (value) => {
        if (kind === "exclusive") this.busy = false;
        saveIfChanged();
        return value;
      },
      (e: unknown) => {
        if (kind === "exclusive") this.busy = false;
        throw e;
      },
    ) as T;
  }

  private check(kind: TxKind, needs: TxNeeds): void {
    if (needs.writable ?? kind !== "read") this.requireWritable();
    if (needs.loaded ?? kind === "read") this.requireLoaded();
    if (needs.embedder ?? true) this.requireCurrentEmbedder();
  }

  private txFor(check: () => void, commit: () => void): MemoryTx {
    // The tx is a view (its getters have their own `this`); the engine keeps the state.
    const engine = this;
    const embedded = async <R>(make: () => Promise<R>): Promise<R> => {
      const value = await make();
      check();
      return value;
    };
    return {
      get store(): VectorStore {
        return engine.liveStore;
      },
      get config(): Readonly<MemConfig> {
        return engine.liveConfig;
      },
      get embedder(): Embedder {
        return engine.embedderNow;
      },
      get storeEmbedderId(): string {
        return engine.storeEmbedder;
      },
      kernels: engine.deps.kernels,
      log: engine.deps.log,
      storage: engine.deps.storage,
      now: (): number => engine.now(),
      embedQuery: (text) => embedded(() => embedQuery(engine.embedderNow, text)),
      embedRow: (text) => embedded(async () => (await embedRows(engine.embedderNow, [text]))[0]),
      embedRows: (texts) => embedded(() => embedRows(engine.embedderNow, texts)),
      ensureCapacity: (): void => {
        const store = engine.liveStore;
        if (store.count >= store.capacity && store.capacity < engine.liveConfig.max_vectors) store.resize(engine.liveConfig.max_vectors);
      },
      commit,
      markSoftDirty: (): void => engine.markSoftDirty(),
      persistenceNote: (): string => (engine.deps.storage ? "" : " (kept in RAM only: this device has no SD card)"),
      archive: (): MemoryArchive => {
        const storage = engine.deps.storage;
        if (!engine.archive || !storage?.present()) throw new HaloError("no-card", CARD_ABSENT_SENTENCE);
        return engine.archive;
      },
      setConfig: (next: MemConfig): void => {
        engine.liveConfig = next;
        if (engine.liveStore.capacity !== next.max_vectors) engine.liveStore.resize(next.max_vectors);
      },
      replaceStore: (store: VectorStore, embedderId: string): void => {
        engine.liveStore = store;
        engine.storeEmbedder = embedderId;
        engine.save();
      },
    };
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

  /** Refuses when the stored vectors come from another embedder than the current one; an empty store takes the current one. */
  private requireCurrentEmbedder(): void {
    const current = this.embedderNow;
    if (this.storeEmbedder === current.id) return;
    if (this.liveStore.count === 0) {
      this.liveStore = new VectorStore(current.dims, this.liveConfig.max_vectors);
      this.storeEmbedder = current.id;
      return;
    }
    throw new HaloError(
      "unavailable",
      `the embedding model changed (stored ${this.storeEmbedder}, now ${current.id}); an admin re-embeds with memory.config action reembed.`,
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
      this.liveStore.changes.clear();
      return;
    }
    if (this.blocked) throw new HaloError("unavailable", `${this.blocked}.`);
    try {
      files.save(this.liveStore, this.storeEmbedder, this.lastMaintain);
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
    const read = readVectorFiles(storage, files, log, this.liveConfig.max_vectors, this.now());
    if (read.state === "unread") return;
    this.loaded = true;
    if (read.blocked) this.blocked = read.blocked;
    const file = read.file;
    if (!file) return;
    this.liveStore = file.store;
    this.storeEmbedder = file.embedderId;
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
    this.liveStore.changes.maintain(now, this.lastMaintain, this.liveConfig.decay_factor);
    const report = forget(this.liveStore, now, this.lastMaintain, this.liveConfig.decay_factor);
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
      this.archive.add(expired, this.storeEmbedder, now);
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
