// The Curve port's contract on any engine and binding: for `count` seeded random keys, the x-only public
// key, a BIP-340 signature, its verification (and a tampered copy's), and an ECDH shared point; then the
// hostile inputs (lengths, scalars out of range, points off the curve) and what each binding says.
// One line per key and per hostile case; test/nostr/curve-contract.test.ts holds every line to
// @noble/curves (Node) and every binding to the same transcript (Node's addon, the TypeScript curve, and
// the C module and the TypeScript curve on the XS host).
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { schnorr, secp256k1 } from "../../lib/nostr/secp256k1.ts";
import type { Curve } from "../../lib/ports.ts";
import { portableSha256, type Sha256Port } from "../../lib/nostr/event.ts";
import { mulberry32, type Prng } from "../support/prng.ts";

/** The seed of the keys: Node's expected lines and the XS run draw the same ones. */
export const CURVE_CONTRACT_SEED = 20261202;

export function randomBytes(prng: Prng, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = prng.nextUint32() & 0xff;
  return out;
}

/** The i-th case's inputs: two secret keys, a message and the auxiliary randomness. */
export interface CurveCase {
  secret: Uint8Array;
  other: Uint8Array;
  message: Uint8Array;
  aux: Uint8Array;
}

export function curveCases(count: number): CurveCase[] {
  const prng = mulberry32(CURVE_CONTRACT_SEED);
  const key = (): Uint8Array => {
    for (;;) {
      const k = randomBytes(prng, 32);
      if (secp256k1.isValidSecretKey(k)) return k;
    }
  };
  const cases: CurveCase[] = [];
  for (let i = 0; i < count; i++) cases.push({ secret: key(), other: key(), message: randomBytes(prng, 32), aux: randomBytes(prng, 32) });
  return cases;
}

/** `key <i> <pub> <sig> <verified> <tampered verified> <other's compressed pub> <shared>` */
export function curveKeyLine(c: Curve, i: number, k: CurveCase, digest: Sha256Port = portableSha256): string {
  const pub = schnorr.getPublicKey(c, k.secret);
  const sig = schnorr.sign(c, digest, k.message, k.secret, k.aux);
  const ok = schnorr.verify(c, digest, sig, k.message, pub);
  const tampered = Uint8Array.from(sig);
  tampered[i % 64] ^= 1 << (i % 8);
  const forged = schnorr.verify(c, digest, tampered, k.message, pub);
  const otherPub = c.multiplyBase(k.other);
  const shared = secp256k1.getSharedSecret(c, k.secret, otherPub);
  return `key ${i} ${bytesToHex(pub)} ${bytesToHex(sig)} ${ok} ${forged} ${bytesToHex(otherPub)} ${bytesToHex(shared)}`;
}

const N_HEX = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
const P_HEX = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f";
const ONE = hexToBytes(`${"00".repeat(31)}01`);
const G = hexToBytes("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");

/** Inputs every binding must refuse, each with a name. */
export function hostileCases(c: Curve): Array<[string, () => unknown]> {
  const zero = new Uint8Array(32);
  const withPrefix = (prefix: number, xHex: string): Uint8Array => hexToBytes(`${prefix.toString(16).padStart(2, "0")}${xHex}`);
  return [
    ["base: zero scalar", () => c.multiplyBase(zero)],
    ["base: scalar n", () => c.multiplyBase(hexToBytes(N_HEX))],
    ["base: scalar 2^256 - 1", () => c.multiplyBase(hexToBytes("ff".repeat(32)))],
    ["base: 31 bytes", () => c.multiplyBase(new Uint8Array(31).fill(1))],
    ["base: 33 bytes", () => c.multiplyBase(new Uint8Array(33).fill(1))],
    ["base: not bytes", () => c.multiplyBase([1, 2, 3] as unknown as Uint8Array)],
    ["point: x = 0 is off the curve", () => c.multiply(withPrefix(2, "00".repeat(32)), ONE)],
    ["point: x = p", () => c.multiply(withPrefix(2, P_HEX), ONE)],
    ["point: x = 2^256 - 1", () => c.multiply(withPrefix(3, "ff".repeat(32)), ONE)],
    ["point: prefix 04", () => c.multiply(withPrefix(4, bytesToHex(G.subarray(1))), ONE)],
    ["point: prefix 00", () => c.multiply(withPrefix(0, bytesToHex(G.subarray(1))), ONE)],
    ["point: 32 bytes", () => c.multiply(G.subarray(1), ONE)],
    ["point: 65 bytes", () => c.multiply(new Uint8Array(65).fill(4), ONE)],
    ["point: zero scalar", () => c.multiply(G, zero)],
    ["point: scalar n", () => c.multiply(G, hexToBytes(N_HEX))],
    ["point: 31-byte scalar", () => c.multiply(G, new Uint8Array(31).fill(1))],
    ["sum: a = n", () => c.multiplyAdd(hexToBytes(N_HEX), G, ONE)],
    ["sum: b = 2^256 - 1", () => c.multiplyAdd(ONE, G, hexToBytes("ff".repeat(32)))],
    ["sum: off-curve point and bad scalar", () => c.multiplyAdd(hexToBytes(N_HEX), withPrefix(2, "00".repeat(32)), ONE)],
    ["sum: 31-byte a", () => c.multiplyAdd(new Uint8Array(31), G, ONE)],
    ["sum: 34-byte point", () => c.multiplyAdd(ONE, new Uint8Array(34), ONE)],
  ];
}

/** `hostile <name>: <message>`, or `accepted` when the binding did not refuse (a failure). */
export function hostileLines(c: Curve): string[] {
  return hostileCases(c).map(([name, f]) => {
    try {
      f();
      return `hostile ${name}: accepted`;
    } catch (e) {
      return `hostile ${name}: ${e instanceof Error ? e.message : String(e)}`;
    }
  });
}

/** The edges: a zero scalar in a sum, a sum that doubles or is infinity, and n - 1 (the negation). */
export function edgeLines(c: Curve): string[] {
  const zero = new Uint8Array(32);
  const nMinus1 = hexToBytes("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140");
  const show = (b: Uint8Array | undefined): string => (b ? bytesToHex(b) : "infinity");
  return [
    `edge 0·G + 1·G ${show(c.multiplyAdd(zero, G, ONE))}`,
    `edge 1·G + 0·G ${show(c.multiplyAdd(ONE, G, zero))}`,
    `edge 0·G + 0·G ${show(c.multiplyAdd(zero, G, zero))}`,
    `edge (n-1)·G + 1·G ${show(c.multiplyAdd(nMinus1, G, ONE))}`,
    // the two halves meet at G in the first step: the sum's addition must double
    `edge 1·G + 1·G ${show(c.multiplyAdd(ONE, G, ONE))}`,
    `edge (n-1)·G ${show(c.multiplyBase(nMinus1))}`,
    `edge (n-1)·G by the point path ${show(c.multiply(G, nMinus1))}`,
  ];
}

/** The whole transcript of one binding; `digest` hashes BIP-340's tagged hashes (the host's own where it has one). */
export function runCurveContract(c: Curve, count: number, digest: Sha256Port = portableSha256): string[] {
  const lines = curveCases(count).map((k, i) => curveKeyLine(c, i, k, digest));
  return [...lines, ...edgeLines(c), ...hostileLines(c)];
}
