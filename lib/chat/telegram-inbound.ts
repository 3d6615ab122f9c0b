// The inbound Telegram channel: a getUpdates long-poll loop feeding a bounded
// queue, and one worker that runs each allowed message as a turn and sends
// the reply back. The host starts and stops it. A chat off the allow-list is
// ignored: its text never reaches the turn, and the log names only the chat.
import type { Log } from "../ports";
import type { Principal } from "../registry/principal";
import { TELEGRAM_TEXT_MAX_CHARS, type TelegramUpdate } from "./telegram";
import { TelegramError } from "./telegram-errors";
import { NOT_OWNER_REPLY, parseOwnerCommand, runOwnerCommand, type OwnerActions } from "./owner-commands";

/** Messages waiting for the worker; polling pauses (acknowledging nothing more) while it is full. */
export const INBOUND_QUEUE_MAX = 8;
/** Backoff after a failed poll: first wait, doubling up to the cap (ms). */
export const INBOUND_BACKOFF_MIN_MS = 1000;
export const INBOUND_BACKOFF_MAX_MS = 60_000;
/** Wait before looking again when no bot token is set (ms). */
export const INBOUND_UNCONFIGURED_WAIT_MS = 30_000;
/** Unknown chats logged once each per run, at most this many (a spammer cannot fill the log). */
const UNKNOWN_CHATS_LOGGED_MAX = 32;
/** Sending a reply that Telegram rate-limits is retried this often, waiting as asked (capped). */
const REPLY_RETRIES = 2;
const REPLY_RETRY_WAIT_MAX_MS = 30_000;

export const NON_TEXT_REPLY = "I can only read text messages here for now.";
export const VOICE_FAILED_REPLY = "Sorry, I could not make out that voice message.";
export const VOICE_EMPTY_REPLY = "I heard nothing in that voice message.";
/** Voice notes longer than this are not transcribed (seconds). */
export const VOICE_NOTE_MAX_S = 300;
export const FAILED_TURN_REPLY = "Sorry, something went wrong with that message. Please try again.";

/** What a chat message asks of the turn engine (TurnEngine.runTurn has this shape). */
export interface ChatTurnInput {
  text: string;
  channel: "telegram";
}

/** Runs one turn for a chat message; `reply` is sent back (empty: nothing is sent). TurnEngine fits as it is. */
export interface ChatTurnRunner {
  runTurn(principal: Principal, input: ChatTurnInput): Promise<{ reply: string }>;
}

/** The parts of the Telegram client the loop uses. */
export interface InboundTelegram {
  configured(): boolean;
  getUpdates(offset: number, limit: number): Promise<TelegramUpdate[]>;
  sendChatAction(chatId: string, action: string): Promise<void>;
}

export interface TelegramInboundDeps {
  telegram: InboundTelegram;
  /** Sends a reply (split into Telegram-sized messages). */
  sendText(chatId: string, text: string): Promise<unknown>;
  /** The owner's chat allow-list. */
  chats: { has(id: string): boolean };
  /** The principal of a chat (derivePrincipal(core, "chat", chatId)). */
  principalFor(chatId: string): Principal;
  /** Credit and rate per chat, asked before a voice note is transcribed or a turn runs (lib/people/rails.ts). */
  rails: { decide(principal: Principal, door: "telegram", sender: string): { message: string } | undefined };
  runner: ChatTurnRunner;
  log: Log;
  /** The host's timer. */
  sleep(ms: number): Promise<void>;
  /** Downloads and transcribes a voice note; absent: voice notes get NON_TEXT_REPLY. */
  transcribeVoice?(fileId: string): Promise<string>;
  /**
   * The owner's commands (lib/chat/owner-commands.ts), taken from the owner's chat only: `ownerChat` is the
   * ownerChatId knob, read on every message. Absent: a command is an ordinary message.
   */
  commands?: { ownerChat(): string | undefined; actions: OwnerActions };
}

interface Pending {
  chatId: string;
  /** A command from the owner's chat: answered without a turn. */
  command?: boolean;
  text?: string;
  voice?: { fileId: string; durationS: number };
}

export class TelegramInbound {
  private readonly queue: Pending[] = [];
  private readonly unknownLogged = new Set<string>();
  private offset = 0;
  private active = false;
  private stopSignal: Promise<void> = Promise.resolve();
  private signalStop: () => void = () => undefined;
  private wakeWorker?: () => void;
  private wakePoller?: () => void;
  private loops: Promise<void> = Promise.resolve();

  constructor(private readonly deps: TelegramInboundDeps) {}

  running(): boolean {
    return this.active;
  }

  /** Starts polling; a second call while running does nothing. */
  start(): void {
    if (this.active) return;
    this.active = true;
    this.stopSignal = new Promise<void>((resolve) => (this.signalStop = resolve));
    this.loops = Promise.all([this.pollLoop(), this.workLoop()]).then(() => undefined);
  }

  /**
   * Stops at once: a poll in flight is abandoned (its updates are not
   * acknowledged, so Telegram delivers them again after a restart); a turn
   * already running finishes and its reply is sent; queued messages are dropped.
   */
  async stop(): Promise<void> {
    if (!this.active) return this.loops;
    this.active = false;
    this.signalStop();
    this.wakeWorker?.();
    this.wakePoller?.();
    await this.loops;
    this.queue.length = 0;
  }

  private async pollLoop(): Promise<void> {
    let failures = 0;
    while (this.active) {
      const room = INBOUND_QUEUE_MAX - this.queue.length;
      if (room <= 0) {
        await this.untilStopped(new Promise<void>((resolve) => (this.wakePoller = resolve)));
        continue;
      }
      if (!this.deps.telegram.configured()) {
        await this.pause(INBOUND_UNCONFIGURED_WAIT_MS);
        continue;
      }
      let updates: TelegramUpdate[] | undefined;
      try {
        updates = await this.untilStopped(this.deps.telegram.getUpdates(this.offset, room));
      } catch (e) {
        failures++;
        const wait = backoffMs(e, failures);
        this.deps.log.warn(`telegram: polling failed (${errorSentence(e)}); retrying in ${Math.ceil(wait / 1000)} s`);
        await this.pause(wait);
        continue;
      }
      if (!updates || !this.active) break;
      failures = 0;
      for (const update of updates) {
        if (update.updateId >= this.offset) this.offset = update.updateId + 1;
        this.accept(update);
      }
    }
  }

  private accept(update: TelegramUpdate): void {
    const message = update.message;
    if (!message) return;
    const chatId = message.chatId;
    if (this.isOwnerCommand(chatId, message.text)) {
      // The owner's chat need not be on the allow-list to decide what waits for the owner.
      this.queue.push({ chatId, command: true, text: message.text!.slice(0, TELEGRAM_TEXT_MAX_CHARS) });
      this.wakeWorker?.();
      return;
    }
    if (!this.deps.chats.has(chatId) || this.deps.principalFor(chatId).role === "unknown") {
      if (!this.unknownLogged.has(chatId) && this.unknownLogged.size < UNKNOWN_CHATS_LOGGED_MAX) {
        this.unknownLogged.add(chatId);
        this.deps.log.info(`telegram: ignored a message from chat ${chatId}: it is not on the chat allow-list`);
      }
      return;
    }
    const text = message.text === undefined ? undefined : message.text.slice(0, TELEGRAM_TEXT_MAX_CHARS);
    this.queue.push({ chatId, text: text?.trim() ? text : undefined, voice: message.voice });
    this.wakeWorker?.();
  }

  private async workLoop(): Promise<void> {
    while (this.active) {
      const item = this.queue.shift();
      if (!item) {
        await this.untilStopped(new Promise<void>((resolve) => (this.wakeWorker = resolve)));
        continue;
      }
      this.wakePoller?.();
      await this.handle(item);
    }
  }

  private isOwnerCommand(chatId: string, text: string | undefined): boolean {
    return !!this.deps.commands && text !== undefined && chatId === this.deps.commands.ownerChat() && parseOwnerCommand(text) !== undefined;
  }

  private async handle(item: Pending): Promise<void> {
    const { chatId } = item;
    if (item.command) {
      // Re-checked now: the owner may have changed ownerChatId meanwhile.
      if (!this.isOwnerCommand(chatId, item.text)) return;
      const answer = await runOwnerCommand(parseOwnerCommand(item.text!)!, this.deps.commands!.actions);
      this.deps.log.info(`telegram: the owner's command /${item.text!.trim().slice(1).split(/\s/)[0].slice(0, 24)} answered`);
      await this.reply(chatId, answer.text);
      answer.after?.();
      return;
    }
    const asker = this.deps.principalFor(chatId);
    if (!this.deps.chats.has(chatId) || asker.role === "unknown") return;
    const asked = item.text === undefined ? undefined : parseOwnerCommand(item.text);
    if (this.deps.commands && asked && asked.kind !== "unknown" && asked.kind !== "help") {
      // Another chat's owner command: one fixed sentence, no turn, nothing about the device.
      await this.reply(chatId, NOT_OWNER_REPLY);
      return;
    }
    const refusal = this.deps.rails.decide(asker, "telegram", chatId);
    if (refusal) {
      // Said once per refused message; nothing reaches a provider.
      await this.reply(chatId, refusal.message);
      return;
    }
    if (item.text === undefined && item.voice && this.deps.transcribeVoice) {
      const heard = await this.transcribe(item.voice);
      if (heard.reply !== undefined) return this.reply(chatId, heard.reply);
      item.text = heard.text;
    }
    if (item.text === undefined) {
      await this.reply(chatId, NON_TEXT_REPLY);
      return;
    }
    // Re-derived now: the owner may have changed the chat's role or removed it meanwhile.
    const principal = this.deps.principalFor(chatId);
    if (!this.deps.chats.has(chatId) || principal.role === "unknown") return;
    this.deps.telegram.sendChatAction(chatId, "typing").catch(() => undefined);
    let text: string;
    try {
      text = (await this.deps.runner.runTurn(principal, { text: item.text, channel: "telegram" })).reply;
    } catch (e) {
      this.deps.log.warn(`telegram: the turn for chat ${chatId} failed (${e instanceof Error ? e.name : "error"})`);
      text = FAILED_TURN_REPLY;
    }
    if (typeof text === "string" && text.trim()) await this.reply(chatId, text);
  }

  /** The voice note's transcript, or the reply that says why there is none. */
  private async transcribe(voice: { fileId: string; durationS: number }): Promise<{ text?: string; reply?: string }> {
    if (voice.durationS > VOICE_NOTE_MAX_S)
      return { reply: `That voice message is longer than ${VOICE_NOTE_MAX_S / 60} minutes; please send a shorter one.` };
    try {
      const text = (await this.deps.transcribeVoice!(voice.fileId)).slice(0, TELEGRAM_TEXT_MAX_CHARS).trim();
      return text ? { text } : { reply: VOICE_EMPTY_REPLY };
    } catch (e) {
      this.deps.log.warn(`telegram: a voice message was not transcribed (${e instanceof Error ? e.message.replace(/\.$/, "") : "error"})`);
      return { reply: VOICE_FAILED_REPLY };
    }
  }

  private async reply(chatId: string, text: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.deps.sendText(chatId, text);
        return;
      } catch (e) {
        const wait =
          e instanceof TelegramError && e.kind === "rate-limit"
            ? Math.min(e.retryAfterMs ?? INBOUND_BACKOFF_MIN_MS, REPLY_RETRY_WAIT_MAX_MS)
            : -1;
        if (wait < 0 || attempt >= REPLY_RETRIES || !this.active) {
          this.deps.log.warn(`telegram: the reply to chat ${chatId} was not sent (${errorSentence(e)})`);
          return;
        }
        await this.deps.sleep(wait);
      }
    }
  }

  /** Resolves with `work`'s value, or undefined as soon as stop() is called. */
  private untilStopped<T>(work: Promise<T>): Promise<T | undefined> {
    work.catch(() => undefined); // an abandoned poll may still fail later
    return Promise.race([work, this.stopSignal.then(() => undefined)]);
  }

  private async pause(ms: number): Promise<void> {
    await this.untilStopped(this.deps.sleep(ms));
  }
}

/** How long to wait after the n-th failure in a row: Telegram's own retry_after when it gave one. */
export function backoffMs(error: unknown, failures: number): number {
  if (error instanceof TelegramError && error.retryAfterMs !== undefined) return Math.max(INBOUND_BACKOFF_MIN_MS, error.retryAfterMs);
  if (error instanceof TelegramError && (error.kind === "auth" || error.kind === "conflict" || error.kind === "not-configured"))
    return INBOUND_BACKOFF_MAX_MS;
  return Math.min(INBOUND_BACKOFF_MAX_MS, INBOUND_BACKOFF_MIN_MS * 2 ** Math.min(failures - 1, 16));
}

/** A TelegramError's own sentence (built never to hold the token or URL); other errors only by name. */
function errorSentence(e: unknown): string {
  if (e instanceof TelegramError) return e.message.replace(/\.$/, "");
  return e instanceof Error ? e.name : "error";
}
