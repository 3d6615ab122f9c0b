import { nameError } from "../errors";
// Telegram Bot API failures: one error class with a kind the callers act on and
// a one-sentence message. The bot token is part of every request URL
// (/bot<token>/<method>), so no message here is ever built from a URL or from a
// transport error's own text, and Telegram's own description is quoted only
// with the token blanked out.
import { clipForMessage } from "../util/text";

/**
 * - not-configured: no bot token, or one not in Telegram's form, or a bad base URL. Nothing was sent.
 * - auth: Telegram refused the token (401, or 404 on the bot path).
 * - forbidden: 403: the bot was blocked by the user or removed from the chat.
 * - bad-request: 400 and other 4xx (chat not found, message too long...).
 * - conflict: 409: another getUpdates poller or a webhook is active for this bot.
 * - rate-limit: 429, with the wait Telegram asked for (parameters.retry_after).
 * - server: 5xx. timeout, network, too-large: the transport's codes.
 * - bad-response: a body that is not the Bot API's JSON envelope.
 */
export type TelegramErrorKind =
  | "not-configured"
  | "auth"
  | "forbidden"
  | "bad-request"
  | "conflict"
  | "rate-limit"
  | "server"
  | "timeout"
  | "network"
  | "too-large"
  | "bad-response";

/** Longest piece of Telegram's own description quoted in a message. */
const DESCRIPTION_MAX_CHARS = 120;
/** A retry_after beyond this is not believed (seconds). */
const RETRY_AFTER_MAX_S = 3600;

export class TelegramError extends Error {
  readonly kind: TelegramErrorKind;
  readonly status?: number;
  /** The wait Telegram asked for, in ms (429). */
  readonly retryAfterMs?: number;

  constructor(kind: TelegramErrorKind, message: string, details: { status?: number; retryAfterMs?: number } = {}) {
    super(message);
    nameError(this, "TelegramError");
    this.kind = kind;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** The HttpClient port's rejection, by its code only: the port's own message might name the URL. */
export function fromTransportFailure(error: unknown, timeoutMs: number, maxBytes: number): TelegramError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "timeout") return new TelegramError("timeout", `Telegram gave no complete answer within ${timeoutMs} ms.`);
  if (code === "too-large") return new TelegramError("too-large", `Telegram's answer is larger than ${maxBytes} bytes.`);
  return new TelegramError("network", "The connection to Telegram failed.");
}

/** The error for a Bot API reply with `ok: false` or a non-2xx status. `body` is the parsed JSON, if any. */
export function fromApiFailure(status: number, body: unknown, token: string): TelegramError {
  const envelope = body && typeof body === "object" ? (body as { error_code?: unknown; description?: unknown; parameters?: unknown }) : {};
  const code = typeof envelope.error_code === "number" ? envelope.error_code : status;
  const description = typeof envelope.description === "string" ? `: ${quoteDescription(envelope.description, token)}` : ".";
  const params = envelope.parameters && typeof envelope.parameters === "object" ? (envelope.parameters as { retry_after?: unknown }) : {};
  const details = { status: code, retryAfterMs: retryAfterMs(params.retry_after) };
  // A refused token is never quoted back: the description could carry part of it.
  // 404 with the Bot API's envelope is how Telegram answers an unknown token.
  if (code === 401 || (code === 404 && typeof envelope.description === "string")) {
    return new TelegramError(
      "auth",
      `Telegram refused the bot token (HTTP ${code}); the owner can replace it through the owner API.`,
      details,
    );
  }
  if (code === 403) return new TelegramError("forbidden", `Telegram refused to deliver to that chat (HTTP 403)${description}`, details);
  if (code === 409) return new TelegramError("conflict", `Telegram reports a conflict (HTTP 409)${description}`, details);
  if (code === 429) {
    const wait = details.retryAfterMs !== undefined ? ` for ${Math.ceil(details.retryAfterMs / 1000)} s` : "";
    return new TelegramError("rate-limit", `Telegram is rate-limiting the bot${wait} (HTTP 429).`, details);
  }
  if (code >= 500) return new TelegramError("server", `Telegram failed with HTTP ${code}${description}`, details);
  return new TelegramError("bad-request", `Telegram rejected the request (HTTP ${code})${description}`, details);
}

export function badResponse(what: string): TelegramError {
  return new TelegramError("bad-response", `Telegram's answer ${what}.`);
}

/** Telegram's description on one line, clipped, with the token (and its secret half) blanked out. */
export function quoteDescription(text: string, token: string): string {
  let safe = text;
  const secretHalf = token.slice(token.indexOf(":") + 1);
  for (const part of [token, secretHalf]) if (part.length >= 8) safe = safe.split(part).join("[token]");
  return clipForMessage(safe, DESCRIPTION_MAX_CHARS);
}

function retryAfterMs(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= RETRY_AFTER_MAX_S ? value * 1000 : undefined;
}
