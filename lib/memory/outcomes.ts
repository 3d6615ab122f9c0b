// What each memory operation did, as data: the tools (lib/tools/memory-text.ts) and the owner API turn
// these into the sentences a caller reads, so nothing here is worded for a person.
import type { MemConfig } from "./config";
import type { ArchivedEntry } from "./forgetting/archive";

/** Where a change lives once made: on the card, or only in RAM on a device without one. */
export type Persistence = "card" | "ram-only";

/** A memory evicted to make room: the caller's own (id and content), or another person's (nothing about it). */
export type Eviction = { mine: true; id: number; content: string } | { mine: false };

/** memory.write: a new entry, or an existing one (exactly the same, or near-identical) whose importance rose. */
export type WriteOutcome =
  | { kind: "stored"; id: number; ttl: number; ttlClamped: boolean; evicted: Eviction[]; kept: Persistence }
  | { kind: "raised"; id: number; exact: boolean; importance: number; kept: Persistence };

/** memory.update: the entry replaced and the one that holds the new content. */
export interface UpdateOutcome {
  replaced: number;
  id: number;
  ttl: number;
  ttlClamped: boolean;
  kept: Persistence;
}

/** memory.pin: what happened to the entry `id`. */
export interface PinOutcome {
  id: number;
  done: "deleted" | "pinned" | "already-pinned" | "unpinned" | "not-pinned";
}

/** memory.config view: the knobs, the embedder, and what the store holds against what the arena fits. */
export interface ConfigView {
  config: MemConfig;
  embedderId: string;
  /** The embedder the stored vectors came from, when it is not the current one and vectors exist. */
  staleFrom?: string;
  count: number;
  arena: ArenaUse;
}

/** The vector arena's use and what max_vectors can reach on it. */
export interface ArenaUse {
  usedBytes: number;
  budgetBytes: number;
  vectorLimit: number;
}

/** A re-embed: how many memories now carry vectors of `embedderId` (0 and `already` when nothing was stale). */
export interface ReembedOutcome {
  embedderId: string;
  count: number;
  already: boolean;
}

/** memory.archive list: the newest of the caller's archived entries, and how many more there are. */
export interface ArchiveListing {
  shown: ArchivedEntry[];
  more: number;
}

/** memory.archive search: the matches, best first; `comparable` false when none of the caller's entries can be compared. */
export interface ArchiveHits {
  comparable: boolean;
  hits: Array<{ entry: ArchivedEntry; similarity: number }>;
}

/** memory.archive restore: the entry back in live memory, or already there (then only removed from the archive). */
export type RestoreOutcome = { kind: "restored"; id: number; ttl: number } | { kind: "already-live"; id: number };
