// Scalar multiplication on secp256k1 over signed base-16 digits (digits.ts). A variable point P: a table
// of 1P..8P, then four doublings and at most one addition per digit. The base point G: a table of
// m x 16^i x G for every digit position, made by `npm run gen` (lib/generated/secp256k1-base.ts), so
// there are no doublings and nothing to build or keep at run time: the table is a string constant, in
// flash when preloaded.
import { SECP256K1_BASE_TABLE } from "../../generated/secp256k1-base";
import { DIGITS, POINTS_PER_DIGIT, signedDigits } from "./digits";
import { type Affine, addAffine, double, infinity, type Jacobian, negateAffine, toAffineAll, fromAffine } from "./jacobian";

/** Hex characters per table point: x then y, 64 each. */
const HEX_PER_POINT = 128;

/** k x P for an affine point P. */
export function multiply(point: Affine, k: bigint): Jacobian {
  const digits = signedDigits(k);
  const multiples: Jacobian[] = [fromAffine(point)];
  multiples.push(double(multiples[0]));
  for (let m = 3; m <= POINTS_PER_DIGIT; m++) multiples.push(addAffine(multiples[m - 2], point));
  // None of 1P..8P is infinity: every point of secp256k1 but infinity has the (prime) order n.
  const table = toAffineAll(multiples);
  let acc = infinity();
  for (let i = DIGITS - 1; i >= 0; i--) {
    acc = double(double(double(double(acc))));
    const d = digits[i];
    if (d > 0) acc = addAffine(acc, table[d - 1]);
    else if (d < 0) acc = addAffine(acc, negateAffine(table[-d - 1]));
  }
  return acc;
}

/** k x G, from the base table. */
export function multiplyBase(k: bigint): Jacobian {
  const digits = signedDigits(k);
  let acc = infinity();
  for (let i = 0; i < DIGITS; i++) {
    const d = digits[i];
    if (d === 0) continue;
    const point = basePoint(i, d < 0 ? -d : d);
    acc = addAffine(acc, d < 0 ? negateAffine(point) : point);
  }
  return acc;
}

/** m x 16^i x G (1 <= m <= 8) from the table. */
function basePoint(i: number, m: number): Affine {
  const row = SECP256K1_BASE_TABLE[i];
  const at = (m - 1) * HEX_PER_POINT;
  return { x: BigInt(`0x${row.slice(at, at + 64)}`), y: BigInt(`0x${row.slice(at + 64, at + 128)}`) };
}
