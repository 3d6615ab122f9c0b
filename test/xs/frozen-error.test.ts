// Errors on an engine whose Error.prototype is frozen, as the device's is after preload.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";

describe("errors with a frozen Error.prototype (the device after preload) on XS", () => {
  it("every error class of lib/ constructs and keeps its name", async () => {
    const r = await runOnXs("test/xs/frozen-error.xs.ts");
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split("\n");
    assert.equal(lines.length, 7, r.stdout);
    for (const line of lines) {
      const [cls, rest] = line.split(": ");
      assert.equal(rest, `${cls} true true`, line);
    }
  });
});
