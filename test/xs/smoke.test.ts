// The XS host's own smoke scenario: globals, job and timer order, text codecs, natives, errors.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";

describe("the XS host", () => {
  it("passes its smoke scenario", async () => {
    const r = await runOnXs("test/xs/smoke.xs.ts");
    assert.equal(r.code, 0, r.stderr);
    const m = /^xs-smoke: (\d+) passed, 0 failed$/m.exec(r.stdout);
    assert.ok(m && Number(m[1]) > 20, r.stdout.slice(-500));
  });

  it("exits non-zero and shows the message when a script throws", async () => {
    const r = await runOnXs("test/xs/fixtures/throws.xs.ts");
    assert.equal(r.code, 1);
    assert.match(r.stderr, /deliberate failure/);
  });
});
