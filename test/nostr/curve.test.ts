// lib/nostr/secp256k1's key checks and ECDH refusals over each binding of the Curve port (the C addon and
// the TypeScript curve); the 1,000-key comparison with @noble/curves is test/nostr/curve-contract.test.ts.
import assert from "node:assert/strict";
import { secp256k1 as noble, schnorr as nobleSchnorr } from "@noble/curves/secp256k1.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { nodeCurve } from "../../hosts/sim/curve/curve.ts";
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import { schnorr, secp256k1 } from "../../lib/nostr/secp256k1.ts";
import type { Curve } from "../../lib/ports.ts";
import { nodeDigest } from "../../hosts/sim/ports/node-basics.ts";

for (const [name, curve] of [
  ["the C addon", () => nodeCurve()],
  ["the TypeScript curve", () => tsCurve],
] as Array<[string, () => Curve]>) {
  describe(`secp256k1 over ${name}`, () => {
    it("checks secret keys at the ends of the range", () => {
      const c = curve();
      const n = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
      const nMinus1 = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140";
      assert.equal(secp256k1.isValidSecretKey(hexToBytes("00".repeat(32))), false);
      assert.equal(secp256k1.isValidSecretKey(hexToBytes(n)), false);
      assert.equal(secp256k1.isValidSecretKey(hexToBytes("ff".repeat(32))), false);
      assert.equal(secp256k1.isValidSecretKey(new Uint8Array(31).fill(1)), false);
      assert.equal(secp256k1.isValidSecretKey(hexToBytes(nMinus1)), true);
      assert.equal(bytesToHex(schnorr.getPublicKey(c, hexToBytes(nMinus1))), bytesToHex(nobleSchnorr.getPublicKey(hexToBytes(nMinus1))));
      assert.throws(() => schnorr.getPublicKey(c, hexToBytes(n)), /out of range/);
      assert.throws(() => schnorr.sign(c, nodeDigest, new Uint8Array(32), hexToBytes(n), new Uint8Array(32)), /out of range/);
    });

    it("refuses a shared secret with a key that is not a compressed point of the curve", () => {
      const c = curve();
      const sk = hexToBytes("01".repeat(32));
      const good = noble.getPublicKey(hexToBytes("02".repeat(32)), true);
      assert.equal(bytesToHex(secp256k1.getSharedSecret(c, sk, good)), bytesToHex(noble.getSharedSecret(sk, good)));
      assert.throws(() => secp256k1.getSharedSecret(c, sk, good.subarray(1)), /33 bytes/);
      assert.throws(() => secp256k1.getSharedSecret(c, sk, Uint8Array.of(4, ...good.subarray(1))), /33 bytes/);
      // x = 0 has no point (7 is not a square modulo p); x = p is not a field element.
      assert.throws(() => secp256k1.getSharedSecret(c, sk, hexToBytes(`02${"00".repeat(32)}`)), /not on secp256k1/);
      assert.throws(
        () => secp256k1.getSharedSecret(c, sk, hexToBytes("02fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f")),
        /not on secp256k1/,
      );
    });

    it("verifies to false, never a throw, on a public key off the curve or malformed", () => {
      const c = curve();
      const sk = hexToBytes("03".repeat(32));
      const message = new Uint8Array(32).fill(9);
      const pub = schnorr.getPublicKey(c, sk);
      const sig = schnorr.sign(c, nodeDigest, message, sk, new Uint8Array(32));
      assert.equal(schnorr.verify(c, nodeDigest, sig, message, pub), true);
      assert.equal(schnorr.verify(c, nodeDigest, sig, message, new Uint8Array(32)), false);
      assert.equal(schnorr.verify(c, nodeDigest, sig, message, hexToBytes("ff".repeat(32))), false);
      assert.equal(schnorr.verify(c, nodeDigest, sig, message, pub.subarray(1)), false);
      assert.equal(schnorr.verify(c, nodeDigest, sig.subarray(1), message, pub), false);
      const sMax = Uint8Array.from(sig);
      sMax.fill(0xff, 32);
      assert.equal(schnorr.verify(c, nodeDigest, sMax, message, pub), false);
    });
  });
}
