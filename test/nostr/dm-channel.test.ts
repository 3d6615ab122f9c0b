// The Nostr DM channel end to end in the simulator: a real relay, a second key
// as the owner (nostr-tools on the other side), real turns against a local
// provider stand-in. NIP-04 and NIP-17 both ways; a stranger never reaches the model.
import assert from "node:assert/strict";
import { decrypt as nip04Decrypt, encrypt as nip04Encrypt } from "nostr-tools/nip04";
import { unwrapEvent, wrapEvent } from "nostr-tools/nip17";
import { npubEncode } from "nostr-tools/nip19";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { answer, openAiAnswer, openAiPrompt } from "../turn/support.ts";
import { ownerApi } from "../support/owner-api.ts";
import { ProviderServer } from "../support/provider-server.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { publishAsClient, until } from "./support.ts";

describe("the Nostr DM channel (simulator, real relay, real turns)", () => {
  let relay: TestRelay;
  let provider: ProviderServer;
  let sim: TestSim;
  let device: string;
  const log = memoryLog();
  const ownerSk = generateSecretKey();
  const owner = getPublicKey(ownerSk);
  const friendSk = generateSecretKey();
  const friend = getPublicKey(friendSk);
  const strangerSk = generateSecretKey();
  const now = (): number => Math.floor(Date.now() / 1000);
  const repliesTo = (
    pubkey: string,
    kind: number,
  ): Array<{ id: string; kind: number; pubkey: string; content: string; tags: string[][]; created_at: number; sig: string }> =>
    [...relay.repository.events.values()].filter((e) => e.kind === kind && e.tags.some((t) => t[0] === "p" && t[1] === pubkey)) as never;

  before(async () => {
    relay = await startTestRelay();
    provider = await ProviderServer.start();
    sim = await startTestSim({
      initialSecrets: { openai: "sk-test-openai-KEY" },
      baseUrls: { openai: provider.url },
      portOverrides: { log },
    });
    const set = await ownerApi(sim, "PUT", "/api/nostr/relays", { relays: [relay.url] });
    assert.equal(set.status, 200);
    const who = await ownerApi(sim, "PUT", "/api/nostr/owner", { pubkey: npubEncode(owner) });
    assert.equal(who.status, 200);
    assert.equal(who.json.owner, owner);
    device = who.json.pubkey as string;
    await until(() => sim.halo.core.nostr.pool!.connectedCount() === 1, 5000, "the relay connection");
    await until(() => relay.received.some((f) => f.includes('"dm-inbox"')), 5000, "the inbox subscription");
  });
  after(async () => {
    await sim.stop();
    await provider.close();
    await relay.close();
  });

  it("answers the owner's NIP-04 DM with a NIP-04 DM from a real turn", async () => {
    provider.reply(openAiAnswer(answer({ reply: "pong over nip-04" })));
    const dm = finalizeEvent(
      { kind: 4, content: nip04Encrypt(ownerSk, device, "ping over nip-04"), tags: [["p", device]], created_at: now() },
      ownerSk,
    );
    assert.equal(await publishAsClient(relay.url, dm), true);
    await until(() => repliesTo(owner, 4).length === 1, 8000, "the reply");
    const reply = repliesTo(owner, 4)[0];
    assert.equal(reply.pubkey, device);
    assert.equal(nip04Decrypt(ownerSk, device, reply.content), "pong over nip-04");
    assert.ok(provider.seen.at(-1)!.text.includes("ping over nip-04"));
  });

  it("answers the owner's NIP-17 DM with a gift-wrapped DM", async () => {
    provider.reply(openAiAnswer(answer({ reply: "pong over nip-17" })));
    const wrap = wrapEvent(ownerSk, { publicKey: device }, "ping over nip-17");
    assert.equal(await publishAsClient(relay.url, wrap), true);
    await until(() => repliesTo(owner, 1059).length === 1, 8000, "the wrapped reply");
    const rumor = unwrapEvent(repliesTo(owner, 1059)[0] as never, ownerSk);
    assert.equal(rumor.kind, 14);
    assert.equal(rumor.pubkey, device);
    assert.equal(rumor.content, "pong over nip-17");
  });

  it("never lets a stranger's DM reach the model, and answers nothing", async () => {
    const before = provider.seen.length;
    const dm = finalizeEvent(
      { kind: 4, content: nip04Encrypt(strangerSk, device, "stranger says hi"), tags: [["p", device]], created_at: now() },
      strangerSk,
    );
    assert.equal(await publishAsClient(relay.url, dm), true);
    const wrap = wrapEvent(strangerSk, { publicKey: device }, "stranger wraps hi");
    assert.equal(await publishAsClient(relay.url, wrap), true);
    await until(() => sim.halo.core.nostrChannel.stats().strangers === 2, 5000, "both stranger DMs handled");
    assert.equal(provider.seen.length, before);
    assert.equal(repliesTo(getPublicKey(strangerSk), 4).length + repliesTo(getPublicKey(strangerSk), 1059).length, 0);
    assert.ok(!log.lines.join("\n").includes("stranger"));
  });

  it("answers a stranger with the owner's fixed reply, still without the model", async () => {
    const before = provider.seen.length;
    const set = await ownerApi(sim, "PUT", "/api/nostr/stranger-reply", { reply: "This device answers its owner only." });
    assert.equal(set.status, 200);
    assert.equal(set.json.strangerReply, "This device answers its owner only.");
    assert.equal((await ownerApi(sim, "PUT", "/api/nostr/stranger-reply", { reply: "x".repeat(501) })).status, 400);
    const otherSk = generateSecretKey();
    const other = getPublicKey(otherSk);
    const wrap = wrapEvent(otherSk, { publicKey: device }, "hello device");
    assert.equal(await publishAsClient(relay.url, wrap), true);
    await until(() => repliesTo(other, 1059).length === 1, 5000, "the fixed reply");
    assert.equal(unwrapEvent(repliesTo(other, 1059)[0] as never, otherSk).content, "This device answers its owner only.");
    assert.equal(provider.seen.length, before);
    assert.equal((await ownerApi(sim, "PUT", "/api/nostr/stranger-reply", { reply: "" })).json.strangerReply, null);
  });

  it("runs a key the owner follows (kind 3) as a guest", async () => {
    const contacts = finalizeEvent({ kind: 3, content: "", tags: [["p", friend]], created_at: now() }, ownerSk);
    assert.equal(await publishAsClient(relay.url, contacts), true);
    await until(() => sim.halo.core.nostr.tierOf(friend) === "wot", 5000, "the owner's contacts");
    // A followed key runs as a guest: refused until the owner lets guests spend credit (lib/people/rails.ts).
    const seenBefore = provider.seen.length;
    const early = finalizeEvent(
      { kind: 4, content: nip04Encrypt(friendSk, device, "too early"), tags: [["p", device]], created_at: now() },
      friendSk,
    );
    const refused = sim.halo.core.nostrChannel.stats().refused;
    assert.equal(await publishAsClient(relay.url, early), true);
    await until(() => sim.halo.core.nostrChannel.stats().refused === refused + 1, 5000, "the guest DM refused");
    assert.equal(provider.seen.length, seenBefore, "no provider call for a refused guest");
    assert.equal((await ownerApi(sim, "PUT", "/api/config/guestCredit", { value: true })).status, 200);
    provider.reply(openAiAnswer(answer({ reply: "hello friend" })));
    const dm = finalizeEvent(
      { kind: 4, content: nip04Encrypt(friendSk, device, "friend here"), tags: [["p", device]], created_at: now() },
      friendSk,
    );
    assert.equal(await publishAsClient(relay.url, dm), true);
    await until(() => repliesTo(friend, 4).length === 1, 8000, "the reply to the friend");
    assert.equal(nip04Decrypt(friendSk, device, repliesTo(friend, 4)[0].content), "hello friend");
    // The guest's prompt lists no Nostr tool that signs as the device.
    assert.ok(!provider.seen.at(-1)!.text.includes("nostr.post"));
  });

  it("adopts a published skill, keeps it inert until the owner approves it, then a matching DM brings it into the turn", async () => {
    const authorSk = generateSecretKey();
    const author = getPublicKey(authorSk);
    const admin = makePrincipal("owner", "admin", "turn");
    const skill = finalizeEvent(
      {
        kind: 31123,
        content: "Answer questions about the weather as a haiku.",
        tags: [
          ["d", "weather-haiku"],
          ["description", "weather in verse"],
          ["trigger", "dm"],
          ["filter", "weather"],
          ["requires_tool", "nostr.query"],
        ],
        created_at: now(),
      },
      authorSk,
    );
    assert.equal(await publishAsClient(relay.url, skill), true);
    const needy = finalizeEvent(
      {
        kind: 31123,
        content: "x",
        tags: [
          ["d", "needs-shell"],
          ["requires_tool", "local_shell_exec"],
        ],
        created_at: now(),
      },
      authorSk,
    );
    assert.equal(await publishAsClient(relay.url, needy), true);
    const dispatch = (name: string, args: unknown) => sim.halo.core.registry.dispatch(name, args, admin);
    assert.match((await dispatch("nostr.skill_adopt", { pubkey: author, d: "needs-shell" })).text, /^unavailable: .*local_shell_exec/);
    const adopted = await dispatch("nostr.skill_adopt", { pubkey: author, d: "weather-haiku" });
    assert.match(adopted.text, /inert until the owner approves it/);
    const adoptions = [...relay.repository.events.values()].find((e) => e.kind === 10123 && e.pubkey === device)!;
    assert.deepEqual(adoptions.tags, [["a", `31123:${author}:weather-haiku`]]);
    const listed = (await ownerApi(sim, "GET", "/api/nostr/skills")).json.skills;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].approved, false);

    const ask = async (text: string): Promise<string> => {
      const before = repliesTo(owner, 4).length;
      provider.reply(openAiAnswer(answer({ reply: "ok" })));
      const dm = finalizeEvent(
        { kind: 4, content: nip04Encrypt(ownerSk, device, text), tags: [["p", device]], created_at: now() },
        ownerSk,
      );
      assert.equal(await publishAsClient(relay.url, dm), true);
      await until(() => repliesTo(owner, 4).length > before, 8000, "the reply");
      // The turn's own message: earlier turns come along as history.
      return JSON.stringify(openAiPrompt(provider.seen.at(-1)!).input.at(-1));
    };
    assert.ok(!(await ask("how is the weather today?")).includes("as a haiku"), "an unapproved skill is never used");
    assert.equal((await ownerApi(sim, "POST", `/api/nostr/skills/${listed[0].id}/approve`, {})).status, 200);
    assert.equal((await ownerApi(sim, "POST", "/api/nostr/skills/0000000000000000/approve", {})).status, 404);
    assert.ok((await ask("how is the weather today?")).includes("Answer questions about the weather as a haiku."));
    assert.ok(!(await ask("tell me a joke")).includes("as a haiku"), "only a DM with the keyword triggers it");
    assert.match((await dispatch("nostr.skill_remove", { id: listed[0].id })).text, /^Removed skill weather-haiku/);
    assert.equal((await ownerApi(sim, "GET", "/api/nostr/skills")).json.skills.length, 0);
  });

  it("publishes its own skill as a kind 31123 event", async () => {
    const admin = makePrincipal("owner", "admin", "turn");
    const r = await sim.halo.core.registry.dispatch(
      "nostr.skill_publish",
      { d: "greeter", content: "Greet warmly.", trigger: "dm", filter: "hello" },
      admin,
    );
    assert.equal(r.isError, undefined, r.text);
    const mine = [...relay.repository.events.values()].find((e) => e.kind === 31123 && e.pubkey === device)!;
    assert.deepEqual(mine.tags, [
      ["d", "greeter"],
      ["trigger", "dm"],
      ["filter", "hello"],
    ]);
    assert.match(
      (await sim.halo.core.registry.dispatch("nostr.skill_publish", { d: "x", content: "y", trigger: "dm" }, admin)).text,
      /filter is its keyword/,
    );
  });

  it("drops forged DMs and a flood from a relay without a turn", async () => {
    const turns = sim.halo.core.nostrChannel.stats().turns;
    const dm = finalizeEvent(
      { kind: 4, content: nip04Encrypt(ownerSk, device, "forged"), tags: [["p", device]], created_at: now() },
      ownerSk,
    );
    const status = (): { refused: number; dropped: number; backoffs: number } => sim.halo.core.nostr.pool!.status()[0];
    const refusedBefore = status().refused;
    relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", { ...dm, content: nip04Encrypt(ownerSk, device, "tampered") }]));
    relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", { ...dm, sig: "00".repeat(64) }]));
    relay.broadcastRaw("not json");
    relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", { ...dm, content: "x".repeat(200_000) }]));
    await until(() => status().refused >= refusedBefore + 4, 5000, "the refusals");
    for (let i = 0; i < 260; i++) {
      const spam = finalizeEvent({ kind: 4, content: "spam", tags: [["p", device]], created_at: now() }, strangerSk);
      relay.broadcastRaw(JSON.stringify(["EVENT", "dm-inbox", spam]));
    }
    await until(() => status().dropped > 0, 8000, "the flood guard");
    assert.equal(sim.halo.core.nostrChannel.stats().turns, turns);
    // the relay that flooded was disconnected, and comes back after its backoff
    assert.ok(sim.halo.core.nostr.pool!.status()[0].backoffs >= 1);
    await until(() => sim.halo.core.nostr.pool!.connectedCount() === 1, 8000, "the reconnect after the backoff");
  });
});
