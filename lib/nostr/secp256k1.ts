// secp256k1 for Nostr: ECDH and BIP-340 Schnorr signatures, written from SEC 2 and the BIP. The point
// arithmetic is the Curve port's (lib/ports.ts): the C module (modules/curve) where the host has it, the
// TypeScript curve of ./curve elsewhere; what stays here is the BIP's hashing and its few scalar
// operations modulo n. Halo's own rather than @noble/curves': that package keeps mutable state at its
// top level and builds BigInt tables as it loads, which the device's preload linker (SDK 8.2.3) overruns.
//
// Secrets: the C binding multiplies by a secret scalar in constant time (modules/curve/secp256k1.c says
// what that covers); the scalar steps here (d or n - d, the masked key, k + e·d mod n) are XS BigInt
// operations, whose timing the engine does not promise.
import type { Curve, Digest } from "../ports";
import { concatBytes } from "../util/bytes";
import { sha256 } from "../util/sha256";
import { equal, fromBytes, N, ONE, P, toBytes32, ZERO } from "./curve/field";

/** The SHA-256 the BIP's hashes go through (event.ts's Sha256Port: the host's Digest port). */
type Hash = Pick<Digest, "sha256">;

// BIP-340's tagged hashes: SHA-256(SHA-256(tag) || SHA-256(tag) || message). The three tags' prefixes are
// computed once, as the module loads (on the device, at build time; they are only read after), with the
// portable SHA-256: no port exists yet then.
function tagPrefix(tag: string): Uint8Array {
  const hashed = sha256(Uint8Array.from(tag, (c) => c.charCodeAt(0)));
  return concatBytes([hashed, hashed]);
}
const AUX = tagPrefix("BIP0340/aux");
const NONCE = tagPrefix("BIP0340/nonce");
const CHALLENGE = tagPrefix("BIP0340/challenge");

/** SHA-256(prefix || a || b || c), b and c optional: one buffer, one call to the port. */
function taggedHash(digest: Hash, prefix: Uint8Array, a: Uint8Array, b?: Uint8Array, c?: Uint8Array): Uint8Array {
  const input = new Uint8Array(prefix.length + a.length + (b ? b.length : 0) + (c ? c.length : 0));
  input.set(prefix, 0);
  let at = prefix.length;
  input.set(a, at);
  at += a.length;
  if (b) {
    input.set(b, at);
    at += b.length;
  }
  if (c) input.set(c, at);
  return digest.sha256(input);
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
  if (!(secretKey instanceof Uint8Array) || secretKey.length !== 32) throw new Error("a secret key is 32 bytes");
  if (!isValidSecretKey(secretKey)) throw new Error("the secret key is out of range");
  return fromBytes(secretKey);
}

/** p and n as 32 big-endian bytes, for range checks without a BigInt. */
const P_BYTES = toBytes32(P);
const N_BYTES = toBytes32(N);

/** a < b for two 32-byte big-endian numbers. */
function below(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** The 33-byte SEC 1 encoding `prefix || x` (2: even y, 3: odd). */
function compressed(prefix: number, x: Uint8Array): Uint8Array {
  const out = new Uint8Array(33);
  out[0] = prefix;
  out.set(x, 1);
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** ECDH: the shared point of `secretKey` and a compressed public key (33 bytes), compressed. */
function getSharedSecret(curve: Curve, secretKey: Uint8Array, publicKey: Uint8Array): Uint8Array {
  secretScalar(secretKey);
  if (publicKey.length !== 33 || (publicKey[0] !== 2 && publicKey[0] !== 3)) throw new Error("a public key is 33 bytes, compressed");
  return curve.multiply(publicKey, secretKey);
}

/** The x-only public key (32 bytes) of a secret key: key derivation is k·G without its parity byte. */
function getPublicKey(curve: Curve, secretKey: Uint8Array): Uint8Array {
  secretScalar(secretKey);
  return curve.multiplyBase(secretKey).subarray(1);
}

/** A BIP-340 signature of `message` with `secretKey`; `auxRand` is 32 fresh random bytes. */
function sign(curve: Curve, digest: Hash, message: Uint8Array, secretKey: Uint8Array, auxRand: Uint8Array): Uint8Array {
  if (auxRand.length !== 32) throw new Error("auxiliary randomness is 32 bytes");
  const d0 = secretScalar(secretKey);
  const pub = curve.multiplyBase(secretKey);
  const d = pub[0] === 2 ? d0 : N - d0;
  const pubBytes = pub.subarray(1);
  const masked = toBytes32(d ^ fromBytes(taggedHash(digest, AUX, auxRand)));
  const k0 = scalarOf(taggedHash(digest, NONCE, masked, pubBytes, message));
  if (equal(k0, ZERO)) throw new Error("signing failed: zero nonce");
  const nonce = curve.multiplyBase(toBytes32(k0));
  const k = nonce[0] === 2 ? k0 : N - k0;
  const r = nonce.subarray(1);
  const e = scalarOf(taggedHash(digest, CHALLENGE, r, pubBytes, message));
  const signature = concatBytes([r, toBytes32((k + e * d) % N)]);
  // The BIP recommends checking a fresh signature before it leaves.
  if (!verify(curve, digest, signature, message, pubBytes)) throw new Error("signing failed: the signature does not verify");
  return signature;
}

/** BIP-340 verification; false (never a throw) for any malformed input. */
function verify(curve: Curve, digest: Hash, signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  const rBytes = signature.subarray(0, 32);
  const sBytes = signature.subarray(32, 64);
  if (!below(rBytes, P_BYTES) || !below(sBytes, N_BYTES)) return false;
  const hash = taggedHash(digest, CHALLENGE, rBytes, publicKey, message);
  const e = below(hash, N_BYTES) ? hash : toBytes32(fromBytes(hash) - N); // e = hash mod n (hash < 2n)
  // R = s·G - e·P = s·G + e·(-P), with P = lift_x(publicKey), the even-y point: -P is the odd one, 03 || x
  let R: Uint8Array | undefined;
  try {
    R = curve.multiplyAdd(sBytes, compressed(3, publicKey), e);
  } catch {
    return false; // the public key is not a point of the curve
  }
  return R !== undefined && R[0] === 2 && sameBytes(R.subarray(1), rBytes);
}

/** ECDH and secret-key checks on secp256k1. */
export const secp256k1: {
  getSharedSecret(curve: Curve, secretKey: Uint8Array, publicKey: Uint8Array): Uint8Array;
  isValidSecretKey(secretKey: Uint8Array): boolean;
} = { getSharedSecret, isValidSecretKey };

/** The scalars 0 and 1 (32 bytes each), for the on-curve check below. */
const SCALAR_ZERO = new Uint8Array(32);
const SCALAR_ONE = toBytes32(ONE);

/**
 * True when a 32-byte x-only public key is a point on the curve (BIP-340's lift_x succeeds): the Curve
 * port decodes 02 || x and refuses an x with no point, so 0·G + 1·P is P exactly when P exists.
 */
function isValidPublicKey(curve: Curve, publicKey: Uint8Array): boolean {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32 || !below(publicKey, P_BYTES)) return false;
  try {
    return curve.multiplyAdd(SCALAR_ZERO, compressed(2, publicKey), SCALAR_ONE) !== undefined;
  } catch {
    return false; // no point of the curve has this x
  }
}

/** BIP-340 Schnorr signatures over secp256k1 (x-only 32-byte public keys). */
export const schnorr: {
  isValidPublicKey(curve: Curve, publicKey: Uint8Array): boolean;
  getPublicKey(curve: Curve, secretKey: Uint8Array): Uint8Array;
  sign(curve: Curve, digest: Hash, message: Uint8Array, secretKey: Uint8Array, auxRand: Uint8Array): Uint8Array;
  verify(curve: Curve, digest: Hash, signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
} = { isValidPublicKey, getPublicKey, sign, verify };
