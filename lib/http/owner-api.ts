// The owner API under /api/: the human-web-only surface (secrets, MCP clients,
// provider priority, the chat allow-list, people, config, pending approvals).
// Transport-free like /mcp: a plain HttpRequest in, an HttpResponse out.
// Only an admin client's bearer token gets in; no tool reaches any of it.
import type { HttpRequest, HttpResponse } from "../mcp/http";
import { jsonTooDeep } from "../mcp/json-depth";
import type { McpClient } from "../people/clients";
import { decodeUtf8 } from "../util/utf8";
import { bearerToken, pathOnly, tokenInQuery, unauthorizedMessage } from "./bearer";
import { ownerRoutes, type ApiHandler, type OwnerApiDeps } from "./owner-routes";
import { matchRoute, type Route } from "./router";

export type { OwnerApiDeps } from "./owner-routes";

/** Largest owner API request body (bytes); every endpoint takes a small object. */
export const OWNER_API_MAX_BODY_BYTES = 16 * 1024;
/** Deepest JSON nesting an owner API body may have. */
export const OWNER_API_MAX_JSON_DEPTH = 8;

const HEADERS = { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff" };

export interface OwnerApiEnvironment extends OwnerApiDeps {
  /** The client a bearer token belongs to, or undefined. */
  verifyToken(token: string): McpClient | undefined;
  originAllowed(origin: string, host: string | undefined): boolean;
}

/** The owner API's request handler; its routes are built once, from the subsystems that exist. */
export function createOwnerApi(env: OwnerApiEnvironment): (req: HttpRequest) => Promise<HttpResponse> {
  const routes = ownerRoutes(env);
  return (req) => handleOwnerApi(req, env, routes);
}

async function handleOwnerApi(req: HttpRequest, env: OwnerApiEnvironment, routes: Array<Route<ApiHandler>>): Promise<HttpResponse> {
  if (tokenInQuery(req.path)) return error(400, "Tokens are not accepted in a URL: send Authorization: Bearer <token>.");
  const origin = req.headers["origin"];
  if (origin !== undefined && !env.originAllowed(origin, req.headers["host"]))
    return error(403, "Forbidden: this origin may not call the owner API.");
  const token = bearerToken(req.headers);
  const caller = token === undefined ? undefined : env.verifyToken(token);
  if (!caller) {
    const r = error(401, unauthorizedMessage(token, "an admin client's token"));
    return { ...r, headers: { ...r.headers, "www-authenticate": 'Bearer realm="halo", error="invalid_token"' } };
  }
  if (caller.role !== "admin") return error(403, "Forbidden: the owner API needs an admin client's token.");
  const match = matchRoute(routes, req.method, pathOnly(req.path));
  if (match.kind === "bad-path") return error(400, "Bad request: the path is malformed.");
  if (match.kind === "not-found") return error(404, "Not found: no such owner API endpoint.");
  if (match.kind === "wrong-method") {
    const r = error(405, `Method not allowed: use ${match.allow.join(", ")}.`);
    return { ...r, headers: { ...r.headers, allow: match.allow.join(", ") } };
  }
  let body: { [key: string]: unknown } | undefined;
  if (req.method === "PUT" || req.method === "POST") {
    const parsed = readBody(req);
    if ("status" in parsed) return parsed;
    body = parsed.body;
  }
  const reply = await match.handler({ params: match.params, body: body ?? {}, caller });
  return { status: reply.status, headers: { ...HEADERS }, body: JSON.stringify(reply.body) };
}

function readBody(req: HttpRequest): HttpResponse | { body: { [key: string]: unknown } } {
  if (req.bodyTooLarge || (req.body && req.body.length > OWNER_API_MAX_BODY_BYTES)) {
    return error(413, `Payload too large: at most ${OWNER_API_MAX_BODY_BYTES} bytes.`);
  }
  const type = (req.headers["content-type"] || "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") return error(415, "Unsupported media type: send application/json.");
  const text = req.body ? decodeUtf8(req.body) : "";
  if (jsonTooDeep(text, OWNER_API_MAX_JSON_DEPTH)) return error(400, `Bad request: JSON nested deeper than ${OWNER_API_MAX_JSON_DEPTH}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return error(400, "Bad request: the body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return error(400, "Bad request: the body must be a JSON object.");
  return { body: value as { [key: string]: unknown } };
}

function error(status: number, message: string): HttpResponse {
  return { status, headers: { ...HEADERS }, body: JSON.stringify({ error: message }) };
}

/** The JSON body reader and error shape, shared with the other JSON endpoints under /api/ (POST /api/chat). */
export { readBody as readJsonBody, error as apiError };
