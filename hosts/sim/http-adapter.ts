// Serves a Halo core over node:http: asks the pipeline how much body the
// route takes, refuses a larger one at once (413, connection closed, the rest
// never read), hands a plain HttpRequest to the core and writes its answer,
// streamed answers (server-sent events) included.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Log } from "../../lib/ports.ts";
import type { Halo, HttpRequest, HttpResponse } from "../../lib/app/halo.ts";
import { HttpError } from "../../lib/http/http-error.ts";
import { errorAnswer } from "../../lib/http/pipeline.ts";
import type { BodyStream } from "../../lib/http/types.ts";

/** Header and idle limits Node applies for the simulator (the device host sets its own). */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 120_000;

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
  const headers = response.close ? { ...response.headers, connection: "close" } : response.headers;
  res.writeHead(response.status, headers);
  if (response.stream) {
    const stop = response.stream.start({ write: (text) => void res.write(text), end: () => res.end() });
    res.on("close", stop);
    return;
  }
  res.end(req.method === "HEAD" ? undefined : response.body);
  if (response.close) res.on("finish", () => req.socket.destroy());
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
