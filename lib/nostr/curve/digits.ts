// Scalars as signed base-16 digits: k = sum of d_i x 16^i with d_i in [-8, 8], least significant first
// (65 digits for k < 2^256). Both multiplications in multiply.ts walk these digits.
import { ZERO } from "./field";

/** Digit positions of a scalar below 2^256. */
export const DIGITS = 65;
/** The largest |digit|: the multiples a table keeps per position (1..8). */
export const POINTS_PER_DIGIT = 8;

/** The signed base-16 digits of `k` (0 <= k < 2^256), least significant first. */
export function signedDigits(k: bigint): Int8Array {
  const hex = k.toString(16);
  if (k < ZERO || hex.length > 64) throw new Error("a scalar is below 2^256");
  const out = new Int8Array(DIGITS);
  let carry = 0;
  for (let i = 0; i < 64; i++) {
    const at = hex.length - 1 - i;
    let d = (at >= 0 ? parseInt(hex[at], 16) : 0) + carry;
    carry = d > 8 ? 1 : 0;
    d -= carry * 16;
    out[i] = d;
  }
  out[64] = carry;
  return out;
}
