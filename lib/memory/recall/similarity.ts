// Similarities of a query to stored rows. The kernel scan ranks by the int8
// dot product times each row's scale (1 / its int8 norm); the few candidates
// it returns are then re-ranked by Kernels.rerank: the cosine of the query's
// float unit vector with each row refined by its 4-bit residuals (quantize.ts),
// without the query's rounding error and with a sixteenth of the row's.
import type { Kernels } from "../../ports";
import type { QuantizedRow } from "../store/quantize";

/**
 * A query: its int8 row (for the kernel scan) and its L2-normalized float vector (for the re-rank). The row
 * and its residual plane are also what a write stores.
 */
export interface QueryVector extends QuantizedRow {
  unit: Float32Array;
}

/** The cosine, in [-1, 1], of `query` with each row in `indices` of `rows` (int8, `dims` each) refined by `residuals`. */
export function cosines(
  kernels: Kernels,
  rows: Int8Array,
  dims: number,
  residuals: Uint8Array,
  indices: Int32Array,
  query: QueryVector,
): Float64Array {
  const out = kernels.rerank(rows, dims, residuals, indices, query.unit);
  for (let r = 0; r < out.length; r++) {
    const c = out[r];
    out[r] = c > 1 ? 1 : c < -1 ? -1 : c;
  }
  return out;
}
