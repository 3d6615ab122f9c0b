// Where a routine's or wakeup's reply goes once its scheduled turn answered.
// Nobody is watching a scheduled turn, so its reply is its report: it is sent
// over Telegram to the routine's chat when that chat is still allowed (the
// owner's chat or on the chat allow-list), else to the owner's chat
// (ownerChatId). When it cannot be sent (no bot token, no owner chat, Telegram
// refused), it is kept as an owner alert the owner API reads, never dropped
// silently; the whole reply is in the episodic history either way. A turn that
// already reported through reply.telegram is not sent its reply a second time.
import type { Log } from "../ports";
import { clipForMessage } from "../util/text";
import type { OwnerAlerts } from "./alerts";

/** The Telegram side a delivery needs (TelegramChannel implements it). */
export interface ReplyChannel {
  configured(): boolean;
  ownerChat(): string | undefined;
  /** Why nothing may be sent to `chatId`, or undefined when it may. */
  targetProblem(chatId: string): string | undefined;
  sendText(chatId: string, text: string): Promise<number>;
}

export interface ScheduledReply {
  routineId: string;
  /** The chat the routine was created to report to. */
  chatId?: string;
  reply: string;
  /** The turn sent a Telegram message itself (a successful reply.telegram call). */
  reportedItself: boolean;
}

export type DeliveryOutcome = "sent" | "kept" | "nothing";

export interface ReplyDeliveryDeps {
  channel: ReplyChannel;
  alerts: OwnerAlerts;
  log: Log;
}

/** Longest part of a Telegram error kept in the alert. */
const WHY_MAX_CHARS = 120;

/** Sends a scheduled turn's reply, or keeps it as an owner alert; never throws. */
export async function deliverScheduledReply(deps: ReplyDeliveryDeps, r: ScheduledReply): Promise<DeliveryOutcome> {
  if (r.reply.trim() === "" || r.reportedItself) return "nothing";
  const { channel } = deps;
  let chat: string | undefined;
  if (r.chatId !== undefined && channel.targetProblem(r.chatId) === undefined) chat = r.chatId;
  else {
    if (r.chatId !== undefined) deps.log.info(`loops: ${r.routineId}'s chat is no longer allowed; its reply goes to the owner's chat`);
    chat = channel.ownerChat();
  }
  let why: string | undefined;
  if (!channel.configured()) why = "Telegram is not set up";
  else if (chat === undefined) why = "no owner chat is set";
  else {
    try {
      await channel.sendText(chat, r.reply);
      return "sent";
    } catch (e) {
      // The Telegram client's errors are one sentence that never carries the bot token.
      why = e instanceof Error && e.message ? clipForMessage(e.message, WHY_MAX_CHARS).replace(/\.$/, "") : "the Telegram send failed";
    }
  }
  const kind = r.routineId.startsWith("w") ? "wakeup" : "routine";
  deps.alerts.raise(`${kind} ${r.routineId}`, `Reply not sent (${why}): ${r.reply.replace(/\s+/g, " ").trim()}`);
  return "kept";
}
