// A DM runs once (lib/nostr/dm-channel.ts, lib/nostr/seen-store.ts), against the real relay from npm:
// the owner's DM, then 2,100 junk DMs that once emptied the seen-id sets, then the old DM sent again;
// a relay reconnect; a restart of the device over the same settings. Each time the DM must not run again.
import assert from "node:assert/strict";
import { encrypt as nip04Encrypt } from "nostr-tools/nip04";
import { wrapEvent } from "nostr-tools/nip17";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { nodeCurve } from "../../hosts/sim/curve/curve.ts";
import { cryptoRandom, memoryLog, nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { wsClient } from "../../hosts/sim/ports/websocket.ts";
import { NostrChannel } from "../../lib/nostr/dm-channel.ts";
import { NOSTR_SEEN_BUCKET_MAX, NOSTR_SEEN_KEEP_S, NOSTR_VERIFY_OTHERS_MAX } from "../../lib/nostr/limits.ts";
import { SeenEvents } from "../../lib/nostr/seen-store.ts";
import { NostrSubsystem } from "../../lib/nostr/subsystem.ts";
import { SpendRails } from "../../lib/people/rails.ts";
import type { Settings } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { signFast } from "../support/nostr-sign.ts";
import { sleep, until } from "./support.ts";

const now = (): number => Math.floor(Date.now() / 1000);
/** Junk DMs sent at once: fewer than the verification queue's lane for strangers holds. */
const BURST = NOSTR_VERIFY_OTHERS_MAX / 2;

interface Device {
  nostr: NostrSubsystem;
  channel: NostrChannel;
  turns: string[];
  stop(): void;
}

/** The device's Nostr side over `settings`: a real relay pool and the DM channel; turns are counted, each answers "ok". */
async function device(relay: TestRelay, settings: Settings, owner: string): Promise<Device> {
  const log = memoryLog();
  const nostr = new NostrSubsystem({
    settings,
    random: cryptoRandom,
    log,
    curve: nodeCurve(),
    digest: nodeDigest,
    now: () => Date.now(),
    sleep,
    ws: wsClient,
    backoffMinMs: 50,
    // The flood here is the test's own: the relay's window and the signature checks are raised so every junk DM is read.
    eventsPerWindow: 100_000,
    verifyPerSecond: 100_000,
  });
  const turns: string[] = [];
  const channel = new NostrChannel({
    nostr,
    runner: {
      runTurn: async (_p, input) => {
        turns.push(input.text);
        return { reply: "ok" };
      },
    },
    principalFor: (tier) => (tier === "admin" ? makePrincipal("owner", "admin", "turn") : undefined),
    strangerReply: () => undefined,
    rails: new SpendRails({ config: { bool: () => false }, now: () => Date.now() }),
    settings,
    log,
  });
  nostr.setRelays([relay.url]);
  if (nostr.owner() !== owner) nostr.setOwner(owner);
  nostr.start();
  channel.start();
  await until(() => nostr.pool!.connectedCount() === 1, 5000, "the relay connection");
  await until(() => relay.received.filter((f) => f.includes('"dm-inbox"')).length > 0, 5000, "the inbox subscription");
  return { nostr, channel, turns, stop: () => nostr.stop() };
}

describe("a Nostr DM runs once (floods, reconnects, restarts)", function () {
  this.timeout(120_000);
  let relay: TestRelay;
  const ownerSk = generateSecretKey();
  const owner = getPublicKey(ownerSk);

  before(async () => {
    relay = await startTestRelay();
  });
  after(async () => {
    await relay.close();
  });

  it("2,100 junk DMs, then the owner's old DM sent again: it does not run", async () => {
    const settings = memorySettings();
    const d = await device(relay, settings, owner);
    try {
      const me = d.nostr.identity.pubkey;
      const dm = finalizeEvent(
        { kind: 4, content: nip04Encrypt(ownerSk, me, "open the door"), tags: [["p", me]], created_at: now() },
        ownerSk,
      );
      relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", dm]));
      await until(() => d.turns.length === 1, 5000, "the owner's turn");
      // Junk: valid DMs from a stranger's key, each with its own id, straight down the inbox subscription.
      const junkSk = generateSecretKey();
      const frames: string[] = [];
      for (let i = 0; i < 2100; i++) {
        const junk = signFast({ kind: 4, content: `junk ${i}?iv=AAAAAAAAAAAAAAAAAAAAAA==`, tags: [["p", me]], created_at: now() }, junkSk);
        frames.push(JSON.stringify(["EVENT", "dm-inbox", junk]));
      }
      // In bursts the verification queue holds (NOSTR_VERIFY_OTHERS_MAX): a larger one is dropped and backed off.
      const read = (): number => d.channel.stats().refused + d.channel.stats().strangers;
      for (let i = 0; i < frames.length; i += BURST) {
        for (const f of frames.slice(i, i + BURST)) relay.broadcastRaw(f);
        const upTo = Math.min(frames.length, i + BURST);
        await until(() => read() >= upTo, 10_000, `junk ${upTo} to be read`);
      }
      assert.ok(read() >= 2100, "every junk DM was read");
      relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", dm]));
      await until(() => (d.channel.stats().replayed ?? 0) >= 1 || d.turns.length > 1, 5000, "the replay to be seen");
      await sleep(200);
      assert.deepEqual(d.turns, ["open the door"]);
    } finally {
      d.stop();
    }
  });

  it("a relay reconnect asks only for what is newer and re-runs nothing", async () => {
    const settings = memorySettings();
    const d = await device(relay, settings, owner);
    try {
      const me = d.nostr.identity.pubkey;
      const dm = finalizeEvent(
        { kind: 4, content: nip04Encrypt(ownerSk, me, "lights on"), tags: [["p", me]], created_at: now() + 2 },
        ownerSk,
      );
      const wrap = wrapEvent(ownerSk, { publicKey: me }, "lights off");
      relay.repository.upsert(dm as never);
      relay.repository.upsert(wrap as never);
      relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", dm]));
      relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", wrap]));
      await until(() => d.turns.length === 2, 5000, "both turns");
      const before = relay.received.length;
      await relay.restart();
      await until(() => d.nostr.pool!.connectedCount() === 1 && relay.received.length > before, 8000, "the reconnect");
      await until(() => relay.received.slice(before).some((f) => f.includes('"dm-inbox"')), 5000, "the inbox sent again");
      const req = JSON.parse(relay.received.slice(before).find((f) => f.includes('"dm-inbox"'))!) as [
        string,
        string,
        ...Array<{ kinds: number[]; since: number }>,
      ];
      const nip04 = req.slice(2).find((f) => typeof f === "object" && f.kinds[0] === 4) as { since: number };
      assert.equal(nip04.since, dm.created_at, "the NIP-04 filter starts at the last DM this relay delivered");
      await sleep(500);
      assert.deepEqual(d.turns.sort(), ["lights off", "lights on"]);
    } finally {
      d.stop();
    }
  });

  it("a restart over the same settings runs neither a NIP-04 nor a NIP-17 DM again", async () => {
    const settings = memorySettings();
    const first = await device(relay, settings, owner);
    const me = first.nostr.identity.pubkey;
    // The owner's clock runs a minute ahead: the DM is dated after the restart too.
    const dm = finalizeEvent(
      { kind: 4, content: nip04Encrypt(ownerSk, me, "start the kettle"), tags: [["p", me]], created_at: now() + 60 },
      ownerSk,
    );
    const wrap = wrapEvent(ownerSk, { publicKey: me }, "stop the kettle");
    try {
      relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", dm]));
      relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", wrap]));
      await until(() => first.turns.length === 2, 5000, "both turns");
    } finally {
      first.stop();
    }
    const second = await device(relay, settings, owner);
    try {
      assert.equal(second.nostr.identity.pubkey, me, "the same device key");
      relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", dm]));
      relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", wrap]));
      await until(() => (second.channel.stats().replayed ?? 0) >= 2 || second.turns.length > 0, 5000, "both replays to be seen");
      assert.deepEqual(second.turns, []);
    } finally {
      second.stop();
    }
  });

  it("the record keeps every id inside the window, evicts only older ones, and refuses rather than forget", () => {
    const settings = memorySettings();
    let clock = 1_800_000_000;
    const seen = new SeenEvents(settings, () => clock);
    // Ids all in bucket "a": the bucket fills at NOSTR_SEEN_BUCKET_MAX.
    const id = (n: number): string => `a${n.toString(16).padStart(15, "0")}${"0".repeat(48)}`;
    for (let i = 0; i < NOSTR_SEEN_BUCKET_MAX; i++) assert.equal(seen.add(id(i), clock - 10), true);
    assert.equal(seen.add(id(9999), clock), false, "a full bucket of fresh ids refuses a new one");
    assert.equal(seen.has(id(0)), true);
    for (const v of settings.keys("nostr.seen.")) assert.ok((settings.get(v) ?? "").length <= 3800, v);
    // Read back by a new instance (a restart).
    assert.equal(new SeenEvents(settings, () => clock).has(id(NOSTR_SEEN_BUCKET_MAX - 1)), true);
    // Two days and an hour later the old ids may go, and only then.
    clock += NOSTR_SEEN_KEEP_S - 15;
    assert.equal(seen.add(id(9999), clock), false);
    clock += 10;
    assert.equal(seen.add(id(9999), clock), true);
    assert.equal(seen.has(id(0)), false);
    assert.equal(seen.size(), 1);
  });
});
