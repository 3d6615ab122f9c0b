// The Improv serial codec: frames among log text, split across reads, bad checksums and hostile lengths.
import assert from "node:assert/strict";
import { decodeStrings, encodeFrame, encodeRpc, encodeStrings, ImprovReader } from "../../tools/flash/improv.ts";

describe("Improv serial frames", () => {
  it("encodes the spec's Wi-Fi example with a sum checksum", () => {
    const f = encodeRpc(0x01, encodeStrings(["MyWirelessAP", "mysecurepassword"]));
    assert.equal(new TextDecoder().decode(f.subarray(0, 6)), "IMPROV");
    assert.deepEqual(Array.from(f.subarray(6, 12)), [1, 0x03, 0x20, 0x01, 0x1e, 0x0c]);
    // The sum of every byte before it, then the newline Improv peers end a packet with.
    assert.equal(
      f[f.length - 2],
      f.subarray(0, f.length - 2).reduce((s, b) => (s + b) & 0xff, 0),
    );
    assert.equal(f[f.length - 1], 0x0a);
  });

  it("finds frames among log lines and across split reads", () => {
    const a = encodeFrame(0x01, new Uint8Array([0x02]));
    const b = encodeFrame(0x04, new Uint8Array([0x03, 4, 3, 0x61, 0x62, 0x63]));
    const stream = new Uint8Array([
      ...new TextEncoder().encode("I (31) boot: log\r\n"),
      ...a,
      ...new TextEncoder().encode("IMPRO noise\n"),
      ...b,
    ]);
    const reader = new ImprovReader();
    const frames = [];
    for (let i = 0; i < stream.length; i += 5) frames.push(...reader.push(stream.subarray(i, i + 5)));
    assert.deepEqual(
      frames.map((f) => f.type),
      [0x01, 0x04],
    );
    assert.deepEqual(decodeStrings(frames[1].data.subarray(2)), ["abc"]);
  });

  it("drops a frame with a bad checksum or another version, and refuses oversized parts", () => {
    const bad = encodeFrame(0x01, new Uint8Array([0x02]));
    bad[bad.length - 2] ^= 1;
    const other = encodeFrame(0x01, new Uint8Array([0x02]));
    other[6] = 2;
    other[other.length - 2] = other.subarray(0, other.length - 2).reduce((s, x) => (s + x) & 0xff, 0);
    const good = encodeFrame(0x02, new Uint8Array([0x03]));
    assert.deepEqual(
      new ImprovReader().push(new Uint8Array([...bad, ...other, ...good])).map((f) => f.type),
      [0x02],
    );
    assert.throws(() => encodeFrame(1, new Uint8Array(256)), /at most 255/);
    assert.throws(() => decodeStrings(new Uint8Array([9, 0x61])), /runs past its frame/);
  });
});
