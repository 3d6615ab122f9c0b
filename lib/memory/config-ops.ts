import { HaloError } from "../errors";
// memory.config: view and update the knobs, and the explicit re-embed path.
import { describeMemConfig, knobError, MEM_CONFIG_KNOBS, saveMemConfig, type KnobName, type MemConfig } from "./config";
import type { MemoryEngine } from "./engine";
import { VectorStore } from "./store/vector-store";

export function viewConfig(engine: MemoryEngine): string {
  const { store, deps, storeEmbedderId } = engine;
  const stale =
    storeEmbedderId !== deps.embedder.id && store.count > 0 ? ` (stored vectors are from ${storeEmbedderId}: re-embed needed)` : "";
  return `${describeMemConfig(engine.config)}\nEmbedder: ${deps.embedder.id}${stale}\nLive memories: ${store.count} of ${engine.config.max_vectors}`;
}

/** Applies a validated patch of knobs and persists it; nothing changes when any value is invalid. */
export function updateConfig(engine: MemoryEngine, patch: { [name: string]: unknown }): string {
  const next: MemConfig = { ...engine.config };
  const changed: string[] = [];
  for (const knob of MEM_CONFIG_KNOBS) {
    if (!(knob.name in patch)) continue;
    const error = knobError(knob, patch[knob.name]);
    if (error) throw new HaloError("invalid-arguments", `${error}.`);
    next[knob.name as KnobName] = patch[knob.name] as number;
    changed.push(`${knob.name} = ${patch[knob.name]}`);
  }
  if (changed.length === 0) throw new HaloError("invalid-arguments", "name at least one knob to update.");
  if (next.max_vectors < engine.store.count) {
    throw new HaloError("invalid-arguments", `max_vectors can't go under the ${engine.store.count} memories held now; delete some first.`);
  }
  saveMemConfig(engine.deps.settings, next);
  engine.config = next;
  if (engine.store.capacity !== next.max_vectors) engine.store.resize(next.max_vectors);
  return `Updated: ${changed.join(", ")}.`;
}

/**
 * Re-embeds every live memory with the current embedder (after the model or
 * dimensions changed). All or nothing: the old store and file stay until every
 * entry has its new vector, and other memory calls wait meanwhile.
 */
export async function reembed(engine: MemoryEngine): Promise<string> {
  engine.prepare();
  engine.requireWritable();
  const target = engine.deps.embedder;
  if (engine.storeEmbedderId === target.id) return `Nothing to re-embed: every memory already uses ${target.id}.`;
  return engine.exclusive(async () => {
    const old = engine.store;
    const metas = [];
    for (let slot = 0; slot < old.count; slot++) metas.push(old.metaAt(slot));
    const rows = await engine.embedRows(metas.map((m) => m.content));
    const next = new VectorStore(target.dims, Math.max(engine.config.max_vectors, metas.length));
    metas.forEach((m, i) => {
      next.add(m, rows[i]);
    });
    engine.replaceStore(next, target.id);
    return `Re-embedded ${metas.length} memories with ${target.id}.`;
  });
}
