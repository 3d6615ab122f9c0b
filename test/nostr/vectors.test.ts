// BIP-340 and NIP-44 vectors, NIP-19 against nostr-tools, forged events and DM round trips on Node and on the XS host, byte for byte.
import assert from "node:assert/strict";
import { runNostrScenario } from "../scenarios/nostr.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("nostr crypto vectors on Node", () => {
  it("passes every BIP-340 and NIP-44 vector and refuses every forged event", async () => {
    const lines = await runNostrScenario();
    assert.equal(lines.filter((l) => l.startsWith("bip340 ") && l.includes(" verify ")).length, 19);
    assert.equal(lines.filter((l) => l.startsWith("nip44 payload ")).length, 10);
    assert.equal(lines.filter((l) => l.startsWith("forged ")).length, 10);
    assert.equal(lines.filter((l) => l.startsWith("nip19 ") && !l.startsWith("nip19 refused")).length, 6);
    assert.equal(lines.filter((l) => l.startsWith("nip19 refused: ")).length, 10);
  });
});

describe("nostr crypto vectors on XS", () => {
  compareOnXs("test/xs/nostr.xs.ts", runNostrScenario, 90);
});
