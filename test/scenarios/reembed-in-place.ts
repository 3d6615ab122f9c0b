// A re-embed that fits the device's arena, on Node and on XS with the same transcript: a store filled
// near what the arena fits is re-embedded in place, batch by batch, never holding two stores; a re-embed
// cut part way (the embeddings service fails, or the device loses power between batches) leaves every
// memory stored, each with its old or its new row, findable, and resumes where it stopped; a re-embed to
// other dimensions that would need two stores is refused and changes nothing.
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { memoryStorage, type MemoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { REEMBED_BATCH, REEMBED_SETTINGS_KEY } from "../../lib/memory/bounds.ts";
import { reembed } from "../../lib/memory/config-ops.ts";
import type { Embedder } from "../../lib/memory/embedders/embedder.ts";
import { hashingEmbedder } from "../../lib/memory/embedders/hashing.ts";
import { MemoryEngine } from "../../lib/memory/engine.ts";
import { searchMemory } from "../../lib/memory/recall/search.ts";
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { bytesPerEntry, maxVectorsFitting } from "../../lib/memory/store/store-arrays.ts";
import { FLAG_REEMBEDDED } from "../../lib/memory/store/vector-store.ts";
import { writeMemory } from "../../lib/memory/writes.ts";
import type { Settings, VectorArena } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { djb2Bytes } from "../../lib/util/hash.ts";
import { standInDigest } from "../support/digests.ts";

const DIMS = 64;
/** A small arena, so the store is near what it fits with a few hundred memories (the device's is 4 MB). */
export const SCENARIO_BUDGET = 96 * 1024;
const owner = makePrincipal("owner", "admin", "turn");

const checksumDigest = standInDigest((data) => {
  const out = new Uint8Array(32);
  let h = djb2Bytes(data);
  for (let i = 0; i < 32; i += 4) {
    out[i] = h >>> 24;
    out[i + 1] = (h >>> 16) & 0xff;
    out[i + 2] = (h >>> 8) & 0xff;
    out[i + 3] = h & 0xff;
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  }
  return out;
});

/** Another model of the same dimensions (what a re-embed in place is for). */
export function nextModel(calls: { texts: number; batches: number }, failOnBatch = 0): Embedder {
  const base = hashingEmbedder(DIMS);
  return {
    id: `next-model/${DIMS}`,
    dims: DIMS,
    embed: async (texts) => {
      calls.batches++;
      if (failOnBatch > 0 && calls.batches === failOnBatch) throw new Error("the embeddings service answered HTTP 503.");
      calls.texts += texts.length;
      return base.embed(texts.map((t) => `next ${t}`));
    },
  };
}

/** An arena that remembers the most it ever had in use. */
export function peakArena(inner: VectorArena): VectorArena & { peak(): number } {
  let peak = 0;
  return {
    budgetBytes: () => inner.budgetBytes(),
    usedBytes: () => inner.usedBytes(),
    allocate(bytes) {
      const memory = inner.allocate(bytes);
      peak = Math.max(peak, inner.usedBytes());
      return memory;
    },
    release: (memory) => inner.release(memory),
    peak: () => peak,
  };
}

export function fact(i: number): string {
  return `crate item${i} holds part p${i * 7}`;
}

export interface Device {
  storage: MemoryStorage;
  settings: Settings;
  boot(embedder: Embedder, arena?: VectorArena): MemoryEngine;
}

export function device(): Device {
  const storage = memoryStorage();
  const settings = memorySettings();
  let now = Date.UTC(2026, 10, 1);
  return {
    storage,
    settings,
    boot: (embedder, arena = simVectorArena(SCENARIO_BUDGET)) =>
      new MemoryEngine({
        clock: { now: () => (now += 1000) },
        log: { info: () => undefined, warn: () => undefined },
        settings,
        digest: checksumDigest,
        kernels: tsKernels,
        arena,
        embedder,
        storage,
      }),
  };
}

/** How many of the first `count` facts a search by their own words finds. */
export async function findable(engine: MemoryEngine, count: number, step = 1): Promise<number> {
  let found = 0;
  for (let i = 0; i < count; i += step) {
    // Ten asked: every search lifts what it shows (recall boost), so a few much-shown facts rank high on all.
    const answer = await searchMemory(engine, owner, fact(i), 10);
    if (answer.hits.some((h) => h.content === fact(i))) found++;
  }
  return found;
}

export function flagged(engine: MemoryEngine): number {
  let n = 0;
  for (let slot = 0; slot < engine.store.count; slot++) if (engine.store.flags[slot] & FLAG_REEMBEDDED) n++;
  return n;
}

export async function fill(engine: MemoryEngine, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await writeMemory(engine, owner, { content: fact(i) });
}

export async function runReembedScenario(count = 180, step = 9): Promise<string[]> {
  const out: string[] = [];
  const limit = maxVectorsFitting(SCENARIO_BUDGET, DIMS);
  out.push(`arena ${SCENARIO_BUDGET} bytes fits ${limit} memories of ${DIMS} dims (${bytesPerEntry(DIMS)} bytes each)`);

  // 1. A store near the limit, re-embedded in place.
  const a = device();
  a.settings.set("memory.config", JSON.stringify({ max_vectors: limit }));
  let engine = a.boot(hashingEmbedder(DIMS));
  await fill(engine, count);
  const single = engine.store.arenaBytes;
  out.push(
    `filled ${engine.store.count} of ${engine.store.capacity}; the store holds ${single} bytes; two would need ${2 * single} (over the budget: ${2 * single > SCENARIO_BUDGET})`,
  );
  const calls = { texts: 0, batches: 0 };
  const arena = peakArena(simVectorArena(SCENARIO_BUDGET));
  engine = a.boot(nextModel(calls), arena);
  const batches: string[] = [];
  const outcome = await reembed(engine, { afterBatch: (done, total) => void batches.push(`${done}/${total}`) });
  out.push(
    `re-embedded ${outcome.count} with ${outcome.embedderId} in ${calls.batches} batches of at most ${REEMBED_BATCH}: ${batches.join(" ")}`,
  );
  out.push(
    `peak arena ${arena.peak()} of ${SCENARIO_BUDGET} (fits: ${arena.peak() <= SCENARIO_BUDGET}); flagged ${flagged(engine)}; note ${a.settings.get(REEMBED_SETTINGS_KEY) ?? "none"}`,
  );
  engine = a.boot(nextModel(calls));
  out.push(
    `after a reboot: ${engine.store.count} memories of ${engine.storeEmbedderId}; found ${await findable(engine, count, step)} of ${Math.ceil(count / step)} asked`,
  );

  // 2. Cut on the third batch: each memory keeps its old or its new row; all findable; it resumes.
  const b = device();
  b.settings.set("memory.config", JSON.stringify({ max_vectors: limit }));
  engine = b.boot(hashingEmbedder(DIMS));
  await fill(engine, count);
  const cut = { texts: 0, batches: 0 };
  engine = b.boot(nextModel(cut, 3));
  const failed = await reembed(engine).then(
    () => "finished",
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
  out.push(`cut: ${failed}; ${flagged(engine)} of ${engine.store.count} re-made; stored embedder ${engine.storeEmbedderId}`);
  const resumed = { texts: 0, batches: 0 };
  engine = b.boot(nextModel(resumed));
  out.push(
    `after a reboot: ${engine.store.count} memories, ${flagged(engine)} re-made; found ${await findable(engine, count, step)} of ${Math.ceil(count / step)} asked`,
  );
  const refused = await writeMemory(engine, owner, { content: "a new fact" }).then(
    () => "written",
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
  out.push(`a write meanwhile: ${refused}`);
  resumed.texts = 0;
  const done = await reembed(engine);
  out.push(
    `resumed: ${done.count} memories, ${resumed.texts} embedded now (${count - 2 * REEMBED_BATCH} were left); flagged ${flagged(engine)}; note ${b.settings.get(REEMBED_SETTINGS_KEY) ?? "none"}`,
  );
  engine = b.boot(nextModel(resumed));
  out.push(
    `after a reboot: ${engine.storeEmbedderId}; found ${await findable(engine, count, step)} of ${Math.ceil(count / step)} asked; write ${await writeMemory(engine, owner, { content: "a new fact" }).then((r) => r.kind)}`,
  );

  // 3. Other dimensions on a full store need two stores: refused, nothing changes.
  const c = device();
  c.settings.set("memory.config", JSON.stringify({ max_vectors: limit }));
  engine = c.boot(hashingEmbedder(DIMS));
  await fill(engine, count);
  const before = c.storage.read("memory/vectors.bin")!.length;
  engine = c.boot(hashingEmbedder(2 * DIMS));
  const wider = await reembed(engine).then(
    () => "finished",
    (e: unknown) => (e instanceof Error ? e.message.replace(/\d+ bytes/g, "N bytes").replace(/\d+ of \d+/, "N of M") : String(e)),
  );
  out.push(`to ${2 * DIMS} dims: ${wider}`);
  engine = c.boot(hashingEmbedder(DIMS));
  out.push(
    `nothing changed: ${engine.store.count} memories of ${engine.storeEmbedderId}; file ${c.storage.read("memory/vectors.bin")!.length === before ? "as it was" : "changed"}; found ${await findable(engine, count, step)} of ${Math.ceil(count / step)} asked`,
  );
  return out;
}
