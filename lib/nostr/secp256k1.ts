// secp256k1 for Nostr: the curve built from @noble/curves' generic short
// Weierstrass code, ECDH, and BIP-340 Schnorr signatures written from the BIP.
// Not @noble/curves/secp256k1.js: that module also builds FROST at load, which
// encodes text with the host's TextEncoder, a native function the device's
// preload linker cannot run; this one calls nothing native as it loads.
import { Field } from "@noble/curves/abstract/modular.js";
import { ecdh, weierstrass } from "@noble/curves/abstract/weierstrass.js";
import { bytesToNumberBE, numberToBytesBE } from "@noble/curves/utils.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "@noble/hashes/utils.js";

// The curve's published parameters (SEC 2, section 2.4.1) and its GLV endomorphism.
const P = BigInt("0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f");
const N = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
const CURVE = {
  p: P,
  n: N,
  h: BigInt(1),
  a: BigInt(0),
  b: BigInt(7),
  Gx: BigInt("0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"),
  Gy: BigInt("0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8"),
};
const ENDOMORPHISM: { beta: bigint; basises: [[bigint, bigint], [bigint, bigint]] } = {
  beta: BigInt("0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501ee"),
  basises: [
    [BigInt("0x3086d221a7d46bcde86c90e49284eb15"), -BigInt("0xe4437ed6010e88286f547fa90abfe4c3")],
    [BigInt("0x114ca50f7a8e2f3f657c1108d9d44cfd8"), BigInt("0x3086d221a7d46bcde86c90e49284eb15")],
  ],
};

const Point = weierstrass(CURVE, { Fp: Field(P), endo: ENDOMORPHISM });
// @noble precomputes the base point with 6-bit windows: about 2,080 points, 440 KB of XS heap on a
// 64-bit host, built by the first key operation at boot and kept. 4-bit windows hold 776 points for about
// half again the additions per signature; the device signs a few events a minute, and its heap is short.
const BASE_WINDOW_BITS = 4;
Point.BASE.precompute(BASE_WINDOW_BITS);
type CurvePoint = InstanceType<typeof Point>;

/** ECDH and secret-key checks on secp256k1 (compressed public keys, 33 bytes). */
export const secp256k1 = ecdh(Point);

const ZERO = BigInt(0);
const ONE = BigInt(1);

function hasEvenY(point: CurvePoint): boolean {
  return (point.toAffine().y & ONE) === ZERO;
}

// BIP-340's tagged hashes: SHA-256(SHA-256(tag) || SHA-256(tag) || message).
// The three tags' prefixes are computed once, at load, from ASCII.
function tagPrefix(tag: string): Uint8Array {
  const hashed = sha256(Uint8Array.from(tag, (c) => c.charCodeAt(0)));
  return concatBytes(hashed, hashed);
}
const AUX = tagPrefix("BIP0340/aux");
const NONCE = tagPrefix("BIP0340/nonce");
const CHALLENGE = tagPrefix("BIP0340/challenge");

function taggedHash(prefix: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  return sha256(concatBytes(prefix, ...parts));
}

function bytes32(n: bigint): Uint8Array {
  return numberToBytesBE(n, 32);
}

function xBytes(point: CurvePoint): Uint8Array {
  return bytes32(point.toAffine().x);
}

/** The secret scalar of a 32-byte key, or a throw when it is 0 or not below n. */
function secretScalar(secretKey: Uint8Array): bigint {
  if (secretKey.length !== 32) throw new Error("a secret key is 32 bytes");
  const d = bytesToNumberBE(secretKey);
  if (d <= ZERO || d >= N) throw new Error("the secret key is out of range");
  return d;
}

/** BIP-340 lift_x: the point with x coordinate `x` and an even y, or undefined. */
function liftX(x: bigint): CurvePoint | undefined {
  if (x <= ZERO || x >= P) return undefined;
  const Fp = Point.Fp;
  const c = Fp.add(Fp.mul(Fp.sqr(x), x), CURVE.b);
  let y: bigint;
  try {
    y = Fp.sqrt(c);
  } catch {
    return undefined;
  }
  if (!Fp.eql(Fp.sqr(y), c)) return undefined;
  const even = (y & ONE) === ZERO ? y : Fp.neg(y);
  const point = Point.fromAffine({ x, y: even });
  point.assertValidity();
  return point;
}

/** The x-only public key (32 bytes) of a secret key. */
function getPublicKey(secretKey: Uint8Array): Uint8Array {
  return xBytes(Point.BASE.multiply(secretScalar(secretKey)));
}

/** A BIP-340 signature of `message` with `secretKey`; `auxRand` is 32 fresh random bytes. */
function sign(message: Uint8Array, secretKey: Uint8Array, auxRand: Uint8Array): Uint8Array {
  if (auxRand.length !== 32) throw new Error("auxiliary randomness is 32 bytes");
  const Fn = Point.Fn;
  const d0 = secretScalar(secretKey);
  const pub = Point.BASE.multiply(d0);
  const d = hasEvenY(pub) ? d0 : Fn.neg(d0);
  const pubBytes = xBytes(pub);
  const masked = bytes32(d ^ bytesToNumberBE(taggedHash(AUX, auxRand)));
  const k0 = Fn.create(bytesToNumberBE(taggedHash(NONCE, masked, pubBytes, message)));
  if (k0 === ZERO) throw new Error("signing failed: zero nonce");
  const nonce = Point.BASE.multiply(k0);
  const k = hasEvenY(nonce) ? k0 : Fn.neg(k0);
  const r = xBytes(nonce);
  const e = Fn.create(bytesToNumberBE(taggedHash(CHALLENGE, r, pubBytes, message)));
  const signature = concatBytes(r, bytes32(Fn.add(k, Fn.mul(e, d))));
  // The BIP recommends checking a fresh signature before it leaves.
  if (!verify(signature, message, pubBytes)) throw new Error("signing failed: the signature does not verify");
  return signature;
}

/** BIP-340 verification; false (never a throw) for any malformed input. */
function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  const pub = liftX(bytesToNumberBE(publicKey));
  if (!pub) return false;
  const r = bytesToNumberBE(signature.subarray(0, 32));
  const s = bytesToNumberBE(signature.subarray(32, 64));
  if (r >= P || s >= N) return false;
  const Fn = Point.Fn;
  const e = Fn.create(bytesToNumberBE(taggedHash(CHALLENGE, signature.subarray(0, 32), publicKey, message)));
  // R = s·G - e·P, as one joint (Strauss-Shamir) multiplication.
  const R = Point.BASE.mulAddUnsafe(s, pub, Fn.neg(e));
  if (R.is0() || !hasEvenY(R)) return false;
  return R.toAffine().x === r;
}

/** BIP-340 Schnorr signatures over secp256k1 (x-only 32-byte public keys). */
export const schnorr: {
  getPublicKey(secretKey: Uint8Array): Uint8Array;
  sign(message: Uint8Array, secretKey: Uint8Array, auxRand: Uint8Array): Uint8Array;
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
} = { getPublicKey, sign, verify };
