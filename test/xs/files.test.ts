// The file and skill tools on the XS engine: the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runOnXs } from "../../hosts/xs/run.mjs";
import { runFilesScenario } from "../scenarios/files.ts";

describe("files and skills on XS", () => {
  let xs: { code: number; stdout: string; stderr: string };
  let node: string[];
  before(async () => {
    xs = await runOnXs("test/xs/files.xs.ts", { timeoutMs: 120_000 });
    node = await runFilesScenario();
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
    assert.match(text, /owner files\.read \{"project":"trip","name":"long\.txt","offset":0\} => Zeile 0: Grüße aus 日本 ✓\n/);
    assert.match(text, /owner files\.read \{"project":"kim","name":"diary\.md"\} => ERROR not-found: no file kim\/diary\.md\./);
    assert.match(text, /owner artifact\.save \{"project":"trip","name":"Plan\.md","text":"lost"\} => ERROR no-card: the SD card was removed during the operation/);
    assert.match(text, /owner files\.read \{"project":"trip","name":"Plan\.md"\} => # Trip\nVisit the otters at the bay\.\n$/m);
    assert.match(text, /kim files\.fetch \{"job":"f[0-9a-f]{8}"\} => f[0-9a-f]{8} quarantined web\/notes\.md \(30 bytes\)/);
    assert.match(text, /kim files\.read \{"project":"web","name":"notes\.md"\} => downloaded notes about otters/);
    assert.match(text, /owner image\.generate \{"prompt":"an otter in a hat","name":"otter"\} => Saved the image as images\/otter\.png \(70 bytes\)/);
    assert.match(text, /gus skill\.list \{\} => [^]*- otter-facts: Otter facts \(agent, approved\)/);
    assert.match(text, /^card files \| files \.index images kim trip web$/m);
  });
});
