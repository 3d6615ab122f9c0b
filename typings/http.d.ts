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

/** Options of an HTTP `Request` (a superset of the Socket's; `Socket: SecureSocket` with `secure` for https). */
export interface RequestOptions {
  host?: string;
  address?: string;
  port?: number;
  path?: string;
  method?: string;
  /** Alternating header names and values. Header text must be ASCII. */
  headers?: (string | number)[];
  /** The whole body (a String must be ASCII), or `true` to give it in fragments. */
  body?: string | ArrayBuffer | true;
  /** String or ArrayBuffer: the body arrives whole at responseComplete; undefined: in fragments. */
  response?: typeof String | typeof ArrayBuffer;
  Socket?: unknown;
  secure?: { [key: string]: unknown };
}

/** For requestFragment (val1 = bytes the socket can take) it returns the next body piece, undefined at the end. */
export type RequestCallback = (message: number, val1?: any, val2?: any) => ArrayBuffer | string | undefined | void;

/** The HTTP/1.1 client: one request per instance, `Connection: close`, no redirects followed. */
export class Request {
  constructor(options: RequestOptions);
  callback: RequestCallback;
  /** In a responseFragment callback: the bytes available (no type) or read them. */
  read(type: typeof ArrayBuffer, count?: number): ArrayBuffer;
  read(type: typeof String, count?: number): string;
  read(): number;
  close(): void;
  static readonly error: -2;
  static readonly requestFragment: 0;
  /** val1 = the status code. */
  static readonly status: 1;
  /** val1 = lower-case header name, val2 = value. */
  static readonly header: 2;
  static readonly headersComplete: 3;
  /** val1 = bytes available to read. */
  static readonly responseFragment: 4;
  static readonly responseComplete: 5;
}
