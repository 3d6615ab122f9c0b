import { toJson } from "../util/json";
// One HTTP pipeline for every route: a route table, composable middleware,
// and one place that turns an HttpError into a JSON answer in the route's
// shape (a JSON-RPC error on /mcp, {"error": ...} everywhere else).
import type { McpClient } from "../people/clients";
import { errorResponse } from "../mcp/jsonrpc";
import { pathOnly } from "./bearer";
import { HttpError } from "./http-error";
import { matchRoute, type Route } from "./router";
import type { HttpRequest, HttpResponse } from "./types";

/** What a request carries through the middleware to its handler. */
export interface RequestContext {
  req: HttpRequest;
  /** The path without its query. */
  path: string;
  params: { [name: string]: string };
  /** The client whose token authenticated the request (set by requireClient). */
  client?: McpClient;
  /** The parsed JSON body (set by jsonBody). */
  json?: unknown;
}

export type Next = () => Promise<HttpResponse>;
export type Middleware = (ctx: RequestContext, next: Next) => Promise<HttpResponse>;
export type RouteHandler = (ctx: RequestContext) => HttpResponse | Promise<HttpResponse>;

/** How a route's refusals are written. */
export type ErrorShape = "api" | "jsonrpc";

export interface RouteSpec {
  method: string;
  /** Literal segments and `:name` parameters, e.g. "/api/secrets/:name". */
  pattern: string;
  /** Largest body the host reads for this route; past it the answer is 413 and the connection closes. */
  maxBody: number;
  errors: ErrorShape;
  use: Middleware[];
  /** The host hands the body over as it arrives (req.stream) instead of buffering it. */
  streamBody?: boolean;
  handler: RouteHandler;
}

/** The body limit of a path that no route has (a 404 or 405 answer needs no body). */
export const UNROUTED_MAX_BODY = 1024;

const API_HEADERS = { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff" };

export class HttpPipeline {
  private readonly table: Array<Route<RouteSpec>>;

  constructor(
    routes: RouteSpec[],
    private readonly global: Middleware[],
  ) {
    this.table = routes.map((r) => ({ method: r.method, pattern: r.pattern, handler: r }));
  }

  /** The route a request goes to, when the method and path have one: hosts ask before reading the body. */
  routeFor(method: string, target: string): RouteSpec | undefined {
    const m = matchRoute(this.table, method, pathOnly(target));
    return m.kind === "found" ? m.handler : undefined;
  }

  /** The most body bytes a host reads for this request. */
  bodyLimit(method: string, target: string): number {
    return this.routeFor(method, target)?.maxBody ?? UNROUTED_MAX_BODY;
  }

  async handle(req: HttpRequest): Promise<HttpResponse> {
    const path = pathOnly(req.path);
    const match = matchRoute(this.table, req.method, path);
    const shape = match.kind === "found" ? match.handler.errors : this.shapeOfPath(path);
    const ctx: RequestContext = { req, path, params: match.kind === "found" ? match.params : {} };
    try {
      return await run(this.global, ctx, async () => {
        const limit = match.kind === "found" ? match.handler.maxBody : UNROUTED_MAX_BODY;
        if (req.bodyTooLarge || (req.body !== undefined && req.body.length > limit)) {
          throw new HttpError(413, `Payload too large: at most ${limit} bytes`, { close: true });
        }
        if (match.kind === "bad-path") throw new HttpError(400, "Bad request: the path is malformed.");
        if (match.kind === "not-found") throw new HttpError(404, "Not found: no such endpoint.");
        if (match.kind === "wrong-method") {
          const allow = match.allow.join(", ");
          throw new HttpError(405, `Method not allowed: use ${allow}.`, { headers: { allow } });
        }
        const route = match.handler;
        ctx.params = match.params;
        return run(route.use, ctx, async () => route.handler(ctx));
      });
    } catch (e) {
      if (e instanceof HttpError) return errorAnswer(e, shape);
      throw e;
    }
  }

  // A path none of whose routes has this method still answers in its routes' shape.
  private shapeOfPath(path: string): ErrorShape {
    for (const method of ["POST", "GET", "PUT", "DELETE"]) {
      const m = matchRoute(this.table, method, path);
      if (m.kind === "found") return m.handler.errors;
    }
    return "api";
  }
}

function run(chain: Middleware[], ctx: RequestContext, last: Next): Promise<HttpResponse> {
  const step = (i: number): Promise<HttpResponse> => (i < chain.length ? chain[i](ctx, () => step(i + 1)) : last());
  return step(0);
}

/** An HttpError as the JSON the route's clients read. */
export function errorAnswer(e: HttpError, shape: ErrorShape): HttpResponse {
  const body = shape === "jsonrpc" ? toJson(errorResponse(null, e.rpcCode, e.message)) : toJson({ error: e.message });
  const headers = shape === "jsonrpc" ? { "content-type": "application/json", ...e.headers } : { ...API_HEADERS, ...e.headers };
  const answer: HttpResponse = { status: e.status, headers, body };
  if (e.close) answer.close = true;
  return answer;
}

/** A JSON answer with the API's headers. */
export function jsonAnswer(status: number, value: unknown): HttpResponse {
  return { status, headers: { ...API_HEADERS }, body: toJson(value) };
}
