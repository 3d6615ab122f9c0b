// `npm run bench`: every benchmark, one `name: value` line per figure. Ratios are against baselines
// measured in the same run, since these machines are shared and noisy.
import { existsSync } from "node:fs";
import { register } from "tsx/esm/api";

register();

const print = (name, value) => console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(3)}`);

// Optional benches join when their subsystem exists.
const OPTIONAL = [
  ["bench/vector.mjs", "runVectorBench"],
  ["bench/files.mjs", "runFilesBench"],
  ["bench/memory.mjs", "runMemoryBench"],
  ["bench/turn.mjs", "runTurnBench"],
  ["bench/strings.mjs", "runStringsBench"],
  ["bench/sdcard.mjs", "runSdcardBench"],
  ["bench/voice.mjs", "runVoiceBench"],
  ["bench/ota.mjs", "runOtaBench"],
  ["bench/nostr.mjs", "runNostrBench"],
  ["bench/wallet.mjs", "runWalletBench"],
  ["bench/web.mjs", "runWebBench"],
  ["bench/wake.mjs", "runWakeBench"],
];

const { runXsHeapBench } = await import("./xs-heap.mjs");
for (const [name, value] of await runXsHeapBench()) print(name, value);
for (const [file, fn] of OPTIONAL) {
  if (!existsSync(file)) continue;
  const mod = await import(`../${file}`);
  for (const [name, value] of await mod[fn]()) print(name, value);
}
const { runMcpBench } = await import("./mcp.mjs");
const { figures, ratio } = await runMcpBench();
for (const [name, value] of figures) print(name, value);
print("mcp-throughput-ratio-vs-sdk", ratio);
