// XS entry: the vector store over the native arena (modules/vector/arena.c) on
// the XS engine. Prints one `NAME {json}` line per check, then END;
// test/xs/arena.test.ts asserts on them.
import { TEST_HOST } from "../support/halo.ts";
import { buildCore } from "../../lib/app/core.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { nativeKernels } from "../../modules/vector/vector.ts";
import { nativeArena, nativeArenaStats } from "../../modules/vector/arena.ts";
import { nativeLexiconKernels } from "../../modules/vector/lexicon.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { VectorStore } from "../../lib/memory/store/vector-store.ts";
import { storeChunks } from "../../bench/store-chunks.ts";
import { portablePorts } from "../support/portable-ports.ts";
import { zeroDigest } from "../support/digests.ts";

declare function print(...args: unknown[]): void;
declare function exit(code: number): void;
const DEFAULT_BUDGET = nativeArenaStats().budget;

function line(name: string, value: unknown): void {
  print(`${name} ${JSON.stringify(value)}`);
}

// The chunk heap: a 5,000-row store that has taken its memory (one entry), then a full one, arena against plain.
function chunks(): void {
  // Only the figures of the one-entry stores are kept: their memory goes back before the full ones take theirs.
  const arenaOne = storeChunks(nativeArena, 1, nativeLexiconKernels).chunkBytes;
  const plainOne = storeChunks(simVectorArena(), 1, nativeLexiconKernels).chunkBytes;
  const arenaFull = storeChunks(nativeArena, 5000, nativeLexiconKernels);
  const plainFull = storeChunks(simVectorArena(), 5000, nativeLexiconKernels);
  // The same rows give the same ranking over either memory.
  const q = arenaFull.store.row(42).slice();
  const mask = arenaFull.store.maskOf("owner");
  const a = nativeKernels.topK(arenaFull.store.vectors, 256, 5000, q, 8, mask, arenaFull.store.scales);
  const p = nativeKernels.topK(plainFull.store.vectors, 256, 5000, q, 8, plainFull.store.maskOf("owner"), plainFull.store.scales);
  line("CHUNKS", {
    arenaOne,
    plainOne,
    arenaFull: arenaFull.chunkBytes,
    plainFull: plainFull.chunkBytes,
    arenaBytes: arenaFull.arenaBytes,
    textBytes: arenaFull.textBytes,
    lexiconBytes: arenaFull.lexiconBytes,
    textLength: arenaFull.textLength,
    sameTopK:
      Array.from(a.indices).join(",") === Array.from(p.indices).join(",") && Array.from(a.scores).join() === Array.from(p.scores).join(),
    top: a.indices[0],
  });
}

// resize: new memory, a copy, the old given back at once; unreleased memory goes back when collected.
function resizeAndCollect(): void {
  gc!(); // the stores of chunks() go back first
  const start = nativeArenaStats().used;
  const store = new VectorStore(16, 10, nativeArena, nativeLexiconKernels);
  const row = Int8Array.from({ length: 16 }, (_, i) => i - 8);
  const residual = new Uint8Array(8);
  for (let i = 0; i < 10; i++) {
    row[0] = i + 1;
    store.add(
      {
        id: i + 1,
        ns: i % 2 ? "a" : "b",
        content: `c${i}`,
        source: "self",
        importance: i / 10,
        created: i,
        lastRecalled: i,
        flags: 0,
        ttlClass: 1,
      },
      row,
      residual.fill(i * 17),
    );
  }
  const oldVectors = store.vectors;
  store.resize(40);
  const afterResize = nativeArenaStats().used - start;
  let intact = true;
  for (let s = 0; s < store.count; s++) {
    const id = store.ids[s];
    if (
      store.row(s)[0] !== id ||
      store.residual(s)[7] !== (((id - 1) * 17) & 0xff) ||
      store.created[s] !== id - 1 ||
      store.slotOf(store.nsOf(s), id) !== s ||
      store.maskOf(store.nsOf(s))![s] !== 1
    )
      intact = false;
  }
  for (let i = 0; i < 20; i++) nativeArena.allocate(100_000); // dropped at once
  const beforeGc = nativeArenaStats().used - start;
  gc!();
  const afterGc = nativeArenaStats().used - start;
  line("RESIZE", {
    afterResize,
    // rows, residuals, fields and id table, two masks, the first text page, the two namespaces' lexical indexes
    expected: 40 * (16 + 8 + 51 + 2) + 2048 + store.lexiconBytes,
    oldLength: oldVectors.length,
    oldRead: oldVectors[0] === undefined,
    intact,
    beforeGc,
    afterGc,
  });
}

async function tools(): Promise<void> {
  const settings = memorySettings();
  const ports = {
    ...portablePorts(),
    settings,
    vectorArena: nativeArena,
    kernels: nativeKernels,
    digest: zeroDigest(),
  };
  const core = buildCore(ports, TEST_HOST);
  const owner = makePrincipal("owner", "admin", "turn");
  const call = async (tool: string, args: object): Promise<string> => {
    const r = await core.registry.dispatch(tool, args, owner);
    return `${r.isError ? "ERROR " : ""}${r.text}`;
  };
  const out: { [step: string]: string | number } = {};
  out.view = await call("memory.config", { action: "view" });
  out.write = await call("memory.write", { content: "The spare key is under the blue flowerpot" });
  out.over = await call("memory.config", { action: "update", max_vectors: 13000 });
  // A host with less room: old (2.2 MB) and new (2.2 MB) don't fit in 4.2 MB at once; the entries are parked first.
  nativeArenaStats(4_200_000);
  out.grow = await call("memory.config", { action: "update", max_vectors: 5100 });
  out.grownUsed = nativeArenaStats().used;
  out.lexiconBytes = core.memory.store.lexiconBytes;
  // Less room than the store holds now: any new arrays are refused, and the store stays as it is.
  nativeArenaStats(1_000_000);
  out.shrink = await call("memory.config", { action: "update", max_vectors: 5000 });
  out.capacity = core.memory.store.capacity;
  out.maxVectors = core.memory.config.max_vectors;
  out.search = await call("memory.search", { query: "spare key" });
  out.write2 = await call("memory.write", { content: "Carla lent me her blender" });
  nativeArenaStats(DEFAULT_BUDGET);
  out.shrunk = await call("memory.config", { action: "update", max_vectors: 5000 });
  out.shrunkCapacity = core.memory.store.capacity;
  out.count = core.memory.store.count;
  out.status = await call("device.status", {});
  line("TOOLS", out);
  // A boot config over the limit is clamped.
  const big = memorySettings();
  big.set("memory.config", JSON.stringify({ max_vectors: 20000 }));
  const clamped = buildCore({ ...ports, settings: big }, TEST_HOST);
  line("BOOT", { maxVectors: clamped.memory.config.max_vectors });
}

async function main(): Promise<void> {
  chunks();
  resizeAndCollect();
  await tools();
  print("END");
}

main().catch((e) => {
  print(`FAILED ${e instanceof Error ? e.stack || e.message : String(e)}`);
  exit(1);
});
