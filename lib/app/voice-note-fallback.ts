// device[] tts on a device without a speaker: the seed has the words sent as a Telegram voice note
// instead. To the conversation's own chat when it is an allow-listed Telegram chat; else to the owner's
// chat, for an admin only (a guest's /mcp client must not make the owner's phone speak, on the owner's key).
import type { TelegramChannel } from "../chat/telegram-channel";
import { TELEGRAM_CHAT_ID_PATTERN } from "../chat/telegram";
import type { VoiceSynth } from "../chat/voice";
import type { Principal } from "../registry/principal";

export function voiceNoteFallback(deps: {
  telegram: Pick<TelegramChannel, "ownerChat" | "sendVoice">;
  voiceNotes: VoiceSynth;
  chats: { has(id: string): boolean };
}): (text: string, voice: string, principal: Principal) => Promise<string> {
  return async (text, voice, principal) => {
    const own = TELEGRAM_CHAT_ID_PATTERN.test(principal.ns) && deps.chats.has(principal.ns) ? principal.ns : undefined;
    const owner = deps.telegram.ownerChat();
    const chat = own ?? (principal.role === "admin" ? owner : undefined);
    if (!chat) throw new Error(principal.role === "admin" ? "no owner chat is set, ownerChatId" : "this conversation has no Telegram chat");
    await deps.telegram.sendVoice(chat, await deps.voiceNotes.synthesize(text, voice));
    return chat === owner ? "the owner's chat" : `chat ${chat}`;
  };
}
