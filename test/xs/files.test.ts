// The file and skill tools on the XS engine: the same transcript as on Node, line for line.
import assert from "node:assert/strict";
import { runFilesScenario } from "../scenarios/files.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("files and skills on XS", () => {
  const cmp = compareOnXs("test/xs/files.xs.ts", runFilesScenario, 40);

  it("the transcript shows the behaviour, not just agreement", () => {
    const text = cmp.node().join("\n");
    assert.match(text, /owner files\.read \{"project":"trip","name":"long\.txt","offset":0\} => Zeile 0: Grüße aus 日本 ✓\n/);
    assert.match(text, /owner files\.read \{"project":"kim","name":"diary\.md"\} => ERROR not-found: no file kim\/diary\.md\./);
    assert.match(
      text,
      /owner artifact\.save \{"project":"trip","name":"Plan\.md","text":"lost"\} => ERROR no-card: the SD card was removed during the operation/,
    );
    assert.match(text, /owner files\.read \{"project":"trip","name":"Plan\.md"\} => # Trip\nVisit the otters at the bay\.\n$/m);
    assert.match(text, /kim files\.fetch \{"job":"f[0-9a-f]{8}"\} => f[0-9a-f]{8} quarantined web\/notes\.md \(30 bytes\)/);
    assert.match(text, /kim files\.read \{"project":"web","name":"notes\.md"\} => downloaded notes about otters/);
    assert.match(
      text,
      /owner image\.generate \{"prompt":"an otter in a hat","name":"otter"\} => Saved the image as images\/otter\.png \(70 bytes\)/,
    );
    assert.match(text, /gus skill\.list \{\} => [\s\S]*- otter-facts: Otter facts \(agent, approved\)/);
    assert.match(text, /^card files \| files \.index \.sx images kim trip web$/m);
  });
});
