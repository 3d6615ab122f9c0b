// A static file server for release tests: GET with HTTP range requests, as
// the static hosts an owner publishes releases on answer them. `cutAfter`
// makes it drop the connection after that many bytes of any image response.
import { createServer, type Server } from "node:http";

export interface ReleaseHttpServer {
  url: string;
  files: Map<string, Uint8Array>;
  cutAfter?: number;
  close(): Promise<void>;
}

export async function startReleaseServer(): Promise<ReleaseHttpServer> {
  const files = new Map<string, Uint8Array>();
  const state: { cutAfter?: number } = {};
  const server: Server = createServer((req, res) => {
    const body = files.get((req.url ?? "/").split("?")[0]);
    if (!body || req.method !== "GET") {
      res.writeHead(404).end();
      return;
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
    let part = body;
    if (m) {
      const from = Number(m[1]);
      const to = Math.min(Number(m[2]), body.length - 1);
      part = body.subarray(from, to + 1);
      res.writeHead(206, { "content-range": `bytes ${from}-${to}/${body.length}`, "content-length": part.length });
      if (state.cutAfter !== undefined && to + 1 > state.cutAfter) {
        res.write(part.subarray(0, Math.max(0, state.cutAfter - from)));
        res.destroy();
        return;
      }
    } else res.writeHead(200, { "content-length": body.length });
    res.end(part);
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    files,
    get cutAfter() {
      return state.cutAfter;
    },
    set cutAfter(v: number | undefined) {
      state.cutAfter = v;
    },
    close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  };
}
