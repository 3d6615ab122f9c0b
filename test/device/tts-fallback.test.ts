// tts on a device without a speaker: the seed sends the words as a Telegram voice note instead. Real parts:
// the OpenAI speech stand-in makes the Ogg/Opus clip, the Bot API stand-in receives the upload. The note goes
// to the conversation's own allow-listed chat, else the owner's chat for an admin; anyone else gets the
// honest "no speaker", and reply.speak never falls back (the model replies in text instead).
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { runDeviceArray } from "../../lib/device/device-array.ts";
import { derivePrincipal } from "../../lib/people/principals.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { TEST_HOST } from "../support/halo.ts";
import { withoutError } from "../support/registry.ts";
import { replyPcm } from "../support/speech.ts";
import { TelegramServer, TEST_BOT_TOKEN } from "../support/telegram-server.ts";
import { VoiceServer } from "../support/voice-server.ts";

/** The stand-in's answer to a response_format "opus" request: the start of an Ogg page, as the openai-voice test uses. */
const OGG = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0x00, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x13, 0x0a, 0xff, 0x00, 0x80, 0x00]);
const oggSpeech = () => ({ pcm: new Int16Array(OGG.slice().buffer) });

describe("tts without a speaker: a Telegram voice note", () => {
  let telegram: TelegramServer;
  let stand: VoiceServer;
  before(async () => {
    telegram = await TelegramServer.start();
    stand = await VoiceServer.start();
  });
  after(async () => {
    await telegram.close();
    await stand.close();
  });

  function speakerless(audioOut: "none" | "present" = "none"): Core {
    const ports = memoryPorts({ log: memoryLog() });
    const core = buildCore(audioOut === "none" ? { ...ports, audioOut: undefined } : ports, {
      ...TEST_HOST,
      baseUrls: { openai: stand.url, telegram: telegram.url },
    });
    core.secrets.set("telegram", TEST_BOT_TOKEN);
    core.secrets.set("openai", "sk-fallback-KEY");
    core.chats.replace(["42"]);
    core.people.setRole("42", "user");
    core.config.apply([["ownerChatId", "7"]], "owner");
    return core;
  }
  const admin = makePrincipal("owner", "admin", "turn");
  const tts = (core: Core, text: string, who = admin) => core.registry.dispatch("device.control", { action: { tts: { text } } }, who);
  const voiceTo = (): string[] => telegram.calls("sendVoice").map((c) => String(c.params.chat_id));

  it("device.control and device[]: the owner's chat for an admin, the conversation's own chat for a chat", async () => {
    const core = speakerless();
    const sentBefore = voiceTo().length;
    stand.speech.push(oggSpeech());
    assert.deepEqual(withoutError(await tts(core, "Hello there")), {
      text: "no speaker: sent 11 characters as a Telegram voice note to the owner's chat.",
    });
    assert.equal(stand.speechRequests.at(-1).input, "Hello there");
    assert.equal(stand.speechRequests.at(-1).response_format, "opus");
    const upload = telegram.calls("sendVoice").at(-1)!;
    assert.equal(upload.params.chat_id, "7");
    assert.equal(upload.file!.field, "voice");
    assert.deepEqual(new Uint8Array(upload.file!.bytes), OGG);
    // A Telegram conversation's device[]: its own chat.
    stand.speech.push(oggSpeech());
    const chat42 = derivePrincipal(core, "chat", "42");
    const lines = await runDeviceArray([{ tts: { text: "For you" } }], { principal: chat42, config: core.config }, core.actuator);
    assert.deepEqual(lines, [{ index: 0, ok: true, text: "no speaker: sent 7 characters as a Telegram voice note to chat 42." }]);
    assert.deepEqual(voiceTo().slice(sentBefore), ["7", "42"]);
  });

  it("refuses honestly when it cannot: a guest's client, voice replies off, Telegram refusing; reply.speak never falls back", async () => {
    const core = speakerless();
    const sentBefore = voiceTo().length;
    const speechBefore = stand.speechRequests.length;
    const guest = makePrincipal("visitor", "guest", "mcp");
    assert.deepEqual(withoutError(await tts(core, "spam the owner", guest)), {
      text: "not-present: this device has no speaker, and the Telegram voice note was not sent (this conversation has no Telegram chat).",
      isError: true,
    });
    core.config.apply([["ttsOn", false]], "owner");
    assert.match((await tts(core, "quiet")).text, /^off: spoken replies are off/);
    core.config.apply([["ttsOn", true]], "owner");
    const speak = await core.registry.dispatch("reply.speak", { text: "aloud" }, admin);
    assert.equal(speak.text, "not-spoken: this device has no speaker. Reply in text instead.");
    assert.equal(stand.speechRequests.length, speechBefore, "no speech was made for any of them");
    stand.speech.push(oggSpeech());
    telegram.fail("sendVoice", {
      status: 403,
      body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" },
    });
    assert.match(
      (await tts(core, "blocked")).text,
      /^not-present: this device has no speaker, and the Telegram voice note was not sent \(Telegram refused to deliver to that chat \(HTTP 403\)/,
    );
    core.config.apply([["ownerChatId", ""]], "owner");
    assert.match((await tts(core, "nowhere")).text, /voice note was not sent \(no owner chat is set, ownerChatId\)\.$/);
    assert.equal(voiceTo().length, sentBefore + 1, "only the refused upload reached Telegram");
  });

  it("a device with a speaker speaks and sends nothing to Telegram", async () => {
    const core = speakerless("present");
    const sentBefore = voiceTo().length;
    stand.speech.push({ pcm: replyPcm(200) });
    assert.equal((await tts(core, "Hello")).text, "spoke 5 characters.");
    assert.equal(voiceTo().length, sentBefore);
  });
});
