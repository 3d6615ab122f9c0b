// reply.speak and reply.telegram through the real core: the speaker port of the
// simulator, and a local server speaking the Telegram Bot API.
import { VALIDATORS } from "../../lib/generated/validators.js";
import { ToolRegistry } from "../../lib/registry/registry.ts";
import { REPLY_TOOLS } from "../../lib/tools/reply.ts";
import { withoutError } from "../support/registry.ts";
import { TEST_HOST } from "../support/halo.ts";
import assert from "node:assert/strict";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import type { SimAudioOut } from "../../hosts/sim/ports/hardware.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import type { VoiceSynth } from "../../lib/chat/voice.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import type { Principal } from "../../lib/registry/principal.ts";
import { memoryCore } from "../support/memory.ts";
import { principal } from "../support/registry.ts";
import { TelegramServer, TEST_BOT_TOKEN } from "../support/telegram-server.ts";
import { TINY_PNG } from "../files/support.ts";
import { replyPcm } from "../support/speech.ts";
import { VoiceServer } from "../support/voice-server.ts";

const OGG = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0, 2, 0, 0, 0, 0, 255, 254, 13, 10]);

describe("reply.speak", () => {
  let stand: VoiceServer;
  before(async () => {
    stand = await VoiceServer.start();
  });
  after(async () => stand.close());
  const setup = (overrides: Parameters<typeof memoryPorts>[0] = {}) => {
    const core = buildCore(memoryPorts({ log: memoryLog(), ...overrides }), { ...TEST_HOST, baseUrls: { openai: stand.url } });
    core.secrets.set("openai", "sk-speak-KEY");
    return { core, owner: derivePrincipal(core, "web", "owner"), speaker: core.ports.audioOut as SimAudioOut | undefined };
  };

  it("speaks through the speaker port with the owner's voice: speech streamed as PCM and played", async () => {
    const { core, owner, speaker } = setup();
    core.config.apply([["ttsVoice", "nova"]], "owner");
    stand.speech.push({ pcm: replyPcm(500) });
    const r = await core.registry.dispatch("reply.speak", { text: "Good morning." }, owner);
    assert.deepEqual(r, { text: "Spoken aloud (13 characters)." });
    assert.deepEqual(stand.speechRequests.at(-1), {
      model: "gpt-4o-mini-tts",
      input: "Good morning.",
      voice: "nova",
      response_format: "pcm",
    });
    assert.equal(speaker!.played.length, 1);
    assert.deepEqual(Array.from(speaker!.played[0].samples), Array.from(replyPcm(500)));
  });

  it("says why nothing was spoken when the speech service has no key or fails", async () => {
    const { core, owner, speaker } = setup();
    core.secrets.clear("openai");
    assert.deepEqual(withoutError(await core.registry.dispatch("reply.speak", { text: "hello" }, owner)), {
      text: "not-spoken: the speech did not play (No OpenAI key is set for speech; the owner sets it through the owner API). Reply in text instead.",
      isError: true,
    });
    core.secrets.set("openai", "sk-speak-KEY");
    stand.speech.push({ pcm: replyPcm(100), status: 503 });
    const r = await core.registry.dispatch("reply.speak", { text: "hello" }, owner);
    assert.match(r.text, /^not-spoken: the speech did not play \(/);
    assert.ok(!r.text.includes("sk-speak-KEY"));
    assert.equal(speaker!.played.length, 0);
  });

  it("says honestly why nothing was spoken: voice replies off, volume 0 (knob or port), silent, no speaker, a failing speaker", async () => {
    const cases: Array<[string, (c: Core) => void, string]> = [
      [
        "ttsOn off",
        (c) => c.config.apply([["ttsOn", false]], "owner"),
        "not-spoken: spoken replies are off (ttsOn is false). Reply in text instead.",
      ],
      ["sfxVol 0", (c) => c.config.apply([["sfxVol", 0]], "owner"), "not-spoken: the speaker volume is 0. Reply in text instead."],
      ["port volume 0", (c) => c.ports.audioOut!.setVolume(0), "not-spoken: the speaker volume is 0. Reply in text instead."],
      [
        "silent",
        (c) => c.config.apply([["profile", "silent"]], "owner"),
        "not-spoken: the device is on silent (profile silent). Reply in text instead.",
      ],
    ];
    for (const [label, change, text] of cases) {
      const { core, owner, speaker } = setup();
      change(core);
      assert.deepEqual(withoutError(await core.registry.dispatch("reply.speak", { text: "hello" }, owner)), { text, isError: true }, label);
      assert.equal(speaker!.played.length, 0, label);
    }
    const bare = setup({ audioOut: undefined });
    assert.deepEqual(withoutError(await bare.core.registry.dispatch("reply.speak", { text: "hello" }, bare.owner)), {
      text: "not-spoken: this device has no speaker. Reply in text instead.",
      isError: true,
    });
    const broken = setup({
      audioOut: {
        volume: () => 50,
        setVolume: () => undefined,
        tone: async () => undefined,
        write: () => {
          throw new Error("i2s fault");
        },
        drain: async () => undefined,
        stop: () => undefined,
      },
    });
    stand.speech.push({ pcm: replyPcm(100) });
    assert.equal(
      (await broken.core.registry.dispatch("reply.speak", { text: "hello" }, broken.owner)).text,
      "not-spoken: the speech did not play (The speaker failed: i2s fault). Reply in text instead.",
    );
  });

  it("is turn-only: hidden from and refused over /mcp", async () => {
    const { core, speaker } = setup();
    const mcp = principal("admin", "mcp", "owner");
    assert.ok(!core.registry.toolSpecsFor(mcp).some((t) => t.name.startsWith("reply.")));
    assert.match((await core.registry.dispatch("reply.speak", { text: "x" }, mcp)).text, /^turn-only: reply\.speak/);
    assert.equal(speaker!.played.length, 0);
  });

  it("refuses bad input", async () => {
    const { core, owner, speaker } = setup();
    for (const args of [
      {},
      { text: "" },
      { text: 5 },
      { text: "x".repeat(601) },
      { text: "x", loud: true },
      { text: null },
      { text: ["x"] },
    ]) {
      const r = await core.registry.dispatch("reply.speak", args, owner);
      assert.equal(r.isError, true, JSON.stringify(args).slice(0, 40));
      assert.match(r.text, /^invalid arguments/);
    }
    assert.equal(
      (await core.registry.dispatch("reply.speak", { text: "   " }, owner)).text,
      "invalid arguments: there is nothing to speak.",
    );
    assert.equal(speaker!.played.length, 0);
  });
});

describe("reply.telegram", () => {
  let server: TelegramServer;
  beforeEach(async () => {
    server = await TelegramServer.start();
  });
  afterEach(async () => server.close());

  function setup(options: { voice?: VoiceSynth; token?: string | null; ownerChat?: string } = {}) {
    const rig = memoryCore({ core: { baseUrls: { telegram: server.url } } });
    const { core } = rig;
    // The tools are values: bound here to a synthesizer of the test's own when it gives one.
    const registry = new ToolRegistry({
      validators: VALIDATORS,
      ring: core.ring,
      log: core.ports.log,
      clock: core.ports.clock,
      timers: core.ports.timers,
    });
    registry.registerAll(REPLY_TOOLS, { ...core, voiceNotes: options.voice ?? core.voiceNotes });
    if (options.token !== null) core.secrets.set("telegram", options.token ?? TEST_BOT_TOKEN);
    core.chats.replace(["42", "-1001", "77"]);
    core.people.setRole("42", "user");
    core.config.apply([["ownerChatId", options.ownerChat ?? "7"]], "owner");
    const as = (source: "web" | "chat", id: string): Principal => derivePrincipal(core, source, id);
    return {
      core,
      rig,
      owner: as("web", "owner"),
      user42: as("chat", "42"),
      call: (args: unknown, p: Principal) => registry.dispatch("reply.telegram", args, p).then(withoutError),
    };
  }
  const texts = (): Array<[string, string]> => server.calls("sendMessage").map((q) => [q.params.chat_id, q.params.text]);

  it("sends the owner's text to the owner's chat, and a chat's text to its own chat", async () => {
    const { owner, user42, call } = setup();
    assert.deepEqual(withoutError(await call({ text: "Reminder: call mum." }, owner)), { text: "Sent to the owner's chat as text." });
    assert.deepEqual(withoutError(await call({ text: "Here you go." }, user42)), { text: "Sent to chat 42 as text." });
    assert.deepEqual(texts(), [
      ["7", "Reminder: call mum."],
      ["42", "Here you go."],
    ]);
    assert.equal(server.calls("sendMessage")[0].path, "/bot<token>/sendMessage");
  });

  it("lets an admin name an allow-listed chat; refuses other chats, and non-admins naming another chat", async () => {
    const { owner, user42, call } = setup();
    assert.deepEqual(withoutError(await call({ text: "to the group", chat_id: "-1001" }, owner)), { text: "Sent to chat -1001 as text." });
    assert.deepEqual(withoutError(await call({ text: "x", chat_id: "99" }, owner)), {
      text: "not-allowed: that chat is not on the owner's chat allow-list.",
      isError: true,
    });
    assert.deepEqual(withoutError(await call({ text: "x", chat_id: "77" }, user42)), {
      text: "admin-only: only an admin may name another chat; leave chat_id out to reach this conversation's chat.",
      isError: true,
    });
    assert.deepEqual(withoutError(await call({ text: "mine", chat_id: "42" }, user42)), { text: "Sent to chat 42 as text." });
    assert.deepEqual(texts(), [
      ["-1001", "to the group"],
      ["42", "mine"],
    ]);
  });

  it("reports not-configured without a token or without an owner chat, sending nothing", async () => {
    const noToken = setup({ token: null });
    assert.deepEqual(withoutError(await noToken.call({ text: "x" }, noToken.owner)), {
      text: "not-configured: Telegram is not set up (the owner sets the bot token through the owner API).",
      isError: true,
    });
    const noOwner = setup({ ownerChat: "" });
    assert.deepEqual(withoutError(await noOwner.call({ text: "x" }, noOwner.owner)), {
      text: "not-configured: there is no chat to send to: no owner chat is set (the owner sets ownerChatId through the owner API).",
      isError: true,
    });
    assert.equal(server.requests.length, 0);
  });

  it("sends a voice note through the synthesizer, as a multipart upload", async () => {
    const asked: Array<[string, string]> = [];
    const voice: VoiceSynth = {
      synthesize: async (text, v) => (asked.push([text, v]), { bytes: OGG, mime: "audio/ogg", name: "reply.ogg" }),
    };
    const { owner, call } = setup({ voice });
    assert.deepEqual(withoutError(await call({ text: "Spoken hello", voice: true }, owner)), {
      text: "Sent to the owner's chat as a voice message.",
    });
    assert.deepEqual(asked, [["Spoken hello", "alloy"]]);
    const [req] = server.calls("sendVoice");
    assert.equal(req.params.chat_id, "7");
    assert.deepEqual(
      { field: req.file!.field, filename: req.file!.filename, type: req.file!.type },
      { field: "voice", filename: "reply.ogg", type: "audio/ogg" },
    );
    assert.deepEqual(req.file!.bytes, OGG);
    assert.equal(texts().length, 0);
  });

  it("falls back to text when voice cannot be made or sent: the content always arrives", async () => {
    const none = setup();
    assert.deepEqual(withoutError(await none.call({ text: "a", voice: true }, none.owner)), {
      text: "Sent to the owner's chat as text (not as voice: the voice note failed: No OpenAI key is set for speech; the owner sets it through the owner API).",
    });
    const off = setup({ voice: { synthesize: async () => assert.fail("must not synthesize with voice replies off") } });
    off.core.config.apply([["ttsOn", false]], "owner");
    assert.deepEqual(withoutError(await off.call({ text: "b", voice: true }, off.owner)), {
      text: "Sent to the owner's chat as text (not as voice: spoken replies are off (ttsOn is false)).",
    });
    const failing = setup({ voice: { synthesize: () => Promise.reject(new Error("The speech service refused the request.")) } });
    assert.deepEqual(withoutError(await failing.call({ text: "c", voice: true }, failing.owner)), {
      text: "Sent to the owner's chat as text (not as voice: the voice note failed: The speech service refused the request).",
    });
    const rejected = setup({ voice: { synthesize: async () => ({ bytes: OGG, mime: "audio/ogg", name: "r.ogg" }) } });
    server.fail("sendVoice", { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: VOICE_MESSAGES_FORBIDDEN" } });
    assert.match(
      (await rejected.call({ text: "d", voice: true }, rejected.owner)).text,
      /^Sent to the owner's chat as text \(not as voice: the voice note failed: Telegram rejected the request \(HTTP 400\): Bad Request: VOICE_MESSAGES_FORBIDDEN\)\.$/,
    );
    const mistral = setup();
    mistral.core.config.apply([["ttsProv", "mistral"]], "owner");
    assert.deepEqual(withoutError(await mistral.call({ text: "e", voice: true }, mistral.owner)), {
      text: "Sent to the owner's chat as text (not as voice: the voice note failed: Voice notes are made with OpenAI speech only; ttsProv is mistral).",
    });
    assert.deepEqual(texts(), [
      ["7", "a"],
      ["7", "b"],
      ["7", "c"],
      ["7", "d"],
      ["7", "e"],
    ]);
  });

  it("turns a Telegram failure into send-failed, never naming the token", async () => {
    const { owner, call } = setup();
    server.fail("sendMessage", {
      status: 403,
      body: { ok: false, error_code: 403, description: `Forbidden: bot was blocked by the user ${TEST_BOT_TOKEN}` },
    });
    const r = await call({ text: "x" }, owner);
    assert.equal(r.isError, true);
    assert.equal(
      r.text,
      "send-failed: Telegram refused to deliver to that chat (HTTP 403): Forbidden: bot was blocked by the user [token]",
    );
    const bad = setup({ token: "123456:WRONGwrongWRONGwrongWRONG" });
    const refused = await bad.call({ text: "x" }, bad.owner);
    assert.equal(refused.text, "send-failed: Telegram refused the bot token (HTTP 401); the owner can replace it through the owner API.");
  });

  it("is turn-only, and is allowed in scheduled turns (routines report through it)", async () => {
    const { core, call } = setup();
    const mcp = principal("admin", "mcp", "owner");
    assert.match((await call({ text: "x" }, mcp)).text, /^turn-only: reply\.telegram/);
    assert.deepEqual(withoutError(await call({ text: "daily digest" }, derivePrincipal(core, "web", "owner", true))), {
      text: "Sent to the owner's chat as text.",
    });
    assert.deepEqual(texts(), [["7", "daily digest"]]);
  });

  it("refuses bad input before sending anything", async () => {
    const { owner, call } = setup();
    const bad: unknown[] = [
      {},
      { text: "" },
      { text: 1 },
      { text: "x".repeat(4097) },
      { text: "x", chat_id: "abc" },
      { text: "x", chat_id: "@channel" },
      { text: "x", chat_id: "" },
      { text: "x", chat_id: "1".repeat(22) },
      { text: "x", chat_id: 42 },
      { text: "x", voice: "yes" },
      { text: "x", extra: 1 },
      { text: "x", chat_id: "4 2" },
    ];
    for (const args of bad) {
      const r = await call(args, owner);
      assert.equal(r.isError, true, JSON.stringify(args).slice(0, 60));
      assert.match(r.text, /^invalid arguments/, JSON.stringify(args).slice(0, 60));
    }
    assert.equal((await call({ text: "  \n " }, owner)).text, "invalid arguments: the text is empty.");
    assert.equal(server.requests.length, 0);
    assert.deepEqual(withoutError(await call({ text: "y".repeat(4096) }, owner)), { text: "Sent to the owner's chat as text." });
  });
});

describe("files.send through the Telegram channel", () => {
  let server: TelegramServer;
  beforeEach(async () => {
    server = await TelegramServer.start();
  });
  afterEach(async () => server.close());

  it("uploads a stored image as a photo to the owner's chat, and refuses a chat off the allow-list", async () => {
    const { core } = memoryCore({ core: { baseUrls: { telegram: server.url } } });
    core.secrets.set("telegram", TEST_BOT_TOKEN);
    core.config.apply([["ownerChatId", "7"]], "owner");
    const owner = derivePrincipal(core, "web", "owner");
    core.artifacts.save(owner, "images", "dot.png", TINY_PNG);
    const r = await core.registry.dispatch("files.send", { project: "images", name: "dot.png" }, owner);
    assert.equal(r.text, `Sent images/dot.png (${TINY_PNG.length} bytes) as a photo.`);
    const [req] = server.calls("sendPhoto");
    assert.deepEqual(req.params, { chat_id: "7", caption: "images/dot.png" });
    assert.deepEqual(req.file!.bytes, TINY_PNG);
    const off = await core.registry.dispatch("files.send", { project: "images", name: "dot.png", chat_id: "555" }, owner);
    assert.deepEqual(withoutError(off), { text: "send-failed: Not sent: that chat is not on the owner's chat allow-list.", isError: true });
    assert.equal(server.requests.length, 1);
  });
});
