// The Curve port (lib/ports.ts) in TypeScript, over this folder's BigInt curve: the binding of a host
// without the C module, and the reference the C one is held to (test/nostr/curve-contract.ts). Not
// constant time: XS BigInts are not, whatever the code around them does.
import type { Curve } from "../../ports";
import { CURVE_BAD_POINT, CURVE_BAD_SCALAR, checkPointLength, checkScalarLength, curveRefusal } from "./contract";
import { equal, fromBytes, N, ONE, P, sqrt, toBytes32, ZERO } from "./field";
import { type Affine, addPoints, isInfinity, type Jacobian, negateAffine, toAffine, ySquared } from "./jacobian";
import { multiply, multiplyBase } from "./multiply";

function scalarOf(k: Uint8Array, zeroAllowed: boolean): bigint {
  checkScalarLength(k);
  const s = fromBytes(k);
  if (s >= N || (!zeroAllowed && equal(s, ZERO))) throw curveRefusal(CURVE_BAD_SCALAR);
  return s;
}

/** The point a compressed encoding names (SEC 1, 2.3.4), or a refusal. */
function decode(point: Uint8Array): Affine {
  checkPointLength(point);
  if (point[0] !== 2 && point[0] !== 3) throw curveRefusal(CURVE_BAD_POINT);
  const x = fromBytes(point.subarray(1));
  if (x >= P) throw curveRefusal(CURVE_BAD_POINT);
  const y = sqrt(ySquared(x));
  if (y === undefined) throw curveRefusal(CURVE_BAD_POINT);
  const odd = !equal(y & ONE, ZERO);
  return odd === (point[0] === 3) ? { x, y } : negateAffine({ x, y });
}

function encode(point: Jacobian): Uint8Array {
  const a = toAffine(point);
  const out = new Uint8Array(33);
  out[0] = equal(a.y & ONE, ZERO) ? 2 : 3;
  out.set(toBytes32(a.x), 1);
  return out;
}

/** The TypeScript binding of the Curve port. */
export const tsCurve: Curve = Object.freeze({
  binding: "ts",
  multiplyBase(k: Uint8Array): Uint8Array {
    return encode(multiplyBase(scalarOf(k, false)));
  },
  multiply(point: Uint8Array, k: Uint8Array): Uint8Array {
    // the same order of checks as the C binding: lengths, then the point, then the scalars' ranges
    checkPointLength(point);
    checkScalarLength(k);
    const p = decode(point);
    return encode(multiply(p, scalarOf(k, false)));
  },
  multiplyAdd(a: Uint8Array, point: Uint8Array, b: Uint8Array): Uint8Array | undefined {
    checkScalarLength(a);
    checkPointLength(point);
    checkScalarLength(b);
    const p = decode(point);
    const sa = scalarOf(a, true);
    const sb = scalarOf(b, true);
    const sum = addPoints(multiplyBase(sa), multiply(p, sb));
    return isInfinity(sum) ? undefined : encode(sum);
  },
});
