// The checks routes compose: where a token may come from, which Host and
// Origin a request may carry, who the caller is, and what its body must be.
import { jsonTooDeep } from "../util/json-depth";
import type { McpClient } from "../people/clients";
import { decodeUtf8 } from "../util/utf8";
import { bearerToken, tokenInQuery } from "./bearer";
import { HttpError } from "./http-error";
import type { HostPolicy } from "./host-policy";
import type { Middleware } from "./pipeline";

/** Tokens belong in the Authorization header, never in a URL (logs, history, Referer). */
export const refuseTokenInUrl: Middleware = async (ctx, next) => {
  if (tokenInQuery(ctx.req.path)) throw new HttpError(400, "Tokens are not accepted in a URL: send Authorization: Bearer <token>.");
  return next();
};

/**
 * Answers only to the device's own names and addresses, so a page on another
 * site that rebinds its name to the device's address gets nothing (DNS
 * rebinding); a browser Origin must be one of those hosts too.
 */
export function hostAndOrigin(policy: HostPolicy): Middleware {
  return async (ctx, next) => {
    const host = ctx.req.headers.host;
    if (host !== undefined && !policy.allows(host)) {
      throw new HttpError(
        403,
        "Forbidden: this device does not answer to that host name; the owner can add it (owner API: PUT /api/hosts).",
      );
    }
    const origin = ctx.req.headers.origin;
    if (origin !== undefined && !policy.allowsOrigin(origin, host)) throw new HttpError(403, "Forbidden: origin not allowed.");
    return next();
  };
}

/** Who may call: any client with a valid token, or only an admin client. */
export function requireClient(verify: (token: string) => McpClient | undefined, who: "any" | "admin"): Middleware {
  return async (ctx, next) => {
    const token = bearerToken(ctx.req.headers);
    const client = token === undefined ? undefined : verify(token);
    if (!client) {
      const message = token === undefined ? "Unauthorized: send Authorization: Bearer <token>." : "Unauthorized: unknown or revoked token.";
      throw new HttpError(401, message, { headers: { "www-authenticate": 'Bearer realm="halo", error="invalid_token"' } });
    }
    if (who === "admin" && client.role !== "admin") throw new HttpError(403, "Forbidden: the owner API needs an admin client's token.");
    ctx.client = client;
    return next();
  };
}

/** The body must be of this media type. */
export function requireContentType(type: string): Middleware {
  return async (ctx, next) => {
    const given = (ctx.req.headers["content-type"] || "").split(";")[0].trim().toLowerCase();
    if (given !== type) throw new HttpError(415, `Unsupported media type: send ${type}.`);
    return next();
  };
}

export interface JsonBodyOptions {
  maxDepth: number;
  /** Only a JSON object is accepted (the owner API); /mcp takes any JSON value. */
  objectOnly: boolean;
  /** JSON-RPC code of a body that does not parse (/mcp answers -32700). */
  parseErrorCode?: number;
}

/** Parses the body as JSON (depth checked before parsing) into ctx.json. */
export function jsonBody(options: JsonBodyOptions): Middleware {
  return async (ctx, next) => {
    const text = ctx.req.body ? decodeUtf8(ctx.req.body) : "";
    if (jsonTooDeep(text, options.maxDepth)) throw new HttpError(400, `Bad request: JSON nested deeper than ${options.maxDepth}.`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpError(400, "Parse error: the body is not valid JSON.", { rpcCode: options.parseErrorCode });
    }
    if (options.objectOnly && (typeof value !== "object" || value === null || Array.isArray(value))) {
      throw new HttpError(400, "Bad request: the body must be a JSON object.");
    }
    ctx.json = value;
    return next();
  };
}
