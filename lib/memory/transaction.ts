// What an operation sees inside engine.transact (engine.ts): the store as it is
// for the whole transaction, and the few engine services it may use. Embedding
// awaits; every embed method re-checks, after its await, what the transaction
// was opened with (the card, the file, the embedder), so operations never
// repeat those checks themselves.
import type { Persistence } from "./outcomes";
import { HaloError } from "../errors";
import type { Clock, Kernels, Log, Storage, VectorArena } from "../ports";
import { CARD_ABSENT_SENTENCE } from "../store/card";
import type { MemConfig } from "./config";
import { embedQuery, embedRows } from "./embedders/embed";
import type { Embedder } from "./embedders/embedder";
import type { MemoryArchive } from "./forgetting/archive";
import type { QueryVector } from "./recall/similarity";
import type { QuantizedRow } from "./store/quantize";
import type { VectorStore } from "./store/vector-store";

/**
 * read: never saves; may run while writes are under way.
 * write: one at a time (queued behind the write in flight), saves the rows it changed at the end.
 * exclusive: like write, and every other transaction is refused (busy) while it runs (re-embedding).
 */
export type TxKind = "read" | "write" | "exclusive";

/** What a transaction requires before it starts and again after each await; refusals are HaloErrors. */
export interface TxNeeds {
  /** The vector file was read (else no-card). Default: true for reads. */
  loaded?: boolean;
  /** Changes can be saved: the card is present, the file was read, nothing blocks saving. Default: true for writes. */
  writable?: boolean;
  /** The stored vectors come from the current embedder (an empty store takes it). Default: true. */
  embedder?: boolean;
  /** Load the file if the card came back, forget when due, save what is pending. Default: true. */
  housekeeping?: boolean;
}

export interface MemoryTx {
  /** The live store (the same object for the whole transaction unless it calls replaceStore). */
  readonly store: VectorStore;
  readonly config: Readonly<MemConfig>;
  /** The current embedder, and the one the stored vectors were made with. */
  readonly embedder: Embedder;
  readonly storeEmbedderId: string;
  readonly kernels: Kernels;
  /** Where stores take their memory (a new store for a re-embed). */
  readonly arena: VectorArena;
  /** The most entries this host's arena fits at the current embedder's dimensions (max_vectors is clamped to it). */
  readonly vectorLimit: number;
  readonly log: Log;
  /** The SD card, when the device has a slot. */
  readonly storage: Storage | undefined;
  now(): number;
  /** Embeds (awaits), then re-checks the transaction's needs. */
  embedQuery(text: string): Promise<QueryVector>;
  embedRow(text: string): Promise<QuantizedRow>;
  embedRows(texts: string[]): Promise<QuantizedRow[]>;
  /** Makes sure one more entry fits in the arrays (grows up to max_vectors). */
  ensureCapacity(): void;
  /** Saves the changes so far now (they are otherwise saved when a write transaction ends). */
  commit(): void;
  /** Recall boosts: saved with the next change, or after RECALL_FLUSH_INTERVAL_MS. */
  markSoftDirty(): void;
  /** A note for results when nothing is persisted at all. */
  /** Where this transaction's changes live: on the card, or in RAM only on a device without one. */
  persistence(): Persistence;
  /** The SD archive; refuses (no-card) without a card. */
  archive(): MemoryArchive;
  /** Takes new knobs (already validated) and resizes the store to max_vectors; when the arena refuses (HaloError "full") nothing changes. */
  setConfig(next: MemConfig): void;
  /** Replaces the store (re-embed) and saves it. */
  replaceStore(store: VectorStore, embedderId: string): void;
}

/** The engine's mutable state; only the engine and its transactions hold it. */
export interface TxState {
  store: VectorStore;
  config: MemConfig;
  /** The embedder new vectors are made with. */
  embedder: Embedder;
  /** The embedder the stored vectors were made with (differs from `embedder` until a re-embed). */
  storeEmbedderId: string;
}

/** What the engine lends a transaction besides its state. */
export interface TxServices {
  deps: { clock: Clock; kernels: Kernels; arena: VectorArena; log: Log; storage?: Storage };
  /** What the arena fits at the current embedder's dimensions. */
  vectorLimit(): number;
  archive: MemoryArchive | undefined;
  /** Re-checks the transaction's needs (after an await). */
  check(): void;
  commit(): void;
  markSoftDirty(): void;
}

/** The view one transaction gets of the engine's state. */
export function openTx(state: TxState, services: TxServices): MemoryTx {
  const { deps, check } = services;
  const embedded = async <R>(make: () => Promise<R>): Promise<R> => {
    const value = await make();
    check();
    return value;
  };
  return {
    get store(): VectorStore {
      return state.store;
    },
    get config(): Readonly<MemConfig> {
      return state.config;
    },
    get embedder(): Embedder {
      return state.embedder;
    },
    get storeEmbedderId(): string {
      return state.storeEmbedderId;
    },
    kernels: deps.kernels,
    arena: deps.arena,
    get vectorLimit(): number {
      return services.vectorLimit();
    },
    log: deps.log,
    storage: deps.storage,
    now: (): number => deps.clock.now(),
    embedQuery: (text) => embedded(() => embedQuery(state.embedder, text)),
    embedRow: (text) => embedded(async () => (await embedRows(state.embedder, [text]))[0]),
    embedRows: (texts) => embedded(() => embedRows(state.embedder, texts)),
    ensureCapacity: (): void => {
      const { store, config } = state;
      if (store.count >= store.capacity && store.capacity < config.max_vectors) store.resize(config.max_vectors);
    },
    commit: services.commit,
    markSoftDirty: services.markSoftDirty,
    persistence: (): Persistence => (deps.storage ? "card" : "ram-only"),
    archive: (): MemoryArchive => {
      if (!services.archive || !deps.storage?.present()) throw new HaloError("no-card", CARD_ABSENT_SENTENCE);
      return services.archive;
    },
    setConfig: (next: MemConfig): void => {
      if (state.store.capacity !== next.max_vectors) state.store.resize(next.max_vectors);
      state.config = next;
    },
    replaceStore: (store: VectorStore, embedderId: string): void => {
      // The old store's arena memory goes back at once: the arena counts it until then (the device's 4 MB).
      if (state.store !== store) state.store.release();
      state.store = store;
      state.storeEmbedderId = embedderId;
      services.commit();
    },
  };
}
