// The memory tools on the XS engine: the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { runMemoryScenario } from "../scenarios/memory.ts";

describe("memory on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  let node: string[];
  before(async () => {
    xs = await runOnXs("test/xs/memory.xs.ts", { timeoutMs: 120_000 });
    node = await runMemoryScenario();
  });

  it("runs to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
  });

  it("gives the same transcript as Node, line for line", () => {
    const onXs = xs.stdout.split("\n").filter((l) => l.startsWith("T ")).map((l) => JSON.parse(l.slice(2)));
    assert.ok(node.length > 40, String(node.length));
    assert.equal(onXs.length, node.length);
    for (let i = 0; i < node.length; i++) assert.equal(onXs[i], node[i], `line ${i}`);
  });

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = node.join("\n");
    assert.match(text, /owner memory\.search \{"query":"what is my favourite colour"\} => - \[\d+%\] My favourite colour is blue/);
    assert.match(text, /kim memory\.search \{"query":"where is the spare key"\} => No memories match\./);
    assert.match(text, /kim memory\.config \{"action":"update","retrieval_count":3\} => ERROR admin-only:/);
    assert.match(text, /owner memory\.search \{"query":"dentist appointment"\} => No memories match\./);
    assert.match(text, /owner memory\.archive \{"action":"restore","id":"[0-9a-f]{8}","ttl":"weeks"\} => Restored id/);
    assert.match(text, /kim memory\.archive \{"action":"restore","id":"[0-9a-f]{8}"\} => ERROR not-found:/);
    assert.match(text, /owner memory\.search \{"query":"spare key flowerpot"\} => - \[\d+%\] The spare key is under the blue flowerpot/);
    assert.match(text, /^files archive\.bin episodic vectors\.bin$/m);
  });
});
