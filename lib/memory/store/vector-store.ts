// The live memory: one flat Int8Array of capacity x dims, the rows' 4-bit
// residual plane, and parallel typed arrays for the metadata, not one object
// per vector, all laid over arena memory (store-arrays.ts: native memory
// outside the collected heap on XS).
// The memory is taken on the first add, so an empty store costs nothing.
// Slots are dense (0..count-1): a removal moves the last entry into the hole.
import { errorTag } from "../../errors";
import type { VectorArena } from "../../ports";
import { MEMORY_MAX_NAMESPACES } from "../bounds";
import { LexicalIndex, type LexicalHit } from "../recall/lexical";
import { int8Norm, residualBytes, rowScale } from "./quantize";
import { allocateMask, allocateRowArrays, copyRowArrays, emptyRowArrays, rowBytes, type Mask, type RowArrays } from "./store-arrays";
import { StoreChanges } from "./store-changes";

export const FLAG_PINNED = 1;
export const FLAG_PERMANENT = 2;

/** One entry's metadata, as written and as read back. */
export interface EntryMeta {
  id: number;
  ns: string;
  content: string;
  source: string;
  importance: number;
  created: number;
  lastRecalled: number;
  flags: number;
  ttlClass: number;
}

export class VectorStore {
  readonly dims: number;
  readonly arena: VectorArena;
  capacity: number;
  count = 0;
  vectors: Int8Array;
  /** Per row, residualBytes(dims) bytes of 4-bit residuals (quantize.ts): what Kernels.rerank refines the row with. */
  residuals: Uint8Array;
  norms: Float32Array;
  /** Per row, 1 / its int8 norm: the kernel ranks by dot x scale, the cosine up to the query's norm. */
  scales: Float32Array;
  importance: Float32Array;
  created: Float64Array;
  lastRecalled: Float64Array;
  flags: Uint8Array;
  ttlClass: Uint8Array;
  ids: Uint32Array;
  nsIndex: Uint16Array;
  /** The arena memory under the arrays above (undefined until the first add). */
  private memory: ArrayBuffer | undefined;
  readonly content: string[] = [];
  readonly source: string[] = [];
  /** Namespace names by index; an index is never reused while the store lives. */
  private readonly namespaces: string[] = [];
  private readonly nsLookup = new Map<string, number>();
  /** Per namespace: a mask byte per slot (1 = the slot belongs to it), each in its own arena memory, and content id -> slot. */
  private masks: Mask[] = [];
  private readonly slotById: Array<Map<number, number>> = [];
  private readonly nsCounts: number[] = [];
  /** The stored texts' inverted index, per namespace, built on the namespace's first search (lexicalSearch). */
  private readonly lexicon = new LexicalIndex();
  /** Changes since the store was last persisted (add and remove record themselves; field writes call touch). */
  readonly changes = new StoreChanges();
  /** Counts add, touch and remove calls: a write transaction saves when it moved (engine.ts). */
  version = 0;

  constructor(dims: number, capacity: number, arena: VectorArena) {
    this.dims = dims;
    this.capacity = capacity;
    this.arena = arena;
    const arrays = emptyRowArrays();
    this.memory = arrays.memory;
    this.vectors = arrays.vectors;
    this.residuals = arrays.residuals;
    this.norms = arrays.norms;
    this.scales = arrays.scales;
    this.importance = arrays.importance;
    this.created = arrays.created;
    this.lastRecalled = arrays.lastRecalled;
    this.flags = arrays.flags;
    this.ttlClass = arrays.ttlClass;
    this.ids = arrays.ids;
    this.nsIndex = arrays.nsIndex;
  }

  /** Arena bytes the store holds now: rows, residuals and fields, and a byte per row for each namespace's mask. */
  get arenaBytes(): number {
    return this.memory ? this.capacity * (rowBytes(this.dims) + this.masks.length) : 0;
  }

  /**
   * Stores an entry, its int8 row and the row's residual plane (and the row's norm when known); returns its
   * slot. The caller checks capacity first. Throws a HaloError "full" when the arena cannot give the store
   * its memory (first add, new namespace); the store is unchanged then.
   */
  add(meta: EntryMeta, row: Int8Array, residual: Uint8Array, norm?: number): number {
    if (this.count >= this.capacity) throw new Error("the vector store is full");
    if (row.length !== this.dims) throw new Error("bad row length");
    if (residual.length !== residualBytes(this.dims)) throw new Error("bad residual length");
    if (!this.memory) this.adopt(allocateRowArrays(this.arena, this.dims, this.capacity));
    const ns = this.nsIndexFor(meta.ns);
    this.version++;
    const slot = this.count++;
    this.vectors.set(row, slot * this.dims);
    this.residuals.set(residual, slot * residual.length);
    this.norms[slot] = norm ?? int8Norm(this.vectors, slot * this.dims, this.dims);
    this.scales[slot] = rowScale(this.norms[slot]);
    this.setMeta(slot, meta, ns);
    if (this.lexicon.has(meta.ns)) this.lexicon.add(meta.ns, meta.id, meta.content);
    if (!this.changes.overflow) this.changes.upsert(this.metaAt(slot), this.norms[slot], row, residual);
    return slot;
  }

  /** Records that the entry at `slot` changed in place (importance, flags, TTL...): call after the change. */
  touch(slot: number): void {
    this.version++;
    if (!this.changes.overflow) this.changes.upsert(this.metaAt(slot), this.norms[slot], this.row(slot), this.residual(slot));
  }

  /** Overwrites the entry at `slot`, which has the same namespace and id (journal replay; not recorded). */
  replace(slot: number, meta: EntryMeta, row: Int8Array, residual: Uint8Array, norm: number): void {
    if (row.length !== this.dims) throw new Error("bad row length");
    if (residual.length !== residualBytes(this.dims)) throw new Error("bad residual length");
    this.vectors.set(row, slot * this.dims);
    this.residuals.set(residual, slot * residual.length);
    this.norms[slot] = norm;
    this.scales[slot] = rowScale(norm);
    if (meta.content !== this.content[slot] && this.lexicon.has(meta.ns)) {
      this.lexicon.remove(meta.ns, meta.id, this.content[slot]);
      this.lexicon.add(meta.ns, meta.id, meta.content);
    }
    this.writeFields(slot, meta);
  }

  /** Removes the entry at `slot`; the last entry moves into it. */
  remove(slot: number): void {
    this.version++;
    const last = this.count - 1;
    const ns = this.nsIndex[slot];
    this.changes.remove(this.namespaces[ns], this.ids[slot]);
    this.lexicon.remove(this.namespaces[ns], this.ids[slot], this.content[slot]);
    this.masks[ns].bytes[slot] = 0;
    this.slotById[ns].delete(this.ids[slot]);
    this.nsCounts[ns]--;
    if (slot !== last) {
      const moved = this.metaAt(last);
      const movedNs = this.nsIndex[last];
      this.vectors.copyWithin(slot * this.dims, last * this.dims, (last + 1) * this.dims);
      const half = residualBytes(this.dims);
      this.residuals.copyWithin(slot * half, last * half, (last + 1) * half);
      this.norms[slot] = this.norms[last];
      this.scales[slot] = this.scales[last];
      this.masks[movedNs].bytes[last] = 0;
      this.slotById[movedNs].delete(moved.id);
      this.nsCounts[movedNs]--;
      this.setMeta(slot, moved, movedNs);
    }
    this.content.length = last;
    this.source.length = last;
    this.count = last;
  }

  /** `ns`'s best `limit` entries for `query` by their words (lexical.ts), indexing `ns` first if this is its first search. */
  lexicalSearch(ns: string, query: string, limit: number): LexicalHit[] {
    const index = this.nsLookup.get(ns);
    if (index === undefined || this.nsCounts[index] === 0) return [];
    if (!this.lexicon.has(ns)) {
      for (let slot = 0; slot < this.count; slot++)
        if (this.nsIndex[slot] === index) this.lexicon.add(ns, this.ids[slot], this.content[slot]);
    }
    return this.lexicon.search(ns, query, limit);
  }

  /** The slot of content id `id` in `ns`, or -1. */
  slotOf(ns: string, id: number): number {
    const index = this.nsLookup.get(ns);
    if (index === undefined) return -1;
    const slot = this.slotById[index].get(id);
    return slot === undefined ? -1 : slot;
  }

  nsOf(slot: number): string {
    return this.namespaces[this.nsIndex[slot]];
  }

  /** The mask that selects `ns`'s entries for Kernels.topK, or undefined when it has none. */
  maskOf(ns: string): Uint8Array | undefined {
    const index = this.nsLookup.get(ns);
    return index === undefined || this.nsCounts[index] === 0 ? undefined : this.masks[index].bytes;
  }

  countIn(ns: string): number {
    const index = this.nsLookup.get(ns);
    return index === undefined ? 0 : this.nsCounts[index];
  }

  /** The int8 row of a slot (a view, not a copy). */
  row(slot: number): Int8Array {
    return this.vectors.subarray(slot * this.dims, (slot + 1) * this.dims);
  }

  /** The residual plane of a slot's row (a view, not a copy). */
  residual(slot: number): Uint8Array {
    const half = residualBytes(this.dims);
    return this.residuals.subarray(slot * half, (slot + 1) * half);
  }

  metaAt(slot: number): EntryMeta {
    return {
      id: this.ids[slot],
      ns: this.nsOf(slot),
      content: this.content[slot],
      source: this.source[slot],
      importance: this.importance[slot],
      created: this.created[slot],
      lastRecalled: this.lastRecalled[slot],
      flags: this.flags[slot],
      ttlClass: this.ttlClass[slot],
    };
  }

  /**
   * Grows (or shrinks down to `count`) the arrays to hold `capacity` entries: new arena memory, a copy,
   * and the old memory given back. When the arena has no room for the old and the new arrays at once, the
   * entries are first parked in arrays of just `count` rows and the old memory given back, then moved on.
   * When the arena refuses (HaloError "full") the store keeps every entry, at its old capacity (or, if even
   * that memory can't be had back, at `count`: the next add grows it).
   */
  resize(capacity: number): void {
    if (capacity < this.count) throw new Error("capacity under the entry count");
    if (!this.memory) {
      this.capacity = capacity;
      return;
    }
    try {
      this.moveTo(capacity);
      return;
    } catch (e) {
      if (errorTag(e) !== "full" || this.count === this.capacity) throw e;
    }
    const old = this.capacity;
    this.moveTo(this.count);
    try {
      this.moveTo(capacity);
    } catch (e) {
      try {
        this.moveTo(old);
      } catch {
        // Every entry is still held, at capacity = count.
      }
      throw e;
    }
  }

  /** New memory for `capacity` entries, the entries copied over, the old memory released; throws (unchanged) when the arena refuses. */
  private moveTo(capacity: number): void {
    const rows = allocateRowArrays(this.arena, this.dims, capacity);
    const masks: Mask[] = [];
    try {
      for (let i = 0; i < this.masks.length; i++) masks.push(allocateMask(this.arena, capacity));
    } catch (e) {
      for (const m of masks) this.arena.release(m.memory);
      this.arena.release(rows.memory!);
      throw e;
    }
    copyRowArrays(this, rows, this.count, this.dims);
    for (let i = 0; i < masks.length; i++) masks[i].bytes.set(this.masks[i].bytes.subarray(0, this.count));
    const old = this.memory!;
    const oldMasks = this.masks;
    this.adopt(rows);
    this.masks = masks;
    this.capacity = capacity;
    this.arena.release(old);
    for (const m of oldMasks) this.arena.release(m.memory);
  }

  private adopt(arrays: RowArrays): void {
    this.memory = arrays.memory;
    this.vectors = arrays.vectors;
    this.residuals = arrays.residuals;
    this.norms = arrays.norms;
    this.scales = arrays.scales;
    this.importance = arrays.importance;
    this.created = arrays.created;
    this.lastRecalled = arrays.lastRecalled;
    this.flags = arrays.flags;
    this.ttlClass = arrays.ttlClass;
    this.ids = arrays.ids;
    this.nsIndex = arrays.nsIndex;
  }

  // The per-entry fields a namespace and id do not decide.
  private writeFields(slot: number, meta: EntryMeta): void {
    this.content[slot] = meta.content;
    this.source[slot] = meta.source;
    this.importance[slot] = meta.importance;
    this.created[slot] = meta.created;
    this.lastRecalled[slot] = meta.lastRecalled;
    this.flags[slot] = meta.flags;
    this.ttlClass[slot] = meta.ttlClass;
  }

  private setMeta(slot: number, meta: EntryMeta, ns: number): void {
    this.ids[slot] = meta.id;
    this.nsIndex[slot] = ns;
    this.writeFields(slot, meta);
    this.masks[ns].bytes[slot] = 1;
    this.slotById[ns].set(meta.id, slot);
    this.nsCounts[ns]++;
  }

  /** The index of a namespace, added on first use. */
  private nsIndexFor(ns: string): number {
    let index = this.nsLookup.get(ns);
    if (index === undefined) {
      if (this.namespaces.length >= MEMORY_MAX_NAMESPACES) throw new Error("too many namespaces");
      const mask = allocateMask(this.arena, this.capacity);
      index = this.namespaces.length;
      this.namespaces.push(ns);
      this.nsLookup.set(ns, index);
      this.masks.push(mask);
      this.slotById.push(new Map());
      this.nsCounts.push(0);
    }
    return index;
  }
}
