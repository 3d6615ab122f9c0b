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
//   recall-at-10-int8-vs-f32       recall of int8 top-10 against exact f32 cosine top-10 (set below)
//
// Search timings are medians (bench/vector.xs.ts for XS, hostNow() inside the XS run). Rows and
// queries are seeded uniform int8 (mulberry32): a dot-product scan's cost does not depend on values.
//
// The recall set (RECALL_* below, also in docs/memory-kernel.md): mulberry32 seed 7; 64 cluster
// centres ("topics") with N(0,1) components; 20,000 vectors of 256 dims, each a uniformly chosen
// centre plus N(0,1) noise per component (two members of a topic have cosine ~0.5, of different
// topics ~0); 100 queries drawn the same way (fresh draws). The f32 side
// L2-normalises into Float32Array and ranks by exact cosine (dot of unit vectors, summed in
// doubles), ties to the lower index. The int8 side normalises the same vectors and quantizes them
// with lib/memory/quantize.ts (round(v * 127), clamped to +-127) and ranks with tsKernels.topK
// (C and TS give identical results: test/xs/kernel.test.ts). recall@10 = mean over queries of
// |int8 top-10 ∩ f32 top-10| / 10.
//
//   node bench/vector.mjs                   (or through `npm run bench`)
//   node bench/vector.mjs --recall-table    recall on other sets and quantization scales
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { tsImport } from "tsx/esm/api";
import { runOnXs } from "../hosts/xs/run.mjs";

const DIMS = 256;
const ROWS = 20000;
const K = 10;
const NODE_SAMPLES = 11;
const XS_TS_SAMPLES = 3;

const RECALL_SEED = 7;
const RECALL_CLUSTERS = 64;
const RECALL_NOISE = 1;
const RECALL_QUERIES = 100;

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
  const { tsKernels } = await load("../lib/memory/kernel-ts.ts");
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

/** Exact top-k by cosine over unit f32 rows, ties to the lower index. */
function exactTopK(unit, query, k) {
  const scores = new Float64Array(ROWS);
  for (let i = 0; i < ROWS; i++) {
    let sum = 0;
    for (let j = 0, p = i * DIMS; j < DIMS; j++, p++) sum += unit[p] * query[j];
    scores[i] = sum;
  }
  const order = Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a] || a - b);
  return order.slice(0, k);
}

/**
 * recall@10 of int8 against f32 on a seeded clustered set. The defaults are the documented set
 * and the quantizer the store uses; `rowScale` (rows quantized as round(v * 127 * rowScale),
 * clamped) and `queryMaxAbs` (the query scaled so its largest component is 127, which keeps the
 * ranking) only feed the sensitivity table of `--recall-table`.
 */
async function recallAt10({ clusters = RECALL_CLUSTERS, noise = RECALL_NOISE, rowScale = 1, queryMaxAbs = false } = {}) {
  const { tsKernels } = await load("../lib/memory/kernel-ts.ts");
  const { normalizeL2, quantizeInt8 } = await load("../lib/memory/quantize.ts");
  const { mulberry32 } = await load("../test/support/prng.ts");
  const prng = mulberry32(RECALL_SEED);
  const centres = [];
  for (let c = 0; c < clusters; c++) {
    const centre = new Float32Array(DIMS);
    for (let j = 0; j < DIMS; j++) centre[j] = prng.gaussian();
    centres.push(centre);
  }
  const unitVector = () => {
    const centre = centres[prng.int(0, clusters - 1)];
    const v = new Float32Array(DIMS);
    for (let j = 0; j < DIMS; j++) v[j] = centre[j] + noise * prng.gaussian();
    normalizeL2(v);
    return v;
  };
  const scaled = (v, factor) => (factor === 1 ? v : v.map((x) => x * factor));
  const unit = new Float32Array(ROWS * DIMS);
  const rows = new Int8Array(ROWS * DIMS);
  for (let i = 0; i < ROWS; i++) {
    const v = unitVector();
    unit.set(v, i * DIMS);
    quantizeInt8(scaled(v, rowScale), rows, i * DIMS);
  }
  let hits = 0;
  for (let q = 0; q < RECALL_QUERIES; q++) {
    const v = unitVector();
    const query = new Int8Array(DIMS);
    quantizeInt8(scaled(v, queryMaxAbs ? 1 / Math.max(...v.map(Math.abs)) : 1), query);
    const exact = new Set(exactTopK(unit, v, K));
    for (const i of tsKernels.topK(rows, DIMS, ROWS, query, K).indices) if (exact.has(i)) hits++;
  }
  return hits / (RECALL_QUERIES * K);
}

/** The sensitivity table of docs/memory-kernel.md: recall by set and by quantization scale. */
async function printRecallTable() {
  for (const [clusters, noise] of [[64, 1], [64, 0.8], [64, 1.5], [1000, 1]]) {
    for (const [rowScale, queryMaxAbs] of [[1, false], [1, true], [3, true]]) {
      const recall = await recallAt10({ clusters, noise, rowScale, queryMaxAbs });
      console.log(`clusters ${clusters}, noise ${noise}, rows x${rowScale}, query ${queryMaxAbs ? "max-abs" : "x1"}: ${recall.toFixed(3)}`);
    }
  }
}

/** Every figure of the vector kernel, as [name, value] pairs. */
export async function runVectorBench() {
  const xs = await xsFigures();
  const nodeMs = await nodeSearchMs();
  const recall = await recallAt10();
  return [
    ["vector-search-ms-5k-c-xs", xs.c5k],
    ["vector-search-ms-20k-c-xs", xs.c20k],
    ["vector-search-ms-20k-ts-xs", xs.ts20k],
    ["vector-search-ms-20k-ts-node", nodeMs],
    ["vector-speedup-c-vs-ts-xs", xs.ts20k / xs.c20k],
    ["vector-scan-fraction-of-memcpy", xs.memcpy20k / xs.c20k],
    ["vector-search-ms-20k-c-portable-xs", xs.c20kPortable],
    ["vector-scan-fraction-of-memcpy-portable", xs.memcpy20k / xs.c20kPortable],
    ["recall-at-10-int8-vs-f32", recall],
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--recall-table")) await printRecallTable();
  else for (const [name, value] of await runVectorBench()) console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(4)}`);
}
