// memory.config: view and update the knobs, and the explicit re-embed path.
import { HaloError } from "../errors";
import { formatBytes } from "../util/format";
import { knobError, MEM_CONFIG_KNOBS, saveMemConfig, type KnobName, type MemConfig } from "./config";
import type { MemoryEngine, MemoryTx, TxNeeds } from "./engine";
import type { ArenaUse, ConfigView, ReembedOutcome } from "./outcomes";
import { bytesPerEntry } from "./store/store-arrays";
import { VectorStore } from "./store/vector-store";

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
 * Re-embeds every live memory with the current embedder (after the model or
 * dimensions changed). All or nothing: the old store and file stay until every
 * entry has its new vector, and other memory calls are refused (busy) meanwhile.
 */
export async function reembed(engine: MemoryEngine): Promise<ReembedOutcome> {
  return engine.transact(
    "exclusive",
    async (tx) => {
      const target = tx.embedder;
      if (tx.storeEmbedderId === target.id) return { embedderId: target.id, count: 0, already: true };
      const old = tx.store;
      const metas = [];
      for (let slot = 0; slot < old.count; slot++) metas.push(old.metaAt(slot));
      const rows = await tx.embedRows(metas.map((m) => m.content));
      const next = new VectorStore(target.dims, Math.max(tx.config.max_vectors, metas.length), tx.arena, tx.kernels.lexicon);
      metas.forEach((m, i) => {
        next.add(m, rows[i].row, rows[i].residual);
      });
      tx.replaceStore(next, target.id);
      return { embedderId: target.id, count: metas.length, already: false };
    },
    { embedder: false },
  );
}
