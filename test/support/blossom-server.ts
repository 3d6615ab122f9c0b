// The stand-in Blossom server (blossom-server-core.ts) on a loopback HTTP socket, and an HttpClient that
// calls it in-process (what the XS bench uses).
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { StandInBlossom } from "./blossom-server-core.ts";

export interface LoopbackBlossom {
  url: string;
  server: StandInBlossom;
  close(): Promise<void>;
}

export async function startStandInBlossom(now: () => number = () => Math.floor(Date.now() / 1000)): Promise<LoopbackBlossom> {
  let standIn: StandInBlossom | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: { [k: string]: string | undefined } = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v[0] : v;
      const out = standIn!.handle(req.method ?? "GET", (req.url ?? "/").split("?")[0], headers, new Uint8Array(Buffer.concat(chunks)));
      res.writeHead(out.status, out.headers).end(Buffer.from(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn = new StandInBlossom({ now, sha256: (d) => new Uint8Array(createHash("sha256").update(d).digest()), base: url });
  return {
    url,
    server: standIn,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
