// The stand-in mint (cashu-mint-core.ts) on a loopback HTTP socket, with the faults a test injects: offline
// (every connection closed at once), and for the next request of one endpoint a 500, no answer at all, or the
// mint's work done and the connection dropped before the answer.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MintFaults } from "./cashu-mint-client.ts";
import { StandInMint, type StandInMintOptions } from "./cashu-mint-core.ts";

export interface LoopbackMint {
  url: string;
  mint: StandInMint;
  faults: MintFaults;
  close(): Promise<void>;
}

export async function startStandInMint(options: Partial<StandInMintOptions> = {}, port = 0): Promise<LoopbackMint> {
  const mint = new StandInMint({ now: () => Date.now(), ...options });
  const faults = new MintFaults();
  const server: Server = createServer((req, res) => {
    if (faults.offline) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0];
      const fault = faults.take(mint.endpointOf(req.method ?? "GET", path));
      if (fault === "hang") return; // the socket stays open and silent until the client gives up
      if (fault === "down") {
        req.socket.destroy();
        return;
      }
      if (fault === "fail") {
        res.writeHead(500, { "content-type": "application/json" }).end('{"detail":"injected failure"}');
        return;
      }
      const out = mint.handle(req.method ?? "GET", path, Buffer.concat(chunks).toString("utf8"));
      if (fault === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(out.status, { "content-type": "application/json" }).end(out.body);
    });
  });
  server.on("connection", (socket) => {
    if (faults.offline) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    mint,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
