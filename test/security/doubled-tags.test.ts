// A refusal names its tag once: "<tag>: <sentence>", never "not-allowed: not-allowed: ...". A sentence
// that already carries its tag and is tagged again is the mistake; this looks for it wherever a refusal is
// read: every tool for every role and path (its text, and the sentence the dispatch result carries apart),
// the HTTP doors' answers, and the Telegram replies a chat receives.
import assert from "node:assert/strict";
import { errorTags, leadingTag } from "../../lib/errors.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import type { Principal, Role } from "../../lib/registry/principal.ts";
import { encodeWav } from "../../lib/voice/wav.ts";
import { ownerApi } from "../support/owner-api.ts";
import { startTestSim, type TestSim } from "../support/sim.ts";
import { say, scene } from "../support/speech.ts";
import { TelegramServer, TEST_BOT_TOKEN } from "../support/telegram-server.ts";
import { fullArgs, sampleArgs } from "../support/tool-args.ts";

const WRITTEN = errorTags().map((t) => (t === "invalid-arguments" ? "invalid arguments" : t));
/** A tag written twice in a row, anywhere in a text (after "Forbidden: " too). */
const DOUBLED = new RegExp(`(?:^|: )(?:${WRITTEN.join("|")}): (?:${WRITTEN.join("|")}): `);

function assertOnce(text: string, where: string): void {
  assert.doesNotMatch(text, DOUBLED, `${where}: ${text}`);
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for: ${what}`);
    await new Promise((ok) => setTimeout(ok, 10));
  }
}

describe("no refusal carries its tag twice", function () {
  this.timeout(120_000);
  let telegram: TelegramServer;
  let sim: TestSim;

  before(async () => {
    telegram = await TelegramServer.start();
    sim = await startTestSim({ initialSecrets: { telegram: TEST_BOT_TOKEN }, baseUrls: { telegram: telegram.url } });
  });
  after(async () => {
    await sim.stop();
    await telegram.close();
  });

  it("leadingTag reads a tag a text starts with, and only a tag", () => {
    assert.equal(leadingTag("not-allowed: the owner has not allowed this."), "not-allowed");
    assert.equal(leadingTag("invalid arguments: 'x' is required."), "invalid-arguments");
    assert.equal(leadingTag("quota: the openai budget is spent."), "quota");
    assert.equal(leadingTag("Sent to the owner's chat: ok."), undefined);
    assert.equal(leadingTag("no colon here"), undefined);
    assert.match("Forbidden: not-allowed: not-allowed: x", DOUBLED, "the pattern finds a doubled tag after status words");
  });

  it("every tool, every role and path: the text names its tag once and the sentence carries none", async () => {
    const reg = sim.halo.core.registry;
    let refusals = 0;
    for (const role of ["admin", "user", "guest", "unknown"] as Role[])
      for (const via of ["turn", "mcp"] as const)
        for (const scheduled of [false, true]) {
          const p: Principal = { ...derivePrincipal(sim.halo.core, "mcp", role === "admin" ? "owner" : `p-${role}`), role, via, scheduled };
          for (const def of reg.all()) {
            for (const args of [{}, sampleArgs(def.inputSchema), fullArgs(def.inputSchema), { action: {} }, { action: [] }]) {
              const r = await Promise.race([
                reg.dispatch(def.name, args, p),
                new Promise<{ text: string; error?: undefined }>((ok) => setTimeout(() => ok({ text: "(still running)" }), 2000)),
              ]);
              const where = `${def.name} as ${role}/${via}${scheduled ? "/scheduled" : ""} ${JSON.stringify(args)}`;
              assertOnce(r.text, where);
              if (r.error) {
                refusals++;
                assert.equal(leadingTag(r.error.sentence), undefined, `${where}: the sentence carries its tag: ${r.error.sentence}`);
              }
            }
          }
        }
    assert.ok(refusals > 500, `${refusals} refusals read`);
  });

  it("the HTTP doors answer one tag after the status words", async () => {
    const guest = (await ownerApi(sim, "POST", "/api/clients", { name: "visitor", role: "guest", ns: "visitor" })).json.token as string;
    const post = async (path: string, body: string | Uint8Array, type: string, token = guest) => {
      const res = await fetch(`${sim.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": type },
        body,
      });
      return { status: res.status, json: (await res.json()) as { error?: string } };
    };
    const chat = await post("/api/chat", JSON.stringify({ text: "hello" }), "application/json");
    assert.equal(chat.status, 403);
    assert.match(chat.json.error!, /^Forbidden: not-allowed: the owner has not allowed/);
    const wav = encodeWav({ sampleRate: 16000, samples: scene(say("hello"), 200, 400, 100).samples });
    const voice = await post("/api/voice", wav, "audio/wav");
    assert.equal(voice.json.error, chat.json.error);
    const answers = [
      chat,
      voice,
      await post("/api/nostr/skills/0123456789abcdef/webhook", "{}", "application/json"),
      await ownerApi(sim, "POST", "/api/routines/r1a2b3c4d/approve", {}),
      await ownerApi(sim, "POST", "/api/downloads/d00000000/approve", {}),
      await ownerApi(sim, "PUT", "/api/config/ledBrightness", { value: 999 }),
    ];
    for (const a of answers) {
      assert.ok(a.status >= 400, JSON.stringify(a.json));
      assertOnce(a.json.error!, "HTTP");
    }
  });

  it("a Telegram chat refused credit reads the refusal once", async () => {
    assert.equal((await ownerApi(sim, "PUT", "/api/chats", { chats: ["42"] })).status, 200);
    assert.equal((await ownerApi(sim, "PUT", "/api/config/guestCredit", { value: false })).status, 200);
    telegram.message(42, "hello");
    await until(() => telegram.calls("sendMessage").length >= 1, "the reply");
    const text = String(telegram.calls("sendMessage")[0].params.text);
    assert.match(text, /^not-allowed: the owner has not allowed this role to spend provider credit/);
    assertOnce(text, "Telegram");
  });
});
