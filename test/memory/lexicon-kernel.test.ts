// The lexicon kernels' contract (lexicon-contract.ts) on Node, TypeScript kernels, over plain ArrayBuffers
// and over the simulator's arena. test/xs/lexicon.test.ts runs the same suite on XS against the C kernels.
import assert from "node:assert/strict";
import { simVectorArena } from "../../hosts/sim/ports/vector-arena.ts";
import { tsLexiconKernels } from "../../lib/memory/recall/lexicon-ts.ts";
import { runLexiconContract } from "./lexicon-contract.ts";

describe("lexicon kernels (TypeScript)", () => {
  it("pass every case of the contract", () => {
    const report = runLexiconContract(tsLexiconKernels);
    assert.deepEqual(report.failures, []);
    assert.ok(report.results.length > 60, `${report.results.length} cases`);
  });

  it("give the same outcomes over the simulator's arena, run after run", () => {
    const a = runLexiconContract(tsLexiconKernels);
    const b = runLexiconContract(tsLexiconKernels, simVectorArena(64 * 1024 * 1024));
    assert.equal(a.digest, b.digest);
  });
});
