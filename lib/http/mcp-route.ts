import { toJson } from "../util/json";
// The Streamable HTTP transport for POST /mcp, JSON responses only: a thin
// route over the HTTP pipeline. The pipeline's middleware has checked the
// Host and Origin, the token, the media type and the body's size and depth;
// this checks the MCP headers, then hands one message to the server.
import { HttpError } from "./http-error";
import { jsonBody, requireClient, requireContentType } from "./middleware";
import type { Middleware, RouteSpec } from "./pipeline";
import type { HttpResponse } from "./types";
import { MAX_HTTP_BODY_BYTES, MAX_JSON_DEPTH } from "../limits";
import type { McpClient } from "../people/clients";
import type { Principal } from "../registry/principal";
import { decodeHeaderValue, isModernRequest } from "../mcp/headers";
import { errorResponse, HEADER_MISMATCH, PARSE_ERROR, type JsonRpcResponse } from "../mcp/jsonrpc";
import type { McpServer } from "../mcp/server";
import { DEFAULT_HEADER_VERSION, isSupportedVersion, META_PROTOCOL_VERSION, MODERN_VERSION } from "../mcp/versions";

export const MCP_PATH = "/mcp";

export interface McpHttpDeps {
  server: McpServer;
  verifyToken(token: string): McpClient | undefined;
  /** The Principal an authenticated client's calls run as. */
  principalFor(client: McpClient): Principal;
}

const JSON_HEADERS = { "content-type": "application/json" };

/** POST /mcp, with its middleware. */
export function mcpRoute(deps: McpHttpDeps): RouteSpec {
  return {
    method: "POST",
    pattern: MCP_PATH,
    maxBody: MAX_HTTP_BODY_BYTES,
    errors: "jsonrpc",
    use: [
      requireClient(deps.verifyToken, "any"),
      requireContentType("application/json"),
      checkProtocolVersion,
      jsonBody({ maxDepth: MAX_JSON_DEPTH, objectOnly: false, parseErrorCode: PARSE_ERROR }),
    ],
    handler: async (ctx): Promise<HttpResponse> => {
      const message = ctx.json;
      const headerVersion = ctx.req.headers["mcp-protocol-version"];
      const modern = isModernRequest(headerVersion, message);
      if (modern) {
        const mismatch = modernHeaderMismatch(ctx.req.headers, headerVersion, message);
        if (mismatch) return reply(400, errorResponse(idOf(message), HEADER_MISMATCH, mismatch));
      }
      const answer = await deps.server.handle(message, deps.principalFor(ctx.client!), modern ? "modern" : "legacy");
      if (!answer) return { status: 202, headers: {}, body: "" };
      return reply(answer.httpStatus, answer.response);
    },
  };
}

const checkProtocolVersion: Middleware = async (ctx, next) => {
  if (!isSupportedVersion(ctx.req.headers["mcp-protocol-version"] ?? DEFAULT_HEADER_VERSION)) {
    throw new HttpError(400, "Bad Request: unsupported MCP-Protocol-Version");
  }
  return next();
};

/** 2026-07-28: the version, method and tool name in headers must match the body. */
function modernHeaderMismatch(
  headers: { [name: string]: string },
  headerVersion: string | undefined,
  message: unknown,
): string | undefined {
  const m = message as { method?: unknown; id?: unknown; params?: { _meta?: { [k: string]: unknown }; name?: unknown } };
  if (typeof m !== "object" || m === null || !("id" in m)) return undefined; // notifications: no header rules
  const metaVersion = m.params?._meta?.[META_PROTOCOL_VERSION];
  if (headerVersion !== (typeof metaVersion === "string" ? metaVersion : MODERN_VERSION)) {
    return "Header mismatch: MCP-Protocol-Version does not match the request's _meta protocol version";
  }
  const method = headers["mcp-method"];
  if (method === undefined || decodeHeaderValue(method) !== m.method) {
    return "Header mismatch: Mcp-Method header is missing or does not match the body's method";
  }
  if (m.method === "tools/call") {
    const name = headers["mcp-name"];
    if (name === undefined || decodeHeaderValue(name) !== m.params?.name) {
      return "Header mismatch: Mcp-Name header is missing or does not match params.name";
    }
  }
  return undefined;
}

function idOf(message: unknown): string | number | null {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function reply(status: number, body: JsonRpcResponse): HttpResponse {
  return { status, headers: { ...JSON_HEADERS }, body: toJson(body) };
}
