// The lexical index on the XS engine, C kernels over the native arena, against its model: the same
// transcript as Node's run with the TypeScript kernels over ArrayBuffers.
import assert from "node:assert/strict";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { tsLexiconKernels } from "../../lib/memory/recall/lexicon-ts.ts";
import { runLexiconModelScenario } from "../scenarios/lexicon-model.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("the lexical index against its model on XS", () => {
  const cmp = compareOnXs("test/xs/lexicon-model.xs.ts", () => runLexiconModelScenario(simVectorArena(), tsLexiconKernels), 60);

  it("every checked step matched, and the emptied store kept no index", () => {
    const lines = cmp.node();
    assert.match(lines[lines.length - 1], /^emptied: index 0 bytes, peak \d+, \d+ searches$/);
  });
});
