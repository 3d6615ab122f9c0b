// Orchestrator turn overhead, one `name: value` line each:
//
//   turn-overhead-ms-node   one turn without the network, Node
//   turn-overhead-ms-xs     the same turn on the XS host (the device's engine, on this PC)
//
// One turn is: compose the World prompt (CAPABILITIES from the registry, memory recall over the text,
// scratchpad, the last turn's note and query results, bounded history), two tool calls through the
// registry (docs.search, results.list), parse the contract answer, apply it (one memory.search for
// mem_query[], one device[] led action), and save the conversation state to the memory card. The
// provider is a scripted in-process router (bench/turn-work.ts), so no HTTP is timed. Medians of
// 21 turns on Node and 7 on XS, after 14 warm-up turns (the history at its steady size).
//
//   node bench/turn.mjs          (or through `npm run bench`)
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const NODE_SAMPLES = 21;
const XS_SAMPLES = 7;

/** Every turn figure, as [name, value] pairs. */
export async function runTurnBench() {
  const { timeTurns, median } = await tsImport("./turn-work.ts", import.meta.url);
  const figures = [["turn-overhead-ms-node", median(await timeTurns(NODE_SAMPLES, () => performance.now()))]];
  const { runOnXs } = await import("../hosts/xs/run.mjs");
  const r = await runOnXs("bench/turn.xs.ts", { args: [String(XS_SAMPLES)], timeoutMs: 600_000 });
  const line = /TURN-XS (\{.*\})/.exec(r.stdout);
  if (r.code !== 0 || !line) throw new Error(`the XS turn bench failed (exit ${r.code}): ${(r.stderr + r.stdout).slice(0, 400)}`);
  figures.push(["turn-overhead-ms-xs", JSON.parse(line[1]).medianMs]);
  return figures;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, value] of await runTurnBench()) console.log(`${name}: ${value.toFixed(3)}`);
}
