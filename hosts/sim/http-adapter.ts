// Serves a Halo core over node:http: reads headers and a capped body, hands a
// plain HttpRequest to the core, writes its HttpResponse.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Halo, HttpRequest } from "../../lib/halo.ts";
import { MAX_HTTP_BODY_BYTES } from "../../lib/limits.ts";
import type { Log } from "../../lib/ports.ts";

/** Reads at most MAX_HTTP_BODY_BYTES; past that stops reading and flags the request. */
function readBody(req: IncomingMessage): Promise<{ body: Uint8Array; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > MAX_HTTP_BODY_BYTES) {
      req.resume(); // drain without keeping
      resolve({ body: new Uint8Array(0), tooLarge: true });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > MAX_HTTP_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve({ body: new Uint8Array(Buffer.concat(chunks)), tooLarge }));
    req.on("error", reject);
  });
}

function lowerCaseHeaders(req: IncomingMessage): { [name: string]: string } {
  const out: { [name: string]: string } = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export function createHttpServer(halo: Halo, log: Log): Server {
  return createServer(async (req, res) => {
    try {
      const { body, tooLarge } = await readBody(req);
      const request: HttpRequest = {
        method: req.method || "GET",
        path: req.url || "/",
        headers: lowerCaseHeaders(req),
        body,
        bodyTooLarge: tooLarge,
      };
      const response = await halo.handleHttp(request);
      res.writeHead(response.status, response.headers);
      res.end(req.method === "HEAD" ? undefined : response.body);
    } catch (e) {
      log.warn(`request failed: ${e instanceof Error ? e.message : e}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("Internal error.\n");
    }
  });
}
