// The int8 vector kernels in plain TypeScript: the reference for the C kernels
// (modules/vector/vector.c) and the ones hosts without them use. Both follow
// the contract in docs/memory-kernel.md and give identical results, errors included.
import type { Kernels } from "../../ports";
import { tsLexiconKernels } from "../recall/lexicon-ts";

/** Most results one topK call returns. The C kernel has the same bound. */
export const MAX_TOP_K = 64;
/** Largest row width (bytes) the kernel accepts. The C kernel has the same bound. */
export const KERNEL_MAX_DIMS = 4096;

/** The result of one topK call: row indices and their scores, best first. */
export interface TopK {
  indices: Int32Array;
  scores: Float64Array;
}

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

/** Throws the contract's error for the first bad argument, in argument order. */
function checkTopKArgs(store: unknown, dims: unknown, count: unknown, query: unknown, k: unknown, mask: unknown, scales: unknown): void {
  if (!(store instanceof Int8Array)) throw new TypeError("bad store");
  if (!isIntegerIn(dims, 1, KERNEL_MAX_DIMS)) throw new RangeError("bad dims");
  if (!isIntegerIn(count, 0, Math.floor(store.length / dims))) throw new RangeError("bad count");
  if (!(query instanceof Int8Array)) throw new TypeError("bad query");
  if (query.length !== dims) throw new RangeError("bad query");
  if (!isIntegerIn(k, 1, MAX_TOP_K)) throw new RangeError("bad k");
  if (mask !== undefined) {
    if (!(mask instanceof Uint8Array)) throw new TypeError("bad mask");
    if (mask.length < count) throw new RangeError("bad mask");
  }
  if (scales !== undefined) {
    if (!(scales instanceof Float32Array)) throw new TypeError("bad scales");
    if (scales.length < count) throw new RangeError("bad scales");
  }
}

/**
 * Scores rows 0..count-1 of `store` against `query` (the integer dot product,
 * times the row's `scales` entry when scales are given) and keeps the best `k`
 * in a small insertion-sorted buffer. Equal scores keep the lower index first:
 * rows are visited in index order and a newcomer only passes strictly lower
 * scores. A row whose scaled score is NaN is skipped. Returns min(k, rows scored) entries.
 */
function topK(store: Int8Array, dims: number, count: number, query: Int8Array, k: number, mask?: Uint8Array, scales?: Float32Array): TopK {
  checkTopKArgs(store, dims, count, query, k, mask, scales);
  const indices = new Int32Array(k);
  const scores = new Float64Array(k);
  const dims4 = dims & ~3;
  let found = 0;
  let worst = 0;
  for (let i = 0, row = 0; i < count; i++, row += dims) {
    if (mask !== undefined && mask[i] === 0) continue;
    // Four products per statement: fewer loop steps and stores on XS, and
    // the sum stays a small integer (|sum| <= 4096 * 128 * 128 < 2^31).
    let sum = 0;
    let j = 0;
    let p = row;
    for (; j < dims4; j += 4, p += 4) {
      sum += store[p] * query[j] + store[p + 1] * query[j + 1] + store[p + 2] * query[j + 2] + store[p + 3] * query[j + 3];
    }
    for (; j < dims; j++, p++) sum += store[p] * query[j];
    if (scales !== undefined) {
      sum *= scales[i];
      if (Number.isNaN(sum)) continue;
    }
    if (found === k && sum <= worst) continue;
    let at = found < k ? found++ : k - 1;
    while (at > 0 && scores[at - 1] < sum) {
      scores[at] = scores[at - 1];
      indices[at] = indices[at - 1];
      at--;
    }
    scores[at] = sum;
    indices[at] = i;
    worst = scores[found - 1];
  }
  if (found === k) return { indices, scores };
  return { indices: indices.slice(0, found), scores: scores.slice(0, found) };
}

/**
 * The re-rank of a few candidates: for each listed row, the dot product of the
 * float query with the row refined by its 4-bit residuals, over the refined
 * row's norm (0 for a zero row). In sixteenths of the row's step the refined
 * component is v = 16 x row[j] + residual[j], an integer; each v x query[j] is
 * exact in a double (at most 12 by 24 significant bits) and the products are
 * summed in index order, and the sum of v x v is an exact integer, so C and
 * TypeScript agree to the bit (a fused multiply-add rounds the same way).
 * Errors, in argument order: bad store, dims, residuals (a Uint8Array with at
 * least residualBytes(dims) bytes for each of the store's rows), rows (at most
 * MAX_TOP_K, each inside the store), query (a Float32Array of dims).
 */
function rerank(store: Int8Array, dims: number, residuals: Uint8Array, rows: Int32Array, query: Float32Array): Float64Array {
  if (!(store instanceof Int8Array)) throw new TypeError("bad store");
  if (!isIntegerIn(dims, 1, KERNEL_MAX_DIMS)) throw new RangeError("bad dims");
  const last = Math.floor(store.length / dims);
  const half = (dims + 1) >> 1;
  if (!(residuals instanceof Uint8Array)) throw new TypeError("bad residuals");
  if (Math.floor(residuals.length / half) < last) throw new RangeError("bad residuals");
  if (!(rows instanceof Int32Array)) throw new TypeError("bad rows");
  if (rows.length > MAX_TOP_K) throw new RangeError("bad rows");
  for (let r = 0; r < rows.length; r++) if (rows[r] < 0 || rows[r] >= last) throw new RangeError("bad rows");
  if (!(query instanceof Float32Array)) throw new TypeError("bad query");
  if (query.length !== dims) throw new RangeError("bad query");
  const out = new Float64Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    let sum = 0;
    let norm = 0;
    const p = rows[r] * dims;
    const q = rows[r] * half;
    for (let j = 0; j < dims; j++) {
      const nibble = (residuals[q + (j >> 1)] >> ((j & 1) << 2)) & 15;
      const v = 16 * store[p + j] + ((nibble ^ 8) - 8);
      sum += v * query[j];
      norm += v * v;
    }
    out[r] = norm > 0 ? sum / Math.sqrt(norm) : 0;
  }
  return out;
}

/** The TypeScript kernels, for hosts without native ones. */
export const tsKernels: Kernels = { topK, rerank, lexicon: tsLexiconKernels };
