// Replies, Telegram and web search on the XS engine: the same transcript as on Node.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { runChannelsScenario } from "../scenarios/channels.ts";

describe("replies, Telegram and web search on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  before(async () => {
    xs = await runOnXs("test/xs/channels.xs.ts");
  });

  it("runs to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
  });

  it("gives the same transcript as Node, line for line", async () => {
    const node = await runChannelsScenario();
    const onXs = xs.stdout.split("\n").filter((l) => l.startsWith("T ")).map((l) => JSON.parse(l.slice(2)));
    assert.ok(node.length > 30);
    assert.equal(onXs.length, node.length);
    for (let i = 0; i < node.length; i++) assert.equal(onXs[i], node[i], `line ${i}`);
  });

  it("exercised the wire formats, the errors, the loop's gate and the tools", async () => {
    const node = (await runChannelsScenario()).join("\n");
    assert.match(node, /^seen POST https:\/\/api\.telegram\.org\/bot<token>\/sendVoice multipart\/form-data; boundary=halo-[0-9a-f]{32} /m);
    assert.match(node, /^e429 ERR .*"kind":"rate-limit","status":429,"retryAfterMs":4000/m);
    assert.match(node, /^e400 ERR .*chat not found \[token\]/m);
    assert.doesNotMatch(node.replace(/^seen .*$/gm, ""), /AAH-scenario_token|tvly-SECRET|tvly-CORE/);
    assert.match(node, /^inbound .*"sent":\["42: 42\/user asked telegram: hello","42: I can only read text messages here for now\."\]/m);
    assert.match(node, /ignored a message from chat 99/);
    assert.doesNotMatch(node, /stranger text/);
    assert.match(node, /^core web\.search .*R.*https:\/\/r\.example/m);
    assert.match(node, /^core reply\.speak\.off .*not-spoken: spoken replies are off/m);
  });
});
