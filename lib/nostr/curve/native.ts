// The Curve port over the C functions of modules/curve (secp256k1.h), whichever engine binds them: the
// XS binding (modules/curve/curve.ts) and the Node addon (hosts/sim/curve/curve.ts) hand their three raw
// functions here. Each takes and gives bytes; a number back is a status code of secp256k1.h.
import type { Curve } from "../../ports";
import { CURVE_INFINITY, checkPointLength, checkScalarLength, curveRefusal } from "./contract";

/** The C functions as an engine binds them: a 33-byte result, or a status code. */
export interface RawCurve {
  multiplyBase(k: Uint8Array): ArrayBuffer | Uint8Array | number;
  multiply(point: Uint8Array, k: Uint8Array): ArrayBuffer | Uint8Array | number;
  multiplyAdd(a: Uint8Array, point: Uint8Array, b: Uint8Array): ArrayBuffer | Uint8Array | number;
}

function bytesOf(result: ArrayBuffer | Uint8Array | number): Uint8Array {
  if (typeof result === "number") throw curveRefusal(result);
  return result instanceof Uint8Array ? result : new Uint8Array(result);
}

/** The Curve port over `raw`; lengths are checked here, ranges and points in C. */
export function curveOverNative(raw: RawCurve): Curve {
  return {
    binding: "c",
    multiplyBase(k: Uint8Array): Uint8Array {
      checkScalarLength(k);
      return bytesOf(raw.multiplyBase(k));
    },
    multiply(point: Uint8Array, k: Uint8Array): Uint8Array {
      checkPointLength(point);
      checkScalarLength(k);
      return bytesOf(raw.multiply(point, k));
    },
    multiplyAdd(a: Uint8Array, point: Uint8Array, b: Uint8Array): Uint8Array | undefined {
      checkScalarLength(a);
      checkPointLength(point);
      checkScalarLength(b);
      const r = raw.multiplyAdd(a, point, b);
      return r === CURVE_INFINITY ? undefined : bytesOf(r);
    },
  };
}
