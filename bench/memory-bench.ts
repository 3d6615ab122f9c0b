// The memory engine's timings, shared by Node (bench/memory.mjs) and XS (bench/memory.xs.ts):
// a store of 5,000 offline-embedded facts in one namespace on an in-memory card, then
//   search: memory.search's work (embed the query, one masked kernel scan, score, format)
//   write:  memory.write's work for a new fact (embed, duplicate checks, append one commit to the vector journal)
//   boot:   a new engine reading that vector file back and replaying the journal (each entry's texts
//           indexed as it is read: recall/lexical.ts)
//   first search: the rebooted engine's first memory.search; `search` is every later one
// The vector file's checksum uses a stand-in digest (zeros): on the device SHA-256 is native.
import { memorySettings } from "../hosts/sim/ports/memory-settings.ts";
import { memoryStorage } from "../hosts/sim/ports/memory-storage.ts";
import { MemoryEngine, type MemoryDeps } from "../lib/memory/engine.ts";
import { hashingEmbedder } from "../lib/memory/embedders/hashing.ts";
import { normalizeL2, quantizeInt8, residualBytes } from "../lib/memory/store/quantize.ts";
import { searchMemory } from "../lib/memory/recall/search.ts";
import { VectorStore } from "../lib/memory/store/vector-store.ts";
import { writeMemory } from "../lib/memory/writes.ts";
import type { Kernels, VectorArena } from "../lib/ports.ts";
import { makePrincipal } from "../lib/registry/principal.ts";
import { zeroDigest } from "../test/support/digests.ts";

export const BENCH_ENTRIES = 5000;
const TOPICS = ["garden", "car", "dentist", "birthday", "recipe", "holiday", "office", "printer", "wifi", "music"];

export interface MemoryFigures {
  searchMs: number;
  writeMs: number;
  bootMs: number;
  firstSearchMs: number;
  fileBytes: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function measureMemory(kernels: Kernels, arena: VectorArena, timer: () => number, samples: number): Promise<MemoryFigures> {
  const storage = memoryStorage();
  const settings = memorySettings();
  const embedder = hashingEmbedder(256);
  const deps: MemoryDeps = {
    clock: { now: () => Date.UTC(2026, 5, 1) },
    log: { info: () => undefined, warn: () => undefined },
    settings,
    digest: zeroDigest(),
    kernels,
    arena,
    embedder,
    storage,
  };
  const owner = makePrincipal("owner", "admin", "turn");
  const engine = new MemoryEngine(deps);
  const store = new VectorStore(embedder.dims, engine.config.max_vectors, arena, kernels.lexicon);
  const row = new Int8Array(embedder.dims);
  const residual = new Uint8Array(residualBytes(embedder.dims));
  for (let i = 0; i < BENCH_ENTRIES; i++) {
    const content = `Fact ${i}: the ${TOPICS[i % TOPICS.length]} note number ${i} mentions item${i} and place${i % 97}`;
    const [v] = await embedder.embed([content]);
    normalizeL2(v);
    quantizeInt8(v, row, 0, residual);
    store.add(
      {
        id: i + 1,
        ns: "owner",
        content,
        source: "self",
        importance: 0.5,
        created: deps.clock.now(),
        lastRecalled: deps.clock.now(),
        flags: 0,
        ttlClass: 3,
      },
      row,
      residual,
    );
  }
  await engine.transact("exclusive", (tx) => tx.replaceStore(store, embedder.id), { embedder: false });
  const search: number[] = [];
  const write: number[] = [];
  const boot: number[] = [];
  const firstSearch: number[] = [];
  await searchMemory(engine, owner, "warm up");
  for (let s = 0; s < samples; s++) {
    let t = timer();
    await searchMemory(engine, owner, `where is the ${TOPICS[s % TOPICS.length]} note about item${s * 37}`);
    search.push(timer() - t);
    t = timer();
    await writeMemory(engine, owner, { content: `A brand new fact ${s} about a zeppelin named Zed${s}` });
    write.push(timer() - t);
    t = timer();
    const rebooted = new MemoryEngine(deps);
    boot.push(timer() - t);
    if (rebooted.store.count !== engine.store.count) throw new Error("boot read a different store");
    t = timer();
    await searchMemory(rebooted, owner, `where is the ${TOPICS[s % TOPICS.length]} note about item${s * 37}`);
    firstSearch.push(timer() - t);
  }
  return {
    searchMs: median(search),
    writeMs: median(write),
    bootMs: median(boot),
    firstSearchMs: median(firstSearch),
    fileBytes: storage.read("memory/vectors.bin")!.length,
  };
}
