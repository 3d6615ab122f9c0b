// The committed generated files match what `npm run gen` would write now.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { GENERATORS } from "../tools/gen/index.ts";

describe("generated files", () => {
  for (const g of GENERATORS) {
    it(`${g.path} is up to date (npm run gen)`, () => {
      assert.ok(readFileSync(g.path, "utf8") === g.generate(), `${g.path} is stale: run npm run gen`);
    });
  }

  it("validators contain no require() or eval", () => {
    const code = readFileSync("lib/generated/validators.js", "utf8");
    assert.doesNotMatch(code, /\brequire\(|\beval\(|new Function/);
  });
});
