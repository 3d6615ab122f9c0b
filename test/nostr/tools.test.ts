// The Nostr tools through the registry (schema checks, roles, refusals) against a real relay.
import { TEST_HOST } from "../support/halo.ts";
import assert from "node:assert/strict";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { nip44 } from "nostr-tools";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { NOSTR_KEY_SETTING } from "../../lib/nostr/identity.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { publishAsClient, sleep, until } from "./support.ts";

const admin = makePrincipal("owner", "admin", "mcp");
const guest = makePrincipal("guest", "guest", "mcp");

describe("nostr tools (registry, real relay)", () => {
  let relay: TestRelay;
  let core: Core;
  const log = memoryLog();
  const call = (name: string, args: unknown, who = admin) => core.registry.dispatch(name, args, who);

  before(async () => {
    relay = await startTestRelay();
    core = buildCore(memoryPorts({ log }), TEST_HOST);
    core.nostr.setRelays([relay.url]);
    core.nostr.start();
    await until(() => core.nostr.pool!.connectedCount() === 1);
  });
  after(async () => {
    core.nostr.stop();
    await relay.close();
  });

  it("posts, finds its own events, reacts and deletes", async () => {
    const post = await call("nostr.post", { content: "first note", tags: [["t", "halo"]] });
    assert.equal(post.isError, undefined, post.text);
    const id = /event ([0-9a-f]{64})/.exec(post.text)![1];
    assert.ok(relay.repository.events.has(id));
    const mine = await call("nostr.my_events", { kind: 1 });
    assert.match(mine.text, new RegExp(id));
    const other = finalizeEvent(
      { kind: 1, content: "someone else", tags: [], created_at: Math.floor(Date.now() / 1000) },
      generateSecretKey(),
    );
    await publishAsClient(relay.url, other);
    const found = await call("nostr.query", { filter: { kinds: [1], limit: 5 } }, guest);
    assert.match(found.text, /2 event\(s\)/);
    assert.match(found.text, /someone else/);
    const react = await call("nostr.react", { event_id: other.id, event_pubkey: other.pubkey, reaction: "🤙" });
    assert.equal(react.isError, undefined, react.text);
    assert.ok([...relay.repository.events.values()].some((e) => e.kind === 7 && e.content === "🤙"));
    const del = await call("nostr.delete", { event_ids: [id], reason: "test" });
    assert.equal(del.isError, undefined, del.text);
    await until(() => !relay.repository.events.has(id), 3000, "the deletion");
  });

  it("stores a config note encrypted to itself (kind 30078) and recalls the newest", async () => {
    await call("config.store", { d_tag: "prefs", content: '{"v":1}' });
    await sleep(1100);
    assert.equal((await call("config.store", { d_tag: "prefs", content: '{"v":2}' })).isError, undefined);
    const stored = [...relay.repository.events.values()].filter((e) => e.kind === 30078);
    assert.equal(stored.length, 1);
    assert.ok(!stored[0].content.includes('"v"'));
    assert.equal((await call("config.recall", { d_tag: "prefs" })).text, '{"v":2}');
    assert.match((await call("config.recall", { d_tag: "nothing" })).text, /^not-found/);
  });

  it("encrypts and decrypts NIP-44 with a second key, and encodes/decodes NIP-19", async () => {
    const otherSk = generateSecretKey();
    const other = getPublicKey(otherSk);
    const ct = (await call("nostr.encrypt", { recipient_pubkey: other, plaintext: "between us" })).text;
    assert.equal(nip44.v2.decrypt(ct, nip44.v2.utils.getConversationKey(otherSk, core.nostr.identity.pubkey)), "between us");
    const back = nip44.v2.encrypt("and back", nip44.v2.utils.getConversationKey(otherSk, core.nostr.identity.pubkey));
    assert.equal((await call("nostr.decrypt", { sender_pubkey: other, ciphertext: back })).text, "and back");
    assert.match(
      (await call("nostr.decrypt", { sender_pubkey: other, ciphertext: back.slice(0, -4) + "AAAA" })).text,
      /^invalid: the payload does not decrypt/,
    );
    const npub = (await call("nostr.encode", { type: "npub", hex: other })).text;
    assert.match(npub, /^nostr:npub1/);
    assert.equal(JSON.parse((await call("nostr.decode", { uri: npub })).text).data, other);
    assert.match((await call("nostr.decode", { uri: "nsec1qqqq" })).text, /^refused/);
    assert.match((await call("nostr.decode", { uri: "npub1garbage" })).text, /^invalid/);
  });

  it("never shows the secret key, and refuses what a guest may not do", async () => {
    const secret = core.ports.settings.get(NOSTR_KEY_SETTING)!;
    const identity = await call("agent.identity", {}, guest);
    assert.match(identity.text, new RegExp(core.nostr.identity.pubkey));
    assert.ok(!identity.text.includes(secret));
    for (const name of [
      "nostr.post",
      "nostr.dm_send",
      "nostr.encrypt",
      "nostr.decrypt",
      "config.store",
      "config.recall",
      "nostr.subscription_set",
    ]) {
      const r = await call(name, {}, guest);
      assert.equal(r.isError, true, name);
    }
    const listed = core.registry.toolSpecsFor(guest).map((t) => t.name);
    assert.ok(!listed.includes("nostr.post") && listed.includes("nostr.query"));
    assert.match((await call("agent.version", {})).text, /^Halo /);
  });

  it("refuses bad arguments with a clear error and keeps serving", async () => {
    const bad: Array<[string, unknown]> = [
      ["nostr.post", { content: "x".repeat(70_000) }],
      ["nostr.post", { content: "dm", kind: 4 }],
      ["nostr.post", { content: "x", tags: [[1, 2]] }],
      ["nostr.query", { filter: { kinds: ["1"] } }],
      ["nostr.query", { filter: { authors: ["npub1x"] } }],
      ["nostr.query", { filter: { limit: 10_000 } }],
      ["nostr.dm_send", { recipient_pubkey: "not a key", message: "hi" }],
      ["nostr.delete", { event_ids: [] }],
      ["config.store", { d_tag: "../x", content: "y" }],
      ["nostr.subscription_set", { name: "dm-inbox", filter: { kinds: [1] } }],
      ["nostr.subscription_set", { name: "nope", enabled: false }],
    ];
    for (const [name, args] of bad) {
      const r = await call(name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args).slice(0, 80)}: ${r.text}`);
      assert.ok(r.text.length < 400);
    }
    assert.equal((await call("nostr.post", { content: "still serving" })).isError, undefined);
  });

  it("reports relay and subscription status", async () => {
    assert.match((await call("nostr.relay_status", {})).text, /: connected, connects 1/);
    const owner = getPublicKey(generateSecretKey());
    core.nostr.setOwner(owner);
    assert.match((await call("nostr.subscription_status", {})).text, /owner-contacts: on/);
    assert.equal((await call("nostr.subscription_set", { name: "owner-contacts", enabled: false })).isError, undefined);
    assert.match((await call("nostr.subscription_status", {})).text, /owner-contacts: off/);
  });
});
