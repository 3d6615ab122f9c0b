// secp256k1 for Nostr: ECDH and BIP-340 Schnorr signatures, written from SEC 2 and the BIP over the
// curve code in ./curve. Halo's own rather than @noble/curves': that package keeps mutable state at
// its top level (each point's precomputed windows in a module WeakMap) and builds BigInt tables as it
// loads, which the device's preload linker (SDK 8.2.3) overruns. Here the base point's table is a
// generated string constant and nothing is built or kept between calls, so every module that signs or
// verifies can be preloaded.
import { concatBytes } from "../util/bytes";
import { sha256 } from "../util/sha256";
import { equal, fromBytes, N, ONE, P, sqrt, toBytes32, ZERO } from "./curve/field";
import { type Affine, addPoints, isInfinity, negateAffine, toAffine, ySquared } from "./curve/jacobian";
import { multiply, multiplyBase } from "./curve/multiply";

function hasEvenY(point: Affine): boolean {
  return equal(point.y & ONE, ZERO);
}

// BIP-340's tagged hashes: SHA-256(SHA-256(tag) || SHA-256(tag) || message). The three tags' prefixes are
// computed once, as the module loads (on the device, at build time; they are only read after).
function tagPrefix(tag: string): Uint8Array {
  const hashed = sha256(Uint8Array.from(tag, (c) => c.charCodeAt(0)));
  return concatBytes([hashed, hashed]);
}
const AUX = tagPrefix("BIP0340/aux");
const NONCE = tagPrefix("BIP0340/nonce");
const CHALLENGE = tagPrefix("BIP0340/challenge");

function taggedHash(prefix: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  return sha256(concatBytes([prefix, ...parts]));
}

/** A number modulo n from 32 hash bytes. */
function scalarOf(bytes: Uint8Array): bigint {
  return fromBytes(bytes) % N;
}

function isValidSecretKey(secretKey: Uint8Array): boolean {
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== 32) return false;
  const d = fromBytes(secretKey);
  return d > ZERO && d < N;
}

/** The secret scalar of a 32-byte key, or a throw when it is 0 or not below n. */
function secretScalar(secretKey: Uint8Array): bigint {
  if (secretKey.length !== 32) throw new Error("a secret key is 32 bytes");
  if (!isValidSecretKey(secretKey)) throw new Error("the secret key is out of range");
  return fromBytes(secretKey);
}

/** The point with x coordinate `x` and the y parity asked for, or undefined (BIP-340's lift_x with odd = false). */
function liftX(x: bigint, odd: boolean): Affine | undefined {
  if (x <= ZERO || x >= P) return undefined;
  const y = sqrt(ySquared(x));
  if (y === undefined) return undefined;
  const point = { x, y };
  return hasEvenY(point) === !odd ? point : negateAffine(point);
}

/** ECDH: the shared point of `secretKey` and a compressed public key (33 bytes), compressed. */
function getSharedSecret(secretKey: Uint8Array, publicKey: Uint8Array): Uint8Array {
  const d = secretScalar(secretKey);
  if (publicKey.length !== 33 || (publicKey[0] !== 2 && publicKey[0] !== 3)) throw new Error("a public key is 33 bytes, compressed");
  const point = liftX(fromBytes(publicKey.subarray(1)), publicKey[0] === 3);
  if (!point) throw new Error("the public key is not a point of secp256k1");
  const shared = toAffine(multiply(point, d));
  return concatBytes([Uint8Array.of(hasEvenY(shared) ? 2 : 3), toBytes32(shared.x)]);
}

/** The x-only public key (32 bytes) of a secret key. */
function getPublicKey(secretKey: Uint8Array): Uint8Array {
  return toBytes32(toAffine(multiplyBase(secretScalar(secretKey))).x);
}

/** A BIP-340 signature of `message` with `secretKey`; `auxRand` is 32 fresh random bytes. */
function sign(message: Uint8Array, secretKey: Uint8Array, auxRand: Uint8Array): Uint8Array {
  if (auxRand.length !== 32) throw new Error("auxiliary randomness is 32 bytes");
  const d0 = secretScalar(secretKey);
  const pub = toAffine(multiplyBase(d0));
  const d = hasEvenY(pub) ? d0 : N - d0;
  const pubBytes = toBytes32(pub.x);
  const masked = toBytes32(d ^ fromBytes(taggedHash(AUX, auxRand)));
  const k0 = scalarOf(taggedHash(NONCE, masked, pubBytes, message));
  if (equal(k0, ZERO)) throw new Error("signing failed: zero nonce");
  const nonce = toAffine(multiplyBase(k0));
  const k = hasEvenY(nonce) ? k0 : N - k0;
  const r = toBytes32(nonce.x);
  const e = scalarOf(taggedHash(CHALLENGE, r, pubBytes, message));
  const signature = concatBytes([r, toBytes32((k + e * d) % N)]);
  // The BIP recommends checking a fresh signature before it leaves.
  if (!verify(signature, message, pubBytes)) throw new Error("signing failed: the signature does not verify");
  return signature;
}

/** BIP-340 verification; false (never a throw) for any malformed input. */
function verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  const pub = liftX(fromBytes(publicKey), false);
  if (!pub) return false;
  const r = fromBytes(signature.subarray(0, 32));
  const s = fromBytes(signature.subarray(32, 64));
  if (r >= P || s >= N) return false;
  const e = scalarOf(taggedHash(CHALLENGE, signature.subarray(0, 32), publicKey, message));
  // R = s·G - e·P
  const sum = addPoints(multiplyBase(s), multiply(pub, equal(e, ZERO) ? ZERO : N - e));
  if (isInfinity(sum)) return false;
  const R = toAffine(sum);
  return hasEvenY(R) && equal(R.x, r);
}

/** ECDH and secret-key checks on secp256k1. */
export const secp256k1: {
  getSharedSecret(secretKey: Uint8Array, publicKey: Uint8Array): Uint8Array;
  isValidSecretKey(secretKey: Uint8Array): boolean;
} = { getSharedSecret, isValidSecretKey };

/** True when a 32-byte x-only public key is a point on the curve (BIP-340's lift_x succeeds). */
function isValidPublicKey(publicKey: Uint8Array): boolean {
  return publicKey.length === 32 && liftX(fromBytes(publicKey), false) !== undefined;
}

/** BIP-340 Schnorr signatures over secp256k1 (x-only 32-byte public keys). */
export const schnorr: {
  isValidPublicKey(publicKey: Uint8Array): boolean;
  getPublicKey(secretKey: Uint8Array): Uint8Array;
  sign(message: Uint8Array, secretKey: Uint8Array, auxRand: Uint8Array): Uint8Array;
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
} = { isValidPublicKey, getPublicKey, sign, verify };
