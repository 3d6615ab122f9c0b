// The core (registry, JSON-RPC, schema validation, HTTP envelope, docs and results tools) on the XS engine:
// the same transcript as on Node.
import assert from "node:assert/strict";
import { runCoreScenario } from "../scenarios/core.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("the core on XS", () => {
  const cmp = compareOnXs("test/xs/core.xs.ts", () => runCoreScenario(), 30);

  it("reports its heap after registering every tool", () => {
    const m = /^HEAP (.*)$/m.exec(cmp.xsStdout());
    assert.ok(m);
    const heap = JSON.parse(m[1]);
    assert.ok(heap.heapBytes > heap.loadedBytes && heap.tools > 30);
  });
});
