// The int8 vector kernels in plain TypeScript: the reference for the C kernels
// (modules/vector/vector.c) and the ones hosts without them use. Both follow
// the contract in docs/memory-kernel.md and give identical results, errors included.
import type { Kernels } from "../../ports";

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
 * The dot product of a float query with each listed row, summed in doubles in
 * index order (so C and TypeScript agree to the bit). For re-ranking a few
 * candidates without the query's rounding error.
 */
function dots(store: Int8Array, dims: number, rows: Int32Array, query: Float32Array): Float64Array {
  if (!(store instanceof Int8Array)) throw new TypeError("bad store");
  if (!isIntegerIn(dims, 1, KERNEL_MAX_DIMS)) throw new RangeError("bad dims");
  if (!(rows instanceof Int32Array)) throw new TypeError("bad rows");
  if (rows.length > MAX_TOP_K) throw new RangeError("bad rows");
  const last = Math.floor(store.length / dims);
  for (let r = 0; r < rows.length; r++) if (rows[r] < 0 || rows[r] >= last) throw new RangeError("bad rows");
  if (!(query instanceof Float32Array)) throw new TypeError("bad query");
  if (query.length !== dims) throw new RangeError("bad query");
  const out = new Float64Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    let sum = 0;
    for (let j = 0, p = rows[r] * dims; j < dims; j++, p++) sum += store[p] * query[j];
    out[r] = sum;
  }
  return out;
}

/** The TypeScript kernels, for hosts without native ones. */
export const tsKernels: Kernels = { topK, dots };
