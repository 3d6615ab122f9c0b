// Float embeddings to int8 rows: L2-normalize, then scale each row (stored or
// query) to the whole int8 range, round, clamp; for a stored row, also the
// 4-bit residual of each component's rounding (the re-rank reads it).

/** Scales `v` to unit length in place; false when it is all zeros (or not finite). */
export function normalizeL2(v: Float32Array): boolean {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  if (!(sum > 0) || !Number.isFinite(sum)) return false;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] *= scale;
  return true;
}

/** An int8 row and its residual plane, as the store keeps them (quantizeInt8 with a residual). */
export interface QuantizedRow {
  row: Int8Array;
  /** residualBytes(row.length) bytes: the 4-bit residual of each component. */
  residual: Uint8Array;
}

/** Bytes of one row's residual plane: two 4-bit residuals per byte, the last byte half used when `dims` is odd. */
export function residualBytes(dims: number): number {
  return (dims + 1) >> 1;
}

/** Residual units per int8 step: a residual r stands for r / 16 of the row's step (the kernels' 16). */
const RESIDUAL_STEPS = 16;

/**
 * Writes `v` scaled so its largest |component| becomes 127, rounded and
 * clamped, into `out` at `offset`: every row (stored or query) gets its own
 * scale and uses the whole int8 range. A 256-dimension unit vector's components
 * average about +-0.06, so round(v x 127) used only about 4 bits of the range;
 * per-row scaling brings the rounding error down by the stretch (about 2 to 5).
 * The scale itself is not kept: the row's int8 norm gives the cosine
 * (cosineFromDot), and 1 / norm is the per-row factor the kernel ranks by
 * (VectorStore.scales). `v` must not be all zeros.
 *
 * With `residual` (a stored row), it also writes the row's residual plane at
 * `residualOffset`: for component j, with x = v[j] x 127 / max|v| (v[j] in
 * units of the row's step, max|v| / 127) and q its int8 value, the residual is
 * r = round((x - q) x 16) clamped to -8..7, a signed 4-bit number; component
 * 2i in the low nibble of byte i, 2i + 1 in the high one (the high nibble of an
 * odd row's last byte is 0). The refined row q + r / 16 is within 1/32 of a
 * step of x (1/16 where 8 was clamped to 7); it is what Kernels.rerank compares
 * the float query with, and the scan never reads the residuals.
 */
export function quantizeInt8(v: Float32Array, out: Int8Array, offset = 0, residual?: Uint8Array, residualOffset = 0): void {
  let maxAbs = 0;
  for (let i = 0; i < v.length; i++) {
    const a = v[i] < 0 ? -v[i] : v[i];
    if (a > maxAbs) maxAbs = a;
  }
  const scale = maxAbs > 0 ? 127 / maxAbs : 127;
  for (let i = 0; i < v.length; i++) {
    const x = v[i] * scale;
    const r = Math.round(x);
    const q = r > 127 ? 127 : r < -127 ? -127 : r;
    out[offset + i] = q;
    if (residual === undefined) continue;
    const e = Math.round((x - q) * RESIDUAL_STEPS);
    const nibble = (e > 7 ? 7 : e < -8 ? -8 : e) & 15;
    const at = residualOffset + (i >> 1);
    residual[at] = (i & 1) === 0 ? nibble : residual[at] | (nibble << 4);
  }
}

/** Quantizes one stored row: a new int8 row and its residual plane. */
export function quantizeRow(v: Float32Array): QuantizedRow {
  const row = new Int8Array(v.length);
  const residual = new Uint8Array(residualBytes(v.length));
  quantizeInt8(v, row, 0, residual);
  return { row, residual };
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
