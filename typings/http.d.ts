// "http" (modules/network/http): the callback-driven HTTP/1.1 server.
// Only the server side Halo uses is declared.

export interface ServerResponse {
  status?: number;
  /** Alternating header names and values: ["content-type", "text/plain", ...]. */
  headers?: (string | number)[];
  /** A String must be ASCII only; use an ArrayBuffer for UTF-8. `true` streams fragments. */
  body?: string | ArrayBuffer | true;
}

/**
 * One request. The server calls `callback` with `this` set to a new instance
 * for every connection, so per-request state may be kept on it.
 */
export interface ServerRequest {
  /** Reads buffered request body bytes (fragment mode only). */
  read(type: typeof ArrayBuffer, count?: number): ArrayBuffer;
  read(type: typeof String, count?: number): string;
  close(): void;
}

export type ServerCallback = (this: ServerRequest, message: number, val1?: any, val2?: any) => any;

export class Server {
  constructor(options?: { port?: number });
  callback: ServerCallback;
  close(connections?: boolean): void;
  static readonly error: -1;
  static readonly connection: 1;
  /** val1 = path (with query), val2 = method. */
  static readonly status: 2;
  /** val1 = lower-case header name, val2 = value. */
  static readonly header: 3;
  /** Return String or ArrayBuffer to receive the body, true for fragments, false to discard it. */
  static readonly headersComplete: 4;
  static readonly requestFragment: 5;
  /** val1 = the body as the type returned from headersComplete. */
  static readonly requestComplete: 6;
  /** Return a ServerResponse. */
  static readonly prepareResponse: 8;
  static readonly responseFragment: 9;
  static readonly responseComplete: 10;
}
