// The provider adapters' pure parts, the router and the budget governor on the XS engine:
// the same transcript as on Node.
import assert from "node:assert/strict";
import { runProvidersScenario } from "../scenarios/providers.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("LLM providers on XS", () => {
  const cmp = compareOnXs("test/xs/providers.xs.ts", runProvidersScenario, 25);

  it("exercised errors, fallback and the budget refusal", () => {
    const node = cmp.node().join("\n");
    assert.match(node, /reply\.openai\.401 ERR .*"kind":"auth"/);
    assert.doesNotMatch(node, /KEY-SECRET/);
    assert.match(node, /^route .*"provider":"anthropic"/m);
    assert.match(node, /^route2 ERR .*"kind":"budget"/m);
  });
});
