// Triggered skills end to end in the simulator: a real relay, a second key as
// the owner, real turns against a local provider stand-in. Schedule (the clock
// moved, the tick called), subscription, webhook (over the simulator's socket)
// and chain triggers; nothing fires before the owner approves; a skill's turn
// sees and may call only its requires_tool tools; hostile input is refused.
import assert from "node:assert/strict";
import { npubEncode } from "nostr-tools/nip19";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { NOSTR_KEY_SETTING } from "../../lib/nostr/identity.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { answer, openAiAnswer, openAiTools } from "../turn/support.ts";
import { ownerApi } from "../support/owner-api.ts";
import { ProviderServer } from "../support/provider-server.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { publishAsClient, until } from "./support.ts";

describe("triggered Nostr skills (simulator, real relay, real turns)", () => {
  let relay: TestRelay;
  let provider: ProviderServer;
  let sim: TestSim;
  let device: string;
  let skew = 0;
  const log = memoryLog();
  const ownerSk = generateSecretKey();
  const owner = getPublicKey(ownerSk);
  const authorSk = generateSecretKey();
  const author = getPublicKey(authorSk);
  const now = (): number => Math.floor(Date.now() / 1000);
  const admin = makePrincipal("owner", "admin", "turn");
  const dispatch = (name: string, args: unknown) => sim.halo.core.registry.dispatch(name, args, admin);
  const triggers = () => sim.halo.core.triggers;
  const statusOf = (d: string) =>
    triggers()
      .list()
      .find((t) => t.d === d);
  const lastPrompt = (): string => provider.seen.at(-1)!.text;
  let lastAdoption = "";

  /** Publishes a skill by `sk`, adopts it, and returns its id (not yet approved). */
  async function adopt(sk: Uint8Array, d: string, tags: string[][], content: string): Promise<string> {
    const e = finalizeEvent({ kind: 31123, content, tags: [["d", d], ...tags], created_at: now() }, sk);
    assert.equal(await publishAsClient(relay.url, e), true);
    const r = await dispatch("nostr.skill_adopt", { pubkey: getPublicKey(sk), d });
    assert.equal(r.isError, undefined, r.text);
    lastAdoption = r.text;
    return e.id.slice(0, 16);
  }
  const approve = async (id: string): Promise<void> =>
    assert.equal((await ownerApi(sim, "POST", `/api/nostr/skills/${id}/approve`, {})).status, 200);
  const remove = async (id: string): Promise<void> => assert.equal((await dispatch("nostr.skill_remove", { id })).isError, undefined);
  const webhook = (id: string, body: string, token: string | null = sim.token): Promise<Response> =>
    fetch(`${sim.url}/api/nostr/skills/${id}/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });

  before(async () => {
    relay = await startTestRelay();
    provider = await ProviderServer.start();
    sim = await startTestSim({
      initialSecrets: { openai: "sk-test-openai-KEY" },
      baseUrls: { openai: provider.url },
      portOverrides: { log, clock: { now: () => Date.now() + skew } },
    });
    assert.equal((await ownerApi(sim, "PUT", "/api/nostr/relays", { relays: [relay.url] })).status, 200);
    device = (await ownerApi(sim, "PUT", "/api/nostr/owner", { pubkey: npubEncode(owner) })).json.pubkey as string;
    await until(() => sim.halo.core.nostr.pool!.connectedCount() === 1, 5000, "the relay connection");
  });
  after(async () => {
    await sim.stop();
    await provider.close();
    await relay.close();
  });

  it("fires a webhook skill only once approved, with only its requires_tool tools exposed and callable", async () => {
    const id = await adopt(
      authorSk,
      "door-watch",
      [
        ["trigger", "webhook"],
        ["requires_tool", "agent.version"],
      ],
      "When the door sensor calls, report the door state.",
    );
    const before = provider.seen.length;
    assert.equal((await webhook(id, '{"door":"open"}')).status, 404, "an unapproved skill never fires");
    await approve(id);
    provider.reply(
      openAiTools(["nostr_post", '{"content":"pwned"}']),
      openAiTools(["agent_version", "{}"]),
      openAiAnswer(answer({ reply: "door is open" })),
    );
    const fired = await webhook(id, '{"door":"open"}');
    assert.equal(fired.status, 202);
    assert.deepEqual(await fired.json(), { fired: true, id });
    await triggers().idle();
    assert.equal(provider.seen.length, before + 3);
    const first = provider.seen[before].text;
    assert.ok(first.includes("report the door state") && first.includes('\\"door\\":\\"open\\"'), "the skill and the body are in the turn");
    assert.ok(first.includes("agent.version") && !first.includes("nostr.post("), "CAPABILITIES lists only the skill's tools");
    const tools = (provider.seen[before].json.tools as Array<{ name: string }>).map((t) => t.name);
    assert.deepEqual(tools, ["agent_version"]);
    assert.match(provider.seen[before + 1].text, /not-allowed: nostr_post is not among this skill's tools/);
    assert.ok(![...relay.repository.events.values()].some((e) => e.kind === 1 && e.pubkey === device), "the refused tool never ran");
    assert.match(provider.seen[before + 2].text, /halo/i, "the allowed tool ran");
    assert.equal(statusOf("door-watch")!.lastResult, "ok");
    assert.match((await dispatch("nostr.trigger_list", {})).text, /door-watch \(webhook\): 1 fires/);

    // Hostile input: too large, not JSON, no token, an unknown id; the device keeps serving.
    assert.equal((await webhook(id, JSON.stringify({ pad: "x".repeat(5000) }))).status, 413);
    assert.equal((await webhook(id, "{not json")).status, 400);
    assert.equal((await webhook(id, "{}", null)).status, 401);
    assert.equal((await webhook("0123456789abcdef", "{}")).status, 404);
    assert.equal((await webhook("../../x", "{}")).status, 404);
    assert.equal(provider.seen.length, before + 3);
    assert.equal((await ownerApi(sim, "GET", "/api/nostr")).status, 200);
    await remove(id);
  });

  it("fires a subscription skill from a followed or owner key's event, never a stranger's, rate-limited", async () => {
    const id = await adopt(
      authorSk,
      "alert-relay",
      [
        ["trigger", "subscription"],
        ["filter", '{"kinds":[1],"#t":["halo-alert"]}'],
      ],
      "Summarise the alert in one line.",
    );
    const post = async (sk: Uint8Array, text: string, at = now()): Promise<void> => {
      const e = finalizeEvent({ kind: 1, content: text, tags: [["t", "halo-alert"]], created_at: at }, sk);
      assert.equal(await publishAsClient(relay.url, e), true);
    };
    await post(ownerSk, "before approval", now() - 5);
    await approve(id);
    await until(() => relay.received.some((f) => f.includes(`skill-${id}`)), 5000, "the skill's subscription");
    const before = provider.seen.length;
    await post(generateSecretKey(), "stranger alert");
    provider.reply(openAiAnswer(answer({ reply: "summarised" })));
    await post(ownerSk, "the boiler pressure is low");
    await until(() => statusOf("alert-relay")?.fires === 1, 5000, "the fire");
    await triggers().idle();
    assert.equal(provider.seen.length, before + 1, "only the owner's event fired a turn");
    assert.ok(lastPrompt().includes("the boiler pressure is low") && lastPrompt().includes("Summarise the alert"));
    assert.ok(!lastPrompt().includes("stranger alert") && !lastPrompt().includes("before approval"));
    for (let i = 0; i < 3; i++) {
      const seen = statusOf("alert-relay")!;
      const count = seen.fires + seen.dropped;
      provider.reply(openAiAnswer(answer({ reply: "ok" })));
      await post(ownerSk, `alert ${i}`);
      await until(() => statusOf("alert-relay")!.fires + statusOf("alert-relay")!.dropped > count, 5000, "the next alert");
      await triggers().idle();
    }
    assert.equal(statusOf("alert-relay")!.fires, 3);
    assert.equal(statusOf("alert-relay")!.dropped, 1);
    provider.reply(); // the dropped alert's answer was never asked for
    await remove(id);
    await post(ownerSk, "after removal");
    assert.equal(sim.halo.core.nostr.pool!.subscriptions().find((s) => s.name === `skill-${id}`)!.enabled, false);
  });

  it("fires a scheduled skill when the clock moves past its time, counted by the routine governor", async () => {
    const id = await adopt(
      authorSk,
      "hourly-check",
      [
        ["trigger", "schedule"],
        ["filter", '{"kind":"interval","every_seconds":300}'],
      ],
      "Check the device and note anything odd.",
    );
    skew += 301_000;
    await triggers().tick();
    assert.equal(statusOf("hourly-check"), undefined, "an unapproved schedule never fires");
    await approve(id);
    await triggers().tick();
    assert.equal(statusOf("hourly-check")!.fires, 0);
    const governed = (): number => JSON.parse(sim.halo.core.ports.settings.get("loop.governor") ?? '{"count":0}').count;
    const used = governed();
    provider.reply(openAiAnswer(answer({ reply: "all fine" })));
    skew += 301_000;
    await triggers().tick();
    assert.equal(statusOf("hourly-check")!.fires, 1);
    assert.equal(statusOf("hourly-check")!.lastResult, "ok");
    assert.ok(lastPrompt().includes("Check the device and note anything odd."));
    assert.equal(governed(), used + 1);
    await triggers().tick();
    assert.equal(statusOf("hourly-check")!.fires, 1, "not again before its next time");
    await remove(id);
  });

  it("runs chained skills after the one they follow, and stops a loop of chains at the depth limit", async () => {
    const otherSk = generateSecretKey();
    const start = await adopt(authorSk, "ping", [["trigger", "webhook"]], "Start the relay race.");
    const pong = await adopt(
      authorSk,
      "pong",
      [
        ["trigger", "chain"],
        ["filter", "ping"],
      ],
      "Carry on after ping.",
    );
    // Another author's skill also named "ping" follows "pong": a loop.
    const back = await adopt(
      otherSk,
      "ping",
      [
        ["trigger", "chain"],
        ["filter", "pong"],
      ],
      "Carry on after pong.",
    );
    for (const id of [start, pong, back]) await approve(id);
    const before = provider.seen.length;
    for (let i = 0; i < 6; i++) provider.reply(openAiAnswer(answer({ reply: `leg ${i}` })));
    assert.equal((await webhook(start, "{}")).status, 202);
    await until(
      () =>
        (statusOf("pong")?.dropped ?? 0) +
          (triggers()
            .list()
            .find((t) => t.id === back)?.dropped ?? 0) >
        0,
      8000,
      "the stop",
    );
    await triggers().idle();
    // ping (depth 0), pong (1), the other ping (2), pong (3); the next is refused.
    assert.equal(provider.seen.length, before + 4);
    assert.equal(statusOf("pong")!.fires, 2);
    assert.match(
      triggers()
        .list()
        .find((t) => t.id === back)!.lastResult!,
      /deeper than 3/,
    );
    assert.ok(log.lines.some((l) => l.includes("chain of skills stopped")));
    provider.reply();
    for (const id of [start, pong, back]) await remove(id);
  });

  it("refuses malformed skill events at adoption and keeps what is stored", async () => {
    const bad: Array<[string, string[][]]> = [
      ["bad-trigger", [["trigger", "teleport"]]],
      [
        "bad-sub",
        [
          ["trigger", "subscription"],
          ["filter", "not json"],
        ],
      ],
      [
        "sub-no-kinds",
        [
          ["trigger", "subscription"],
          ["filter", '{"authors":["zz"]}'],
        ],
      ],
      [
        "too-often",
        [
          ["trigger", "schedule"],
          ["filter", '{"kind":"interval","every_seconds":1}'],
        ],
      ],
      [
        "bad-chain",
        [
          ["trigger", "chain"],
          ["filter", "a b/c"],
        ],
      ],
    ];
    const stored = (await ownerApi(sim, "GET", "/api/nostr/skills")).json.skills.length;
    for (const [d, tags] of bad) {
      const e = finalizeEvent({ kind: 31123, content: "x", tags: [["d", d], ...tags], created_at: now() }, authorSk);
      assert.equal(await publishAsClient(relay.url, e), true);
      const r = await dispatch("nostr.skill_adopt", { pubkey: author, d });
      assert.equal(r.isError, true, d);
      assert.match(r.text, /^invalid: /, d);
    }
    assert.equal((await ownerApi(sim, "GET", "/api/nostr/skills")).json.skills.length, stored);
  });

  it("publishes, reads back and edits a private kind 31124 skill; searches skills ranked by adoption", async () => {
    const published = await dispatch("nostr.skill_publish", {
      d: "secret-recipe",
      content: "Only this device may read this.",
      trigger: "webhook",
      private: true,
    });
    assert.equal(published.isError, undefined, published.text);
    const mine = [...relay.repository.events.values()].find((e) => e.kind === 31124 && e.pubkey === device)!;
    assert.ok(!mine.content.includes("Only this device"), "the text is encrypted on the relay");
    const adopted = await dispatch("nostr.skill_adopt", { pubkey: device, d: "secret-recipe" });
    assert.equal(adopted.isError, undefined, adopted.text);
    const listed = (await ownerApi(sim, "GET", "/api/nostr/skills")).json.skills.find((s: { d: string }) => s.d === "secret-recipe");
    assert.equal(listed.content, "Only this device may read this.");
    assert.equal(listed.address, `31124:${device}:secret-recipe`);
    await remove(listed.id);
    const edited = await dispatch("nostr.skill_edit", { d: "secret-recipe", description: "a private one" });
    assert.equal(edited.isError, undefined, edited.text);
    const copies = [...relay.repository.events.values()].filter((e) => e.kind === 31124 && e.pubkey === device);
    assert.equal(copies.length, 1, "the edit replaced the old copy");
    assert.deepEqual(copies[0].tags, [
      ["d", "secret-recipe"],
      ["description", "a private one"],
      ["trigger", "webhook"],
    ]);
    assert.equal(sim.halo.core.nostr.identity.nip44Decrypt(device, copies[0].content), "Only this device may read this.");
    // Another author's private skill cannot be read, so it is not adopted.
    const foreign = finalizeEvent({ kind: 31124, content: "opaque", tags: [["d", "theirs"]], created_at: now() }, authorSk);
    assert.equal(await publishAsClient(relay.url, foreign), true);
    assert.match((await dispatch("nostr.skill_adopt", { pubkey: author, d: "theirs" })).text, /^not-allowed: a private skill/);
    assert.match((await dispatch("nostr.skill_edit", { d: "never-published", content: "x" })).text, /^not-found/);

    // Two agents adopt "popular-one", nobody adopts "lonely-one".
    for (const d of ["lonely-one", "popular-one"]) {
      const e = finalizeEvent({ kind: 31123, content: `bitcoin ${d}`, tags: [["d", d]], created_at: now() }, authorSk);
      assert.equal(await publishAsClient(relay.url, e), true);
    }
    for (const sk of [generateSecretKey(), generateSecretKey()]) {
      const list = finalizeEvent({ kind: 10123, content: "", tags: [["a", `31123:${author}:popular-one`]], created_at: now() }, sk);
      assert.equal(await publishAsClient(relay.url, list), true);
    }
    const found = (await dispatch("nostr.skill_search", { query: "BITCOIN", author, popular: true })).text.split("\n");
    assert.equal(found.length, 2);
    assert.match(found[0], /^- popular-one .*adopted by 2$/);
    assert.match(found[1], /^- lonely-one .*adopted by 0$/);
    assert.equal((await dispatch("nostr.skill_search", { query: "no-such-words" })).text, "No skills found.");
    // Words in any order, each somewhere in the skill ("one popular" finds "popular-one"; a missing word finds nothing).
    assert.match((await dispatch("nostr.skill_search", { query: "one  POPULAR", author })).text, /^- popular-one /);
    assert.match((await dispatch("nostr.skill_search", { query: "bitcoin lonely", author })).text, /^- lonely-one /);
    assert.equal((await dispatch("nostr.skill_search", { query: "popular nowhere", author })).text, "No skills found.");
  });
  it("expands a skill's {{...}} references once, under the fire's own principal; no secret reaches the prompt", async () => {
    const id = await adopt(
      authorSk,
      "context-hook",
      [["trigger", "webhook"]],
      [
        "Context: {{agent_identity}}",
        "Memory: {{memory_recall}}",
        "Owner: {{admin_identity}}",
        "Secrets: {{secret.nostr-key}} {{secret_openai}} {{config_recall}} {{cashu_wallet_balance}} {{nostr_decrypt}} {{__proto__}}",
        "The call: {{message}}",
        "End.",
      ].join("\n"),
    );
    assert.match(
      lastAdoption,
      /References this device does not resolve: \{\{secret\.nostr-key\}\}, \{\{secret_openai\}\}, \{\{config_recall\}\}, \{\{cashu_wallet_balance\}\}, \{\{nostr_decrypt\}\}, \{\{__proto__\}\}\.\n/,
      "the owner learns at adoption which references will read [unavailable]",
    );
    await approve(id);
    provider.reply(openAiAnswer(answer({ reply: "noted" })));
    const before = provider.seen.length;
    const fired = await webhook(id, JSON.stringify({ note: "{{agent_identity}} {{memory_recall}}" }));
    assert.equal(fired.status, 202);
    await triggers().idle();
    assert.equal(provider.seen.length, before + 1);
    const prompt = JSON.parse(provider.seen[before].text) as unknown;
    const text = JSON.stringify(prompt);
    const npub = (await dispatch("agent.identity", {})).text.split("\n")[1];
    assert.ok(text.includes(`Context: pubkey: ${device}`), "the device's identity block is in the skill's text");
    assert.equal(text.split(npub).length - 1, 1, "once: the body's own {{agent_identity}} stays text");
    assert.ok(text.includes(`Owner: The owner of this device on Nostr:\\npubkey: ${owner}`));
    assert.ok(text.includes("Memory: [unavailable: {{memory_recall}} (admin-only)]"), "a webhook's principal is not the owner");
    assert.ok(text.includes('The call: a webhook call with the body {\\"note\\":\\"{{agent_identity}} {{memory_recall}}\\"}'));
    assert.ok(!text.includes("[fired by webhook]"), "the skill placed the call itself");
    for (const name of ["secret_openai", "config_recall", "cashu_wallet_balance", "nostr_decrypt"])
      assert.ok(text.includes(`[unavailable: {{${name}}} (not a context block)]`), name);
    assert.equal(text.split("[unavailable: {{?}} (not a reference name)]").length - 1, 2, "secret.nostr-key and __proto__ are not names");
    const secrets = [sim.halo.core.ports.settings.get(NOSTR_KEY_SETTING)!, "sk-test-openai-KEY", sim.token];
    for (const request of provider.seen)
      for (const secret of secrets) assert.ok(!request.text.includes(secret), "a secret reached the provider");
    assert.ok(log.lines.some((l) => /skill context-hook: references unavailable: memory_recall \(admin-only\)/.test(l)));
    await remove(id);
  });
});
