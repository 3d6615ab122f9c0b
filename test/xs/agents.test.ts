// Sub-agents and routines on the XS engine (real router and adapters over an in-process
// network, scheduler on a hand-moved clock): the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { runAgentsScenario } from "../scenarios/agents.ts";

describe("sub-agents and routines on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  let node: string[];
  before(async () => {
    xs = await runOnXs("test/xs/agents.xs.ts", { timeoutMs: 120_000 });
    node = await runAgentsScenario();
  });

  it("runs to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
  });

  it("gives the same transcript as Node, line for line", () => {
    const onXs = xs.stdout.split("\n").filter((l) => l.startsWith("T ")).map((l) => JSON.parse(l.slice(2)));
    assert.ok(node.length >= 25, String(node.length));
    assert.equal(onXs.length, node.length);
    for (let i = 0; i < node.length; i++) assert.equal(onXs[i], node[i], `line ${i}`);
  });

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = node.join("\n");
    assert.match(text, /^req https:\/\/api\.openai\.com\/v1\/responses "resp_1" \[\{"role":"user","content":"Shorter, please\."\}\]$/m);
    assert.match(text, /^req https:\/\/api\.anthropic\.com\/v1\/messages null \[\{"role":"user","content":"Name a herb\."\},\{"role":"assistant","content":"answer 3"\},\{"role":"user","content":"Another\?"\}\]$/m);
    assert.match(text, /### notes\/brief\.md\\nTea is grown in Assam\./);
    assert.match(text, /^s8 session\.poll ERROR not-found: no sub-agent sa[0-9a-f]{8}\.$/m);
    assert.match(text, /^r3 loop\.create ERROR scheduled-refused: /m);
    assert.match(text, /This is the one retry: the first attempt failed\./);
    assert.match(text, /^r5 loop\.list .*next 2026-01-12 09:30 \(UTC\+00:00\); last: ok at 2026-01-07 09:30/m);
    assert.match(text, /^next 2026-01-18T23:15:00\.000Z$/m);
  });
});
