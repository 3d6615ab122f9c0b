// The outbound side of Telegram as the rest of the core uses it: text split
// into Telegram-sized messages, voice notes, and the Messenger port that
// files.send delivers through. One rule decides where anything may go: the
// owner's chat, or a chat on the owner's chat allow-list.
import type { Messenger, OutgoingFile } from "../ports";
import { TELEGRAM_CHAT_ID_PATTERN, TELEGRAM_TEXT_MAX_CHARS, type TelegramClient, type TelegramUpload } from "./telegram";
import { TelegramError } from "./telegram-errors";

/** Most messages one long text is split into; the rest is cut with a note. */
export const TELEGRAM_MAX_PARTS = 8;
/** Telegram sends a larger photo only as a document. */
export const TELEGRAM_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** A split prefers a line break or space within this last share of a full message. */
const SPLIT_LOOKBACK = 0.2;
/** Characters kept free in the last part for the "[cut: N more characters]" note. */
const CUT_NOTE_ROOM = 40;

export interface TelegramChannelDeps {
  client: TelegramClient;
  /** The owner's chat allow-list. */
  chats: { has(id: string): boolean };
  /** The owner's own chat id (the ownerChatId knob); undefined when not set. */
  ownerChat(): string | undefined;
}

export class TelegramChannel implements Messenger {
  constructor(private readonly deps: TelegramChannelDeps) {}

  get client(): TelegramClient {
    return this.deps.client;
  }

  configured(): boolean {
    return this.deps.client.configured();
  }

  ownerChat(): string | undefined {
    const id = this.deps.ownerChat();
    return id && TELEGRAM_CHAT_ID_PATTERN.test(id) ? id : undefined;
  }

  /** For system.health: token, owner chat, and how the last exchange went. */
  linkHealth(): { configured: boolean; ok: boolean; detail: string } {
    const state = this.deps.client.linkState();
    if (!state.configured) return { configured: false, ok: false, detail: "no bot token in Telegram's form is set" };
    const owner = `owner chat ${this.ownerChat() ? "set" : "not set"}`;
    if (state.lastError)
      return { configured: true, ok: false, detail: `${owner}; the last exchange failed: ${state.lastError.replace(/\.$/, "")}` };
    return { configured: true, ok: true, detail: `${owner}; ${state.exchanges === 0 ? "no exchange yet" : "the last exchange succeeded"}` };
  }

  /** Why nothing may be sent to `chatId` (one sentence, never repeating it), or undefined when it may. */
  targetProblem(chatId: string): string | undefined {
    if (!TELEGRAM_CHAT_ID_PATTERN.test(chatId)) return "that is not a Telegram chat id (an integer).";
    if (chatId !== this.ownerChat() && !this.deps.chats.has(chatId)) return "that chat is not on the owner's chat allow-list.";
    return undefined;
  }

  /** Sends `text` as one or more messages; resolves with how many were sent. */
  async sendText(chatId: string, text: string): Promise<number> {
    const parts = splitForTelegram(text);
    for (const part of parts) await this.deps.client.sendMessage(chatId, part);
    return parts.length;
  }

  async sendVoice(chatId: string, clip: TelegramUpload): Promise<void> {
    await this.deps.client.sendVoice(chatId, clip);
  }

  async sendDocument(file: OutgoingFile, chatId?: string): Promise<void> {
    return this.deps.client.sendDocument(this.resolve(chatId), file);
  }

  async sendPhoto(file: OutgoingFile, chatId?: string): Promise<void> {
    const target = this.resolve(chatId);
    if (file.bytes.length > TELEGRAM_PHOTO_MAX_BYTES) return this.deps.client.sendDocument(target, file);
    return this.deps.client.sendPhoto(target, file);
  }

  /** The Messenger rule: no chat means the owner's; a named chat must pass targetProblem. */
  private resolve(chatId: string | undefined): string {
    if (chatId === undefined) {
      const owner = this.ownerChat();
      if (!owner) throw new TelegramError("not-configured", "No owner chat is set: the owner sets ownerChatId through the owner API.");
      return owner;
    }
    const problem = this.targetProblem(chatId);
    if (problem) throw new TelegramError("bad-request", `Not sent: ${problem}`);
    return chatId;
  }
}

/**
 * Splits text into messages of at most TELEGRAM_TEXT_MAX_CHARS, preferring a
 * line break, then a space, near the end of each; never inside a surrogate
 * pair. Past TELEGRAM_MAX_PARTS the rest is cut and the last part says so
 * (`max` must leave room for that note: more than CUT_NOTE_ROOM).
 */
export function splitForTelegram(text: string, max = TELEGRAM_TEXT_MAX_CHARS, maxParts = TELEGRAM_MAX_PARTS): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max && parts.length < maxParts) {
    let cut = max;
    const window = rest.slice(Math.floor(max * (1 - SPLIT_LOOKBACK)), max);
    const br = window.lastIndexOf("\n");
    const sp = window.lastIndexOf(" ");
    if (br >= 0) cut = Math.floor(max * (1 - SPLIT_LOOKBACK)) + br + 1;
    else if (sp >= 0) cut = Math.floor(max * (1 - SPLIT_LOOKBACK)) + sp + 1;
    else if (isHighSurrogate(rest.charCodeAt(cut - 1))) cut--;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest.length === 0) return parts;
  if (parts.length < maxParts) {
    parts.push(rest);
    return parts;
  }
  // Room for the note is made in the last part; what that drops is counted too.
  const last = parts[maxParts - 1];
  let keep = Math.max(0, Math.min(last.length, max - CUT_NOTE_ROOM));
  if (keep > 0 && isHighSurrogate(last.charCodeAt(keep - 1))) keep--;
  parts[maxParts - 1] = `${last.slice(0, keep)}\n[cut: ${rest.length + last.length - keep} more characters]`;
  return parts;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code < 0xdc00;
}
