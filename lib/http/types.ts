// The plain request and response every host hands to and takes from the core.
// No sockets here: handlers are testable with a plain object.

/** Reads a request body piece by piece as it arrives (routes that stream, e.g. audio uploads). */
export interface BodyStream {
  /** The next piece, or undefined at the end. Rejects when the client went away. */
  next(): Promise<Uint8Array | undefined>;
}

/** A request as a host hands it over: header names lower-case. */
export interface HttpRequest {
  method: string;
  /** The request target: path and query. */
  path: string;
  headers: { [name: string]: string };
  /** The whole body, for routes that buffer (most); the host stops reading past the route's limit. */
  body?: Uint8Array;
  /** The host stopped reading because the body passed the route's limit. */
  bodyTooLarge?: boolean;
  /** The body as it arrives, for routes that stream; when set, `body` is unset. */
  stream?: BodyStream;
}

/** Where a streamed response writes (server-sent events). */
export interface StreamSink {
  write(text: string): void;
  end(): void;
}

/** A response the host writes piece by piece until it ends or the client leaves. */
export interface ResponseStream {
  /** Starts writing to `sink`; returns what to call when the client goes away. */
  start(sink: StreamSink): () => void;
}

export interface HttpResponse {
  status: number;
  headers: { [name: string]: string };
  body: string | Uint8Array;
  /** A body that keeps coming (server-sent events); `body` is then empty. */
  stream?: ResponseStream;
  /** The host closes the connection after this response (a refused oversized body is not read to its end). */
  close?: boolean;
}
