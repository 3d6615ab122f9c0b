// Child process of the re-embed kill test: boots memory over a card folder with the next model and
// re-embeds in place, printing BATCH <done> after each saved batch; the parent kills it with SIGKILL.
import { folderSettings } from "../../hosts/sim/ports/settings.ts";
import { folderStorage } from "../../hosts/sim/ports/folder-storage.ts";
import { memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { reembed } from "../../lib/memory/config-ops.ts";
import { MemoryEngine } from "../../lib/memory/engine.ts";
import { tsKernels } from "../../lib/memory/store/kernel-ts.ts";
import { nextModel, SCENARIO_BUDGET } from "../scenarios/reembed-in-place.ts";

const [card, settingsDir] = process.argv.slice(2);
const slow = nextModel({ texts: 0, batches: 0 });
const engine = new MemoryEngine({
  clock: { now: () => Date.now() },
  log: memoryLog(),
  settings: folderSettings(settingsDir),
  digest: nodeDigest,
  kernels: tsKernels,
  arena: simVectorArena(SCENARIO_BUDGET),
  // Each batch takes a moment, so the kill lands between batches or inside one.
  embedder: { ...slow, embed: async (texts) => (await new Promise((ok) => setTimeout(ok, 40)), slow.embed(texts)) },
  storage: folderStorage(card),
});
await reembed(engine, { afterBatch: (done) => void process.stdout.write(`BATCH ${done}\n`) });
process.stdout.write("DONE\n");
