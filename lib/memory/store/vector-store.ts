// The live memory: one flat Int8Array of capacity x dims, the rows' 4-bit
// residual plane, parallel typed arrays for the metadata and an id table, not
// one object per vector, all laid over arena memory (store-arrays.ts: native
// memory outside the collected heap on XS), the texts in pages of arena memory
// (text-pages.ts) and the texts' lexical index in arena regions of its own
// (recall/lexical.ts, kept up to date by add, replace and remove). The XS heap
// holds a few objects per namespace, none per entry.
// The memory is taken on the first add, so an empty store costs nothing.
// Slots are dense (0..count-1): a removal moves the last entry into the hole.
import { errorTag } from "../../errors";
import type { LexiconKernels, VectorArena } from "../../ports";
import { MEMORY_MAX_NAMESPACES } from "../bounds";
import { LexicalIndex, type LexicalHit } from "../recall/lexical";
import { tsLexiconKernels } from "../recall/lexicon-ts";
import { int8Norm, residualBytes, rowScale } from "./quantize";
import { deleteSlot, fillSlots, findSlot, setSlot } from "./slot-table";
import {
  allocateMask,
  allocateRowArrays,
  copyRowArrays,
  emptyRowArrays,
  perRowFields,
  rowBytes,
  type Mask,
  type RowArrays,
} from "./store-arrays";
import { StoreChanges } from "./store-changes";
import { TextPages } from "./text-pages";

export const FLAG_PINNED = 1;
export const FLAG_PERMANENT = 2;
/** The entry's row is already the new embedder's, while a re-embed in place is under way (config-ops.ts). */
export const FLAG_REEMBEDDED = 4;

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
  // The arrays of RowArrays (store-arrays.ts), set by adopt().
  vectors!: Int8Array;
  /** Per row, residualBytes(dims) bytes of 4-bit residuals (quantize.ts): what Kernels.rerank refines the row with. */
  residuals!: Uint8Array;
  norms!: Float32Array;
  /** Per row, 1 / its int8 norm: the kernel ranks by dot x scale, the cosine up to the query's norm. */
  scales!: Float32Array;
  importance!: Float32Array;
  created!: Float64Array;
  lastRecalled!: Float64Array;
  flags!: Uint8Array;
  ttlClass!: Uint8Array;
  ids!: Uint32Array;
  nsIndex!: Uint16Array;
  slotTable!: Int32Array;
  textPage!: Uint16Array;
  textOffset!: Uint16Array;
  contentBytes!: Uint16Array;
  sourceBytes!: Uint8Array;
  /** The arena memory under the arrays above (undefined until the first add). */
  private memory: ArrayBuffer | undefined;
  private readonly texts: TextPages;
  /** Namespace names by index; an index is never reused while the store lives. */
  private readonly namespaces: string[] = [];
  private readonly nsLookup = new Map<string, number>();
  /** Per namespace: a mask byte per slot (1 = the slot belongs to it), each in its own arena memory. */
  private masks: Mask[] = [];
  private readonly nsCounts: number[] = [];
  /** The stored texts' inverted index, per namespace, in arena memory. */
  private readonly lexicon: LexicalIndex;
  /** Changes since the store was last persisted (add and remove record themselves; field writes call touch). */
  readonly changes = new StoreChanges();
  /** Counts add, touch and remove calls: a write transaction saves when it moved (engine.ts). */
  version = 0;

  /** `lexicon`: the lexical index's kernels (Kernels.lexicon: the C ones on XS). */
  constructor(dims: number, capacity: number, arena: VectorArena, lexicon: LexiconKernels = tsLexiconKernels) {
    this.dims = dims;
    this.capacity = capacity;
    this.arena = arena;
    this.texts = new TextPages(arena);
    this.lexicon = new LexicalIndex(arena, lexicon);
    this.adopt(emptyRowArrays());
  }

  /** Arena bytes the store holds now: rows, residuals, fields and id table, a byte per row for each namespace's mask, the text pages and the lexical index. */
  get arenaBytes(): number {
    return (this.memory ? this.capacity * (rowBytes(this.dims) + this.masks.length) : 0) + this.texts.bytes + this.lexicon.bytes;
  }

  /**
   * Stores an entry, its int8 row and the row's residual plane (and the row's norm when known); returns its
   * slot. The caller checks capacity first. Throws a HaloError "full" when the arena cannot give the store
   * its memory (first add, new namespace, a new text page, room in the lexical index); the store is unchanged then.
   */
  add(meta: EntryMeta, row: Int8Array, residual: Uint8Array, norm?: number): number {
    if (this.count >= this.capacity) throw new Error("the vector store is full");
    if (row.length !== this.dims) throw new Error("bad row length");
    if (residual.length !== residualBytes(this.dims)) throw new Error("bad residual length");
    const first = !this.memory;
    if (first) this.adopt(allocateRowArrays(this.arena, this.dims, this.capacity));
    try {
      this.texts.reserveFor(meta.content, meta.source);
      this.lexicon.add(meta.ns, meta.id, meta.content);
    } catch (e) {
      // A first add the arena refuses gives its rows back: the store is as it was, holding nothing.
      if (first && this.count === 0) this.release();
      throw e;
    }
    let ns: number;
    try {
      ns = this.nsIndexFor(meta.ns);
    } catch (e) {
      this.lexicon.remove(meta.ns, meta.id, meta.content);
      throw e;
    }
    this.version++;
    const slot = this.count++;
    this.vectors.set(row, slot * this.dims);
    this.residuals.set(residual, slot * residual.length);
    this.norms[slot] = norm ?? int8Norm(this.vectors, slot * this.dims, this.dims);
    this.scales[slot] = rowScale(this.norms[slot]);
    this.ids[slot] = meta.id;
    this.nsIndex[slot] = ns;
    this.writeFields(slot, meta);
    this.texts.put(this, slot, meta.content, meta.source);
    this.masks[ns].bytes[slot] = 1;
    setSlot(this, ns, meta.id, slot);
    this.nsCounts[ns]++;
    if (!this.changes.overflow) this.changes.upsert({ ...meta }, this.norms[slot], row, residual);
    return slot;
  }

  /** Records that the entry at `slot` changed in place (importance, flags, TTL...): call after the change. */
  touch(slot: number): void {
    this.version++;
    if (!this.changes.overflow) this.changes.upsert(this.metaAt(slot), this.norms[slot], this.row(slot), this.residual(slot));
  }

  /**
   * Overwrites the entry at `slot`, which has the same namespace and id (journal replay; not recorded).
   * Throws the arena's HaloError "full" when its texts need a page, or its index room, the arena can't give
   * (the entry is unchanged).
   */
  replace(slot: number, meta: EntryMeta, row: Int8Array, residual: Uint8Array, norm: number): void {
    if (row.length !== this.dims) throw new Error("bad row length");
    if (residual.length !== residualBytes(this.dims)) throw new Error("bad residual length");
    const old = this.contentOf(slot);
    if (meta.content !== old || meta.source !== this.sourceOf(slot)) {
      this.texts.reserveFor(meta.content, meta.source);
      if (meta.content !== old) this.lexicon.replace(meta.ns, meta.id, old, meta.content);
      this.texts.free(this, slot);
      this.texts.put(this, slot, meta.content, meta.source);
    }
    this.vectors.set(row, slot * this.dims);
    this.residuals.set(residual, slot * residual.length);
    this.norms[slot] = norm;
    this.scales[slot] = rowScale(norm);
    this.writeFields(slot, meta);
  }

  /** Removes the entry at `slot`; the last entry moves into it. */
  remove(slot: number): void {
    this.version++;
    const last = this.count - 1;
    const ns = this.nsIndex[slot];
    const id = this.ids[slot];
    this.changes.remove(this.namespaces[ns], id);
    this.lexicon.remove(this.namespaces[ns], id, this.contentOf(slot));
    this.masks[ns].bytes[slot] = 0;
    deleteSlot(this, ns, id);
    this.texts.free(this, slot);
    this.nsCounts[ns]--;
    if (slot !== last) {
      const movedNs = this.nsIndex[last];
      setSlot(this, movedNs, this.ids[last], slot);
      this.masks[movedNs].bytes[last] = 0;
      this.masks[movedNs].bytes[slot] = 1;
      this.moveRow(last, slot);
    }
    this.count = last;
    this.texts.compact(this, this.count);
  }

  /** `ns`'s best `limit` entries for `query` by their words (lexical.ts). */
  lexicalSearch(ns: string, query: string, limit: number): LexicalHit[] {
    return this.lexicon.search(ns, query, limit);
  }

  /** The arena regions of `ns`'s lexical index (tests read them: recall/lexicon-layout.ts). */
  lexicalRegions(ns: string): { heap: ArrayBuffer; table: ArrayBuffer; docs: ArrayBuffer } | undefined {
    return this.lexicon.regions(ns);
  }

  /** The slot of content id `id` in `ns`, or -1. */
  slotOf(ns: string, id: number): number {
    const index = this.nsLookup.get(ns);
    return index === undefined ? -1 : findSlot(this, index, id);
  }

  nsOf(slot: number): string {
    return this.namespaces[this.nsIndex[slot]];
  }

  /** Arena bytes of the text pages (part of arenaBytes). */
  get textBytes(): number {
    return this.texts.bytes;
  }

  /** Arena bytes of the lexical index (part of arenaBytes). */
  get lexiconBytes(): number {
    return this.lexicon.bytes;
  }

  /** The entry's text (a new string each call: the store keeps it as UTF-8 bytes). */
  contentOf(slot: number): string {
    return this.texts.content(this, slot);
  }

  /** The entry's source label (a new string each call). */
  sourceOf(slot: number): string {
    return this.texts.source(this, slot);
  }

  /** The entry's text as UTF-8: a view of arena memory, valid until the store next changes (a save copies it from here). */
  contentUtf8(slot: number): Uint8Array {
    return this.texts.contentUtf8(this, slot);
  }

  /** The entry's source label as UTF-8 (a view, as contentUtf8). */
  sourceUtf8(slot: number): Uint8Array {
    return this.texts.sourceUtf8(this, slot);
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
      content: this.contentOf(slot),
      source: this.sourceOf(slot),
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

  /**
   * Gives all of the store's arena memory back: the store is being dropped (replaced by a re-embed or by an
   * empty store of other dimensions). The store holds nothing afterwards and must not be used.
   */
  release(): void {
    if (this.memory) this.arena.release(this.memory);
    this.memory = undefined;
    for (const m of this.masks) this.arena.release(m.memory);
    this.masks = [];
    this.texts.releaseAll();
    this.lexicon.releaseAll();
    this.count = 0;
    this.adopt(emptyRowArrays());
    this.memory = undefined;
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
    fillSlots(rows, this.count);
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
    this.slotTable = arrays.slotTable;
    this.textPage = arrays.textPage;
    this.textOffset = arrays.textOffset;
    this.contentBytes = arrays.contentBytes;
    this.sourceBytes = arrays.sourceBytes;
  }

  // The per-entry fields a namespace, an id and the texts do not decide.
  private writeFields(slot: number, meta: EntryMeta): void {
    this.importance[slot] = meta.importance;
    this.created[slot] = meta.created;
    this.lastRecalled[slot] = meta.lastRecalled;
    this.flags[slot] = meta.flags;
    this.ttlClass[slot] = meta.ttlClass;
  }

  /** Copies the row and every per-row field of slot `from` to slot `to` (the id table and masks are the caller's). */
  private moveRow(from: number, to: number): void {
    const dims = this.dims;
    const half = residualBytes(dims);
    this.vectors.copyWithin(to * dims, from * dims, (from + 1) * dims);
    this.residuals.copyWithin(to * half, from * half, (from + 1) * half);
    for (const field of perRowFields(this)) field[to] = field[from];
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
      this.nsCounts.push(0);
    }
    return index;
  }
}
