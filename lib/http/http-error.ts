import { type HaloError, nameError, statusOf, type TagStatus } from "../errors";
import { INTERNAL_ERROR, INVALID_REQUEST } from "../mcp/jsonrpc";
import { clipForMessage } from "../util/text";

/** A refusal on any HTTP route: the pipeline writes it as JSON in the route's error shape. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: { [name: string]: string };
  /** JSON-RPC error code, for routes that answer in JSON-RPC (/mcp). */
  readonly rpcCode: number;
  /** Close the connection after answering (the body was not read). */
  readonly close: boolean;
  constructor(status: number, message: string, options: { headers?: { [name: string]: string }; rpcCode?: number; close?: boolean } = {}) {
    super(message);
    nameError(this, "HttpError");
    this.status = status;
    this.headers = options.headers ?? {};
    this.rpcCode = options.rpcCode ?? INVALID_REQUEST;
    this.close = options.close === true;
  }
}

/** The words a refusal's text starts with, for every status a tag maps to. */
const STATUS_WORDS: { readonly [status in TagStatus]: string } = {
  400: "Bad request",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  413: "Payload too large",
  429: "Too many requests",
  500: "Internal error",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
  507: "Insufficient storage",
};

/** Longest tagged text of a domain refusal passed on; domain sentences are short, this bounds a runaway one. */
const REFUSAL_MAX_CHARS = 240;

/** A domain failure as the refusal a route answers: statusOf(tag), and "<words>: <tag>: <sentence>". */
export function refusalOf(e: HaloError): HttpError {
  const status = statusOf(e.tag);
  return new HttpError(status, `${STATUS_WORDS[status]}: ${clipForMessage(e.message, REFUSAL_MAX_CHARS)}`, {
    rpcCode: status >= 500 ? INTERNAL_ERROR : INVALID_REQUEST,
  });
}

/** A 400 a route writes itself: "Bad request: <sentence>". */
export function badRequest(sentence: string): HttpError {
  return new HttpError(400, `Bad request: ${sentence}`);
}

/** A 404 a route writes itself: "Not found: <sentence>". */
export function notFound(sentence: string): HttpError {
  return new HttpError(404, `Not found: ${sentence}`);
}

/** A 409 a route writes itself: "Conflict: <sentence>". */
export function conflict(sentence: string): HttpError {
  return new HttpError(409, `Conflict: ${sentence}`);
}
