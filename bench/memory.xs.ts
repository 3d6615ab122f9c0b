// XS entry of bench/memory.mjs: the memory engine's timings with the C kernel on the XS host, and what a
// 5,000-row store costs the chunk heap over the native arena and over plain ArrayBuffers. Prints MEMORY-XS {json}.
import { simVectorArena } from "../hosts/sim/ports/vector-arena.ts";
import { nativeArena, nativeArenaStats } from "../modules/vector/arena.ts";
import { nativeKernels } from "../modules/vector/vector.ts";
import { measureMemory } from "./memory-bench.ts";
import { storeChunks } from "./store-chunks.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
declare function exit(code: number): void;

/** Chunk bytes of the store: one entry (it has taken its memory) and 5,000 entries, arena and plain, and the full store's lexical index, in this run. */
function chunkFigures(): { [name: string]: number } {
  const oneArena = storeChunks(nativeArena, 1).chunkBytes;
  const onePlain = storeChunks(simVectorArena(), 1).chunkBytes;
  const full = storeChunks(nativeArena, 5000);
  const fullArena = full.chunkBytes;
  // The lexical index of the full store's namespace, built by its first search.
  const before = xsHeapInfo(true);
  full.store.lexicalSearch("owner", "plant shelf 42 water", 16);
  const after = xsHeapInfo(true);
  const lexiconChunks = after.chunkBytes - before.chunkBytes;
  const lexiconSlots = after.slotBytes - before.slotBytes;
  const fullPlain = storeChunks(simVectorArena(), 5000).chunkBytes;
  return { oneArena, onePlain, fullArena, fullPlain, lexiconChunks, lexiconSlots };
}

const chunks = chunkFigures();
// The timings hold two 5,000-row stores at once (the live engine's and the rebooted one's, 2.5 MB each with
// their residual planes and texts), which a board never does: the device's 4 MB budget would refuse the second.
nativeArenaStats(2 * nativeArenaStats().budget);
measureMemory(nativeKernels, nativeArena, hostNow, 5).then(
  (figures) => print(`MEMORY-XS ${JSON.stringify({ ...figures, chunks })}`),
  (e) => {
    print(`FAILED ${e instanceof Error ? e.stack || e.message : String(e)}`);
    exit(1);
  },
);
