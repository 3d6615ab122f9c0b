// Similarities of a query to stored rows. The kernel scan ranks by the int8
// dot product times each row's scale (1 / its int8 norm); the few candidates
// it returns are then re-ranked by the dot of the query's float unit vector
// with each row, times that scale: the cosine without the query's rounding error.
import type { Kernels } from "../../ports";

/** A query: its int8 row (for the kernel scan) and its L2-normalized float vector (for the re-rank). */
export interface QueryVector {
  row: Int8Array;
  unit: Float32Array;
}

/** The cosine of `query` with each row in `indices` of `rows`, whose per-row scales are `scales`. */
export function cosines(
  kernels: Kernels,
  rows: Int8Array,
  dims: number,
  scales: Float32Array,
  indices: Int32Array,
  query: QueryVector,
): Float64Array {
  const out = kernels.dots(rows, dims, indices, query.unit);
  for (let r = 0; r < out.length; r++) {
    const c = out[r] * scales[indices[r]];
    out[r] = c > 1 ? 1 : c < -1 ? -1 : c;
  }
  return out;
}
