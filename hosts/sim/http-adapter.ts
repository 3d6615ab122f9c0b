// Serves a Halo core over node:http: asks the pipeline how much body the
// route takes, refuses a larger one at once (413, connection closed, the rest
// never read), hands a plain HttpRequest to the core and writes its answer,
// streamed answers (server-sent events) included.
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Log } from "../../lib/ports.ts";
import type { Halo, HttpRequest, HttpResponse } from "../../lib/app/halo.ts";
import { HttpError } from "../../lib/http/http-error.ts";
import { errorAnswer } from "../../lib/http/pipeline.ts";
import type { BodyStream } from "../../lib/http/types.ts";

/** Header and idle limits Node applies for the simulator (the device host sets its own). */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 120_000;
/**
 * After a refusal that closes the connection (413), what the client still sends is read and dropped for this
 * long and this much at most: closing a socket with unread input makes the kernel send a reset, which can
 * reach the client before it has read the refusal.
 */
const LINGER_MS = 2_000;
const LINGER_MAX_BYTES = 16 * 1024 * 1024;

type Read = { body: Uint8Array; tooLarge: false } | { tooLarge: true };

/** Reads at most `limit` bytes; past that stops at once and reports it. */
function readBody(req: IncomingMessage, limit: number): Promise<Read> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > limit) return resolve({ tooLarge: true });
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.pause();
        resolve({ tooLarge: true });
      } else chunks.push(chunk);
    };
    req.on("data", onData);
    req.on("end", () => resolve({ body: new Uint8Array(Buffer.concat(chunks)), tooLarge: false }));
    req.on("error", reject);
  });
}

/** The request body as it arrives, for routes that stream; bounded by `limit` in all. */
function bodyStream(req: IncomingMessage, limit: number): BodyStream {
  const iterator = req[Symbol.asyncIterator]();
  let size = 0;
  return {
    async next() {
      const step = await iterator.next();
      if (step.done) return undefined;
      const chunk = step.value as Buffer;
      size += chunk.length;
      if (size > limit) throw new Error("body over the route's limit");
      return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
    },
  };
}

function lowerCaseHeaders(req: IncomingMessage): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function write(req: IncomingMessage, res: ServerResponse, response: HttpResponse): void {
  if (response.close) return refuseAndClose(req, response);
  res.writeHead(response.status, response.headers);
  if (response.stream) {
    const stop = response.stream.start({ write: (text) => void res.write(text), end: () => res.end() });
    res.on("close", stop);
    return;
  }
  res.end(req.method === "HEAD" ? undefined : response.body);
}

/**
 * A refusal that closes the connection (413): written on the socket as it is, because node:http destroys a
 * `Connection: close` socket once the answer is out, with the client's body unread, and the reset that
 * follows can reach the client before the refusal does. Then the write side is closed and what still
 * arrives is dropped (bounded) until the client closes its side.
 */
function refuseAndClose(req: IncomingMessage, response: HttpResponse): void {
  const socket = req.socket;
  const body =
    req.method === "HEAD" || response.body === undefined
      ? new Uint8Array(0)
      : typeof response.body === "string"
        ? Buffer.from(response.body)
        : response.body;
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\n`;
  for (const [name, value] of Object.entries(response.headers)) {
    if (name !== "content-length" && name !== "connection") head += `${name}: ${value}\r\n`;
  }
  head += `content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
  socket.write(head);
  if (body.length) socket.write(body);
  let dropped = 0;
  const done = (): void => void socket.destroy();
  const timer = setTimeout(done, LINGER_MS);
  timer.unref();
  socket.on("close", () => clearTimeout(timer));
  socket.end();
  // node:http's parser hands the rest of the body to the request stream: read it and drop it.
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_MAX_BYTES) done();
  });
  req.resume();
}

export function createHttpServer(halo: Halo, log: Log): Server {
  const server = createServer(async (req, res) => {
    try {
      const method = req.method || "GET";
      const path = req.url || "/";
      const request: HttpRequest = { method, path, headers: lowerCaseHeaders(req) };
      const limit = halo.http.bodyLimit(method, path);
      if (halo.http.routeFor(method, path)?.streamBody) request.stream = bodyStream(req, limit);
      else {
        const read = await readBody(req, limit);
        if (read.tooLarge) request.bodyTooLarge = true;
        else request.body = read.body;
      }
      write(req, res, await halo.handleHttp(request));
    } catch (e) {
      // Reading the request failed (the pipeline answers its own failures): through the rate-limited log,
      // so a client aborting request after request cannot flood it.
      log.warn(`request failed: ${e instanceof Error ? e.message : e}`);
      if (res.headersSent) res.end();
      else write(req, res, errorAnswer(new HttpError(500, "Internal error."), "api"));
    }
  });
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  return server;
}
