// The core (registry, JSON-RPC, schema validation, HTTP envelope, docs and results tools) on the XS engine:
// the same transcript as on Node.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { runCoreScenario } from "../scenarios/core.ts";

describe("the core on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  before(async () => {
    xs = await runOnXs("test/xs/core.xs.ts");
  });

  it("runs to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
  });

  it("gives the same transcript as Node, line for line", async () => {
    const node = await runCoreScenario();
    const onXs = xs.stdout.split("\n").filter((l) => l.startsWith("T ")).map((l) => JSON.parse(l.slice(2)));
    assert.ok(node.length > 30);
    assert.equal(onXs.length, node.length);
    for (let i = 0; i < node.length; i++) assert.equal(onXs[i], node[i], `line ${i}`);
  });

  it("reports its heap after registering every tool", () => {
    const m = /^HEAP (.*)$/m.exec(xs.stdout);
    assert.ok(m);
    const heap = JSON.parse(m[1]);
    assert.ok(heap.heapBytes > 0 && heap.tools > 0);
  });
});
