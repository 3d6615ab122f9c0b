import { toJson } from "../util/json";
// One HTTP pipeline for every route: a route table, composable middleware,
// and one place that turns a refusal into a JSON answer in the route's shape
// (a JSON-RPC error on /mcp, {"error": ...} everywhere else). Handlers answer
// success only: a refusal is thrown, an HttpError as it is, a HaloError with
// the status its tag has (statusOf), anything else as a logged 500.
import { HaloError } from "../errors";
import type { McpClient } from "../people/clients";
import type { Log } from "../ports";
import { schemaKey } from "../registry/schema-key";
import type { CompiledValidator, JsonSchema } from "../registry/types";
import { errorResponse, INTERNAL_ERROR } from "../mcp/jsonrpc";
import { pathOnly } from "./bearer";
import { HttpError, refusalOf } from "./http-error";
import { API_JSON_BODY, schemaBody } from "./middleware";
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
  /**
   * The JSON object this route takes (declared in lib/http/bodies.ts): after
   * `use`, the pipeline parses the body (API_JSON_BODY) and checks it with the
   * schema's build-time validator, so the handler reads only what it allows.
   */
  body?: JsonSchema;
  /** The host hands the body over as it arrives (req.stream) instead of buffering it. */
  streamBody?: boolean;
  handler: RouteHandler;
}

export interface PipelineOptions {
  /** Build-time validators by schemaKey (lib/generated/validators.js): every route's body schema must have one. */
  validators: { readonly [key: string]: CompiledValidator };
  /** Where a failure that is not a refusal (a bug) is logged before its 500 answer. */
  log: Log;
}

/** The body limit of a path that no route has (a 404 or 405 answer needs no body). */
export const UNROUTED_MAX_BODY = 1024;

const API_HEADERS = { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff" };

/** A route with the middleware chain it runs (its own, then its body's checks). */
interface Compiled {
  spec: RouteSpec;
  chain: Middleware[];
}

export class HttpPipeline {
  private readonly table: Array<Route<Compiled>>;
  private readonly log: Log;

  constructor(
    routes: RouteSpec[],
    private readonly global: Middleware[],
    options: PipelineOptions,
  ) {
    this.log = options.log;
    this.table = routes.map((r) => ({ method: r.method, pattern: r.pattern, handler: { spec: r, chain: chainOf(r, options.validators) } }));
  }

  /** Every route, in table order (the generators read their body schemas). */
  routes(): RouteSpec[] {
    return this.table.map((r) => r.handler.spec);
  }

  /** The route a request goes to, when the method and path have one: hosts ask before reading the body. */
  routeFor(method: string, target: string): RouteSpec | undefined {
    const m = matchRoute(this.table, method, pathOnly(target));
    return m.kind === "found" ? m.handler.spec : undefined;
  }

  /** The most body bytes a host reads for this request. */
  bodyLimit(method: string, target: string): number {
    return this.routeFor(method, target)?.maxBody ?? UNROUTED_MAX_BODY;
  }

  async handle(req: HttpRequest): Promise<HttpResponse> {
    const path = pathOnly(req.path);
    const match = matchRoute(this.table, req.method, path);
    const shape = match.kind === "found" ? match.handler.spec.errors : this.shapeOfPath(path);
    const ctx: RequestContext = { req, path, params: match.kind === "found" ? match.params : {} };
    try {
      return await run(this.global, ctx, async () => {
        const limit = match.kind === "found" ? match.handler.spec.maxBody : UNROUTED_MAX_BODY;
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
        return run(route.chain, ctx, async () => route.spec.handler(ctx));
      });
    } catch (e) {
      return errorAnswer(this.refusal(e, req), shape);
    }
  }

  /** A thrown value as the refusal it answers: only a bug (neither HttpError nor HaloError) is logged. */
  private refusal(e: unknown, req: HttpRequest): HttpError {
    if (e instanceof HttpError) return e;
    if (e instanceof HaloError) return refusalOf(e);
    this.log.warn(`request failed: ${req.method} ${pathOnly(req.path)}: ${e instanceof Error ? e.message : String(e)}`);
    return new HttpError(500, "Internal error.", { rpcCode: INTERNAL_ERROR });
  }

  // A path none of whose routes has this method still answers in its routes' shape.
  private shapeOfPath(path: string): ErrorShape {
    for (const method of ["POST", "GET", "PUT", "DELETE"]) {
      const m = matchRoute(this.table, method, path);
      if (m.kind === "found") return m.handler.spec.errors;
    }
    return "api";
  }
}

/** The route's middleware, then its body's parse and schema check; a schema without a compiled validator stops the build. */
function chainOf(route: RouteSpec, validators: PipelineOptions["validators"]): Middleware[] {
  if (route.body === undefined) return route.use;
  const validate = validators[schemaKey(route.body)];
  if (!validate) throw new Error(`no compiled validator for the body of ${route.method} ${route.pattern}: run npm run gen`);
  return [...route.use, ...API_JSON_BODY, schemaBody(route.body, validate)];
}

/** Runs the chain; a middleware's second call of next() is a bug, refused (a 500 through the error writer). */
function run(chain: Middleware[], ctx: RequestContext, last: Next): Promise<HttpResponse> {
  const step = (i: number): Promise<HttpResponse> => {
    if (i >= chain.length) return last();
    let called = false;
    return chain[i](ctx, () => {
      if (called) throw new Error(`middleware ${i} called next() twice`);
      called = true;
      return step(i + 1);
    });
  };
  return step(0);
}

/** A refusal as the JSON the route's clients read: the only place a refusal body is written. */
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
