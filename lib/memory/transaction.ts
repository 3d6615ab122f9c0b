// What an operation sees inside engine.transact (engine.ts): the store as it is
// for the whole transaction, and the few engine services it may use. Embedding
// awaits; every embed method re-checks, after its await, what the transaction
// was opened with (the card, the file, the embedder), so operations never
// repeat those checks themselves.
import type { Kernels, Log, Storage } from "../ports";
import type { MemConfig } from "./config";
import type { Embedder } from "./embedders/embedder";
import type { MemoryArchive } from "./forgetting/archive";
import type { QueryVector } from "./recall/similarity";
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
  readonly log: Log;
  /** The SD card, when the device has a slot. */
  readonly storage: Storage | undefined;
  now(): number;
  /** Embeds (awaits), then re-checks the transaction's needs. */
  embedQuery(text: string): Promise<QueryVector>;
  embedRow(text: string): Promise<Int8Array>;
  embedRows(texts: string[]): Promise<Int8Array[]>;
  /** Makes sure one more entry fits in the arrays (grows up to max_vectors). */
  ensureCapacity(): void;
  /** Saves the changes so far now (they are otherwise saved when a write transaction ends). */
  commit(): void;
  /** Recall boosts: saved with the next change, or after RECALL_FLUSH_INTERVAL_MS. */
  markSoftDirty(): void;
  /** A note for results when nothing is persisted at all. */
  persistenceNote(): string;
  /** The SD archive; refuses (no-card) without a card. */
  archive(): MemoryArchive;
  /** Takes new knobs (already validated and stored in Settings) and resizes the store to max_vectors. */
  setConfig(next: MemConfig): void;
  /** Replaces the store (re-embed) and saves it. */
  replaceStore(store: VectorStore, embedderId: string): void;
}
