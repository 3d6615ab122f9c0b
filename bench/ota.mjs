// Update engine figures, one `name: value` line each:
//
//   ota-verify-mb-per-s          SHA-256 over a 4 MB image fed in 32 KB chunks + the Ed25519 check, Node (baseline)
//   ota-verify-mb-per-s-xs       the same on the XS host, with the C SHA-256 (modules/sha256)
//   ota-verify-xs-vs-node        the XS figure over the Node one
//   ota-peak-extra-heap-kb-xs    what a whole 4 MB install through the engine adds to the XS heap at most
//                                (the live heap, sampled while each 32 KB chunk is written, minus the heap after a warm-up
//                                install; aim <= 64)
//
//   node bench/ota.mjs          (or through `npm run bench`)
import { tsImport } from "tsx/esm/api";

const RUNS = 5;

export async function runOtaBench() {
  const { setUp, verifyOnce, IMAGE_BYTES } = await tsImport("../test/support/ota-big-image.ts", import.meta.url);
  const { nodeSha256 } = await tsImport("../hosts/sim/ports/node-basics.ts", import.meta.url);
  const setup = setUp(nodeSha256);
  verifyOnce(setup, nodeSha256);
  const start = performance.now();
  for (let i = 0; i < RUNS; i++) if (!verifyOnce(setup, nodeSha256)) throw new Error("the Node verify failed");
  const node = ((IMAGE_BYTES / 1048576) * RUNS) / ((performance.now() - start) / 1000);
  const { runOnXs } = await import("../hosts/xs/run.mjs");
  const xsFigure = async (args) => {
    const r = await runOnXs("bench/ota.xs.ts", { args, timeoutMs: 300_000 });
    const line = /OTA-XS (\{.*\})/.exec(r.stdout);
    if (r.code !== 0 || !line) throw new Error(`the XS ota bench failed (exit ${r.code}): ${r.stderr.slice(0, 400)}`);
    return JSON.parse(line[1]);
  };
  const verify = await xsFigure(["verify", String(RUNS)]);
  if (!verify.ok) throw new Error("the XS verify failed");
  const heap = await xsFigure(["heap"]);
  if (heap.state !== "ready") throw new Error(`the XS install ended ${heap.state}`);
  return [
    ["ota-verify-mb-per-s", node],
    ["ota-verify-mb-per-s-xs", verify.mbPerS],
    ["ota-verify-xs-vs-node", verify.mbPerS / node],
    ["ota-peak-extra-heap-kb-xs", heap.extraKb],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) for (const [n, v] of await runOtaBench()) console.log(`${n}: ${v.toFixed(3)}`);
