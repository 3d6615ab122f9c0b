// XS entry of bench/memory.mjs: the memory engine's timings with the C kernels on the XS host, and what a
// 5,000-row store and its lexical index cost the XS heap over the native arena and over plain ArrayBuffers.
// Prints MEMORY-XS {json}.
import { simVectorArena } from "../hosts/sim/ports/vector-arena.ts";
import { LexicalIndex } from "../lib/memory/recall/lexical.ts";
import { nativeArena, nativeArenaStats } from "../modules/vector/arena.ts";
import { nativeLexiconKernels } from "../modules/vector/lexicon.ts";
import { nativeKernels } from "../modules/vector/vector.ts";
import { measureMemory } from "./memory-bench.ts";
import { chunkStoreText, storeChunks } from "./store-chunks.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
declare function exit(code: number): void;

/**
 * Chunk bytes of the store: one entry (it has taken its memory) and 5,000 entries, arena and plain; and
 * what the lexical index of those 5,000 texts keeps in the XS heap (chunks and slots, after a search: its
 * regions are in the native arena) and in the arena, in this run.
 */
function chunkFigures(): { [name: string]: number } {
  const oneArena = storeChunks(nativeArena, 1, nativeLexiconKernels).chunkBytes;
  const onePlain = storeChunks(simVectorArena(), 1, nativeLexiconKernels).chunkBytes;
  const full = storeChunks(nativeArena, 5000, nativeLexiconKernels);
  const fullArena = full.chunkBytes;
  const before = xsHeapInfo(true);
  const index = new LexicalIndex(nativeArena, nativeLexiconKernels);
  for (let i = 0; i < 5000; i++) index.add("owner", i + 1, chunkStoreText(i));
  const hits = index.search("owner", "plant shelf 42 water", 16).length;
  const after = xsHeapInfo(true);
  const lexiconChunks = after.chunkBytes - before.chunkBytes;
  const lexiconSlots = after.slotBytes - before.slotBytes;
  const lexiconArena = index.bytes; // and the index is alive until here
  const fullPlain = storeChunks(simVectorArena(), 5000, nativeLexiconKernels).chunkBytes;
  return { oneArena, onePlain, fullArena, fullPlain, lexiconChunks, lexiconSlots, lexiconArena, hits };
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
