// Recall of the int8 search against exact float search, for bench/vector.mjs.
// Two sets (both documented in docs/memory-kernel.md):
//
//   gaussian  mulberry32 seed 7; 64 cluster centres with N(0,1) components; 20,000 vectors of 256
//             dims, each a uniformly chosen centre plus N(0,1) noise per component (two members of a
//             cluster have cosine ~0.5, of different clusters ~0); 100 queries drawn the same way.
//   embedder  what the device stores: the 20,000 facts and 500 questions of bench/embedder-corpus.ts,
//             embedded at 256 dims by the default offline embedder (lib/memory/embedders/hashing.ts).
//
// Both sides start from the same L2-normalised Float32Array vectors. The float side ranks by exact
// cosine (dot of unit vectors, summed in doubles). The int8 side quantizes stored rows and queries
// with quantizeInt8 (each row scaled so its largest |component| is 127, stored rows with their 4-bit
// residual plane), as the memory engine does, and ranks with tsKernels.topK by dot x the row's scale
// (1 / its int8 norm; the C kernel gives identical results). The re-ranked variant takes the kernel's
// top 32 and orders them by Kernels.rerank, the cosine of the float query with each row refined by
// its residuals (through similarity.ts cosines: what memory.search computes for its candidates),
// ties to the lower index. Two
// variants are kept for the sensitivity table: per-row rows without residuals (a zero residual plane:
// the re-rank before residuals existed), and wave 1 (rows round(v x 127), the unscaled kernel,
// re-rank by int8 dot / row norm).
//
// recall@10 = mean over queries of (int8 top-10 rows whose exact cosine is at least the exact
// 10th-best cosine) / 10. Rows tied with the 10th are equally right answers: the embedder's sparse
// word and trigram features give exact ties there for about a sixth of the queries. `strict` also
// reports |int8 top-10 ∩ float top-10 (ties to the lower index)| / 10.
import { hashText } from "../lib/memory/embedders/hashing.ts";
import { tsKernels } from "../lib/memory/store/kernel-ts.ts";
import { int8Norm, normalizeL2, quantizeInt8, quantizeRow, residualBytes, rowScale } from "../lib/memory/store/quantize.ts";
import { cosines, type QueryVector } from "../lib/memory/recall/similarity.ts";
import { mulberry32 } from "../test/support/prng.ts";
import { buildEmbedderCorpus, CORPUS_FACTS } from "./embedder-corpus.ts";

export const RECALL_DIMS = 256;
export const RECALL_K = 10;
/** Candidates the re-ranked variant takes from the kernel (memory.search takes at least as many). */
export const RERANK_CANDIDATES = 32;
const GAUSSIAN_SEED = 7;
const GAUSSIAN_ROWS = 20000;
const GAUSSIAN_QUERIES = 100;
const EMBEDDER_QUERIES = 500;
/** Exact cosines closer than this count as tied (sums of the same products in another order). */
const TIE_EPSILON = 1e-9;

/** A recall set: unit rows (flat, RECALL_DIMS each) and unit queries. */
export interface RecallSet {
  rows: Float32Array;
  count: number;
  queries: Float32Array[];
}

/** How the int8 side is built; the default is the memory engine's. */
export interface RecallOptions {
  /**
   * "residual": quantizeInt8 with the residual plane, the scaled kernel and Kernels.rerank (the engine's);
   * "per-row": the same with a zero residual plane (no residuals); "wave1": rows round(v x 127), unscaled
   * kernel, re-rank by int8 dot / row norm.
   */
  rows?: "residual" | "per-row" | "wave1";
}

export interface RecallFigures {
  /** Kernel top-10, ties with the 10th counted as right. */
  kernel: number;
  /** Kernel top-32 re-ranked (Kernels.rerank; wave 1: int8 dot / stored-row norm), then top-10. */
  reranked: number;
  /** Kernel top-10 against the float top-10 with ties to the lower index. */
  kernelStrict: number;
  rerankedStrict: number;
}

/** The gaussian set; `clusters` and `noise` vary only for the sensitivity table. */
export function gaussianSet(clusters = 64, noise = 1): RecallSet {
  const prng = mulberry32(GAUSSIAN_SEED);
  const centres: Float32Array[] = [];
  for (let c = 0; c < clusters; c++) {
    const centre = new Float32Array(RECALL_DIMS);
    for (let j = 0; j < RECALL_DIMS; j++) centre[j] = prng.gaussian();
    centres.push(centre);
  }
  const unitVector = (): Float32Array => {
    const centre = centres[prng.int(0, clusters - 1)];
    const v = new Float32Array(RECALL_DIMS);
    for (let j = 0; j < RECALL_DIMS; j++) v[j] = centre[j] + noise * prng.gaussian();
    normalizeL2(v);
    return v;
  };
  const rows = new Float32Array(GAUSSIAN_ROWS * RECALL_DIMS);
  for (let i = 0; i < GAUSSIAN_ROWS; i++) rows.set(unitVector(), i * RECALL_DIMS);
  const queries: Float32Array[] = [];
  for (let q = 0; q < GAUSSIAN_QUERIES; q++) queries.push(unitVector());
  return { rows, count: GAUSSIAN_ROWS, queries };
}

/** The embedder set; `facts` varies only for the sensitivity table. */
export function embedderSet(facts = CORPUS_FACTS): RecallSet {
  const corpus = buildEmbedderCorpus(facts, EMBEDDER_QUERIES);
  const unit = (text: string): Float32Array => {
    const v = hashText(text, RECALL_DIMS);
    if (!normalizeL2(v)) throw new Error(`nothing to embed in ${JSON.stringify(text)}`);
    return v;
  };
  const rows = new Float32Array(corpus.facts.length * RECALL_DIMS);
  corpus.facts.forEach((fact, i) => {
    rows.set(unit(fact), i * RECALL_DIMS);
  });
  return { rows, count: corpus.facts.length, queries: corpus.queries.map(unit) };
}

/** Candidates re-ordered by `value` (one per candidate), best `k`, ties to the lower index. */
export function rerankBy(indices: Int32Array, value: Float64Array, k: number): number[] {
  const order: number[] = [];
  for (let r = 0; r < indices.length; r++) order.push(r);
  order.sort((a, b) => value[b] - value[a] || indices[a] - indices[b]);
  return order.slice(0, k).map((r) => indices[r]);
}

/** Wave 1's re-rank value: the int8 dot / the stored row's int8 norm. */
export function byRowNorm(indices: Int32Array, scores: Float64Array, norms: Float32Array): Float64Array {
  const value = new Float64Array(indices.length);
  for (let r = 0; r < indices.length; r++) value[r] = norms[indices[r]] > 0 ? scores[r] / norms[indices[r]] : 0;
  return value;
}

/** recall@10 of the int8 search on `set`, plain and re-ranked. */
export function recallAt10(set: RecallSet, options: RecallOptions = {}): RecallFigures {
  const dims = RECALL_DIMS;
  const wave1 = options.rows === "wave1";
  const half = residualBytes(dims);
  const rows = new Int8Array(set.count * dims);
  const residuals = new Uint8Array(set.count * half); // zeros unless the rows are quantized with them
  const norms = new Float32Array(set.count);
  const scales = new Float32Array(set.count);
  for (let i = 0; i < set.count; i++) {
    const v = set.rows.subarray(i * dims, (i + 1) * dims);
    if (wave1) quantizeFixed127(v, rows, i * dims);
    else if (options.rows === "per-row") quantizeInt8(v, rows, i * dims);
    else quantizeInt8(v, rows, i * dims, residuals, i * half);
    norms[i] = int8Norm(rows, i * dims, dims);
    scales[i] = rowScale(norms[i]);
  }
  const sums = { kernel: 0, reranked: 0, kernelStrict: 0, rerankedStrict: 0 };
  const scores = new Float64Array(set.count);
  for (const v of set.queries) {
    for (let i = 0; i < set.count; i++) {
      let sum = 0;
      for (let j = 0, p = i * dims; j < dims; j++, p++) sum += set.rows[p] * v[j];
      scores[i] = sum;
    }
    const exact = exactTop(scores, RECALL_K);
    const tenth = scores[exact[RECALL_K - 1]];
    const inExact = new Set(exact);
    // The query as embedQuery makes it: its int8 row (and residuals) for the scan, its unit vector for the re-rank.
    const query: QueryVector = { ...quantizeRow(v), unit: v };
    const top = tsKernels.topK(rows, dims, set.count, query.row, RERANK_CANDIDATES, undefined, wave1 ? undefined : scales);
    // The first 10 of a top-32 are the kernel's top-10: same order, same tie rule.
    const kernel = Array.from(top.indices.subarray(0, RECALL_K));
    // memory.search's re-rank (similarity.ts cosines): the float query against each row refined by its residuals.
    const value = wave1 ? byRowNorm(top.indices, top.scores, norms) : cosines(tsKernels, rows, dims, residuals, top.indices, query);
    const reranked = rerankBy(top.indices, value, RECALL_K);
    for (const i of kernel) {
      if (scores[i] >= tenth - TIE_EPSILON) sums.kernel++;
      if (inExact.has(i)) sums.kernelStrict++;
    }
    for (const i of reranked) {
      if (scores[i] >= tenth - TIE_EPSILON) sums.reranked++;
      if (inExact.has(i)) sums.rerankedStrict++;
    }
  }
  const total = set.queries.length * RECALL_K;
  return {
    kernel: sums.kernel / total,
    reranked: sums.reranked / total,
    kernelStrict: sums.kernelStrict / total,
    rerankedStrict: sums.rerankedStrict / total,
  };
}

/** Wave 1's stored rows: round(v x 127), clamped. */
export function quantizeFixed127(v: Float32Array, out: Int8Array, offset = 0): void {
  for (let i = 0; i < v.length; i++) out[offset + i] = Math.max(-127, Math.min(127, Math.round(v[i] * 127)));
}

/** Indices of the `k` highest scores, best first, ties to the lower index. */
function exactTop(scores: Float64Array, k: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    if (best.length === k && scores[i] <= scores[best[k - 1]]) continue;
    let at = best.length < k ? best.length : k - 1;
    best[at] = i;
    while (at > 0 && scores[best[at - 1]] < scores[i]) {
      best[at] = best[at - 1];
      best[at - 1] = i;
      at--;
    }
  }
  return best;
}
