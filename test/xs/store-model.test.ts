// The vector store's id table and text pages on the XS engine, over the native arena: the same transcript as Node.
import assert from "node:assert/strict";
import { runStoreModelScenario } from "../scenarios/store-model.ts";
import { compareOnXs } from "../support/xs-compare.ts";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";

describe("the vector store against its model on XS", () => {
  const cmp = compareOnXs("test/xs/store-model.xs.ts", () => runStoreModelScenario(simVectorArena()), 9);

  it("every step matched the model, and some allocations were refused on the way", () => {
    const lines = cmp.node();
    for (const line of lines) assert.match(line, /^(step \d+: \d+ entries|emptied:)/);
    assert.match(lines[lines.length - 2], /^step 2000: \d+ entries, capacity \d+, \d+ live text bytes, [1-9]\d* refused$/);
    const emptied = /^emptied: text pages (\d+) bytes, peak (\d+)$/.exec(lines[lines.length - 1]);
    assert.ok(emptied, lines[lines.length - 1]);
    assert.ok(Number(emptied[1]) <= 32 * 1024, "an empty store keeps at most the page being filled");
    assert.ok(Number(emptied[2]) > 32 * 1024, "the run needed several pages");
  });
});
