// The checks routes compose: where a token may come from, which Host and
// Origin a request may carry, who the caller is, and what its body must be.
import { jsonTooDeep } from "../util/json-depth";
import type { McpClient } from "../people/clients";
import { describeValidationError } from "../registry/validation";
import type { CompiledValidator, JsonSchema, ValidationReport } from "../registry/types";
import { decodeUtf8 } from "../util/utf8";
import { bearerToken, tokenInQuery } from "./bearer";
import { HttpError } from "./http-error";
import type { HostPolicy } from "./host-policy";
import type { Middleware } from "./pipeline";

const FRAME_ANCESTORS_NONE = "frame-ancestors 'none'";

/**
 * No other site may frame a page of the device (clickjacking): every HTML
 * answer says so here, whichever route wrote it (the web page, /status,
 * /updates, a host's pages). A page with its own policy keeps it when that
 * already names frame-ancestors.
 */
export const refuseFraming: Middleware = async (_ctx, next) => {
  const answer = await next();
  if (!/^text\/html\b/i.test(answer.headers["content-type"] ?? "")) return answer;
  const policy = answer.headers["content-security-policy"];
  const framing =
    policy === undefined ? FRAME_ANCESTORS_NONE : /frame-ancestors/.test(policy) ? policy : `${policy}; ${FRAME_ANCESTORS_NONE}`;
  return { ...answer, headers: { ...answer.headers, "x-frame-options": "DENY", "content-security-policy": framing } };
};

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

/** Deepest JSON nesting an /api/ body may have. */
export const API_MAX_JSON_DEPTH = 8;

/** The body checks of every /api/ endpoint that takes a JSON object: the media type, then the parse (depth first). */
export const API_JSON_BODY: Middleware[] = [
  requireContentType("application/json"),
  jsonBody({ maxDepth: API_MAX_JSON_DEPTH, objectOnly: true }),
];

/**
 * Checks the parsed body (ctx.json) with the build-time validator of its
 * schema, as tool arguments are checked: 400 and one sentence naming the
 * field, never its value.
 */
export function schemaBody(schema: JsonSchema, validate: CompiledValidator): Middleware {
  return async (ctx, next) => {
    const report: ValidationReport = {};
    if (!validate(ctx.json, report)) throw new HttpError(400, `Bad request: ${bodyProblem(schema, report)}`);
    return next();
  };
}

/** The first violation as one sentence: an unknown field lists the fields there are (as the owner API always has). */
function bodyProblem(schema: JsonSchema, report: ValidationReport): string {
  const first = report.errors?.[0];
  if (first && typeof first.params?.additionalProperty === "string") {
    const path = first.instancePath.split("/").slice(1);
    let at: JsonSchema | undefined = schema;
    for (const name of path) at = (at?.properties as { [name: string]: JsonSchema } | undefined)?.[name];
    const fields = Object.keys((at?.properties as object | undefined) ?? {});
    const where = path.length === 0 ? "" : ` in '${path.join(".")}'`;
    if (fields.length === 0) return path.length === 0 ? "this endpoint takes no body fields." : `'${path.join(".")}' takes no fields.`;
    return `unknown field${where}; the fields are ${fields.join(", ")}.`;
  }
  return describeValidationError(report).replace(/^invalid arguments: /, "");
}

/** Parses the body as JSON (depth checked before parsing) into ctx.json. */
export function jsonBody(options: JsonBodyOptions): Middleware {
  return async (ctx, next) => {
    const body = ctx.req.body ?? new Uint8Array(0);
    if (jsonTooDeep(body, options.maxDepth)) throw new HttpError(400, `Bad request: JSON nested deeper than ${options.maxDepth}.`);
    const text = decodeUtf8(body);
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
