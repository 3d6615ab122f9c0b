// Voice notes: OpenAI's speech endpoint (a local server speaking its wire format)
// feeding reply.telegram voice:true through the real core and a local Bot API server.
import assert from "node:assert/strict";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import { fakeClock } from "../../hosts/sim/ports/node-basics.ts";
import { OpenAiVoiceSynth, OPENAI_SPEECH_MAX_CHARS } from "../../lib/chat/openai-voice.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import { ProviderError } from "../../lib/providers/errors";
import { memoryCore } from "../support/memory.ts";
import { ProviderServer, type ScriptedReply } from "../support/provider-server.ts";
import { TelegramServer, TEST_BOT_TOKEN } from "../support/telegram-server.ts";

const KEY = "sk-proj-voice-test-0123456789";
/** The start of a real Ogg page, then arbitrary payload bytes. */
const OGG = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0x00, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x13, 0x0a, 0xff, 0x00, 0x80]);

const audioReply = (bytes: Uint8Array, type = "audio/ogg"): ScriptedReply => ({
  raw: (res) => {
    res.writeHead(200, { "content-type": type });
    res.end(Buffer.from(bytes));
  },
});

describe("OpenAI speech for voice notes", () => {
  let openai: ProviderServer;
  beforeEach(async () => {
    openai = await ProviderServer.start();
  });
  afterEach(async () => openai.close());

  /** `null`: no key set. */
  const synth = (key: string | null = KEY, timeoutMs?: number) =>
    new OpenAiVoiceSynth(nodeHttpClient, fakeClock(), { apiKey: () => key ?? undefined, baseUrl: () => openai.url }, timeoutMs);

  /** The ProviderError a call rejects with, checked never to carry the key. */
  async function failure(work: Promise<unknown>): Promise<ProviderError> {
    try {
      await work;
    } catch (e) {
      assert.ok(e instanceof ProviderError, String(e));
      assert.ok(!e.message.includes(KEY), e.message);
      return e;
    }
    assert.fail("resolved");
  }

  it("posts model, input, voice and response_format opus, and returns the Ogg bytes", async () => {
    openai.reply(audioReply(OGG));
    const clip = await synth().synthesize("Hello there", "nova");
    const [req] = openai.seen;
    assert.equal(req.method, "POST");
    assert.equal(req.path, "/v1/audio/speech");
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(req.json, { model: "gpt-4o-mini-tts", input: "Hello there", voice: "nova", response_format: "opus" });
    assert.deepEqual(clip, { bytes: OGG, mime: "audio/ogg", name: "reply.ogg" });
  });

  it("fails in one sentence: no key, too long, a refused key, a server error, not Ogg, a timeout", async () => {
    assert.equal(
      (await failure(synth(null).synthesize("x", "alloy"))).message,
      "No OpenAI key is set for speech; the owner sets it through the owner API.",
    );
    assert.equal((await failure(synth().synthesize("x".repeat(OPENAI_SPEECH_MAX_CHARS + 1), "alloy"))).kind, "bad-request");
    assert.equal(openai.seen.length, 0);
    openai.reply(
      {
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error", code: "invalid_api_key" } },
      },
      { status: 500, body: { error: { message: "The server had an error" } } },
      { status: 200, body: { error: "not audio" } },
      { delayMs: 2000, ...audioReply(OGG) },
    );
    assert.equal((await failure(synth().synthesize("x", "alloy"))).kind, "auth");
    const server = await failure(synth().synthesize("x", "alloy"));
    assert.equal(server.message, "OpenAI failed with HTTP 500: The server had an error");
    assert.equal((await failure(synth().synthesize("x", "alloy"))).message, "OpenAI's speech answer is not an Ogg/Opus file.");
    assert.equal((await failure(synth(KEY, 150).synthesize("x", "alloy"))).kind, "timeout");
  });

  it("makes reply.telegram voice:true a real voice note with the owner's voice", async () => {
    const telegram = await TelegramServer.start();
    try {
      const { core } = memoryCore({ core: { baseUrls: { telegram: telegram.url, openai: openai.url } } });
      core.secrets.set("telegram", TEST_BOT_TOKEN);
      core.secrets.set("openai", KEY);
      core.config.apply(
        [
          ["ownerChatId", "7"],
          ["ttsVoice", "shimmer"],
        ],
        "owner",
      );
      openai.reply(audioReply(OGG));
      const r = await core.registry.dispatch(
        "reply.telegram",
        { text: "Dinner is at eight.", voice: true },
        derivePrincipal(core, "web", "owner"),
      );
      assert.deepEqual(r, { text: "Sent to the owner's chat as a voice message." });
      assert.equal(openai.seen[0].json.voice, "shimmer");
      assert.equal(openai.seen[0].json.input, "Dinner is at eight.");
      const [upload] = telegram.calls("sendVoice");
      assert.equal(upload.params.chat_id, "7");
      assert.deepEqual(upload.file!.bytes, OGG);
      assert.equal(telegram.calls("sendMessage").length, 0);
    } finally {
      await telegram.close();
    }
  });
});
