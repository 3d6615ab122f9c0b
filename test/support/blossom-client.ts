// An HttpClient that answers one base URL from the stand-in Blossom server in-process (no socket, no Node
// imports): what the XS bench and scenarios use.
import type { HttpClient, HttpClientResponse } from "../../lib/ports.ts";
import type { StandInBlossom } from "./blossom-server-core.ts";

export function inProcessBlossomClient(server: StandInBlossom, base: string): HttpClient {
  return {
    request(req): Promise<HttpClientResponse> {
      if (!req.url.startsWith(base)) return Promise.reject(Object.assign(new Error("the connection failed"), { code: "network" }));
      const body = typeof req.body === "string" ? new TextEncoder().encode(req.body) : (req.body ?? new Uint8Array(0));
      const out = server.handle(req.method, req.url.slice(base.length).split("?")[0], req.headers ?? {}, body);
      if (out.body.length > req.maxResponseBytes && req.method !== "HEAD") {
        return Promise.reject(Object.assign(new Error("the answer is too large"), { code: "too-large" }));
      }
      return Promise.resolve({ status: out.status, headers: out.headers, body: out.body });
    },
  };
}
