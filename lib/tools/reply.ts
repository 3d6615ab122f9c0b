// reply.speak and reply.telegram: the turn's output channels. Both are
// turn-only (hidden from and refused over /mcp). Neither pretends: speech that
// did not play is an error naming why, and a voice note that cannot be made
// is sent as text, so the content always arrives.
import type { TelegramChannel } from "../chat/telegram-channel";
import { TELEGRAM_CHAT_ID_PATTERN, TELEGRAM_TEXT_MAX_CHARS } from "../chat/telegram";
import type { VoiceSynth } from "../chat/voice";
import { TTS_MAX_CHARS } from "../device/actions";
import type { DeviceActuator } from "../device/actuator";
import type { ConfigStore } from "../device/config";
import { HaloError } from "../errors";
import type { Principal } from "../registry/principal";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { clipForMessage } from "../util/text";

/** reply.speak runs the device's tts action: the same rails (no speaker, silent, ttsOn, volume 0). */
export interface SpeakToolDeps {
  actuator: DeviceActuator;
}

/** What reply.telegram uses: the channel, the allow-list, the knobs, and speech for voice notes. */
export interface ReplyToolDeps {
  telegram: TelegramChannel;
  chats: { has(id: string): boolean };
  config: ConfigStore;
  voiceNotes: VoiceSynth;
}

export const replySpeak = defineTool({
  name: "reply.speak",
  turnOnly: true,
  needs: ["actuator"],
  effect: "act",
  description: "Read text aloud on the device speaker (text-to-speech).",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string", minLength: 1, maxLength: TTS_MAX_CHARS } },
    required: ["text"],
    additionalProperties: false,
  },
  handler: async (args, _ctx, deps: SpeakToolDeps): Promise<ToolResult> => {
    const text = args.text.trim();
    if (!text) throw new HaloError("invalid-arguments", "there is nothing to speak.");
    const outcome = await deps.actuator.apply({ kind: "tts", text });
    if (outcome.ok) return { text: `Spoken aloud (${text.length} characters).` };
    throw new HaloError("not-spoken", `${outcome.sentence} Reply in text instead.`);
  },
});

export const replyTelegram = defineTool({
  name: "reply.telegram",
  turnOnly: true,
  needs: ["telegram", "chats", "config", "voiceNotes"],
  effect: "act",
  openWorld: true,
  description: "Send a Telegram message; voice:true delivers it as spoken audio.",
  inputSchema: {
    type: "object",
    properties: {
      text: { type: "string", minLength: 1, maxLength: TELEGRAM_TEXT_MAX_CHARS },
      chat_id: {
        type: "string",
        minLength: 1,
        maxLength: 21,
        pattern: TELEGRAM_CHAT_ID_PATTERN.source,
        description: "an allow-listed chat (admins only); default this conversation's chat, else the owner's",
      },
      voice: { type: "boolean", description: "send as a voice note; falls back to text when voice is unavailable" },
    },
    required: ["text"],
    additionalProperties: false,
  },
  handler: async (args, ctx, deps: ReplyToolDeps): Promise<ToolResult> => {
    const p = ctx.principal;
    const text = args.text;
    if (!text.trim()) throw new HaloError("invalid-arguments", "the text is empty.");
    if (!deps.telegram.configured()) {
      throw new HaloError("not-configured", "Telegram is not set up (the owner sets the bot token through the owner API).");
    }
    const target = pickChat(deps, p, args.chat_id);
    const where = target.chatId === deps.telegram.ownerChat() ? "the owner's chat" : `chat ${target.chatId}`;
    let fallback = "";
    if (args.voice === true) {
      const sent = await sendVoice(deps, target.chatId, text);
      if (sent === true) return { text: `Sent to ${where} as a voice message.` };
      fallback = ` (not as voice: ${sent})`;
    }
    try {
      const parts = await deps.telegram.sendText(target.chatId, text);
      return { text: `Sent to ${where} as text${parts > 1 ? ` in ${parts} messages` : ""}${fallback}.` };
    } catch (e) {
      throw new HaloError("send-failed", clipForMessage(e instanceof Error ? e.message : "Telegram failed", 160));
    }
  },
});

/** The tools of this file. */
export const REPLY_TOOLS = [replySpeak, replyTelegram] as const;

/**
 * Where a reply goes. A named chat must be allow-listed, and only an admin may
 * name one other than the conversation's own. Without one: the conversation's
 * own chat when it is an allow-listed Telegram chat, else the owner's chat.
 */
function pickChat(deps: ReplyToolDeps, p: Principal, asked: string | undefined): { chatId: string } {
  if (asked !== undefined) {
    if (p.role !== "admin" && asked !== p.ns) {
      throw new HaloError("admin-only", "only an admin may name another chat; leave chat_id out to reach this conversation's chat.");
    }
    const problem = deps.telegram.targetProblem(asked);
    if (problem) throw new HaloError("not-allowed", problem);
    return { chatId: asked };
  }
  if (TELEGRAM_CHAT_ID_PATTERN.test(p.ns) && deps.chats.has(p.ns)) return { chatId: p.ns };
  const owner = deps.telegram.ownerChat();
  if (!owner) {
    throw new HaloError(
      "not-configured",
      "there is no chat to send to: no owner chat is set (the owner sets ownerChatId through the owner API).",
    );
  }
  return { chatId: owner };
}

/** true when the voice note went out; else why not (the caller sends text instead). */
async function sendVoice(deps: ReplyToolDeps, chatId: string, text: string): Promise<true | string> {
  if (!deps.config.bool("ttsOn")) return "spoken replies are off (ttsOn is false)";
  try {
    const clip = await deps.voiceNotes.synthesize(text, deps.config.string("ttsVoice"));
    await deps.telegram.sendVoice(chatId, clip);
    return true;
  } catch (e) {
    return `the voice note failed: ${clipForMessage(e instanceof Error ? e.message.replace(/\.$/, "") : "error", 120)}`;
  }
}
