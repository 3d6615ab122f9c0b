// Streaming HTTP for voice over node:http/https: the request body goes out
// chunked as it is written, and a 2xx response body is handed over piece by
// piece as it arrives. Same deadline and size cap as the HttpClient port.
import { request as httpRequest, type ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { HttpClientErrorCode, HttpClientResponse } from "../../../lib/ports.ts";
import type { AudioHttp, AudioHttpExchange, AudioHttpRequest } from "../../../lib/voice/audio-http.ts";

function failure(code: HttpClientErrorCode, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export const nodeAudioHttp: AudioHttp = {
  open(req: AudioHttpRequest): AudioHttpExchange {
    let settle: { resolve(r: HttpClientResponse): void; reject(e: Error): void } | undefined;
    let outcome: { ok: HttpClientResponse } | { error: Error } | undefined;
    const finish = (o: { ok: HttpClientResponse } | { error: Error }): void => {
      if (outcome) return;
      outcome = o;
      clearTimeout(timer);
      if (settle) "ok" in o ? settle.resolve(o.ok) : settle.reject(o.error);
    };
    let outgoing: ClientRequest | undefined;
    const timer = setTimeout(() => {
      outgoing?.destroy();
      finish({ error: failure("timeout", `no complete answer within ${req.timeoutMs} ms`) });
    }, req.timeoutMs);
    let url: URL | undefined;
    try {
      url = new URL(req.url);
    } catch {
      finish({ error: failure("network", "bad URL") });
    }
    if (url && url.protocol !== "http:" && url.protocol !== "https:")
      finish({ error: failure("network", "only http and https URLs are supported") });
    if (url && !outcome) {
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      outgoing = send(url, { method: req.method, headers: { ...req.headers } }, (res) => {
        const status = res.statusCode || 0;
        const streamed = req.onBody !== undefined && status >= 200 && status <= 299;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (outcome) return;
          size += chunk.length;
          if (size > req.maxResponseBytes) {
            outgoing?.destroy();
            finish({ error: failure("too-large", `the response is larger than ${req.maxResponseBytes} bytes`) });
          } else if (streamed) req.onBody!(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
          else chunks.push(chunk);
        });
        res.on("end", () => {
          const headers: { [name: string]: string } = {};
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
          finish({ ok: { status, headers, body: new Uint8Array(Buffer.concat(chunks)) } });
        });
        res.on("error", (e) => finish({ error: failure("network", `the connection failed: ${e.message}`) }));
        res.on("aborted", () => finish({ error: failure("network", "the connection closed mid-answer") }));
        res.on("close", () => {
          if (!res.complete) finish({ error: failure("network", "the connection closed mid-answer") });
        });
      });
      outgoing.on("socket", (s) => s.setNoDelay(true));
      outgoing.on("error", (e) => finish({ error: failure("network", `the connection failed: ${e.message}`) }));
    }
    return {
      write(chunk) {
        if (!outcome && outgoing) outgoing.write(chunk);
      },
      end() {
        if (!outcome && outgoing) outgoing.end();
        if (outcome) return "ok" in outcome ? Promise.resolve(outcome.ok) : Promise.reject(outcome.error);
        return new Promise<HttpClientResponse>((resolve, reject) => (settle = { resolve, reject }));
      },
      abort() {
        outgoing?.destroy();
        finish({ error: failure("network", "the request was abandoned") });
      },
    };
  },
};
