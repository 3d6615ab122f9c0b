import { toJson } from "../util/json";
// A Telegram Bot API client over the HttpClient port: JSON calls
// (POST {base}/bot<token>/<method>), multipart uploads, and getUpdates
// long-polling. The token and the base URL are read at each call from a small
// config the core wires to the owner's secrets, so a token set or replaced through
// the owner API is used from the next call on. Every failure is a TelegramError
// whose message never contains the URL (the token is in its path).
import type { HttpClient, HttpClientResponse, Random } from "../ports";
import { encodeMultipart, multipartBoundary, multipartContentType, type MultipartPart } from "../util/multipart";
import { parseHttpUrl } from "../util/url";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";
import { badResponse, fromApiFailure, fromTransportFailure, TelegramError } from "./telegram-errors";

export const TELEGRAM_DEFAULT_BASE_URL = "https://api.telegram.org";
/** Deadline of an ordinary call. */
export const TELEGRAM_CALL_TIMEOUT_MS = 20_000;
/** Deadline of an upload (a voice note, a photo, a document of a few MB). */
export const TELEGRAM_UPLOAD_TIMEOUT_MS = 120_000;
/** getUpdates waits up to this long on Telegram's side for a message (seconds). */
export const TELEGRAM_POLL_TIMEOUT_S = 25;
/** The HTTP deadline of a long poll: the server-side wait plus this margin. */
const POLL_MARGIN_MS = 15_000;
/** Most updates one getUpdates returns (Telegram's own maximum is 100). */
export const TELEGRAM_MAX_UPDATES = 100;
/** Largest reply read from an ordinary call, and from getUpdates. */
const CALL_MAX_RESPONSE_BYTES = 256 * 1024;
const POLL_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Telegram's limits: message text and a media caption (characters, UTF-16 units). */
export const TELEGRAM_TEXT_MAX_CHARS = 4096;
export const TELEGRAM_CAPTION_MAX_CHARS = 1024;
/** The form of a bot token: the bot's id, a colon, the secret half. Anything else would bend the URL path. */
const TOKEN_PATTERN = /^[0-9]{1,20}:[A-Za-z0-9_-]{20,200}$/;
/** Telegram chat ids are integers (groups and channels negative). */
export const TELEGRAM_CHAT_ID_PATTERN = /^-?[0-9]{1,20}$/;

/** Owner-set values, read at each call. */
export interface TelegramConfig {
  /** The bot token (the owner's secret `telegram`), undefined when not set. */
  token(): string | undefined;
  /** Base URL of the Bot API; undefined means TELEGRAM_DEFAULT_BASE_URL. */
  baseUrl(): string | undefined;
}

/** A file to upload: the multipart field is the method's (voice, photo, document). */
export interface TelegramUpload {
  name: string;
  mime: string;
  bytes: Uint8Array;
  caption?: string;
}

/** One update from getUpdates, reduced to what the inbound channel reads. */
export interface TelegramUpdate {
  updateId: number;
  /** A new message in a chat; absent for every other kind of update. */
  message?: { chatId: string; messageId: number; text?: string; voice?: TelegramVoice };
}

/** A voice note's file (OGG/Opus) and its length as Telegram states it. */
export interface TelegramVoice {
  fileId: string;
  durationS: number;
}

/** A file path getFile may answer with (relative, no `..`): anything else would bend the download URL. */
const FILE_PATH_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_./-]{0,255}$/;

/** How the last exchange with Telegram went: for system.health, never a secret. */
export interface TelegramLinkState {
  configured: boolean;
  /** One sentence on the last failure; undefined when the last exchange succeeded or none happened. */
  lastError?: string;
  exchanges: number;
}

export class TelegramClient {
  private lastError?: string;
  private exchanges = 0;

  constructor(
    private readonly http: HttpClient,
    private readonly random: Random,
    private readonly config: TelegramConfig,
  ) {}

  /** True when a token in Telegram's form is set (it may still be refused). */
  configured(): boolean {
    const token = this.config.token();
    return token !== undefined && TOKEN_PATTERN.test(token);
  }

  linkState(): TelegramLinkState {
    return { configured: this.configured(), lastError: this.lastError, exchanges: this.exchanges };
  }

  async sendMessage(chatId: string, text: string): Promise<void> {
    await this.call("sendMessage", { chat_id: chatId, text });
  }

  /** "typing", "record_voice", "upload_document"...: shown in the chat for a few seconds. */
  async sendChatAction(chatId: string, action: string): Promise<void> {
    await this.call("sendChatAction", { chat_id: chatId, action });
  }

  /** A voice note: OGG/Opus (or MP3, M4A) bytes. */
  async sendVoice(chatId: string, file: TelegramUpload): Promise<void> {
    await this.upload("sendVoice", "voice", chatId, file);
  }

  async sendDocument(chatId: string, file: TelegramUpload): Promise<void> {
    await this.upload("sendDocument", "document", chatId, file);
  }

  async sendPhoto(chatId: string, file: TelegramUpload): Promise<void> {
    await this.upload("sendPhoto", "photo", chatId, file);
  }

  /**
   * Long-polls for new messages. `offset` is one past the last update handled
   * (Telegram then forgets everything before it); `limit` 1-100.
   */
  async getUpdates(offset: number, limit: number, timeoutS = TELEGRAM_POLL_TIMEOUT_S): Promise<TelegramUpdate[]> {
    const params = { offset, limit: Math.max(1, Math.min(TELEGRAM_MAX_UPDATES, limit)), timeout: timeoutS, allowed_updates: ["message"] };
    const result = await this.call("getUpdates", params, timeoutS * 1000 + POLL_MARGIN_MS, POLL_MAX_RESPONSE_BYTES);
    if (!Array.isArray(result)) throw this.failed(badResponse("to getUpdates is not a list of updates"));
    const updates: TelegramUpdate[] = [];
    for (const raw of result) {
      const update = parseUpdate(raw);
      if (!update) throw this.failed(badResponse("to getUpdates holds an update without an update_id"));
      updates.push(update);
    }
    return updates;
  }

  /** Downloads a file a message carries (getFile, then GET {base}/file/bot<token>/<path>); at most `maxBytes`. */
  async downloadFile(fileId: string, maxBytes: number): Promise<Uint8Array> {
    const info = (await this.call("getFile", { file_id: fileId })) as { file_path?: unknown; file_size?: unknown } | null;
    const path = info && typeof info === "object" ? info.file_path : undefined;
    if (typeof path !== "string" || !FILE_PATH_PATTERN.test(path) || path.indexOf("..") >= 0)
      throw this.failed(badResponse("to getFile has no usable file_path"));
    if (typeof info!.file_size === "number" && info!.file_size > maxBytes)
      throw this.failed(new TelegramError("too-large", `The file is larger than ${maxBytes} bytes.`));
    const token = this.config.token() ?? "";
    const base = (this.config.baseUrl() || TELEGRAM_DEFAULT_BASE_URL).replace(/\/+$/, "");
    let reply: HttpClientResponse;
    try {
      reply = await this.http.request({
        method: "GET",
        url: `${base}/file/bot${token}/${path}`,
        timeoutMs: TELEGRAM_UPLOAD_TIMEOUT_MS,
        maxResponseBytes: maxBytes,
      });
    } catch (e) {
      throw this.failed(fromTransportFailure(e, TELEGRAM_UPLOAD_TIMEOUT_MS, maxBytes));
    }
    if (reply.status < 200 || reply.status > 299) throw this.failed(fromApiFailure(reply.status, undefined, token));
    this.exchanges++;
    return reply.body;
  }

  /** One JSON call; resolves with the envelope's `result`. */
  async call(
    method: string,
    params: { [key: string]: unknown },
    timeoutMs = TELEGRAM_CALL_TIMEOUT_MS,
    maxBytes = CALL_MAX_RESPONSE_BYTES,
  ): Promise<unknown> {
    return this.exchange(method, { "content-type": "application/json" }, encodeUtf8(toJson(params)), timeoutMs, maxBytes);
  }

  private async upload(method: string, field: string, chatId: string, file: TelegramUpload): Promise<void> {
    const boundary = multipartBoundary(this.random);
    const parts: MultipartPart[] = [{ name: "chat_id", value: chatId }];
    if (file.caption) parts.push({ name: "caption", value: file.caption.slice(0, TELEGRAM_CAPTION_MAX_CHARS) });
    parts.push({ name: field, filename: file.name, contentType: file.mime, bytes: file.bytes });
    const body = encodeMultipart(parts, boundary);
    await this.exchange(
      method,
      { "content-type": multipartContentType(boundary) },
      body,
      TELEGRAM_UPLOAD_TIMEOUT_MS,
      CALL_MAX_RESPONSE_BYTES,
    );
  }

  private async exchange(
    method: string,
    headers: { [name: string]: string },
    body: Uint8Array,
    timeoutMs: number,
    maxBytes: number,
  ): Promise<unknown> {
    const token = this.config.token();
    if (token === undefined)
      throw new TelegramError("not-configured", "Telegram is not set up: the owner sets the bot token through the owner API.");
    if (!TOKEN_PATTERN.test(token))
      throw new TelegramError("not-configured", "The Telegram bot token is not in Telegram's form (digits, a colon, then the secret).");
    const base = (this.config.baseUrl() || TELEGRAM_DEFAULT_BASE_URL).replace(/\/+$/, "");
    if (typeof parseHttpUrl(base) === "string")
      throw new TelegramError("not-configured", "The Telegram base URL is not a valid http(s) URL.");
    let reply: HttpClientResponse;
    try {
      reply = await this.http.request({
        method: "POST",
        url: `${base}/bot${token}/${method}`,
        headers: { ...headers, accept: "application/json" },
        body,
        timeoutMs,
        maxResponseBytes: maxBytes,
      });
    } catch (e) {
      throw this.failed(fromTransportFailure(e, timeoutMs, maxBytes));
    }
    let envelope: { ok?: unknown; result?: unknown } | undefined;
    try {
      envelope = JSON.parse(decodeUtf8(reply.body));
    } catch {
      envelope = undefined;
    }
    const isObject = typeof envelope === "object" && envelope !== null;
    if (reply.status < 200 || reply.status > 299 || (isObject && envelope!.ok === false))
      throw this.failed(fromApiFailure(reply.status, envelope, token));
    if (!isObject || envelope!.ok !== true)
      throw this.failed(badResponse(reply.body.length ? "is not the Bot API's JSON envelope" : "is empty"));
    this.exchanges++;
    this.lastError = undefined;
    return envelope!.result;
  }

  private failed(error: TelegramError): TelegramError {
    this.exchanges++;
    this.lastError = error.message;
    return error;
  }
}

function parseUpdate(raw: unknown): TelegramUpdate | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const u = raw as { update_id?: unknown; message?: unknown };
  if (typeof u.update_id !== "number" || !Number.isInteger(u.update_id)) return undefined;
  const update: TelegramUpdate = { updateId: u.update_id };
  const m = u.message as { message_id?: unknown; chat?: { id?: unknown }; text?: unknown; voice?: unknown } | undefined;
  if (m && typeof m === "object" && m.chat && typeof m.chat === "object" && typeof m.chat.id === "number" && Number.isInteger(m.chat.id)) {
    update.message = { chatId: String(m.chat.id), messageId: typeof m.message_id === "number" ? m.message_id : 0 };
    if (typeof m.text === "string") update.message.text = m.text;
    const v = m.voice as { file_id?: unknown; duration?: unknown } | undefined;
    if (v && typeof v === "object" && typeof v.file_id === "string" && v.file_id.length <= 256)
      update.message.voice = { fileId: v.file_id, durationS: typeof v.duration === "number" ? v.duration : 0 };
  }
  return update;
}
