// BIP-340 and NIP-44 vectors, NIP-19 against nostr-tools, forged events and DM round trips on Node and on
// the XS host, byte for byte, through each binding of the Curve port: the C module (Node's addon, the XS
// host's native functions) and the TypeScript curve.
import assert from "node:assert/strict";
import { nodeCurve } from "../../hosts/sim/curve/curve.ts";
import { nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import { runNostrScenario } from "../scenarios/nostr.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("nostr crypto vectors on Node", () => {
  it("passes every BIP-340 and NIP-44 vector and refuses every forged event, through the C addon", async () => {
    const lines = await runNostrScenario(nodeCurve(), nodeDigest);
    assert.equal(lines.filter((l) => l.startsWith("bip340 ") && l.includes(" verify ")).length, 19);
    assert.equal(lines.filter((l) => l.startsWith("nip44 payload ")).length, 10);
    assert.equal(lines.filter((l) => l.startsWith("forged ")).length, 16);
    assert.equal(lines.filter((l) => l.startsWith("nip19 ") && !l.startsWith("nip19 refused")).length, 6);
    assert.equal(lines.filter((l) => l.startsWith("nip19 refused: ")).length, 10);
    assert.ok(lines.includes("port refuses zero: curve: the scalar is out of range"));
    assert.ok(lines.includes("port refuses x = 0: curve: the point is not on secp256k1"));
  });

  it("gives the same transcript through the TypeScript curve and SHA-256", async () => {
    assert.deepEqual(await runNostrScenario(tsCurve), await runNostrScenario(nodeCurve(), nodeDigest));
  });
});

describe("nostr crypto vectors on XS, through the C curve and the C SHA-256", () => {
  compareOnXs("test/xs/nostr.xs.ts", () => runNostrScenario(nodeCurve()), 90);
});

describe("nostr crypto vectors on XS, through the TypeScript curve", () => {
  compareOnXs("test/xs/nostr-ts.xs.ts", () => runNostrScenario(tsCurve), 90);
});
