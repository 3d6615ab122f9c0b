import type { Core } from "./core";
import { derivePrincipal } from "../people/principals";
import type { Log } from "../ports";
import { TelegramInbound } from "../chat/telegram-inbound";
import { ownerActionsFor } from "./owner-commands";

/** Largest voice note downloaded for transcription (Opus at voice rates: several minutes). */
export const VOICE_NOTE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * The Telegram inbound loop over the core: allow-listed chats' messages run as
 * turns and the replies go back to the chat; voice notes are transcribed first. Hosts give it their timer and start it.
 */
export function telegramInboundFor(core: Core, log: Log, sleep: (ms: number) => Promise<void>): TelegramInbound {
  return new TelegramInbound({
    telegram: core.telegram.client,
    sendText: (chatId, text) => core.telegram.sendText(chatId, text),
    chats: core.chats,
    principalFor: (chatId) => derivePrincipal(core, "chat", chatId),
    rails: core.rails,
    runner: core.turn,
    log,
    sleep,
    commands: { ownerChat: () => core.telegram.ownerChat(), actions: ownerActionsFor(core) },
    transcribeVoice: async (fileId) =>
      core.speech.transcriber.transcribeFile(
        await core.telegram.client.downloadFile(fileId, VOICE_NOTE_MAX_BYTES),
        "audio/ogg",
        "voice.ogg",
      ),
  });
}
