// XS entry of bench/vector.mjs: times top-10 searches over seeded uniform int8
// rows of 256 dims with the C kernel (5,000 and 20,000 rows, unscaled and
// scaled per row) and the TypeScript kernel (20,000 rows), the C kernel's
// portable scan (20,000 rows, unscaled and scaled), a scaled C top-32 re-ranked
// by the C Kernels.rerank (the float query against each row refined by its
// residuals, as bench/recall.ts and memory.search) and a memcpy of the same
// 20,000 rows, all with hostNow() on the XS host. Prints one line:
// VECTOR-XS {json}.
import { tsKernels } from "../lib/memory/store/kernel-ts.ts";
import { int8Norm, residualBytes, rowScale } from "../lib/memory/store/quantize.ts";
import { nativeKernels } from "../modules/vector/vector.ts";
import { mulberry32, randomInt8 } from "../test/support/prng.ts";
import { RECALL_K, RERANK_CANDIDATES, rerankBy } from "./recall.ts";

declare function print(...args: unknown[]): void;
declare function native(name: string): (...args: any[]) => any;
declare function hostNow(): number;
/** [TS samples] */
declare const scriptArgs: readonly string[];

const DIMS = 256;
const ROWS = 20000;
const K = 10;
const QUERIES = 8;
/** Samples per figure; C samples time a batch of calls, TS samples one call. */
const C_SAMPLES = 15;
const C_BATCH = 10;
const TS_SAMPLES = Number(scriptArgs[0] ?? "3");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median milliseconds of one call of `run`, sampled `samples` times over batches of `batch` calls. */
function time(samples: number, batch: number, run: (i: number) => void): number {
  const ms: number[] = [];
  for (let s = 0; s < samples; s++) {
    const start = hostNow();
    for (let b = 0; b < batch; b++) run(s * batch + b);
    ms.push((hostNow() - start) / batch);
  }
  return median(ms);
}

const prng = mulberry32(20240601);
const store = randomInt8(prng, ROWS * DIMS);
const queries: Int8Array[] = [];
for (let q = 0; q < QUERIES; q++) queries.push(randomInt8(prng, DIMS));
const copyBench = native("xs_vector_copy_bench") as (from: Int8Array, to: Int8Array, times: number) => number;
const vectorPath = native("xs_vector_path") as (name?: string) => string;
const scratch = new Int8Array(ROWS * DIMS);

const scales = new Float32Array(ROWS); // the store keeps these; computing them is not timed
for (let i = 0; i < ROWS; i++) scales[i] = rowScale(int8Norm(store, i * DIMS, DIMS));
const floatQueries = queries.map((q) => Float32Array.from(q, (x) => x / 127));
// Any bytes: the re-rank's cost does not depend on the residuals' values.
const residuals = new Uint8Array(randomInt8(prng, ROWS * residualBytes(DIMS)).buffer, 0, ROWS * residualBytes(DIMS));

const search =
  (kernels: typeof tsKernels, rows: number, scaled = false) =>
  (i: number): void => {
    kernels.topK(store, DIMS, rows, queries[i % QUERIES], K, undefined, scaled ? scales : undefined);
  };

copyBench(store, scratch, 1); // touch the scratch pages before timing
// Unscaled (wave 1's contract) and scaled scans interleave, so drift on a shared machine hits both alike.
const c5k = time(C_SAMPLES, C_BATCH, search(nativeKernels, 5000));
const c20k = time(C_SAMPLES, C_BATCH, search(nativeKernels, ROWS));
const c20kScaled = time(C_SAMPLES, C_BATCH, search(nativeKernels, ROWS, true));
const c20kAgain = time(C_SAMPLES, C_BATCH, search(nativeKernels, ROWS));
const c20kScaledAgain = time(C_SAMPLES, C_BATCH, search(nativeKernels, ROWS, true));
const c20kRerank32 = time(C_SAMPLES, C_BATCH, (i) => {
  const q = i % QUERIES;
  const top = nativeKernels.topK(store, DIMS, ROWS, queries[q], RERANK_CANDIDATES, undefined, scales);
  rerankBy(top.indices, nativeKernels.rerank(store, DIMS, residuals, top.indices, floatQueries[q]), RECALL_K);
});
const memcpy20k = time(C_SAMPLES, C_BATCH, () => copyBench(store, scratch, 1));
const ts20k = time(TS_SAMPLES, 1, search(tsKernels, ROWS));
const path = vectorPath();
vectorPath("portable"); // the plain C scan, as compiled for this host
// Interleaved as above.
const c20kPortable = time(C_SAMPLES, C_BATCH, search(nativeKernels, ROWS));
const c20kPortableScaled = time(C_SAMPLES, C_BATCH, search(nativeKernels, ROWS, true));
const c20kPortableAgain = time(C_SAMPLES, C_BATCH, search(nativeKernels, ROWS));
const c20kPortableScaledAgain = time(C_SAMPLES, C_BATCH, search(nativeKernels, ROWS, true));
vectorPath("best");

const figures = {
  path,
  c5k,
  c20k: (c20k + c20kAgain) / 2,
  c20kScaled: (c20kScaled + c20kScaledAgain) / 2,
  c20kRerank32,
  c20kPortable: (c20kPortable + c20kPortableAgain) / 2,
  c20kPortableScaled: (c20kPortableScaled + c20kPortableScaledAgain) / 2,
  memcpy20k,
  ts20k,
  bytes: ROWS * DIMS,
};
print(`VECTOR-XS ${JSON.stringify(figures)}`);
