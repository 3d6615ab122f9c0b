// One JSON POST to a provider over the HttpClient port, and the pure reading of its reply.
import type { Clock, HttpClient, HttpClientResponse } from "../ports";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";
import { badResponse, fromHttpFailure, fromHttpStatus, ProviderError } from "./errors";
import {
  PROVIDER_LABELS,
  PROVIDER_MAX_REQUEST_BYTES,
  PROVIDER_MAX_RESPONSE_BYTES,
  type ChatProvider,
  type ChatRequest,
  type ChatResponse,
  type ProviderId,
  type WireRequest,
} from "./types";
import { checkChatRequest } from "./wire";

/** What every adapter is built with. */
export interface ProviderConnection {
  http: HttpClient;
  apiKey: string;
  /** e.g. https://api.openai.com/v1 (a trailing slash is fine). */
  baseUrl: string;
  /** Reads HTTP-date Retry-After headers. */
  clock: Clock;
  /** Defaults to PROVIDER_MAX_RESPONSE_BYTES. */
  maxResponseBytes?: number;
}

/** Parses a provider reply: the JSON body of a 2xx, or the ProviderError a non-2xx (or a garbled body) means. */
export function readReply(provider: ProviderId, reply: HttpClientResponse, apiKey: string, nowMs: number): unknown {
  let body: unknown;
  let parsed = true;
  try {
    body = JSON.parse(decodeUtf8(reply.body));
  } catch {
    parsed = false;
  }
  if (reply.status < 200 || reply.status > 299) throw fromHttpStatus(provider, reply.status, reply.headers, body, apiKey, nowMs);
  if (!parsed) throw badResponse(provider, reply.body.length ? "is not valid JSON (truncated or garbled)" : "is empty");
  return body;
}

/** POSTs `wire` and returns the parsed JSON answer; every failure is a ProviderError. */
export async function postJson(provider: ProviderId, conn: ProviderConnection, wire: WireRequest, timeoutMs: number): Promise<unknown> {
  const body = encodeUtf8(wire.body);
  if (body.length > PROVIDER_MAX_REQUEST_BYTES) {
    throw new ProviderError(
      "bad-request",
      `The request to ${PROVIDER_LABELS[provider]} is larger than ${PROVIDER_MAX_REQUEST_BYTES} bytes.`,
      {
        provider,
      },
    );
  }
  const maxBytes = conn.maxResponseBytes ?? PROVIDER_MAX_RESPONSE_BYTES;
  let reply: HttpClientResponse;
  try {
    reply = await conn.http.request({ method: "POST", url: wire.url, headers: wire.headers, body, timeoutMs, maxResponseBytes: maxBytes });
  } catch (error) {
    throw fromHttpFailure(provider, error, timeoutMs, maxBytes);
  }
  return readReply(provider, reply, conn.apiKey, conn.clock.now());
}

/** A provider whose every exchange is one JSON POST: build the wire request, send it, parse the answer. */
export function jsonProvider(
  id: ProviderId,
  continuation: ChatProvider["continuation"],
  conn: ProviderConnection,
  build: (req: ChatRequest, apiKey: string, baseUrl: string) => WireRequest,
  parse: (body: unknown, req: ChatRequest) => ChatResponse,
): ChatProvider {
  return {
    id,
    continuation,
    async complete(req: ChatRequest): Promise<ChatResponse> {
      checkChatRequest(req);
      return parse(await postJson(id, conn, build(req, conn.apiKey, conn.baseUrl), req.timeoutMs), req);
    },
  };
}
