import type { Core } from "../core";
import { derivePrincipal } from "../people/principals";
import type { Log } from "../ports";
import { TelegramInbound } from "./telegram-inbound";

/**
 * The Telegram inbound loop over the core: allow-listed chats' messages run as
 * turns and the replies go back to the chat. Hosts give it their timer and start it.
 */
export function telegramInboundFor(core: Core, log: Log, sleep: (ms: number) => Promise<void>): TelegramInbound {
  return new TelegramInbound({
    telegram: core.telegram.client,
    sendText: (chatId, text) => core.telegram.sendText(chatId, text),
    chats: core.chats,
    principalFor: (chatId) => derivePrincipal(core, "chat", chatId),
    runner: core.turn,
    log,
    sleep,
  });
}
