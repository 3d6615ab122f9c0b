import { nameError } from "../errors";
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
    this.rpcCode = options.rpcCode ?? -32600;
    this.close = options.close === true;
  }
}
