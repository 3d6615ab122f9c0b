// Arithmetic modulo secp256k1's field prime p and group order n, on BigInts kept in [0, modulus).
// Two rules for BigInts that preloading on the device needs (Moddable SDK 8.2.3):
// - module constants are BigInts in plain bindings, never in arrays: the linker sizes its BigInt table
//   from bindings and overruns it on BigInts held in arrays;
// - two BigInts are compared with equal(), never === or !==: a preloaded constant lives in flash with
//   its own slot kind, and XS's === is false for a BigInt in flash and one in RAM of the same value
//   (its < and > handle both). test/architecture/bigint-equality.test.ts holds lib/ to it.
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";

/** The field prime, 2^256 - 2^32 - 977 (SEC 2, section 2.4.1). */
export const P: bigint = BigInt("0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f");
/** The order of the base point. */
export const N: bigint = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
export const ZERO: bigint = BigInt(0);
export const ONE: bigint = BigInt(1);
// p = 2^256 - C: a product's high half folds into the low half times C (reduce()).
const C = BigInt("0x1000003d1");
const LOW_MASK = BigInt("0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff");
const BITS = BigInt(256);
// p = 3 (mod 4), so a square root of a is a^((p+1)/4): that exponent in hex, walked bit by bit by sqrt().
const SQRT_EXPONENT_HEX = "3fffffffffffffffffffffffffffffffffffffffffffffffffffffffbfffff0c";

/** a == b for BigInts, wherever each one lives (see the top of this file). */
export function equal(a: bigint, b: bigint): boolean {
  return a <= b && a >= b;
}

export function add(a: bigint, b: bigint): bigint {
  const r = a + b;
  return r >= P ? r - P : r;
}

export function sub(a: bigint, b: bigint): bigint {
  const r = a - b;
  return r < ZERO ? r + P : r;
}

/**
 * x mod p for 0 <= x < p^2, without a division (three times faster than % on XS): fold the bits above
 * 2^256 down twice (2^256 = C mod p), leaving less than 2^256 + 2^66, then subtract p at most once.
 */
function reduce(x: bigint): bigint {
  let r = (x & LOW_MASK) + (x >> BITS) * C;
  r = (r & LOW_MASK) + (r >> BITS) * C;
  return r >= P ? r - P : r;
}

export function mul(a: bigint, b: bigint): bigint {
  return reduce(a * b);
}

export function sqr(a: bigint): bigint {
  return reduce(a * a);
}

export function neg(a: bigint): bigint {
  return equal(a, ZERO) ? ZERO : P - a;
}

/** a^-1 modulo `modulus` by the extended Euclidean algorithm; throws for 0. */
export function invert(a: bigint, modulus: bigint): bigint {
  let r0 = modulus;
  let r1 = a % modulus;
  if (r1 < ZERO) r1 += modulus;
  let t0 = ZERO;
  let t1 = ONE;
  while (r1 > ZERO) {
    const q = r0 / r1;
    const r2 = r0 - q * r1;
    r0 = r1;
    r1 = r2;
    const t2 = t0 - q * t1;
    t0 = t1;
    t1 = t2;
  }
  if (!equal(r0, ONE)) throw new Error("no inverse");
  return t0 < ZERO ? t0 + modulus : t0;
}

/** A square root of `a` in the field, or undefined when `a` is not a square. */
export function sqrt(a: bigint): bigint | undefined {
  const hex = SQRT_EXPONENT_HEX;
  let r = ONE;
  for (let i = 0; i < hex.length; i++) {
    const nibble = parseInt(hex[i], 16);
    for (let bit = 3; bit >= 0; bit--) {
      r = sqr(r);
      if ((nibble >> bit) & 1) r = mul(r, a);
    }
  }
  return equal(sqr(r), a) ? r : undefined;
}

/** A big-endian byte string as a number. */
export function fromBytes(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? ZERO : BigInt(`0x${bytesToHex(bytes)}`);
}

/** `n` (0 <= n < 2^256) as 32 big-endian bytes. */
export function toBytes32(n: bigint): Uint8Array {
  return hexToBytes(n.toString(16).padStart(64, "0"));
}
