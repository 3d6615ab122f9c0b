// The provider adapters' pure parts, the router and the budget governor on the XS engine:
// the same transcript as on Node.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { runProvidersScenario } from "../scenarios/providers.ts";

describe("LLM providers on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  before(async () => {
    xs = await runOnXs("test/xs/providers.xs.ts");
  });

  it("runs to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
  });

  it("gives the same transcript as Node, line for line", async () => {
    const node = await runProvidersScenario();
    const onXs = xs.stdout.split("\n").filter((l) => l.startsWith("T ")).map((l) => JSON.parse(l.slice(2)));
    assert.ok(node.length > 25);
    assert.equal(onXs.length, node.length);
    for (let i = 0; i < node.length; i++) assert.equal(onXs[i], node[i], `line ${i}`);
  });

  it("exercised errors, fallback and the budget refusal", async () => {
    const node = (await runProvidersScenario()).join("\n");
    assert.match(node, /reply\.openai\.401 ERR .*"kind":"auth"/);
    assert.doesNotMatch(node, /KEY-SECRET/);
    assert.match(node, /^route .*"provider":"anthropic"/m);
    assert.match(node, /^route2 ERR .*"kind":"budget"/m);
  });
});
