// POST /api/secrets/:name/check: one cheap call with the stored key, so the
// owner learns at setup whether it works. The answer is ok, or the error class
// (auth, billing, rate-limit, ...) and one sentence; never the key.
import { isSecretName, type SecretName } from "../device/secrets";
import type { Clock, HttpClient, HttpClientResponse } from "../ports";
import type { McpClient } from "../people/clients";
import { type ProviderError, fromHttpFailure, fromHttpStatus } from "../providers/errors";
import { DEFAULT_BASE_URLS, type ProviderId } from "../providers/types";
import { TAVILY_DEFAULT_BASE_URL } from "../web/tavily";
import { TELEGRAM_DEFAULT_BASE_URL } from "../chat/telegram";
import { decodeUtf8 } from "../util/utf8";
import { BODIES } from "./bodies";
import { conflict, notFound } from "./http-error";
import { requireClient } from "./middleware";
import { OWNER_API_MAX_BODY_BYTES } from "./owner-api";
import { jsonAnswer, type RouteSpec } from "./pipeline";

/** A check gives up after this long. */
export const SECRET_CHECK_TIMEOUT_MS = 10000;
/** A model list is a few KB; anything past this is refused by the port. */
export const SECRET_CHECK_MAX_RESPONSE_BYTES = 256 * 1024;

export interface SecretCheckDeps {
  http: HttpClient;
  clock: Clock;
  getSecret(name: string): string | undefined;
  /** Base URLs by service name (openai, anthropic, mistral, tavily, telegram); unset means the public API. */
  baseUrls?: { [service: string]: string | undefined };
}

export interface CheckOutcome {
  name: SecretName;
  ok: boolean;
  /** The error class when not ok (ProviderErrorKind). */
  error?: string;
  message: string;
}

const PROVIDERS: ReadonlySet<string> = new Set(["openai", "anthropic", "mistral"]);

/** The cheapest documented request each key can make: list models, read usage, getMe. */
function probe(name: SecretName, key: string, base: string): { url: string; headers: { [name: string]: string } } {
  const root = base.replace(/\/+$/, "");
  if (name === "anthropic") return { url: `${root}/models?limit=1`, headers: { "x-api-key": key, "anthropic-version": "2023-06-01" } };
  if (name === "telegram") return { url: `${root}/bot${key}/getMe`, headers: {} };
  if (name === "tavily") return { url: `${root}/usage`, headers: { authorization: `Bearer ${key}` } };
  return { url: `${root}/models`, headers: { authorization: `Bearer ${key}` } };
}

function baseFor(name: SecretName, baseUrls: SecretCheckDeps["baseUrls"]): string {
  const given = baseUrls?.[name];
  if (given) return given;
  if (name === "tavily") return TAVILY_DEFAULT_BASE_URL;
  if (name === "telegram") return TELEGRAM_DEFAULT_BASE_URL;
  return DEFAULT_BASE_URLS[name];
}

/** Makes the one call and classifies the answer the way the providers' errors are classified. */
export async function checkSecret(deps: SecretCheckDeps, name: SecretName): Promise<CheckOutcome | undefined> {
  const key = deps.getSecret(name);
  if (key === undefined) return undefined;
  const { url, headers } = probe(name, key, baseFor(name, deps.baseUrls));
  // Only the LLM providers have a ProviderId; the others are classified with OpenAI's rules and their own label.
  const id: ProviderId = PROVIDERS.has(name) ? (name as ProviderId) : "openai";
  const relabel = (e: ProviderError): CheckOutcome => {
    const message = PROVIDERS.has(name) ? e.message : `The ${name} check failed (${e.kind}${e.status ? `, HTTP ${e.status}` : ""}).`;
    return { name, ok: false, error: e.kind, message };
  };
  let reply: HttpClientResponse;
  try {
    reply = await deps.http.request({
      method: "GET",
      url,
      headers,
      timeoutMs: SECRET_CHECK_TIMEOUT_MS,
      maxResponseBytes: SECRET_CHECK_MAX_RESPONSE_BYTES,
    });
  } catch (e) {
    // A network message could carry the URL, and Telegram's has the token in it: only the class is kept.
    const err = fromHttpFailure(id, e, SECRET_CHECK_TIMEOUT_MS, SECRET_CHECK_MAX_RESPONSE_BYTES);
    return { name, ok: false, error: err.kind, message: `The ${name} check failed (${err.kind}).` };
  }
  if (reply.status >= 200 && reply.status <= 299) return { name, ok: true, message: `The ${name} key works.` };
  let body: unknown;
  try {
    body = JSON.parse(decodeUtf8(reply.body));
  } catch {
    body = undefined;
  }
  return relabel(fromHttpStatus(id, reply.status, reply.headers, body, key, deps.clock.now()));
}

/** The route, admin only, with an empty JSON object as its body. */
export function secretCheckRoute(deps: SecretCheckDeps, verifyToken: (token: string) => McpClient | undefined): RouteSpec {
  return {
    method: "POST",
    pattern: "/api/secrets/:name/check",
    maxBody: OWNER_API_MAX_BODY_BYTES,
    errors: "api",
    use: [requireClient(verifyToken, "admin")],
    body: BODIES.nothing,
    handler: async (ctx) => {
      const name = ctx.params.name;
      if (!isSecretName(name)) throw notFound("no such secret.");
      const outcome = await checkSecret(deps, name);
      if (!outcome) throw conflict(`the ${name} key is not set.`);
      return jsonAnswer(200, outcome);
    },
  };
}
