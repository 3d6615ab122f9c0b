// Outbound HTTP(S) over the SDK's `http` Request, with SecureSocket for https
// (CA roots from the build's resources). One request per connection, no
// redirects followed; the body arrives in fragments so the size cap is checked
// as it grows; a Timer abandons the exchange at the deadline. Rejections carry
// the port's `code`: "timeout", "too-large" or "network".
import { Request } from "http";
import SecureSocket from "securesocket";
import Timer, { type TimerId } from "timer";
import Net from "net";
import type { HttpClient, HttpClientErrorCode, HttpClientRequest, HttpClientResponse, Resolver } from "../../../lib/ports";
import { encodeUtf8 } from "../../../lib/util/utf8";

/** scheme, host (name or [IPv6]), port, path+query; a fragment is dropped. */
const URL_PATTERN = /^(https?):\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?([/?][^#\s]*)?(?:#\S*)?$/;
const DEFAULT_PORTS = { http: 80, https: 443 } as const;
/** TLS 1.2 at least. */
const TLS_MIN_VERSION = 0x303;
/** The Request writes header text by UTF-16 length: names and values must be printable ASCII. */
const HEADER_TEXT = /^[\x20-\x7e\t]*$/;

function failure(code: HttpClientErrorCode, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function bodyBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === "string" ? encodeUtf8(body) : body;
}

function joinChunks(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

type SocketCallback = (...args: unknown[]) => unknown;

/**
 * http.js runs inside the socket's callback and lets socket errors escape
 * (e.g. "write failed" after a refused connection on lin); uncaught there, an
 * exception aborts the whole app. This wraps the Request's socket callback
 * (its `socket` field, http.js in SDK 8.2.3) so a throw ends only this request.
 */
function guardSocket(request: Request, onThrow: () => void): void {
  const socket = (request as unknown as { socket?: { callback?: SocketCallback } }).socket;
  const inner = socket?.callback;
  if (!socket || typeof inner !== "function") return;
  socket.callback = function (this: unknown, ...args: unknown[]): unknown {
    try {
      return inner.apply(this, args);
    } catch {
      onThrow();
      return undefined;
    }
  };
}

export const moddableHttpClient: HttpClient = {
  request(req: HttpClientRequest): Promise<HttpClientResponse> {
    return new Promise<HttpClientResponse>((resolve, reject) => {
      const m = URL_PATTERN.exec(req.url);
      if (!m) {
        reject(new Error("The URL is not an http or https URL this client can reach."));
        return;
      }
      const scheme = m[1] as "http" | "https";
      const host = m[2].startsWith("[") ? m[2].slice(1, -1) : m[2];
      const port = m[3] === undefined ? DEFAULT_PORTS[scheme] : Number(m[3]);
      if (!(port > 0 && port < 65536)) {
        reject(new Error("The URL's port is out of range."));
        return;
      }
      const headers: string[] = [];
      let hostGiven = false;
      for (const [name, value] of Object.entries(req.headers ?? {})) {
        if (!HEADER_TEXT.test(name) || !HEADER_TEXT.test(value)) {
          reject(new Error("A request header holds text that is not plain ASCII."));
          return;
        }
        if (name === "host") hostGiven = true;
        headers.push(name, value);
      }
      if (!hostGiven && port !== DEFAULT_PORTS[scheme]) headers.push("host", `${m[2]}:${port}`);
      // The Request writes a whole body in one socket write, which throws when
      // it is larger than the socket's free space: the body goes in fragments
      // (requestFragment), so its length is sent here.
      const body = req.body === undefined ? undefined : bodyBytes(req.body);
      let sent = 0;
      if (body !== undefined) {
        for (let i = headers.length - 2; i >= 0; i -= 2) if (headers[i] === "content-length") headers.splice(i, 2);
        headers.push("content-length", String(body.byteLength));
      }

      let status = 0;
      const responseHeaders: { [name: string]: string } = {};
      const chunks: Uint8Array[] = [];
      let size = 0;
      let settled = false;
      let request: Request | undefined;
      let timer: TimerId | undefined;

      let stopListening = (): void => undefined;
      const finish = (outcome: Error | HttpClientResponse): void => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) Timer.clear(timer);
        stopListening();
        request?.close();
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };

      timer = Timer.set((): void => {
        timer = undefined;
        finish(failure("timeout", `No complete answer came within ${req.timeoutMs} ms.`));
      }, req.timeoutMs);
      // The caller gave up (its deadline passed): the request is closed and reported as a timeout.
      if (req.signal) stopListening = req.signal.onAbort((): void => finish(failure("timeout", "The caller's deadline passed.")));

      try {
        request = new Request({
          host,
          // A pinned address (files.fetch checked it) is connected to; the host stays the Host header and TLS name.
          ...(req.address !== undefined ? { address: req.address } : {}),
          port,
          path: m[4] === undefined ? "/" : m[4].startsWith("?") ? "/" + m[4] : m[4],
          method: req.method,
          headers,
          ...(body !== undefined ? { body: true } : {}),
          ...(scheme === "https" ? { Socket: SecureSocket, secure: { protocolVersion: TLS_MIN_VERSION } } : {}),
        });
      } catch {
        finish(failure("network", "The connection could not be opened."));
        return;
      }
      const exchange = request;
      guardSocket(exchange, (): void => finish(failure("network", "The connection failed.")));
      exchange.callback = (message: number, val1?: unknown, val2?: unknown): ArrayBuffer | undefined => {
        if (settled) return undefined;
        if (message === Request.requestFragment) {
          if (body === undefined || sent >= body.byteLength) return undefined;
          const end = Math.min(body.byteLength, sent + (val1 as number));
          const piece = body.slice(sent, end).buffer as ArrayBuffer;
          sent = end;
          return piece;
        }
        if (message === Request.status) status = val1 as number;
        else if (message === Request.header) {
          const name = val1 as string;
          const value = String(val2);
          responseHeaders[name] = responseHeaders[name] === undefined ? value : `${responseHeaders[name]}, ${value}`;
        } else if (message === Request.responseFragment) {
          const piece = new Uint8Array(exchange.read(ArrayBuffer));
          size += piece.byteLength;
          if (size > req.maxResponseBytes) finish(failure("too-large", `The response is larger than ${req.maxResponseBytes} bytes.`));
          else chunks.push(piece);
        } else if (message === Request.responseComplete) {
          finish({ status, headers: responseHeaders, body: joinChunks(chunks, size) });
        } else if (message < 0) {
          finish(failure("network", status ? "The connection closed before the whole response arrived." : "The connection failed."));
        }
        return undefined;
      };
    });
  },
};

/** Net.resolve gives one address a name has: that is the one the Request would connect to. */
export const moddableResolver: Resolver = {
  resolve(name) {
    return new Promise((resolve, reject) => {
      Net.resolve(name, (_name, address) => (address ? resolve([address]) : reject(new Error("the name does not resolve"))));
    });
  },
};
