// The Curve port's bindings against @noble/curves (an independent implementation), byte for byte: Node's
// C addon (with Node's SHA-256) and the TypeScript curve (with Halo's) for 1,000 seeded random keys each, and
// on the XS host the C module (with the C SHA-256) for the same 1,000 and the TypeScript curve for the first 100. Public keys, BIP-340 signatures, verification
// of the signature and of a tampered copy, ECDH; then the edges and the refusals of hostile inputs.
import assert from "node:assert/strict";
import { secp256k1 as noble, schnorr as nobleSchnorr } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { nodeCurve } from "../../hosts/sim/curve/curve.ts";
import { nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import { curveCases, runCurveContract } from "./curve-contract.ts";

const KEYS = 1000;
const XS_TS_KEYS = 100;
const G = "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";

/** What @noble/curves says for each key line. */
function nobleKeyLines(count: number): string[] {
  return curveCases(count).map((k, i) => {
    const pub = nobleSchnorr.getPublicKey(k.secret);
    const sig = nobleSchnorr.sign(k.message, k.secret, k.aux);
    const tampered = Uint8Array.from(sig);
    tampered[i % 64] ^= 1 << (i % 8);
    const otherPub = noble.getPublicKey(k.other, true);
    const shared = noble.getSharedSecret(k.secret, otherPub);
    const ok = nobleSchnorr.verify(sig, k.message, pub);
    const forged = nobleSchnorr.verify(tampered, k.message, pub);
    return `key ${i} ${bytesToHex(pub)} ${bytesToHex(sig)} ${ok} ${forged} ${bytesToHex(otherPub)} ${bytesToHex(shared)}`;
  });
}

const EDGES = [
  `edge 0·G + 1·G ${G}`,
  `edge 1·G + 0·G ${G}`,
  "edge 0·G + 0·G infinity",
  "edge (n-1)·G + 1·G infinity",
  "edge 1·G + 1·G 02c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5",
  `edge (n-1)·G 03${G.slice(2)}`,
  `edge (n-1)·G by the point path 03${G.slice(2)}`,
];

const SCALAR_LENGTH = "curve: a scalar is 32 bytes";
const POINT_LENGTH = "curve: a point is 33 bytes, compressed";
const RANGE = "curve: the scalar is out of range";
const OFF = "curve: the point is not on secp256k1";
const HOSTILE = [
  `hostile base: zero scalar: ${RANGE}`,
  `hostile base: scalar n: ${RANGE}`,
  `hostile base: scalar 2^256 - 1: ${RANGE}`,
  `hostile base: 31 bytes: ${SCALAR_LENGTH}`,
  `hostile base: 33 bytes: ${SCALAR_LENGTH}`,
  `hostile base: not bytes: ${SCALAR_LENGTH}`,
  `hostile point: x = 0 is off the curve: ${OFF}`,
  `hostile point: x = p: ${OFF}`,
  `hostile point: x = 2^256 - 1: ${OFF}`,
  `hostile point: prefix 04: ${OFF}`,
  `hostile point: prefix 00: ${OFF}`,
  `hostile point: 32 bytes: ${POINT_LENGTH}`,
  `hostile point: 65 bytes: ${POINT_LENGTH}`,
  `hostile point: zero scalar: ${RANGE}`,
  `hostile point: scalar n: ${RANGE}`,
  `hostile point: 31-byte scalar: ${SCALAR_LENGTH}`,
  `hostile sum: a = n: ${RANGE}`,
  `hostile sum: b = 2^256 - 1: ${RANGE}`,
  `hostile sum: off-curve point and bad scalar: ${OFF}`,
  `hostile sum: 31-byte a: ${SCALAR_LENGTH}`,
  `hostile sum: 34-byte point: ${POINT_LENGTH}`,
];

function assertLines(got: string[], want: string[], what: string): void {
  assert.equal(got.length, want.length, `${what}: ${got.length} lines`);
  for (let i = 0; i < want.length; i++) assert.equal(got[i], want[i], `${what}, line ${i}`);
}

describe("the Curve port against @noble/curves", function () {
  this.timeout(180_000);
  let expected: string[];
  before(() => {
    expected = nobleKeyLines(KEYS);
    assert.ok(
      expected.every((l) => l.includes(" true false ")),
      "noble verifies every signature and refuses every tampered one",
    );
  });

  it("the C addon on Node: 1,000 keys, the edges and the refusals", () => {
    assertLines(runCurveContract(nodeCurve(), KEYS, nodeDigest), [...expected, ...EDGES, ...HOSTILE], "addon");
  });

  it("the TypeScript curve on Node: the same 1,000 keys, edges and refusals", () => {
    assertLines(runCurveContract(tsCurve, KEYS), [...expected, ...EDGES, ...HOSTILE], "ts");
  });

  describe("on the XS host", () => {
    let xs: { code: number; stdout: string; stderr: string };
    before(async () => {
      xs = await runOnXs("test/xs/curve.xs.ts", { timeoutMs: 170_000 });
    });

    it("runs to the end", () => {
      assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
      assert.match(xs.stdout, /^END$/m);
    });

    it("the C module: the same 1,000 keys, edges and refusals", () => {
      const lines = xs.stdout
        .split("\n")
        .filter((l) => l.startsWith("C "))
        .map((l) => l.slice(2));
      assertLines(lines, [...expected, ...EDGES, ...HOSTILE], "xs c");
    });

    it("the TypeScript curve: the first 100 keys, edges and refusals", () => {
      const lines = xs.stdout
        .split("\n")
        .filter((l) => l.startsWith("TS "))
        .map((l) => l.slice(3));
      assertLines(lines, [...expected.slice(0, XS_TS_KEYS), ...EDGES, ...HOSTILE], "xs ts");
    });
  });
});
