import { bearerToken, unauthorizedMessage } from "../http/bearer";
import { MAX_HTTP_BODY_BYTES, MAX_JSON_DEPTH } from "../limits";
import type { Principal } from "../registry/principal";
import { decodeUtf8 } from "../util/utf8";
import { decodeHeaderValue, isModernRequest } from "./headers";
import { errorResponse, HEADER_MISMATCH, INVALID_REQUEST, PARSE_ERROR, type JsonRpcResponse } from "./jsonrpc";
import { jsonTooDeep } from "./json-depth";
import type { McpServer } from "./server";
import { DEFAULT_HEADER_VERSION, isSupportedVersion, META_PROTOCOL_VERSION, MODERN_VERSION } from "./versions";

/** A request as a host hands it over: header names lower-case, body already capped. */
export interface HttpRequest {
  method: string;
  path: string;
  headers: { [name: string]: string };
  body?: Uint8Array;
  /** The host stopped reading because the body passed MAX_HTTP_BODY_BYTES. */
  bodyTooLarge?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: { [name: string]: string };
  body: string;
}

export interface McpHttpDeps {
  server: McpServer;
  /** The Principal a bearer token stands for, or undefined when no client holds it. */
  authenticate(token: string): Principal | undefined;
  /** Whether a browser Origin may call (same host, or localhost). */
  originAllowed(origin: string, host: string | undefined): boolean;
}

const JSON_HEADERS = { "content-type": "application/json" };

/**
 * The Streamable HTTP transport for POST /mcp, JSON responses only. A thin
 * adapter: checks the HTTP envelope, then hands one message to the server.
 */
export async function handleMcpHttp(req: HttpRequest, deps: McpHttpDeps): Promise<HttpResponse> {
  if (req.method !== "POST") {
    return { ...fail(405, INVALID_REQUEST, "Method not allowed: use POST"), headers: { allow: "POST", ...JSON_HEADERS } };
  }
  const origin = req.headers["origin"];
  if (origin !== undefined && !deps.originAllowed(origin, req.headers["host"])) {
    return fail(403, INVALID_REQUEST, "Forbidden: origin not allowed");
  }
  const token = bearerToken(req.headers);
  const principal = token === undefined ? undefined : deps.authenticate(token);
  if (!principal) {
    const r = fail(401, INVALID_REQUEST, unauthorizedMessage(token, "token"));
    return { ...r, headers: { "www-authenticate": 'Bearer realm="halo", error="invalid_token"', ...JSON_HEADERS } };
  }
  const type = (req.headers["content-type"] || "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") return fail(415, INVALID_REQUEST, "Unsupported Media Type: use application/json");
  if (req.bodyTooLarge || (req.body && req.body.length > MAX_HTTP_BODY_BYTES)) {
    return fail(413, INVALID_REQUEST, `Payload too large: at most ${MAX_HTTP_BODY_BYTES} bytes`);
  }
  const headerVersion = req.headers["mcp-protocol-version"];
  if (!isSupportedVersion(headerVersion ?? DEFAULT_HEADER_VERSION)) {
    return fail(400, INVALID_REQUEST, "Bad Request: unsupported MCP-Protocol-Version");
  }
  const text = req.body ? decodeUtf8(req.body) : "";
  if (jsonTooDeep(text, MAX_JSON_DEPTH)) {
    return fail(400, INVALID_REQUEST, `Invalid request: JSON nested deeper than ${MAX_JSON_DEPTH}`);
  }
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return fail(400, PARSE_ERROR, "Parse error: body is not valid JSON");
  }
  const modern = isModernRequest(headerVersion, message);
  if (modern) {
    const mismatch = modernHeaderMismatch(req, headerVersion, message);
    if (mismatch) return reply(400, errorResponse(idOf(message), HEADER_MISMATCH, mismatch));
  }
  const answer = await deps.server.handle(message, principal, modern ? "modern" : "legacy");
  if (!answer) return { status: 202, headers: {}, body: "" };
  return reply(answer.httpStatus, answer.response);
}

/** 2026-07-28: the version, method and tool name in headers must match the body. */
function modernHeaderMismatch(req: HttpRequest, headerVersion: string | undefined, message: unknown): string | undefined {
  const m = message as { method?: unknown; id?: unknown; params?: { _meta?: { [k: string]: unknown }; name?: unknown } };
  if (typeof m !== "object" || m === null || !("id" in m)) return undefined; // notifications: no header rules
  const metaVersion = m.params?._meta?.[META_PROTOCOL_VERSION];
  if (headerVersion !== (typeof metaVersion === "string" ? metaVersion : MODERN_VERSION)) {
    return "Header mismatch: MCP-Protocol-Version does not match the request's _meta protocol version";
  }
  const method = req.headers["mcp-method"];
  if (method === undefined || decodeHeaderValue(method) !== m.method) {
    return "Header mismatch: Mcp-Method header is missing or does not match the body's method";
  }
  if (m.method === "tools/call") {
    const name = req.headers["mcp-name"];
    if (name === undefined || decodeHeaderValue(name) !== m.params?.name) {
      return "Header mismatch: Mcp-Name header is missing or does not match params.name";
    }
  }
  return undefined;
}

function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function reply(status: number, body: JsonRpcResponse): HttpResponse {
  return { status, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}

function fail(status: number, code: number, message: string): HttpResponse {
  return reply(status, errorResponse(null, code, message));
}
