// Replies, Telegram and web search on the XS engine: the same transcript as on Node.
import assert from "node:assert/strict";
import { runChannelsScenario } from "../scenarios/channels.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("replies, Telegram and web search on XS", () => {
  const cmp = compareOnXs("test/xs/channels.xs.ts", runChannelsScenario, 30);

  it("exercised the wire formats, the errors, the loop's gate and the tools", () => {
    const node = cmp.node().join("\n");
    assert.match(node, /^seen POST https:\/\/api\.telegram\.org\/bot<token>\/sendVoice multipart\/form-data; boundary=halo-[0-9a-f]{32} /m);
    assert.match(node, /^e429 ERR .*"kind":"rate-limit","status":429,"retryAfterMs":4000/m);
    assert.match(node, /^e400 ERR .*chat not found \[token\]/m);
    assert.doesNotMatch(node.replace(/^seen .*$/gm, ""), /AAH-scenario_token|tvly-SECRET|tvly-CORE/);
    assert.match(node, /^inbound .*"sent":\["42: 42\/user asked telegram: hello","42: I can only read text messages here for now\."\]/m);
    assert.match(node, /ignored a message from chat 99/);
    assert.doesNotMatch(node, /stranger text/);
    assert.match(node, /^core web\.search .*R.*https:\/\/r\.example/m);
    assert.match(node, /^core reply\.speak\.off .*not-spoken: spoken replies are off/m);
    assert.match(node, /^core deliver sent$/m);
    assert.match(
      node,
      /^cseen POST https:\/\/api\.telegram\.org\/bot<token>\/sendMessage application\/json \d+ \{"chat_id":"7","text":"Routine report"/m,
    );
    assert.match(node, /^core deliver\.refused kept$/m);
    assert.match(
      node,
      /^core alerts \[\["wakeup w00000002","Reply not sent \(Telegram refused to deliver to that chat \(HTTP 403\): Forbidden: bot was blocked by the user\): Wakeup report"\]\]$/m,
    );
  });
});
