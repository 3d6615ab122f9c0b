// The network of the security tests: every outbound request, whatever its host,
// goes to one local server that answers like a provider rejecting the key, and
// echoes back every credential it was sent. A tool that passes a provider's
// error body on verbatim would leak a secret, and the tests would see it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeHttpClient } from "../../hosts/sim/ports/http-client.ts";
import type { HttpClient } from "../../lib/ports.ts";

export interface FencedNetwork {
  http: HttpClient;
  /** Every request that reached the echo server: original URL and credential headers. */
  requests: Array<{ url: string; authorization?: string; apiKey?: string }>;
  close(): Promise<void>;
}

export async function startFencedNetwork(): Promise<FencedNetwork> {
  const requests: FencedNetwork["requests"] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const original = decodeURIComponent((req.url ?? "/").replace(/^\/fenced\//, ""));
      const authorization = req.headers.authorization as string | undefined;
      const apiKey = req.headers["x-api-key"] as string | undefined;
      requests.push({ url: original, authorization, apiKey });
      const echoed = `Incorrect API key provided: ${authorization ?? apiKey ?? "(none)"}; body ${Buffer.concat(chunks).toString("utf8").slice(0, 200)}`;
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: echoed, type: "invalid_request_error", code: "invalid_api_key" } }));
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  const port = (server.address() as AddressInfo).port;
  return {
    requests,
    http: {
      request: (req) => nodeHttpClient.request({ ...req, url: `http://127.0.0.1:${port}/fenced/${encodeURIComponent(req.url)}` }),
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
