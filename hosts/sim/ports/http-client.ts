// HttpClient port over node:http/https: no redirects followed, a deadline, a response size cap.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { HttpClient, HttpClientErrorCode, HttpClientResponse } from "../../../lib/ports.ts";

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
      const outgoing = send(url, { method: req.method, headers }, (res) => {
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
          const out: { [name: string]: string } = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
          resolve({ status: res.statusCode || 0, headers: out, body: new Uint8Array(Buffer.concat(chunks)) });
        });
        res.on("error", (e) => fail(failure("network", `the connection failed: ${e.message}`)));
      });
      let done = false;
      const fail = (e: Error): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        reject(e);
      };
      const timer = setTimeout(() => {
        outgoing.destroy();
        fail(failure("timeout", `no complete answer within ${req.timeoutMs} ms`));
      }, req.timeoutMs);
      outgoing.on("error", (e) => fail(failure("network", `the connection failed: ${e.message}`)));
      if (body) outgoing.write(body);
      outgoing.end();
    });
  },
};
