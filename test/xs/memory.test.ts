// The memory tools on the XS engine: the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runMemoryScenario } from "../scenarios/memory.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("memory on XS", () => {
  const cmp = compareOnXs("test/xs/memory.xs.ts", runMemoryScenario, 40);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /owner memory\.search \{"query":"what is my favourite colour"\} => - \[\d+%\] My favourite colour is blue/);
    assert.match(text, /kim memory\.search \{"query":"where is the spare key"\} => No memories match\./);
    assert.match(text, /kim memory\.config \{"action":"update","retrieval_count":3\} => ERROR admin-only:/);
    assert.match(text, /owner memory\.search \{"query":"dentist appointment"\} => No memories match\./);
    assert.match(text, /owner memory\.archive \{"action":"restore","id":"[0-9a-f]{8}","ttl":"weeks"\} => Restored id/);
    assert.match(text, /kim memory\.archive \{"action":"restore","id":"[0-9a-f]{8}"\} => ERROR not-found:/);
    assert.match(text, /owner memory\.search \{"query":"spare key flowerpot"\} => - \[\d+%\] The spare key is under the blue flowerpot/);
    assert.match(text, /^files archive\.bin episodic vectors\.bin vectors\.journal$/m);
  });
});
