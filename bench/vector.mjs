// The int8 vector kernel's figures, one `name: value` line each:
//
//   vector-search-ms-5k-c-xs       top-10 over 5,000 rows of 256 int8 dims, C kernel on the XS host
//   vector-search-ms-20k-c-xs      the same over 20,000 rows
//   vector-search-ms-20k-ts-xs     20,000 rows, TypeScript kernel on the XS host
//   vector-search-ms-20k-ts-node   20,000 rows, TypeScript kernel on Node
//   vector-speedup-c-vs-ts-xs      ts-xs / c-xs at 20,000 rows
//   vector-scan-fraction-of-memcpy bytes/s scanned by the C topK / bytes/s copied by memcpy (same 5.12 MB, XS host)
//   vector-search-ms-20k-c-portable-xs  20,000 rows, the C kernel forced onto its portable (non-AVX2) scan
//   vector-scan-fraction-of-memcpy-portable  the same fraction for that scan
//   recall-at-10-int8-vs-f32-gaussian   recall@10 of the int8 search against exact f32 cosine, gaussian set
//   recall-at-10-int8-vs-f32-embedder   the same on the embedder set (what the device stores)
//   recall-at-10-int8-vs-f32            the lower of the two: the headline never flatters
//   recall-at-10-int8-rerank32-vs-f32-gaussian  kernel top 32 re-ranked by the float query against each row refined by its
//                                               4-bit residuals (Kernels.rerank: memory.search's re-rank)
//   recall-at-10-int8-rerank32-vs-f32-embedder  the same on the embedder set
//   recall-at-10-int8-rerank32-vs-f32   the lower of the two re-ranked figures
//   vector-search-ms-20k-c-rerank32-xs  scaled C top-32 plus the C re-rank (Kernels.rerank) over 20,000 rows on the XS host
//   vector-search-ms-20k-c-scaled-xs    20,000 rows, the C kernel ranking by dot x per-row scale (what memory does)
//   vector-scan-ratio-scaled-vs-unscaled  scaled / unscaled (wave 1's) C scan, both timed in this run
//   vector-search-ms-20k-c-portable-scaled-xs, vector-scan-ratio-scaled-vs-unscaled-portable  the same on the portable scan
//
// Search timings are medians (bench/vector.xs.ts for XS, hostNow() inside the XS run). Rows and
// queries are seeded uniform int8 (mulberry32): a dot-product scan's cost does not depend on values.
//
// The recall sets and the measure are in bench/recall.ts (and docs/memory-kernel.md):
//   gaussian: mulberry32 seed 7; 64 cluster centres with N(0,1) components; 20,000 vectors of 256
//     dims, each a uniformly chosen centre plus N(0,1) noise; 100 queries drawn the same way.
//   embedder: 20,000 distinct short facts and 500 paraphrased questions about seeded facts, built
//     from word lists by bench/embedder-corpus.ts (seed 2026), embedded by the device's default
//     offline embedder (lib/memory/embedders/hashing.ts, 256 dims).
// Both sides L2-normalise the same vectors; f32 ranks by exact cosine. int8 scales every row and
// the query so its largest |component| is 127 and keeps each stored row's 4-bit residuals
// (lib/memory/store/quantize.ts, as the memory engine does), then ranks with tsKernels.topK by
// dot x 1 / row norm (C and TS give identical results: test/xs/kernel.test.ts); the re-ranked
// figures order the top 32 by tsKernels.rerank. recall@10 = mean over queries of the share of the
// int8 top 10 whose exact cosine is at least the exact 10th best (rows tied with the 10th are
// equally right).
//
//   node bench/vector.mjs                   (or through `npm run bench`)
//   node bench/vector.mjs --recall-table    recall by set: wave-1 rows, per-row rows without and with
//                                           residuals; strict/tie-aware
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { tsImport } from "tsx/esm/api";
import { runOnXs } from "../hosts/xs/run.mjs";

const DIMS = 256;
const ROWS = 20000;
const K = 10;
const NODE_SAMPLES = 11;
const XS_TS_SAMPLES = 3;

const load = (path) => tsImport(path, import.meta.url);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function xsFigures() {
  const r = await runOnXs("bench/vector.xs.ts", { args: [String(XS_TS_SAMPLES)], timeoutMs: 300_000 });
  const m = /^VECTOR-XS (.*)$/m.exec(r.stdout);
  if (r.code !== 0 || !m) throw new Error(`XS vector bench failed (${r.code}): ${r.stderr.slice(0, 500)}`);
  return JSON.parse(m[1]);
}

async function nodeSearchMs() {
  const { tsKernels } = await load("../lib/memory/store/kernel-ts.ts");
  const { mulberry32, randomInt8 } = await load("../test/support/prng.ts");
  const prng = mulberry32(20240601);
  const store = randomInt8(prng, ROWS * DIMS);
  const query = randomInt8(prng, DIMS);
  for (let i = 0; i < 3; i++) tsKernels.topK(store, DIMS, ROWS, query, K); // let the JIT settle
  const ms = [];
  for (let i = 0; i < NODE_SAMPLES; i++) {
    const start = performance.now();
    tsKernels.topK(store, DIMS, ROWS, query, K);
    ms.push(performance.now() - start);
  }
  return median(ms);
}

/** The sensitivity table of docs/memory-kernel.md: recall by set and by quantization scale. */
async function printRecallTable() {
  const { gaussianSet, embedderSet, recallAt10 } = await load("./recall.ts");
  const sets = [
    ["gaussian 64 clusters, noise 1", () => gaussianSet(64, 1)],
    ["gaussian 64 clusters, noise 0.8", () => gaussianSet(64, 0.8)],
    ["gaussian 64 clusters, noise 1.5", () => gaussianSet(64, 1.5)],
    ["gaussian 1000 clusters, noise 1", () => gaussianSet(1000, 1)],
    ["embedder 20,000 facts", () => embedderSet(20000)],
    ["embedder 5,000 facts", () => embedderSet(5000)],
  ];
  const f = (x) => x.toFixed(3);
  for (const [name, build] of sets) {
    const set = build();
    for (const rows of ["wave1", "per-row", "residual"]) {
      const r = recallAt10(set, { rows });
      console.log(
        `${name}; rows ${rows}: kernel ${f(r.kernel)} (strict ${f(r.kernelStrict)}), re-ranked top 32 ${f(r.reranked)} (strict ${f(r.rerankedStrict)})`,
      );
    }
  }
}

/** Every figure of the vector kernel, as [name, value] pairs. */
export async function runVectorBench() {
  const xs = await xsFigures();
  const nodeMs = await nodeSearchMs();
  const { gaussianSet, embedderSet, recallAt10 } = await load("./recall.ts");
  const gaussian = recallAt10(gaussianSet());
  const embedder = recallAt10(embedderSet());
  return [
    ["vector-search-ms-5k-c-xs", xs.c5k],
    ["vector-search-ms-20k-c-xs", xs.c20k],
    ["vector-search-ms-20k-ts-xs", xs.ts20k],
    ["vector-search-ms-20k-ts-node", nodeMs],
    ["vector-speedup-c-vs-ts-xs", xs.ts20k / xs.c20k],
    ["vector-scan-fraction-of-memcpy", xs.memcpy20k / xs.c20k],
    ["vector-search-ms-20k-c-portable-xs", xs.c20kPortable],
    ["vector-scan-fraction-of-memcpy-portable", xs.memcpy20k / xs.c20kPortable],
    ["vector-search-ms-20k-c-rerank32-xs", xs.c20kRerank32],
    ["vector-search-ms-20k-c-scaled-xs", xs.c20kScaled],
    ["vector-scan-ratio-scaled-vs-unscaled", xs.c20kScaled / xs.c20k],
    ["vector-search-ms-20k-c-portable-scaled-xs", xs.c20kPortableScaled],
    ["vector-scan-ratio-scaled-vs-unscaled-portable", xs.c20kPortableScaled / xs.c20kPortable],
    ["recall-at-10-int8-vs-f32-gaussian", gaussian.kernel],
    ["recall-at-10-int8-vs-f32-embedder", embedder.kernel],
    ["recall-at-10-int8-vs-f32", Math.min(gaussian.kernel, embedder.kernel)],
    ["recall-at-10-int8-rerank32-vs-f32-gaussian", gaussian.reranked],
    ["recall-at-10-int8-rerank32-vs-f32-embedder", embedder.reranked],
    ["recall-at-10-int8-rerank32-vs-f32", Math.min(gaussian.reranked, embedder.reranked)],
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--recall-table")) await printRecallTable();
  else for (const [name, value] of await runVectorBench()) console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(4)}`);
}
