// Float embeddings to int8 rows. Stored rows: L2-normalize, scale by 127,
// round, clamp. Queries (only compared, never stored) use the whole int8 range
// instead: see quantizeQueryInt8.

/** Scales `v` to unit length in place; false when it is all zeros (or not finite). */
export function normalizeL2(v: Float32Array): boolean {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  if (!(sum > 0) || !Number.isFinite(sum)) return false;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] *= scale;
  return true;
}

/** Writes round(v * 127), clamped to [-127, 127], into `out` at `offset`. `v` must be normalized. */
export function quantizeInt8(v: Float32Array, out: Int8Array, offset = 0): void {
  for (let i = 0; i < v.length; i++) {
    const q = Math.round(v[i] * 127);
    out[offset + i] = q > 127 ? 127 : q < -127 ? -127 : q;
  }
}

/**
 * A query row: `v` scaled so its largest |component| becomes 127, rounded,
 * clamped. A unit vector's components use only about +-30 of the +-127 levels
 * at x127; stretching the query to the full range costs nothing and keeps the
 * ranking (every stored row's dot is multiplied by the same factor), while it
 * cuts the query's share of the rounding error. Only for rows that are compared
 * and never stored: cosines against it come from its own int8 norm
 * (cosineFromDot), so they stay on the stored rows' scale. `v` must be
 * normalized (not all zeros).
 */
export function quantizeQueryInt8(v: Float32Array, out: Int8Array, offset = 0): void {
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
