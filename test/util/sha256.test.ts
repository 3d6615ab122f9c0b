// lib/util/sha256.ts against Node's crypto (every length around the block and padding edges, and 64 KB)
// and the published vectors: FIPS 180-4's "abc", RFC 4231's HMAC case 2 and RFC 5869's HKDF case 1.
import assert from "node:assert/strict";
import { createHash, createHmac, hkdfSync } from "node:crypto";
import { hkdfExpand, hkdfExtract, hmacSha256, sha256 } from "../../lib/util/sha256.ts";
import { mulberry32 } from "../support/prng.ts";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const bytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, "hex"));
const ascii = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "latin1"));

describe("SHA-256, HMAC and HKDF (lib/util/sha256.ts)", () => {
  it("gives the published digests", () => {
    assert.equal(hex(sha256(ascii("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert.equal(hex(sha256(new Uint8Array(0))), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert.equal(
      hex(hmacSha256(ascii("Jefe"), ascii("what do ya want for nothing?"))),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
    const prk = hkdfExtract(bytes("0b".repeat(22)), bytes("000102030405060708090a0b0c"));
    assert.equal(hex(prk), "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
    assert.equal(
      hex(hkdfExpand(prk, bytes("f0f1f2f3f4f5f6f7f8f9"), 42)),
      "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
    );
  });

  it("agrees with Node's crypto on every length from 0 to 200 bytes, on 64 KB, and for long HMAC keys", () => {
    const prng = mulberry32(256);
    const lengths = Array.from({ length: 201 }, (_, i) => i).concat([65536]);
    for (const length of lengths) {
      const data = Uint8Array.from({ length }, () => prng.int(0, 255));
      assert.equal(hex(sha256(data)), createHash("sha256").update(data).digest("hex"), `length ${length}`);
      const key = data.subarray(0, length % 150);
      assert.equal(hex(hmacSha256(key, data)), createHmac("sha256", key).update(data).digest("hex"), `hmac ${length}`);
    }
    const ikm = Uint8Array.from({ length: 32 }, () => prng.int(0, 255));
    const salt = ascii("nip44-v2");
    const info = Uint8Array.from({ length: 32 }, () => prng.int(0, 255));
    const theirs = new Uint8Array(hkdfSync("sha256", ikm, salt, info, 76));
    assert.equal(hex(hkdfExpand(hkdfExtract(ikm, salt), info, 76)), hex(theirs));
    assert.throws(() => hkdfExpand(ikm, info, 255 * 32 + 1), /at most/);
  });
});
