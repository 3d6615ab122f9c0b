// A 4 MB image on the XS host: hash and signature streamed in chunks, and the
// heap a whole install adds (the bench prints the exact figure).
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";

describe("a 4 MB update image on XS", function () {
  this.timeout(120_000);
  let r: { intact: boolean; alteredByte: boolean; alteredVersion: boolean; state: string; extraKb: number };
  before(async () => {
    const xs = await runOnXs("test/xs/ota-image.xs.ts", { timeoutMs: 120_000 });
    assert.equal(xs.code, 0, xs.stderr);
    r = JSON.parse(/^OTA-IMAGE (\{.*\})$/m.exec(xs.stdout)![1]);
  });

  it("verifies the intact image and refuses one flipped bit or an altered signed field", () => {
    assert.equal(r.intact, true);
    assert.equal(r.alteredByte, false);
    assert.equal(r.alteredVersion, false);
  });

  it("installs it through the engine holding about one chunk: under 128 KB of live heap", () => {
    assert.equal(r.state, "ready");
    assert.ok(r.extraKb > 0 && r.extraKb < 128, `${r.extraKb} KB`);
  });
});
