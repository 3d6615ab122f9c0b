// What an owner API endpoint is: a method, a path pattern, the body it takes
// (a schema from lib/http/bodies.ts, on every PUT and POST) and a handler
// that answers success only. A refusal is thrown: an HttpError as it is, or a
// HaloError, which the pipeline answers with its tag's status.
import type { McpClient } from "../people/clients";
import type { FromSchema, ObjectSchema } from "../registry/schema-types";

export interface ApiCall<B = unknown> {
  params: { [name: string]: string };
  /** The body, already checked against the route's schema (an empty object on GET and DELETE). */
  body: B;
  caller: McpClient;
}

/** A success: the status (200, 201, 202) and the JSON object answered. */
export interface ApiReply {
  status: number;
  body: { [key: string]: unknown };
}

export interface OwnerRoute {
  method: "GET" | "PUT" | "POST" | "DELETE";
  pattern: string;
  /** The JSON object a PUT or POST takes; GET and DELETE take none. */
  body?: ObjectSchema;
  handler(call: ApiCall): ApiReply | Promise<ApiReply>;
}

/** A success answer. */
export function ok(body: { [key: string]: unknown }, status = 200): ApiReply {
  return { status, body };
}

/** A PUT or POST endpoint whose handler reads a body typed from its schema (which the pipeline has checked). */
export function withBody<const S extends ObjectSchema>(route: {
  method: "PUT" | "POST";
  pattern: string;
  body: S;
  handler(call: ApiCall<FromSchema<S>>): ApiReply | Promise<ApiReply>;
}): OwnerRoute {
  return route as unknown as OwnerRoute;
}
