// secp256k1 points (y^2 = x^3 + 7) in Jacobian coordinates: (X, Y, Z) stands for (X/Z^2, Y/Z^3), and
// Z = 0 is the point at infinity. Formulas from the Explicit-Formulas Database for a = 0
// (dbl-2009-l, madd-2007-bl, add-2007-bl); each returns a new point.
import { add, equal, invert, mul, neg, ONE, P, sqr, sub, ZERO } from "./field";

export interface Affine {
  x: bigint;
  y: bigint;
}

export interface Jacobian {
  x: bigint;
  y: bigint;
  z: bigint;
}

const SEVEN = BigInt(7);

/** The base point G. */
export const G: Affine = {
  x: BigInt("0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"),
  y: BigInt("0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8"),
};

export function infinity(): Jacobian {
  return { x: ONE, y: ONE, z: ZERO };
}

export function isInfinity(p: Jacobian): boolean {
  return equal(p.z, ZERO);
}

export function fromAffine(a: Affine): Jacobian {
  return { x: a.x, y: a.y, z: ONE };
}

/** The y^2 of the curve at `x` (x^3 + 7). */
export function ySquared(x: bigint): bigint {
  return add(mul(sqr(x), x), SEVEN);
}

export function negateAffine(a: Affine): Affine {
  return { x: a.x, y: neg(a.y) };
}

export function double(p: Jacobian): Jacobian {
  if (equal(p.z, ZERO) || equal(p.y, ZERO)) return infinity();
  const a = sqr(p.x);
  const b = sqr(p.y);
  const c = sqr(b);
  const xb = add(p.x, b);
  const d0 = sub(sub(sqr(xb), a), c);
  const d = add(d0, d0);
  const e = add(add(a, a), a);
  const f = sqr(e);
  const x = sub(f, add(d, d));
  const c2 = add(c, c);
  const c4 = add(c2, c2);
  const y = sub(mul(e, sub(d, x)), add(c4, c4));
  const yz = mul(p.y, p.z);
  return { x, y, z: add(yz, yz) };
}

/** p + q where q is affine (never infinity). */
export function addAffine(p: Jacobian, q: Affine): Jacobian {
  if (equal(p.z, ZERO)) return fromAffine(q);
  const z1z1 = sqr(p.z);
  const u2 = mul(q.x, z1z1);
  const s2 = mul(mul(q.y, p.z), z1z1);
  const h = sub(u2, p.x);
  const rr = sub(s2, p.y);
  if (equal(h, ZERO)) return equal(rr, ZERO) ? double(p) : infinity();
  const hh = sqr(h);
  const i = add(add(hh, hh), add(hh, hh));
  const j = mul(h, i);
  const r = add(rr, rr);
  const v = mul(p.x, i);
  const x = sub(sub(sqr(r), j), add(v, v));
  const yj = mul(p.y, j);
  const y = sub(mul(r, sub(v, x)), add(yj, yj));
  const z = sub(sub(sqr(add(p.z, h)), z1z1), hh);
  return { x, y, z };
}

/** p + q, both Jacobian. */
export function addPoints(p: Jacobian, q: Jacobian): Jacobian {
  if (equal(p.z, ZERO)) return q;
  if (equal(q.z, ZERO)) return p;
  const z1z1 = sqr(p.z);
  const z2z2 = sqr(q.z);
  const u1 = mul(p.x, z2z2);
  const u2 = mul(q.x, z1z1);
  const s1 = mul(mul(p.y, q.z), z2z2);
  const s2 = mul(mul(q.y, p.z), z1z1);
  const h = sub(u2, u1);
  const rr = sub(s2, s1);
  if (equal(h, ZERO)) return equal(rr, ZERO) ? double(p) : infinity();
  const h2 = add(h, h);
  const i = sqr(h2);
  const j = mul(h, i);
  const r = add(rr, rr);
  const v = mul(u1, i);
  const x = sub(sub(sqr(r), j), add(v, v));
  const s1j = mul(s1, j);
  const y = sub(mul(r, sub(v, x)), add(s1j, s1j));
  const z = mul(sub(sub(sqr(add(p.z, q.z)), z1z1), z2z2), h);
  return { x, y, z };
}

/** The affine form of a point that is not infinity. */
export function toAffine(p: Jacobian): Affine {
  if (equal(p.z, ZERO)) throw new Error("the point at infinity has no affine form");
  const zi = invert(p.z, P);
  const zi2 = sqr(zi);
  return { x: mul(p.x, zi2), y: mul(mul(p.y, zi2), zi) };
}

/** The affine forms of points none of which is infinity, with one inversion (Montgomery's trick). */
export function toAffineAll(points: Jacobian[]): Affine[] {
  const prefix: bigint[] = [];
  let acc = ONE;
  for (const p of points) {
    prefix.push(acc);
    acc = mul(acc, p.z);
  }
  let inv = invert(acc, P);
  const out: Affine[] = new Array(points.length);
  for (let k = points.length - 1; k >= 0; k--) {
    const zi = mul(inv, prefix[k]);
    inv = mul(inv, points[k].z);
    const zi2 = sqr(zi);
    out[k] = { x: mul(points[k].x, zi2), y: mul(mul(points[k].y, zi2), zi) };
  }
  return out;
}
