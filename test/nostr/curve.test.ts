// lib/nostr's secp256k1 against @noble/curves' (a test dependency only): public keys, BIP-340 signatures
// and ECDH for random keys, and the refusals of keys that are not on the curve or out of range.
import assert from "node:assert/strict";
import { secp256k1 as noble, schnorr as nobleSchnorr } from "@noble/curves/secp256k1.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { schnorr, secp256k1 } from "../../lib/nostr/secp256k1.ts";
import { mulberry32, type Prng } from "../support/prng.ts";

function bytes(prng: Prng, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => prng.int(0, 255));
}

function secretKey(prng: Prng): Uint8Array {
  for (;;) {
    const key = bytes(prng, 32);
    if (secp256k1.isValidSecretKey(key)) return key;
  }
}

describe("secp256k1 against @noble/curves", () => {
  it("gives the same public keys, signatures and shared secrets for 100 random keys", () => {
    const prng = mulberry32(20261202);
    for (let i = 0; i < 100; i++) {
      const sk = secretKey(prng);
      const other = secretKey(prng);
      const message = bytes(prng, 32);
      const aux = bytes(prng, 32);
      const pub = schnorr.getPublicKey(sk);
      assert.equal(bytesToHex(pub), bytesToHex(nobleSchnorr.getPublicKey(sk)));
      const signature = schnorr.sign(message, sk, aux);
      assert.equal(bytesToHex(signature), bytesToHex(nobleSchnorr.sign(message, sk, aux)));
      assert.ok(schnorr.verify(signature, message, pub));
      assert.ok(nobleSchnorr.verify(signature, message, pub));
      const tampered = Uint8Array.from(signature);
      tampered[i % 64] ^= 1 << (i % 8);
      assert.equal(schnorr.verify(tampered, message, pub), false);
      const otherPub = noble.getPublicKey(other, true);
      assert.equal(bytesToHex(secp256k1.getSharedSecret(sk, otherPub)), bytesToHex(noble.getSharedSecret(sk, otherPub)));
    }
  });

  it("checks secret keys at the ends of the range", () => {
    const n = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
    const nMinus1 = "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140";
    assert.equal(secp256k1.isValidSecretKey(hexToBytes("00".repeat(32))), false);
    assert.equal(secp256k1.isValidSecretKey(hexToBytes(n)), false);
    assert.equal(secp256k1.isValidSecretKey(hexToBytes("ff".repeat(32))), false);
    assert.equal(secp256k1.isValidSecretKey(new Uint8Array(31).fill(1)), false);
    assert.equal(secp256k1.isValidSecretKey(hexToBytes(nMinus1)), true);
    assert.equal(bytesToHex(schnorr.getPublicKey(hexToBytes(nMinus1))), bytesToHex(nobleSchnorr.getPublicKey(hexToBytes(nMinus1))));
    assert.throws(() => schnorr.getPublicKey(hexToBytes(n)), /out of range/);
  });

  it("refuses a shared secret with a key that is not a compressed point of the curve", () => {
    const sk = hexToBytes("01".repeat(32));
    const good = noble.getPublicKey(hexToBytes("02".repeat(32)), true);
    assert.throws(() => secp256k1.getSharedSecret(sk, good.subarray(1)), /33 bytes/);
    assert.throws(() => secp256k1.getSharedSecret(sk, Uint8Array.of(4, ...good.subarray(1))), /33 bytes/);
    // x = 0 has no point (7 is not a square modulo p); x = p is not a field element.
    assert.throws(() => secp256k1.getSharedSecret(sk, hexToBytes(`02${"00".repeat(32)}`)), /not a point/);
    assert.throws(
      () => secp256k1.getSharedSecret(sk, hexToBytes("02fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f")),
      /not a point/,
    );
  });
});
