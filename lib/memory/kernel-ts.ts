// The int8 vector kernel in plain TypeScript: the reference for the C kernel
// (modules/vector/vector.c) and the one hosts without it use. Both follow the
// contract in docs/memory-kernel.md and give identical results, errors included.
import type { Kernels } from "../ports";

/** Most results one topK call returns. The C kernel has the same bound. */
export const MAX_TOP_K = 64;
/** Largest row width (bytes) the kernel accepts. The C kernel has the same bound. */
export const KERNEL_MAX_DIMS = 4096;

/** The result of one topK call: row indices and their dot products, best first. */
export interface TopK {
  indices: Int32Array;
  scores: Int32Array;
}

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

/** Throws the contract's error for the first bad argument, in argument order. */
function checkTopKArgs(store: unknown, dims: unknown, count: unknown, query: unknown, k: unknown, mask: unknown): void {
  if (!(store instanceof Int8Array)) throw new TypeError("bad store");
  if (!isIntegerIn(dims, 1, KERNEL_MAX_DIMS)) throw new RangeError("bad dims");
  if (!isIntegerIn(count, 0, Math.floor(store.length / dims))) throw new RangeError("bad count");
  if (!(query instanceof Int8Array)) throw new TypeError("bad query");
  if (query.length !== dims) throw new RangeError("bad query");
  if (!isIntegerIn(k, 1, MAX_TOP_K)) throw new RangeError("bad k");
  if (mask === undefined) return;
  if (!(mask instanceof Uint8Array)) throw new TypeError("bad mask");
  if (mask.length < count) throw new RangeError("bad mask");
}

/**
 * Scores rows 0..count-1 of `store` against `query` and keeps the best `k` in
 * a small insertion-sorted buffer. Equal scores keep the lower index first:
 * rows are visited in index order and a newcomer only passes strictly lower
 * scores. Returns min(k, rows scored) entries.
 */
function topK(store: Int8Array, dims: number, count: number, query: Int8Array, k: number, mask?: Uint8Array): TopK {
  checkTopKArgs(store, dims, count, query, k, mask);
  const indices = new Int32Array(k);
  const scores = new Int32Array(k);
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

/** The TypeScript kernels, for hosts without native ones (`ports.kernels ?? tsKernels`). */
export const tsKernels: Kernels = { topK };
