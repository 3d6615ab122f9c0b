// The orchestrator turn on the XS engine (compose, tool loop, contract, apply):
// the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runTurnScenario } from "../scenarios/turn.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("the orchestrator turn on XS", () => {
  const cmp = compareOnXs("test/xs/turn.xs.ts", runTurnScenario, 20);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /^t1 \{"ok":true,"reply":"Noted, and the ring is blue\.".*"memoryWritten":\[\{"ok":true,"text":"Remembered/m);
    assert.match(text, /"index":1,"ok":false,"text":"protected-BLOCKED: /);
    assert.doesNotMatch(text, /sk-INJECTED/);
    assert.match(text, /^t1 led \{"mode":"solid","r":0,"g":0,"b":255,"brightness":40\}$/m);
    assert.match(text, /^t2 recall - \[\d+%\] The owner likes green tea\.$/m);
    assert.match(text, /^t2 prompt \w+ \d+ .*## YOUR NOTE FROM THE LAST TURN\|## RESULTS OF YOUR LAST MEMORY QUERIES uau /m);
    assert.match(text, /^t3 \{"ok":false,"reply":"contract: the model's answer could not be used \(the answer has no 'ask' field/m);
    assert.match(text, /^t4 \{"ok":true,"reply":"capped","ask":"","rounds":1,/m);
    assert.match(
      text,
      /^t5 \{.*"name":"tenant\.list","ok":false\},\{"round":1,"name":"nope\.tool","ok":false\}.*"admin-only: a reboot action/m,
    );
    assert.match(text, /^history owner scenario user message \d+ \w+ "I like green tea\. Make the ring blue\."$/m);
    assert.match(text, /^history owner scenario tool tool_output \d+ \w+ "docs\.search: /m);
    assert.match(text, /^history owner scenario assistant llm_response \d+ \w+ "Noted, and the ring is blue\."$/m);
    assert.match(text, /^history owner scenario system log \d+ \w+ "turn failed \(contract\): /m);
    assert.match(text, /^history visitor scenario tool tool_output \d+ \w+ "tenant\.list \(failed\): admin-only: /m);
  });
});
