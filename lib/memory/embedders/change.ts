// The owner's embedder switch. The choice is locked while memories exist:
// vectors from two embedders cannot be compared, so a change with memories
// stored happens only together with a re-embed of all of them. A failure
// before any batch is saved leaves the old setting, embedder and vectors; a
// re-embed in place cut after some batches keeps the new embedder and
// resumes (config-ops.ts), since its saved rows are the new embedder's.
// Refusals are HaloErrors: invalid, conflict (locked), not-configured (no key), failed.
import type { ReembedOutcome } from "../outcomes";
import { HaloError } from "../../errors";
import { toJson } from "../../util/json";
import type { Log, Settings } from "../../ports";
import { REEMBED_SETTINGS_KEY } from "../bounds";
import { reembed } from "../config-ops";
import { FLAG_REEMBEDDED } from "../store/vector-store";
import type { Embedder } from "./embedder";
import { EMBEDDER_SETTINGS_KEY, readEmbedderSettings, type EmbedderSettings } from "./select";
import type { MemoryEngine } from "../engine";

/** The stored choice, the embedder in use, and how many memories hold its vectors. */
export function embedderView(engine: MemoryEngine, log: Log): { setting: EmbedderSettings; active: string; vectors: number } {
  return { setting: readEmbedderSettings(engine.settings, log), active: engine.embedder.id, vectors: engine.store.count };
}

/**
 * Stores `wanted` ({provider, dims, model, base_url} as in Settings) and switches
 * the engine to the embedder `build` makes from it. With memories stored this
 * needs `reembedNow`; the answer says what was done: the re-embed's outcome, or none when no memory needed it.
 */
export async function changeEmbedder(
  engine: MemoryEngine,
  wanted: { [key: string]: unknown },
  build: (setting: EmbedderSettings) => Embedder | undefined,
  reembedNow: boolean,
): Promise<{ embedderId: string; reembedded?: ReembedOutcome }> {
  const text = toJson(wanted);
  const problems: string[] = [];
  // Checked by the same reader the next boot uses: one that only holds the candidate.
  const candidate: Settings = { get: () => text, set: () => undefined, remove: () => undefined, keys: () => [] };
  const parsed = readEmbedderSettings(candidate, { info: () => undefined, warn: (m: string) => void problems.push(m) });
  if (problems.length > 0)
    throw new HaloError("invalid", "not a valid embedder: provider offline {dims} or openai {dims, model, base_url}.");
  const count = engine.transactNow("read", (tx) => tx.store.count, { loaded: false, embedder: false });
  if (count > 0 && !reembedNow) {
    throw new HaloError(
      "conflict",
      `locked: ${count} memories hold vectors from ${engine.embedder.id}; change the embedder together with a re-embed of them (reembed: true).`,
    );
  }
  const settings = engine.settings;
  const before = settings.get(EMBEDDER_SETTINGS_KEY);
  const previous = engine.embedder;
  // Stored first: `build` reads the setting as the next boot will.
  settings.set(EMBEDDER_SETTINGS_KEY, text);
  const next = build(parsed);
  if (!next) {
    restore();
    throw new HaloError("not-configured", "the openai embedder needs the openai key; set it first.");
  }
  engine.useEmbedder(next);
  if (count === 0) return { embedderId: next.id };
  try {
    return { embedderId: next.id, reembedded: await reembed(engine) };
  } catch (e) {
    const why = e instanceof Error ? e.message : "unknown error";
    // A re-embed in place that saved some batches keeps the new embedder: going back would leave those rows
    // under the old one. Memories stay searchable and memory.config action reembed resumes it.
    const done = engine.reembedTarget() === next.id ? reembeddedCount(engine) : 0;
    if (done > 0)
      throw new HaloError(
        "failed",
        `the re-embed stopped after ${done} of ${count} memories (${why}); memories stay searchable, and memory.config action reembed resumes it.`,
      );
    if (engine.reembedTarget() !== undefined) settings.remove(REEMBED_SETTINGS_KEY);
    restore();
    throw new HaloError("failed", `the re-embed failed, nothing changed: ${why}`);
  }

  function restore(): void {
    if (before === undefined) settings.remove(EMBEDDER_SETTINGS_KEY);
    else settings.set(EMBEDDER_SETTINGS_KEY, before);
    engine.useEmbedder(previous);
  }
}

/** Memories whose row a cut re-embed in place already made (FLAG_REEMBEDDED). */
function reembeddedCount(engine: MemoryEngine): number {
  const store = engine.store;
  let n = 0;
  for (let slot = 0; slot < store.count; slot++) if (store.flags[slot] & FLAG_REEMBEDDED) n++;
  return n;
}
