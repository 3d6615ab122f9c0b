// memory.config: view and update the knobs, and the explicit re-embed path.
import { HaloError } from "../errors";
import type { Settings } from "../ports";
import { formatBytes } from "../util/format";
import { knobError, MEM_CONFIG_KNOBS, saveMemConfig, type KnobName, type MemConfig } from "./config";
import type { MemoryEngine, MemoryTx, TxNeeds } from "./engine";
import type { ArenaUse, ConfigView, ReembedOutcome } from "./outcomes";
import { REEMBED_BATCH, REEMBED_SETTINGS_KEY } from "./bounds";
import { int8Norm } from "./store/quantize";
import { bytesPerEntry } from "./store/store-arrays";
import { FLAG_REEMBEDDED, VectorStore } from "./store/vector-store";

/** Config calls read and change knobs, not entries: no housekeeping, no card or embedder checks. */
const CONFIG_NEEDS: TxNeeds = { housekeeping: false, loaded: false, writable: false, embedder: false };

export function viewConfig(engine: MemoryEngine): ConfigView {
  return engine.transactNow(
    "read",
    ({ store, embedder, storeEmbedderId, config }) => ({
      config: { ...config },
      embedderId: embedder.id,
      staleFrom: storeEmbedderId !== embedder.id && store.count > 0 ? storeEmbedderId : undefined,
      count: store.count,
      arena: arenaUse(engine),
    }),
    CONFIG_NEEDS,
  );
}

/** What the host's vector arena holds and what max_vectors can reach on it (memory.config, device.status). */
export function arenaUse(engine: MemoryEngine): ArenaUse {
  const { arena } = engine;
  return { usedBytes: arena.usedBytes(), budgetBytes: arena.budgetBytes(), vectorLimit: engine.vectorLimit };
}

/** The refusal for a max_vectors the arena cannot hold: it names the limit, never aborts. */
function overLimit(tx: MemoryTx, asked: number): HaloError {
  return new HaloError(
    "limit",
    `max_vectors can be at most ${tx.vectorLimit} on this device, not ${asked}: its vector arena holds ${formatBytes(tx.arena.budgetBytes())} and a memory takes ${bytesPerEntry(tx.embedder.dims)} bytes at ${tx.embedder.dims} dimensions.`,
  );
}

/** Applies a validated patch of knobs and persists it, returning the knobs changed; nothing changes when any value is invalid. */
export function updateConfig(engine: MemoryEngine, patch: { [name: string]: unknown }): Array<[KnobName, number]> {
  return engine.transactNow(
    "write",
    (tx) => {
      const next: MemConfig = { ...tx.config };
      const changed: Array<[KnobName, number]> = [];
      for (const knob of MEM_CONFIG_KNOBS) {
        if (!(knob.name in patch)) continue;
        const error = knobError(knob, patch[knob.name]);
        if (error) throw new HaloError("invalid-arguments", `${error}.`);
        next[knob.name as KnobName] = patch[knob.name] as number;
        changed.push([knob.name as KnobName, patch[knob.name] as number]);
      }
      if (changed.length === 0) throw new HaloError("invalid-arguments", "name at least one knob to update.");
      if (next.max_vectors < tx.store.count) {
        throw new HaloError("invalid-arguments", `max_vectors can't go under the ${tx.store.count} memories held now; delete some first.`);
      }
      if (next.max_vectors > tx.config.max_vectors && next.max_vectors > tx.vectorLimit) throw overLimit(tx, next.max_vectors);
      // The store grows first: an arena that can't give the memory refuses here and nothing changes.
      const previous = tx.config;
      tx.setConfig(next);
      try {
        saveMemConfig(engine.settings, next);
      } catch (e) {
        tx.setConfig(previous);
        throw e;
      }
      return changed;
    },
    CONFIG_NEEDS,
  );
}

/**
 * Re-embeds every live memory with the current embedder (after the model or dimensions changed), other
 * memory calls refused (busy) meanwhile. With the same dimensions it works in place, batch by batch
 * (reembedInPlace), so it never needs a second store in the arena; with other dimensions the new store is
 * built beside the old one at just the entries' count, and refused (full: nothing changes) when the arena
 * cannot hold both.
 */
export async function reembed(engine: MemoryEngine, hooks: ReembedHooks = {}): Promise<ReembedOutcome> {
  const settings = engine.settings;
  return engine.transact(
    "exclusive",
    async (tx) => {
      const target = tx.embedder;
      if (tx.storeEmbedderId === target.id) {
        if (settings.get(REEMBED_SETTINGS_KEY) !== undefined) settings.remove(REEMBED_SETTINGS_KEY);
        return { embedderId: target.id, count: 0, already: true };
      }
      if (target.dims === tx.store.dims) return reembedInPlace(tx, settings, hooks);
      const old = tx.store;
      const metas = [];
      for (let slot = 0; slot < old.count; slot++) metas.push(old.metaAt(slot));
      const rows = await tx.embedRows(metas.map((m) => m.content));
      // Just the entries' count beside the old store; grown to max_vectors once the old one is given back.
      const next = new VectorStore(target.dims, Math.max(1, metas.length), tx.arena, tx.kernels.lexicon);
      try {
        metas.forEach((m, i) => {
          next.add({ ...m, flags: m.flags & ~FLAG_REEMBEDDED }, rows[i].row, rows[i].residual);
        });
      } catch (e) {
        next.release();
        throw e;
      }
      tx.replaceStore(next, target.id);
      try {
        next.resize(Math.max(tx.config.max_vectors, metas.length));
      } catch {
        // Grown by the next add instead.
      }
      return { embedderId: target.id, count: metas.length, already: false };
    },
    { embedder: false },
  );
}

/** Test seams: called after each batch is saved (a kill test stops the process there). */
export interface ReembedHooks {
  afterBatch?(done: number, total: number): void;
}

/**
 * The same-dimension re-embed: each batch of REEMBED_BATCH memories gets its new row in its own slot,
 * flagged FLAG_REEMBEDDED, and is saved as one journal commit. The target embedder is noted in Settings
 * first, so a re-embed cut by a crash or a pulled card resumes where it stopped (flagged rows are not made
 * again) and, meanwhile, every memory stays findable: flagged rows by vector, the others by their words
 * (recall/search.ts). When every row is new the flags go and one snapshot names the new embedder.
 */
async function reembedInPlace(tx: MemoryTx, settings: Settings, hooks: ReembedHooks): Promise<ReembedOutcome> {
  const target = tx.embedder;
  const store = tx.store;
  if (settings.get(REEMBED_SETTINGS_KEY) !== target.id) {
    // A re-embed toward another embedder was cut: its rows are not this one's.
    for (let slot = 0; slot < store.count; slot++) if (store.flags[slot] & FLAG_REEMBEDDED) clearFlag(store, slot);
    tx.commit();
    settings.set(REEMBED_SETTINGS_KEY, target.id);
  }
  const total = store.count;
  for (;;) {
    const batch: Array<{ ns: string; id: number; content: string }> = [];
    for (let slot = 0; slot < store.count && batch.length < REEMBED_BATCH; slot++)
      if (!(store.flags[slot] & FLAG_REEMBEDDED)) batch.push({ ns: store.nsOf(slot), id: store.ids[slot], content: store.contentOf(slot) });
    if (batch.length === 0) break;
    const rows = await tx.embedRows(batch.map((b) => b.content));
    batch.forEach((b, i) => {
      const slot = store.slotOf(b.ns, b.id);
      const meta = store.metaAt(slot);
      meta.flags |= FLAG_REEMBEDDED;
      store.replace(slot, meta, rows[i].row, rows[i].residual, int8Norm(rows[i].row, 0, rows[i].row.length));
      store.touch(slot);
    });
    tx.commit();
    let done = 0;
    for (let slot = 0; slot < store.count; slot++) if (store.flags[slot] & FLAG_REEMBEDDED) done++;
    hooks.afterBatch?.(done, total);
  }
  for (let slot = 0; slot < store.count; slot++) clearFlag(store, slot);
  // A new embedder id: the save writes one snapshot (vector-files.ts), then the note goes.
  tx.replaceStore(store, target.id);
  settings.remove(REEMBED_SETTINGS_KEY);
  return { embedderId: target.id, count: store.count, already: false };
}

function clearFlag(store: VectorStore, slot: number): void {
  store.flags[slot] &= ~FLAG_REEMBEDDED;
  store.touch(slot);
}
