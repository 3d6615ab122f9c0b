// toJson gives JSON.stringify's text whether or not a host says objects are in flash.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { toJson } from "../../lib/util/json.ts";
import { jsonCases } from "./json-cases.ts";

describe("toJson", () => {
  it("writes the same text as JSON.stringify with no flash check (Node)", () => {
    for (const [value, indent] of jsonCases()) assert.equal(toJson(value, indent), JSON.stringify(value, null, indent));
  });

  it("writes the same text when a host says every object is in flash, and copies only those", () => {
    const seen: object[] = [];
    const host = globalThis as { haloInFlash?: (value: object) => boolean };
    host.haloInFlash = (value) => {
      seen.push(value);
      return true;
    };
    try {
      for (const [value, indent] of jsonCases()) assert.equal(toJson(value, indent), JSON.stringify(value, null, indent));
      assert.ok(seen.length > 10, "the check saw each object");
    } finally {
      delete host.haloInFlash;
    }
  });

  it("on XS, the native flash check says no for objects in RAM, and toJson's text is unchanged with it", async () => {
    const r = await runOnXs("test/util/json.xs.ts");
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split("\n"), [
      "in flash: false false false false false",
      "texts equal: true",
      "objects checked: true",
    ]);
  });
});
