// People, device actions, introspection and the owner API on the XS engine: the same transcript as on Node.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { runPeopleDeviceScenario } from "../scenarios/people-device.ts";

describe("people, device actions and the owner API on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  before(async () => {
    xs = await runOnXs("test/xs/people-device.xs.ts", { timeoutMs: 120_000 });
  });

  it("runs to the end", () => {
    assert.equal(xs.code, 0, xs.stderr + xs.stdout.slice(-2000));
    assert.match(xs.stdout, /^END$/m);
  });

  it("gives the same transcript as Node, line for line", async () => {
    const node = await runPeopleDeviceScenario();
    const onXs = xs.stdout.split("\n").filter((l) => l.startsWith("T ")).map((l) => JSON.parse(l.slice(2)));
    assert.ok(node.length > 30);
    assert.equal(onXs.length, node.length);
    for (let i = 0; i < node.length; i++) assert.equal(onXs[i], node[i], `line ${i}`);
  });
});
