// Sub-agents and routines on the XS engine (real router and adapters over an in-process
// network, scheduler on a hand-moved clock): the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runAgentsScenario } from "../scenarios/agents.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("sub-agents and routines on XS", () => {
  const cmp = compareOnXs("test/xs/agents.xs.ts", runAgentsScenario, 25);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /^req https:\/\/api\.openai\.com\/v1\/responses "resp_1" \[\{"role":"user","content":"Shorter, please\."\}\]$/m);
    assert.match(
      text,
      /^req https:\/\/api\.anthropic\.com\/v1\/messages null \[\{"role":"user","content":"Name a herb\."\},\{"role":"assistant","content":"answer 3"\},\{"role":"user","content":"Another\?"\}\]$/m,
    );
    assert.match(text, /### notes\/brief\.md\\nTea is grown in Assam\./);
    assert.match(text, /^s8 session\.poll ERROR not-found: no sub-agent sa[0-9a-f]{8}\.$/m);
    assert.match(text, /^r3 loop\.create ERROR scheduled-refused: /m);
    assert.match(text, /This is the one retry: the first attempt failed\./);
    assert.match(text, /^r5 loop\.list .*next 2026-01-12 09:30 \(UTC\+00:00\); last: ok at 2026-01-07 09:30/m);
    assert.match(text, /^next 2026-01-18T23:15:00\.000Z$/m);
  });
});
