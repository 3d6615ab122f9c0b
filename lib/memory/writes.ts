import { HaloError } from "../errors";
// memory.write, memory.update and memory.pin over the engine. Everything is
// inside the caller's namespace; another person's entries are never found.
import type { Principal } from "../registry/principal";
import { djb2 } from "../util/hash";
import { utf8Length } from "../util/utf8";
import {
  CONTENT_ID_PROBES,
  DEFAULT_IMPORTANCE,
  DUPLICATE_IMPORTANCE_BOOST,
  MEMORY_CONTENT_MAX_BYTES,
  NEAR_DUPLICATE_DISTANCE,
  UPDATE_MIN_SIMILARITY,
} from "./bounds";
import type { MemoryEngine, MemoryTx, StoreView } from "./engine";
import type { Eviction, PinOutcome, UpdateOutcome, WriteOutcome } from "./outcomes";
import { evictionCandidate } from "./forgetting/forgetting";
import { cosines, type QueryVector } from "./recall/similarity";
import { clampTtl, DEFAULT_TTL, TTL_PERMANENT, ttlIndex, type TtlClass } from "./forgetting/ttl";
import { FLAG_PERMANENT, FLAG_PINNED, type EntryMeta, type VectorStore } from "./store/vector-store";

export interface WriteArgs {
  content: string;
  importance?: number;
  permanent?: boolean;
  ttl?: TtlClass;
  source?: string;
}

export interface UpdateArgs extends Omit<WriteArgs, "source"> {
  old?: string;
  id?: string;
}

export const ID_PATTERN = "^[0-9a-f]{8}$";

export function formatId(id: number): string {
  return id.toString(16).padStart(8, "0");
}

export function parseId(text: string): number | undefined {
  return new RegExp(ID_PATTERN).test(text) ? parseInt(text, 16) >>> 0 : undefined;
}

/** Stores a fact; the same or a near-identical fact raises the existing entry's importance instead. */
export async function writeMemory(engine: MemoryEngine, p: Principal, args: WriteArgs): Promise<WriteOutcome> {
  const content = checkContent(args.content);
  const importance = checkImportance(args.importance);
  return engine.transact("write", async (tx) => {
    const query = await tx.embedQuery(content);
    const { store } = tx;
    const now = tx.now();
    const { ttl, clamped } = chooseTtl(args, p);
    const same = findContent(store, p.ns, content);
    const near = same.slot >= 0 ? same.slot : nearestSlot(tx, p.ns, query, 1 - NEAR_DUPLICATE_DISTANCE);
    if (near >= 0) {
      const raised = Math.min(1, Math.max(store.importance[near] + DUPLICATE_IMPORTANCE_BOOST, importance ?? 0));
      store.importance[near] = raised;
      store.lastRecalled[near] = now;
      if (ttl > store.ttlClass[near]) setTtl(store, near, ttl);
      store.touch(near);
      return { kind: "raised", id: store.ids[near], exact: same.slot >= 0, importance: raised, kept: tx.persistence() };
    }
    const evicted = makeRoom(tx, p);
    const meta: EntryMeta = {
      id: same.id,
      ns: p.ns,
      content,
      source: args.source ?? "self",
      importance: importance ?? DEFAULT_IMPORTANCE,
      created: now,
      lastRecalled: now,
      flags: ttl === TTL_PERMANENT ? FLAG_PERMANENT : 0,
      ttlClass: ttl,
    };
    store.add(meta, query.row, query.residual);
    return { kind: "stored", id: meta.id, ttl, ttlClamped: clamped, evicted, kept: tx.persistence() };
  });
}

/** Replaces a changed fact: finds the stale entry (by id, exact content, or closest match) and stores the new content. */
export async function updateMemory(engine: MemoryEngine, p: Principal, args: UpdateArgs): Promise<UpdateOutcome> {
  const content = checkContent(args.content);
  const importance = checkImportance(args.importance);
  if ((args.id === undefined) === (args.old === undefined)) throw new HaloError("invalid-arguments", "give either 'old' or 'id'.");
  return engine.transact("write", async (tx) => {
    let targetId: number;
    if (args.id !== undefined) {
      targetId = requireSlotById(tx.store, p.ns, args.id).id;
    } else {
      const old = args.old!.trim();
      const exact = findContent(tx.store, p.ns, old);
      if (exact.slot >= 0) targetId = exact.id;
      else {
        const slot = nearestSlot(tx, p.ns, await tx.embedQuery(old), UPDATE_MIN_SIMILARITY);
        if (slot < 0) throw new HaloError("not-found", "no memory close enough to 'old' to replace.");
        targetId = tx.store.ids[slot];
      }
    }
    const stored = await tx.embedRow(content);
    const { store } = tx;
    const target = store.slotOf(p.ns, targetId);
    if (target < 0) throw new HaloError("not-found", "the memory to replace is gone.");
    const old = store.metaAt(target);
    const { ttl, clamped } =
      args.ttl !== undefined || args.permanent !== undefined ? chooseTtl(args, p) : { ttl: old.ttlClass, clamped: false };
    store.remove(target);
    const same = findContent(store, p.ns, content);
    const now = tx.now();
    if (same.slot >= 0) {
      store.importance[same.slot] = Math.min(1, Math.max(store.importance[same.slot], importance ?? old.importance));
      store.lastRecalled[same.slot] = now;
      store.touch(same.slot);
    } else {
      tx.ensureCapacity();
      const flags = (old.flags & FLAG_PINNED) | (ttl === TTL_PERMANENT ? FLAG_PERMANENT : 0);
      store.add(
        { ...old, id: same.id, content, importance: importance ?? old.importance, created: now, lastRecalled: now, flags, ttlClass: ttl },
        stored.row,
        stored.residual,
      );
    }
    return { replaced: old.id, id: same.id, ttl, ttlClamped: clamped, kept: tx.persistence() };
  });
}

/** pin, unpin or delete one of the caller's entries, named by id or exact content. */
export function pinMemory(
  engine: MemoryEngine,
  p: Principal,
  action: "pin" | "unpin" | "delete",
  target: { id?: string; content?: string },
): PinOutcome {
  if ((target.id === undefined) === (target.content === undefined))
    throw new HaloError("invalid-arguments", "give either 'content' or 'id'.");
  return engine.transactNow(
    "write",
    ({ store }) => {
      let slot: number;
      if (target.id !== undefined) slot = requireSlotById(store, p.ns, target.id).slot;
      else {
        slot = findContent(store, p.ns, target.content!.trim()).slot;
        if (slot < 0) throw new HaloError("not-found", "no memory with exactly that content.");
      }
      const id = store.ids[slot];
      if (action === "delete") {
        store.remove(slot);
        return { id, done: "deleted" };
      }
      const pinned = (store.flags[slot] & FLAG_PINNED) !== 0;
      if (action === "unpin") {
        if (!pinned) return { id, done: "not-pinned" };
        store.flags[slot] &= ~FLAG_PINNED;
        store.touch(slot);
        return { id, done: "unpinned" };
      }
      if (pinned) return { id, done: "already-pinned" };
      if (pinnedCount(store, p.ns) >= p.quota.pins) {
        throw new HaloError("quota", `you have ${p.quota.pins} pinned memories, the most your quota allows; unpin one first.`);
      }
      store.flags[slot] |= FLAG_PINNED;
      store.touch(slot);
      return { id, done: "pinned" };
    },
    { embedder: false },
  );
}

function checkContent(raw: string): string {
  const content = typeof raw === "string" ? raw.trim() : "";
  if (content === "") throw new HaloError("invalid-arguments", "'content' is empty.");
  if (utf8Length(content) > MEMORY_CONTENT_MAX_BYTES)
    throw new HaloError("invalid-arguments", `'content' is longer than ${MEMORY_CONTENT_MAX_BYTES} bytes.`);
  return content;
}

function checkImportance(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !(value >= 0 && value <= 1))
    throw new HaloError("invalid-arguments", "'importance' must be a number from 0 to 1.");
  return value;
}

/** The TTL class asked for, clamped to the caller's quota (`clamped` when one was asked for and cut). */
function chooseTtl(args: { ttl?: TtlClass; permanent?: boolean }, p: Principal): { ttl: number; clamped: boolean } {
  const wanted = args.permanent ? TTL_PERMANENT : ttlIndex(args.ttl ?? DEFAULT_TTL);
  const ttl = clampTtl(wanted, p.quota.ttlHours);
  const asked = args.permanent === true || args.ttl !== undefined;
  return { ttl, clamped: asked && ttl !== wanted };
}

function setTtl(store: VectorStore, slot: number, ttl: number): void {
  store.ttlClass[slot] = ttl;
  if (ttl === TTL_PERMANENT) store.flags[slot] |= FLAG_PERMANENT;
}

/** The content id `content` has (or would get) in `ns`, and its slot when stored. Colliding ids probe onward. */
export function findContent(store: StoreView, ns: string, content: string): { id: number; slot: number } {
  let id = djb2(content);
  for (let i = 0; i < CONTENT_ID_PROBES; i++) {
    const slot = store.slotOf(ns, id);
    if (slot < 0 || store.contentOf(slot) === content) return { id, slot };
    id = (id + 1) >>> 0;
  }
  throw new HaloError("unavailable", "too many content id collisions; reword the fact.");
}

function requireSlotById(store: StoreView, ns: string, text: string): { id: number; slot: number } {
  const id = parseId(text);
  const slot = id === undefined ? -1 : store.slotOf(ns, id);
  if (id === undefined || slot < 0) throw new HaloError("not-found", "no memory with that id.");
  return { id, slot };
}

/** The caller's entry most similar to `query` when at least `minSimilarity`, else -1 (one masked topK). */
export function nearestSlot(tx: MemoryTx, ns: string, query: QueryVector, minSimilarity: number): number {
  const { store, kernels } = tx;
  const mask = store.maskOf(ns);
  if (!mask) return -1;
  const { indices } = kernels.topK(store.vectors, store.dims, store.count, query.row, 1, mask, store.scales);
  if (indices.length === 0) return -1;
  return cosines(kernels, store.vectors, store.dims, store.residuals, indices, query)[0] >= minSimilarity ? indices[0] : -1;
}

function pinnedCount(store: StoreView, ns: string): number {
  const mask = store.maskOf(ns);
  let n = 0;
  if (mask) for (let slot = 0; slot < store.count; slot++) if (mask[slot] && store.flags[slot] & FLAG_PINNED) n++;
  return n;
}

/** Frees a slot for one more of `p`'s entries: the person's quota first, then the store's capacity. Says which entries went. */
function makeRoom(tx: MemoryTx, p: Principal): Eviction[] {
  const { store } = tx;
  const now = tx.now();
  const evicted: Eviction[] = [];
  const evict = (slot: number): void => {
    evicted.push(store.nsOf(slot) === p.ns ? { mine: true, id: store.ids[slot], content: store.contentOf(slot) } : { mine: false });
    store.remove(slot);
  };
  if (store.countIn(p.ns) >= p.quota.vectors) {
    const victim = evictionCandidate(store, now, p.ns, p.quota.pins);
    if (victim < 0)
      throw new HaloError("quota", `your ${p.quota.vectors} memories are all pinned or permanent; unpin or delete some first.`);
    evict(victim);
  }
  if (store.count >= tx.config.max_vectors) {
    let victim = evictionCandidate(store, now);
    if (victim < 0) victim = evictionCandidate(store, now, p.ns, p.quota.pins);
    if (victim < 0) throw new HaloError("full", "the memory store is full of pinned and permanent entries.");
    evict(victim);
  }
  tx.ensureCapacity();
  return evicted;
}
