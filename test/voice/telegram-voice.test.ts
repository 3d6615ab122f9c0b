// Telegram voice notes in: the inbound loop downloads the note from a local Bot
// API server (getFile, then the file route), sends it to the transcription
// stand-in as it is (OGG/Opus), and runs the transcript as the chat's turn.
import { TEST_HOST } from "../support/halo.ts";
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { telegramInboundFor } from "../../lib/app/telegram-inbound";
import { NON_TEXT_REPLY, VOICE_EMPTY_REPLY, VOICE_FAILED_REPLY, type TelegramInbound } from "../../lib/chat/telegram-inbound.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { TelegramServer, TEST_BOT_TOKEN } from "../support/telegram-server.ts";
import { VoiceServer } from "../support/voice-server.ts";
import { answer, openAiAnswer } from "../turn/support.ts";

const OGG = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0, 2, ...Array.from({ length: 600 }, (_, i) => i & 0xff)]);

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for: ${what}`);
    await new Promise((ok) => setTimeout(ok, 5));
  }
}

describe("Telegram voice notes", function () {
  this.timeout(20000);
  let telegram: TelegramServer;
  let stand: VoiceServer;
  let core: Core;
  let inbound: TelegramInbound;
  const sent = (): string[] => telegram.calls("sendMessage").map((c) => `${c.params.chat_id}: ${c.params.text}`);

  beforeEach(async () => {
    telegram = await TelegramServer.start();
    stand = await VoiceServer.start();
    core = buildCore(memoryPorts({ log: memoryLog() }), { ...TEST_HOST, baseUrls: { telegram: telegram.url, openai: stand.url } });
    core.secrets.set("telegram", TEST_BOT_TOKEN);
    core.secrets.set("openai", "sk-tg-KEY");
    core.chats.replace(["42"]);
    core.people.setRole("42", "user");
    inbound = telegramInboundFor(core, core.ports.log, (ms) => new Promise((ok) => setTimeout(ok, Math.min(ms, 20))));
    inbound.start();
  });
  afterEach(async () => {
    await inbound.stop();
    await telegram.close();
    await stand.close();
  });

  it("transcribes a voice note and answers it as a turn of that chat", async () => {
    stand.transcripts.push("what's the weather like");
    stand.llm.reply(openAiAnswer(answer({ reply: "Sunny all day." })));
    telegram.voice(42, OGG, 3);
    await until(() => sent().length === 1, "the reply");
    assert.deepEqual(sent(), ["42: Sunny all day."]);
    const up = stand.uploads[0];
    assert.equal(up.file.contentType, "audio/ogg");
    assert.equal(up.file.filename, "voice.ogg");
    assert.deepEqual(new Uint8Array(up.file.bytes), OGG, "the note went up as Telegram sent it");
    assert.equal(up.fields.model, "gpt-4o-mini-transcribe");
    assert.match(JSON.stringify(stand.llm.seen[0].json), /what's the weather like/);
    assert.equal(telegram.calls("getFile")[0].params.file_id, "AwACAgIAAxkBAAI0");
    assert.equal(telegram.requests.find((r) => r.method === "file")!.path, "/file/bot<token>/voice/file_0.oga");
  });

  it("says so when a note cannot be transcribed, is silent, too long, or points somewhere else; text still works", async () => {
    stand.transcripts.push({ status: 500, body: { error: { message: "down" } } }, "");
    telegram.voice(42, OGG, 2);
    await until(() => sent().length === 1, "the failure reply");
    telegram.voice(42, OGG, 2);
    await until(() => sent().length === 2, "the empty reply");
    telegram.voice(42, OGG, 301);
    await until(() => sent().length === 3, "the too-long reply");
    telegram.voice(42, OGG, 2, "../../etc/passwd");
    await until(() => sent().length === 4, "the hostile path reply");
    stand.llm.reply(openAiAnswer(answer({ reply: "Hello." })));
    telegram.message(42, "hi");
    await until(() => sent().length === 5, "the text reply");
    assert.deepEqual(sent(), [
      `42: ${VOICE_FAILED_REPLY}`,
      `42: ${VOICE_EMPTY_REPLY}`,
      "42: That voice message is longer than 5 minutes; please send a shorter one.",
      `42: ${VOICE_FAILED_REPLY}`,
      "42: Hello.",
    ]);
    assert.equal(stand.uploads.length, 2, "neither the long note nor the hostile path was sent for transcription");
    assert.equal(telegram.requests.filter((r) => r.method === "file").length, 2);
    assert.notEqual(NON_TEXT_REPLY, VOICE_FAILED_REPLY);
  });
});
