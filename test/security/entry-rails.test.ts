// Every door that spends the owner's provider credit or runs a turn asks the one decision function
// (SpendRails.decide, lib/people/rails.ts): credit by role as POST /api/chat always did, and a rate limit per
// client or sender. Like the access matrix does for tools, the doors are enumerated: every place in lib/ that
// starts a turn is either a door that asks the rails or listed with why it need not. Then, on the simulator
// over real sockets: a guest refused by /api/chat is refused by /api/voice, the webhook route and
// session.spawn with no provider call; 100 voice uploads in 2 s make at most 3 x RAILS_TURN_BURST provider
// calls; 61 webhook calls run as the webhook's own principal and use none of the day's scheduled turns.
import assert from "node:assert/strict";
import { generateSecretKey, finalizeEvent } from "nostr-tools/pure";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { RAILS_TURN_BURST, SPEND_DOORS } from "../../lib/people/rails.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { encodeWav } from "../../lib/voice/wav.ts";
import { libModules, parse } from "../support/lib-sources.ts";
import { startTestRelay, type TestRelay } from "../support/nostr-relay.ts";
import { ownerApi } from "../support/owner-api.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { replyPcm, say, scene } from "../support/speech.ts";
import { VoiceServer } from "../support/voice-server.ts";
import { answer, openAiAnswer } from "../turn/support.ts";
import { publishAsClient } from "../nostr/support.ts";

/** The doors: the file that opens each, which must ask the rails. */
const DOORS: { readonly [door: string]: string } = {
  chat: "lib/http/chat-api.ts",
  voice: "lib/http/voice-api.ts",
  webhook: "lib/http/nostr-webhook.ts",
  telegram: "lib/chat/telegram-inbound.ts",
  "nostr-dm": "lib/nostr/dm-channel.ts",
  "nostr-skill": "lib/nostr/triggers.ts",
  "session-spawn": "lib/tools/session.ts",
};

/** Places that start a turn and are not doors, with why. */
const NOT_DOORS: { readonly [file: string]: string } = {
  "lib/voice/voice-loop.ts": "the device's own talk button: someone at the desk, on the owner's device",
  "lib/voice/pipeline.ts": "the voice pipeline: the caller (POST /api/voice, the talk button) decides",
  "lib/app/subsystems/agents.ts": "the owner's routines: scheduled turns under the daily governor",
};

/** Files of lib/ that start a turn: a call of `.runTurn(` or a `runTurn:` handed to a pipeline. */
function turnStarters(): string[] {
  const out: string[] = [];
  for (const file of libModules()) {
    if (file.startsWith("lib/generated/") || file === "lib/turn/engine.ts") continue;
    let found = false;
    const walk = (n: import("typescript").Node): void => {
      const t = n as { name?: { text?: string }; expression?: { name?: { text?: string } } };
      if (n.kind === 214 /* CallExpression */ && t.expression?.name?.text === "runTurn") found = true;
      if (n.kind === 304 /* PropertyAssignment */ && t.name?.text === "runTurn") found = true;
      n.forEachChild(walk);
    };
    walk(parse(file));
    if (found) out.push(file);
  }
  return out;
}

describe("credit and rate rails on every door that spends", function () {
  this.timeout(120_000);
  let stand: VoiceServer;
  let relay: TestRelay;
  let sim: TestSim;
  let guest: string;
  let user: string;
  const calls = (): number => stand.uploads.length + stand.llm.seen.length + stand.speechRequests.length;
  const wav = (): Uint8Array => encodeWav({ sampleRate: 16000, samples: scene(say("what time is it"), 300, 900, 150).samples });
  const post = async (path: string, token: string, body: Uint8Array | string, type: string) => {
    const res = await fetch(`${sim.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": type },
      body,
    });
    return { status: res.status, json: (await res.json()) as { error?: string; [k: string]: unknown } };
  };
  const client = async (name: string, role: string): Promise<string> => {
    const r = await ownerApi(sim, "POST", "/api/clients", { name, role, ns: name });
    assert.equal(r.status, 201, JSON.stringify(r.json));
    return r.json.token as string;
  };

  before(async () => {
    stand = await VoiceServer.start();
    relay = await startTestRelay();
    sim = await startTestSim({
      baseUrls: { openai: stand.url },
      initialSecrets: { openai: "sk-rails-KEY" },
      portOverrides: { log: memoryLog() },
    });
    guest = await client("visitor", "guest");
    user = await client("kitchen", "user");
  });
  after(async () => {
    await sim.stop();
    await stand.close();
    await relay.close();
  });

  it("enumerates the doors: each asks the rails, and nothing else in lib/ starts a turn", () => {
    assert.deepEqual(Object.keys(DOORS).sort(), [...SPEND_DOORS].sort());
    for (const [door, file] of Object.entries(DOORS)) {
      assert.match(parse(file).text, /rails\.(decide|admit)\(/, `${door}: ${file} asks the rails`);
      assert.ok(parse(file).text.includes(`"${door}"`), `${file} names its door "${door}"`);
    }
    const starters = turnStarters();
    const unlisted = starters.filter((f) => !Object.values(DOORS).includes(f) && !(f in NOT_DOORS));
    assert.deepEqual(unlisted, [], "a new place that starts a turn must ask the rails or be listed with its reason");
    for (const f of Object.keys(NOT_DOORS)) assert.ok(starters.includes(f), `stale entry ${f}`);
  });

  it("a guest refused by /api/chat is refused by /api/voice, the webhook route and session.spawn, and no provider is called", async () => {
    const before = calls();
    const chat = await post("/api/chat", guest, JSON.stringify({ text: "hello" }), "application/json");
    assert.equal(chat.status, 403);
    const voice = await post("/api/voice", guest, wav(), "audio/wav");
    assert.equal(voice.status, 403);
    assert.equal(voice.json.error, chat.json.error, "the same refusal, word for word");
    assert.match(chat.json.error!, /not-allowed: the owner has not allowed this role to spend provider credit/);
    const hook = await post("/api/nostr/skills/0123456789abcdef/webhook", guest, "{}", "application/json");
    // No triggers runtime answers for that id: the rails come first, so a guest learns nothing either way.
    assert.ok(hook.status === 403 || hook.status === 404, String(hook.status));
    const visitor = { ...derivePrincipal(sim.halo.core, "mcp", "visitor"), via: "turn" as const };
    assert.equal(visitor.role, "guest");
    const spawn = await sim.halo.core.registry.dispatch("session.spawn", { task: "count to ten" }, visitor);
    assert.equal(spawn.text, chat.json.error!.replace(/^Forbidden: /, ""), "session.spawn: the same refusal");
    assert.equal(calls(), before, "provider calls by a guest past the rails");
  });

  it("100 voice uploads in 2 s from one client do not make 300 provider calls", async () => {
    for (let i = 0; i < 100; i++) {
      stand.transcripts.push("what time is it");
      stand.llm.reply(openAiAnswer(answer({ reply: "Noon." })));
      stand.speech.push({ pcm: replyPcm(200) });
    }
    const body = wav();
    const before = calls();
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 100 }, () => post("/api/voice", user, body, "audio/wav")));
    const sentIn = Date.now() - started;
    // Also across doors: the same client's chat is now refused too.
    assert.equal((await post("/api/chat", user, JSON.stringify({ text: "and now?" }), "application/json")).status, 429);
    const ok = answers.filter((a) => a.status === 200).length;
    const limited = answers.filter((a) => a.status === 429).length;
    const made = calls() - before;
    console.log(`      voice: 100 uploads in ${sentIn} ms -> ${ok} ran, ${limited} refused 429, ${made} provider calls`);
    assert.equal(ok + limited, 100, JSON.stringify(answers.find((a) => a.status !== 200 && a.status !== 429)));
    assert.ok(ok <= RAILS_TURN_BURST, `${ok} ran`);
    assert.ok(made <= 3 * RAILS_TURN_BURST, `${made} provider calls`);
    assert.match(answers.find((a) => a.status === 429)!.json.error!, /rate-limited/);
    // The owner is not rate-limited, and the server kept serving.
    stand.transcripts.length = 0;
    const owner = await post("/api/chat", sim.token, JSON.stringify({ text: "still there?" }), "application/json");
    assert.notEqual(owner.status, 429);
  });

  it("61 webhook calls run as the webhook's principal and use none of the day's scheduled turns", async () => {
    const core = sim.halo.core;
    assert.equal((await ownerApi(sim, "PUT", "/api/nostr/relays", { relays: [relay.url] })).status, 200);
    const authorSk = generateSecretKey();
    const e = finalizeEvent(
      {
        kind: 31123,
        content: "When the door calls, say so.",
        tags: [
          ["d", "door"],
          ["trigger", "webhook"],
          ["requires_tool", "agent.version"],
        ],
        created_at: Math.floor(Date.now() / 1000),
      },
      authorSk,
    );
    for (let i = 0; i < 100 && core.nostr.pool!.connectedCount() < 1; i++) await new Promise((ok) => setTimeout(ok, 50));
    assert.equal(await publishAsClient(relay.url, e), true);
    const admin = makePrincipal("owner", "admin", "turn");
    const adopted = await core.registry.dispatch("nostr.skill_adopt", { pubkey: e.pubkey, d: "door" }, admin);
    assert.equal(adopted.isError, undefined, adopted.text);
    const id = e.id.slice(0, 16);
    assert.equal((await ownerApi(sim, "POST", `/api/nostr/skills/${id}/approve`, {})).status, 200);
    for (let i = 0; i < 70; i++) stand.llm.reply(openAiAnswer(answer({ reply: "door noted" })));
    // A client of its own: the kitchen's bucket was spent on voice above (the rate is per client, across doors).
    const doorbell = await client("doorbell", "user");
    const usedBefore = core.governor.used(Date.now());
    const llmBefore = stand.llm.seen.length;
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++)
      statuses.push((await post(`/api/nostr/skills/${id}/webhook`, doorbell, `{"n":${i}}`, "application/json")).status);
    await core.triggers.idle();
    const fired = statuses.filter((s) => s === 202).length;
    const limited = statuses.filter((s) => s === 429).length;
    console.log(`      webhook: 61 calls -> ${fired} fired, ${limited} refused 429, ${statuses.length - fired - limited} busy`);
    assert.equal(core.governor.used(Date.now()), usedBefore, "no scheduled turn was used");
    assert.ok(fired >= 1 && fired <= RAILS_TURN_BURST, `${fired} fired`);
    assert.ok(limited >= 61 - RAILS_TURN_BURST, `${limited} refused`);
    assert.ok(stand.llm.seen.length - llmBefore <= RAILS_TURN_BURST * 3);
    assert.ok(stand.llm.seen.at(-1)!.text.includes("When the door calls"), "the skill ran");
  });
});
