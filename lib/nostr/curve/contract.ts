// What every binding of the Curve port (lib/ports.ts) checks and says: the lengths before the arithmetic,
// and the refusal for each status code of modules/curve/secp256k1.h, so the C and TypeScript bindings
// refuse the same inputs with the same sentence.

/** The status codes of modules/curve/secp256k1.h. */
export const CURVE_OK = 0;
export const CURVE_BAD_SCALAR = 1;
export const CURVE_BAD_POINT = 2;
export const CURVE_INFINITY = 3;

/** Throws unless `k` is a 32-byte Uint8Array. */
export function checkScalarLength(k: Uint8Array): void {
  if (!(k instanceof Uint8Array) || k.length !== 32) throw new Error("curve: a scalar is 32 bytes");
}

/** Throws unless `point` is a 33-byte Uint8Array (the compressed encoding). */
export function checkPointLength(point: Uint8Array): void {
  if (!(point instanceof Uint8Array) || point.length !== 33) throw new Error("curve: a point is 33 bytes, compressed");
}

/** The Error for a status code other than CURVE_OK and CURVE_INFINITY. */
export function curveRefusal(status: number): Error {
  if (status === CURVE_BAD_SCALAR) return new Error("curve: the scalar is out of range");
  if (status === CURVE_BAD_POINT) return new Error("curve: the point is not on secp256k1");
  return new Error(`curve: unexpected status ${status}`);
}
