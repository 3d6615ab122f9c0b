import { nameError } from "../errors";
// Provider failures: one error class with a kind the router acts on and a one-sentence message.
import { clipForMessage } from "../util/text";
import { PROVIDER_LABELS, type ProviderId } from "./types";

/**
 * - auth: the key was refused (401/403). Not retried.
 * - billing: the account is out of credit or over the provider's spend cap. Not retried.
 * - rate-limit (429), overloaded (529/503), server (other 5xx, 408, 409), network: retried with backoff.
 * - timeout: no complete answer in time. Not retried (the next provider is tried).
 * - too-large: the answer exceeded the response cap. bad-request: the provider rejected the request (other 4xx).
 * - bad-response: a 2xx body that is not the documented JSON.
 * - budget: the owner's budget governor refused before anything was sent. The router stops there.
 * - unavailable: no keyed provider, or every provider failed (router only).
 */
export type ProviderErrorKind =
  | "auth"
  | "billing"
  | "rate-limit"
  | "overloaded"
  | "server"
  | "network"
  | "timeout"
  | "too-large"
  | "bad-request"
  | "bad-response"
  | "budget"
  | "unavailable";

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set<ProviderErrorKind>(["rate-limit", "overloaded", "server", "network"]);

/** Longest piece of a provider's own error text quoted in a message. */
const QUOTE_MAX_CHARS = 120;
/** A Retry-After beyond this is not believed (ms); the router has its own, lower cap on waiting. */
const RETRY_AFTER_SANE_MAX_MS = 24 * 3600 * 1000;

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly provider?: ProviderId;
  readonly status?: number;
  /** The wait the provider asked for (Retry-After), in ms. */
  readonly retryAfterMs?: number;

  constructor(kind: ProviderErrorKind, message: string, details: { provider?: ProviderId; status?: number; retryAfterMs?: number } = {}) {
    super(message);
    nameError(this, "ProviderError");
    this.kind = kind;
    this.provider = details.provider;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

/** The HttpClient port's rejection codes (lib/ports.ts); an Error without one counts as a network failure. */
export function fromHttpFailure(provider: ProviderId, error: unknown, timeoutMs: number, maxBytes: number): ProviderError {
  const label = PROVIDER_LABELS[provider];
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "timeout") return new ProviderError("timeout", `${label} gave no complete answer within ${timeoutMs} ms.`, { provider });
  if (code === "too-large") return new ProviderError("too-large", `${label}'s answer is larger than ${maxBytes} bytes.`, { provider });
  const detail = error instanceof Error ? clipForMessage(error.message, QUOTE_MAX_CHARS) : "unknown error";
  return new ProviderError("network", `The connection to ${label} failed: ${detail}`, { provider });
}

/** The provider's own error text from a JSON error body (OpenAI/Anthropic `error.message`, Mistral `message`/`detail`). */
export function providerErrorText(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  const b = body as { error?: unknown; message?: unknown; detail?: unknown };
  if (b.error && typeof b.error === "object") {
    const m = (b.error as { message?: unknown }).message;
    if (typeof m === "string") return m;
  }
  if (typeof b.error === "string") return b.error;
  if (typeof b.message === "string") return b.message;
  if (typeof b.detail === "string") return b.detail;
  return undefined;
}

/** A provider's error code or type (`error.code`, `error.type`, `error.details.error_code`, `code`, `type`), joined. */
function providerErrorCodes(body: unknown): string {
  if (!body || typeof body !== "object") return "";
  const b = body as { error?: { code?: unknown; type?: unknown; details?: { error_code?: unknown } }; code?: unknown; type?: unknown };
  const parts = [b.error?.code, b.error?.type, b.error?.details?.error_code, b.code, b.type];
  return parts.filter((p) => typeof p === "string").join(" ");
}

/** Quotes provider text safely: one line, clipped, with the key (if it appears) blanked out. */
export function quoteProviderText(text: string, apiKey: string): string {
  const redacted = apiKey.length >= 4 ? text.split(apiKey).join("[key]") : text;
  return clipForMessage(redacted, QUOTE_MAX_CHARS);
}

/** Milliseconds from `retry-after-ms` or `retry-after` (seconds or an HTTP date); undefined when absent or nonsense. */
export function parseRetryAfter(headers: { [name: string]: string }, nowMs: number): number | undefined {
  const ms = headers["retry-after-ms"];
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return clampRetryAfter(Number(ms));
  const value = headers["retry-after"];
  if (value === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return clampRetryAfter(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? clampRetryAfter(Math.max(0, date - nowMs)) : undefined;
}

function clampRetryAfter(ms: number): number | undefined {
  return Number.isFinite(ms) && ms >= 0 && ms <= RETRY_AFTER_SANE_MAX_MS ? Math.round(ms) : undefined;
}

/** The error for a non-2xx reply. `body` is the parsed JSON body when there was one. */
export function fromHttpStatus(
  provider: ProviderId,
  status: number,
  headers: { [name: string]: string },
  body: unknown,
  apiKey: string,
  nowMs: number,
): ProviderError {
  const label = PROVIDER_LABELS[provider];
  const details = { provider, status, retryAfterMs: parseRetryAfter(headers, nowMs) };
  // The provider's text is never quoted for a refused key: OpenAI's echoes part of the key.
  if (status === 401 || status === 403) {
    return new ProviderError(
      "auth",
      `The ${label} key was refused (HTTP ${status}); the owner can replace it through the owner API.`,
      details,
    );
  }
  if (status >= 300 && status <= 399) {
    return new ProviderError(
      "bad-request",
      `${label} answered with a redirect (HTTP ${status}), which is not followed; check the base URL.`,
      details,
    );
  }
  const text = providerErrorText(body);
  const quoted = text ? `: ${quoteProviderText(text, apiKey)}` : ".";
  const codes = providerErrorCodes(body);
  if (status === 402 || /insufficient_quota|billing|spend_limit/.test(codes)) {
    return new ProviderError("billing", `${label} refused the request for billing reasons (HTTP ${status})${quoted}`, details);
  }
  if (status === 529 || status === 503 || /overloaded/.test(codes)) {
    return new ProviderError("overloaded", `${label} is overloaded (HTTP ${status})${quoted}`, details);
  }
  if (status === 429) return new ProviderError("rate-limit", `${label} is rate-limiting requests (HTTP 429)${quoted}`, details);
  if (status >= 500 || status === 408 || status === 409) {
    return new ProviderError("server", `${label} failed with HTTP ${status}${quoted}`, details);
  }
  return new ProviderError("bad-request", `${label} rejected the request (HTTP ${status})${quoted}`, details);
}

/** A 2xx body that is not what the provider documents. */
export function badResponse(provider: ProviderId, what: string): ProviderError {
  return new ProviderError("bad-response", `${PROVIDER_LABELS[provider]}'s answer ${what}.`, { provider });
}
