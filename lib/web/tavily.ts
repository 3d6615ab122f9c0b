import { toJson } from "../util/json";
// web.search's provider: the Tavily Search API, POST {base}/search with a JSON
// body and `Authorization: Bearer <key>` (the current documented auth; the key
// never goes in the body). The key and base URL are read at each call. Every
// failure is a HaloError with one sentence that never contains the key.
import type { CallSignal, HttpClient, HttpClientResponse } from "../ports";
import { HaloError, type ErrorTag } from "../errors";
import { clipForMessage } from "../util/text";
import { parseHttpUrl } from "../util/url";
import { decodeUtf8 } from "../util/utf8";

export const TAVILY_DEFAULT_BASE_URL = "https://api.tavily.com";
export const TAVILY_TIMEOUT_MS = 30_000;
export const TAVILY_MAX_RESPONSE_BYTES = 512 * 1024;
/** What one result keeps: title and URL lengths, and the snippet from Tavily's `content`. */
export const WEB_TITLE_MAX_CHARS = 160;
export const WEB_URL_MAX_CHARS = 400;
export const WEB_SNIPPET_MAX_CHARS = 300;
export const WEB_ANSWER_MAX_CHARS = 1200;
/** Longest piece of Tavily's own error text quoted. */
const DETAIL_MAX_CHARS = 120;

export interface TavilyConfig {
  /** The Tavily key (the owner's secret `tavily`), undefined when not set. */
  apiKey(): string | undefined;
  /** undefined means TAVILY_DEFAULT_BASE_URL. */
  baseUrl(): string | undefined;
}

export interface WebResult {
  title: string;
  url: string;
  snippet: string;
}

export interface WebSearchOutcome {
  /** Tavily's short generated answer; empty when it gave none. */
  answer: string;
  results: WebResult[];
}

/**
 * Whether a failed exchange may have been billed: a refusal (an HTTP error
 * status) was not; a timeout or a dropped connection may have been.
 */
export class TavilyError extends HaloError {
  constructor(
    tag: ErrorTag,
    sentence: string,
    readonly mayHaveBeenBilled: boolean,
  ) {
    super(tag, sentence);
  }
}

export class TavilyClient {
  constructor(
    private readonly http: HttpClient,
    private readonly config: TavilyConfig,
    private readonly timeoutMs = TAVILY_TIMEOUT_MS,
  ) {}

  configured(): boolean {
    return !!this.config.apiKey();
  }

  /** `limits` cuts the request's own timeout to what is left of a caller's deadline and aborts with its signal. */
  async search(query: string, maxResults: number, limits?: { timeoutMs: number; signal?: CallSignal }): Promise<WebSearchOutcome> {
    const key = this.config.apiKey();
    if (!key) throw new TavilyError("not-configured", "web search needs a Tavily key, which the owner sets through the owner API.", false);
    const base = (this.config.baseUrl() || TAVILY_DEFAULT_BASE_URL).replace(/\/+$/, "");
    if (typeof parseHttpUrl(base) === "string")
      throw new TavilyError("not-configured", "the web-search base URL is not a valid URL.", false);
    const body = {
      query,
      max_results: maxResults,
      search_depth: "basic",
      topic: "general",
      include_answer: true,
      include_raw_content: false,
      include_images: false,
    };
    let reply: HttpClientResponse;
    try {
      reply = await this.http.request({
        method: "POST",
        url: `${base}/search`,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" },
        body: toJson(body),
        timeoutMs: Math.min(this.timeoutMs, limits?.timeoutMs ?? this.timeoutMs),
        signal: limits?.signal,
        maxResponseBytes: TAVILY_MAX_RESPONSE_BYTES,
      });
    } catch (e) {
      const code = (e as { code?: unknown } | null)?.code;
      if (code === "timeout")
        throw new TavilyError("provider-error", `the web search gave no answer within ${this.timeoutMs / 1000} s.`, true);
      if (code === "too-large")
        throw new TavilyError("provider-error", `the web search answer is larger than ${TAVILY_MAX_RESPONSE_BYTES} bytes.`, true);
      throw new TavilyError("provider-error", "the connection to the web-search service failed.", true);
    }
    const parsed = parseJson(reply.body);
    if (reply.status < 200 || reply.status > 299) throw statusError(reply.status, parsed, key);
    if (!parsed || typeof parsed !== "object" || !Array.isArray(parsed.results)) {
      throw new TavilyError("provider-error", "the web-search answer is not the documented JSON (no results list).", true);
    }
    const results: WebResult[] = [];
    for (const r of parsed.results.slice(0, maxResults)) {
      if (!r || typeof r !== "object" || typeof r.url !== "string") continue;
      results.push({
        title: oneLine(typeof r.title === "string" ? r.title : "", WEB_TITLE_MAX_CHARS),
        url: oneLine(r.url, WEB_URL_MAX_CHARS),
        snippet: oneLine(typeof r.content === "string" ? r.content : "", WEB_SNIPPET_MAX_CHARS),
      });
    }
    const answer = typeof parsed.answer === "string" ? oneLine(parsed.answer, WEB_ANSWER_MAX_CHARS) : "";
    return { answer, results };
  }
}

/** Tavily's error statuses: 401 bad key, 429 rate, 432 plan limit, 433 pay-as-you-go limit, 5xx. */
// biome-ignore lint/suspicious/noExplicitAny: JSON of unknown shape; every field read is checked with typeof
function statusError(status: number, body: any, key: string): TavilyError {
  if (status === 401 || status === 403) {
    return new TavilyError(
      "provider-error",
      `the web-search service refused the Tavily key (HTTP ${status}); the owner can replace it through the owner API.`,
      false,
    );
  }
  const detail = detailOf(body, key);
  if (status === 429)
    return new TavilyError("rate-limited", `the web-search service is rate-limiting searches (HTTP 429); try again in a minute.`, false);
  if (status === 432 || status === 433)
    return new TavilyError("quota", `the Tavily account's usage limit is reached (HTTP ${status})${detail}`, false);
  if (status >= 500) return new TavilyError("provider-error", `the web-search service failed (HTTP ${status})${detail}`, false);
  return new TavilyError("provider-error", `the web-search service rejected the search (HTTP ${status})${detail}`, false);
}

/** `detail.error` (Tavily's error body), or a plain `detail` string; the key blanked out. */
// biome-ignore lint/suspicious/noExplicitAny: JSON of unknown shape; every field read is checked with typeof
function detailOf(body: any, key: string): string {
  const detail = body && typeof body === "object" ? body.detail : undefined;
  const text = typeof detail === "string" ? detail : detail && typeof detail.error === "string" ? detail.error : "";
  if (!text) return ".";
  const safe = key.length >= 4 ? text.split(key).join("[key]") : text;
  return `: ${clipForMessage(safe.replace(/\btvly-[A-Za-z0-9_-]+/g, "[key]"), DETAIL_MAX_CHARS)}`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

/** The reply as JSON of unknown shape (callers check each field), or undefined. */
// biome-ignore lint/suspicious/noExplicitAny: JSON of unknown shape; every field read is checked with typeof
function parseJson(bytes: Uint8Array): any {
  try {
    return JSON.parse(decodeUtf8(bytes));
  } catch {
    return undefined;
  }
}
