// The compact lexical index on the XS engine: the reference's hits and scores on XS too, and the same transcript as Node.
import assert from "node:assert/strict";
import { runLexicalScenario } from "../scenarios/lexical.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("lexical index on XS", () => {
  const cmp = compareOnXs("test/xs/lexical.xs.ts", runLexicalScenario, 150);

  it("the transcript shows searches that found entries", () => {
    const lines = cmp.node();
    assert.ok(lines.filter((l) => / => \d+:/.test(l)).length > 100);
    assert.match(lines[lines.length - 1], /^live \d+ searches \d+$/);
  });
});
