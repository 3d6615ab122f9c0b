// The relay pool against a real relay (@nostr-relay/core over ws on loopback).
import { nodeCurve } from "../../hosts/sim/curve/curve.ts";
import assert from "node:assert/strict";
import { finalizeEvent, generateSecretKey } from "nostr-tools/pure";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { cryptoRandom, memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { NostrIdentity } from "../../lib/nostr/identity.ts";
import { startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { testPool, until } from "./support.ts";

describe("nostr relay pool (real relay)", () => {
  let relay: TestRelay;
  beforeEach(async () => (relay = await startTestRelay()));
  afterEach(async () => relay.close());

  const now = (): number => Math.floor(Date.now() / 1000);

  it("publishes, queries, and gets the relay's OK", async () => {
    const me = new NostrIdentity(memorySettings(), cryptoRandom, memoryLog(), nodeCurve(), nodeDigest);
    const pool = testPool([relay.url]);
    await until(() => pool.connectedCount() === 1);
    const ev = me.sign({ kind: 1, content: "hello relay", tags: [["t", "halo"]], created_at: now() });
    const out = await pool.publish(ev);
    assert.deepEqual(
      out.map((o) => o.result),
      ["ok"],
    );
    const found = await pool.query([{ authors: [me.pubkey], kinds: [1] }], 2000);
    assert.equal(found.length, 1);
    assert.equal(found[0].content, "hello relay");
    pool.stop();
  });

  it("gets a refusal when the relay rejects the event", async () => {
    const me = new NostrIdentity(memorySettings(), cryptoRandom, memoryLog(), nodeCurve(), nodeDigest);
    const pool = testPool([relay.url]);
    await until(() => pool.connectedCount() === 1);
    const ev = me.sign({ kind: 1, content: "x", tags: [], created_at: now() });
    const out = await pool.publish({ ...ev, content: "tampered" });
    assert.equal(out[0].result, "refused");
    pool.stop();
  });

  it("reconnects after the relay restarts and keeps its subscription", async () => {
    const pool = testPool([relay.url]);
    const got: string[] = [];
    const author = generateSecretKey();
    pool.subscribe("notes", [{ kinds: [1], since: now() - 5 }], (e) => got.push(e.content));
    await until(() => pool.connectedCount() === 1);
    await relay.restart();
    await until(() => pool.connectedCount() === 0, 3000, "the drop");
    await until(() => pool.connectedCount() === 1, 5000, "the reconnect");
    assert.equal(pool.status()[0].connects, 2);
    await until(() => relay.received.filter((f) => f.startsWith('["REQ","notes"')).length === 2, 3000, "the REQ re-sent");
    relay.broadcastRaw(
      JSON.stringify(["EVENT", "notes", finalizeEvent({ kind: 1, content: "after restart", tags: [], created_at: now() }, author)]),
    );
    await until(() => got.length === 1, 3000, "the event");
    assert.deepEqual(got, ["after restart"]);
    pool.stop();
  });
});
