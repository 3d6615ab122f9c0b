// Float embeddings to int8 rows: L2-normalize, then scale each row (stored or
// query) to the whole int8 range, round, clamp.

/** Scales `v` to unit length in place; false when it is all zeros (or not finite). */
export function normalizeL2(v: Float32Array): boolean {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  if (!(sum > 0) || !Number.isFinite(sum)) return false;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] *= scale;
  return true;
}

/**
 * Writes `v` scaled so its largest |component| becomes 127, rounded and
 * clamped, into `out` at `offset`: every row (stored or query) gets its own
 * scale and uses the whole int8 range. A 256-dimension unit vector's components
 * average about +-0.06, so round(v x 127) used only about 4 bits of the range;
 * per-row scaling brings the rounding error down by the stretch (about 2 to 5).
 * The scale itself is not kept: the row's int8 norm gives the cosine
 * (cosineFromDot), and 1 / norm is the per-row factor the kernel ranks by
 * (VectorStore.scales). `v` must not be all zeros.
 */
export function quantizeInt8(v: Float32Array, out: Int8Array, offset = 0): void {
  let maxAbs = 0;
  for (let i = 0; i < v.length; i++) {
    const a = v[i] < 0 ? -v[i] : v[i];
    if (a > maxAbs) maxAbs = a;
  }
  const scale = maxAbs > 0 ? 127 / maxAbs : 127;
  for (let i = 0; i < v.length; i++) {
    const q = Math.round(v[i] * scale);
    out[offset + i] = q > 127 ? 127 : q < -127 ? -127 : q;
  }
}

/** The kernel's per-row factor for a row of int8 norm `norm`: dot x it is the cosine times the query's norm. */
export function rowScale(norm: number): number {
  return norm > 0 ? 1 / norm : 0;
}

/** Euclidean length of one int8 row. */
export function int8Norm(rows: Int8Array, offset: number, dims: number): number {
  let sum = 0;
  for (let i = 0; i < dims; i++) sum += rows[offset + i] * rows[offset + i];
  return Math.sqrt(sum);
}

/** Cosine similarity from an int8 dot product and the two rows' norms, in [-1, 1]. */
export function cosineFromDot(dot: number, normA: number, normB: number): number {
  if (normA === 0 || normB === 0) return 0;
  const c = dot / (normA * normB);
  return c > 1 ? 1 : c < -1 ? -1 : c;
}
