// HttpClient port over node:http/https: no redirects followed, a deadline, a response size cap.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { HttpClient, HttpClientErrorCode, HttpClientResponse, Resolver } from "../../../lib/ports.ts";

/** An Error carrying the port's rejection code. */
function failure(code: HttpClientErrorCode, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export const nodeHttpClient: HttpClient = {
  request(req) {
    return new Promise<HttpClientResponse>((resolve, reject) => {
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        reject(new Error("bad URL"));
        return;
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        reject(new Error("only http and https URLs are supported"));
        return;
      }
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const body = typeof req.body === "string" ? Buffer.from(req.body) : req.body ? Buffer.from(req.body) : undefined;
      const headers: Record<string, string> = { ...(req.headers || {}) };
      if (body) headers["content-length"] = String(body.length);
      // A pinned address is connected to as it is; the URL's host stays the Host header and the TLS name.
      const pinned = req.address;
      const lookup = pinned
        ? (_host: string, options: { all?: boolean }, done: (...args: unknown[]) => void): void =>
            options.all ? done(null, [{ address: pinned, family: isIP(pinned) }]) : done(null, pinned, isIP(pinned))
        : undefined;
      const outgoing = send(url, { method: req.method, headers, ...(lookup ? { lookup: lookup as never } : {}) }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > req.maxResponseBytes) {
            outgoing.destroy();
            fail(failure("too-large", `the response is larger than ${req.maxResponseBytes} bytes`));
          } else chunks.push(chunk);
        });
        res.on("end", () => {
          clearTimeout(timer);
          stopListening();
          const out: { [name: string]: string } = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
          resolve({ status: res.statusCode || 0, headers: out, body: new Uint8Array(Buffer.concat(chunks)) });
        });
        res.on("error", (e) => fail(failure("network", `the connection failed: ${e.message}`)));
      });
      let done = false;
      let stopListening = (): void => undefined;
      const fail = (e: Error): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        stopListening();
        reject(e);
      };
      const timer = setTimeout(() => {
        outgoing.destroy();
        fail(failure("timeout", `no complete answer within ${req.timeoutMs} ms`));
      }, req.timeoutMs);
      // The caller gave up (its deadline passed): the exchange is abandoned as a timeout.
      if (req.signal) {
        stopListening = req.signal.onAbort(() => {
          outgoing.destroy();
          fail(failure("timeout", "the caller's deadline passed"));
        });
      }
      outgoing.on("error", (e) => fail(failure("network", `the connection failed: ${e.message}`)));
      if (body) outgoing.write(body);
      outgoing.end();
    });
  },
};

/** Resolves as node:http does (getaddrinfo: the hosts file, then DNS), every address. */
export const nodeResolver: Resolver = {
  async resolve(name) {
    const found = await dnsLookup(name, { all: true, verbatim: true });
    return found.map((a) => a.address);
  },
};
