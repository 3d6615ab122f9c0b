// The flashing page on the simulator, at /flash/: docs/flash/index.html,
// esp-web-tools' browser build from node_modules, and the manifest and images
// of a release folder (HALO_RELEASE_DIR, by default ./release). Only files a
// release's manifest names are served from it.
import { existsSync, readFileSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { espWebToolsDir } from "../../tools/release/release.ts";

const PAGE = resolve(dirname(fileURLToPath(import.meta.url)), "../../docs/flash/index.html");
const SAFE_NAME = /^[A-Za-z0-9._-]{1,128}$/;

function send(res: ServerResponse, status: number, type: string, body: Uint8Array | string): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  res.end(body);
}

function releaseFiles(releaseDir: string): Set<string> {
  const names = new Set<string>();
  try {
    const manifest = JSON.parse(readFileSync(join(releaseDir, "manifest.json"), "utf8")) as {
      builds?: Array<{ parts?: Array<{ path?: unknown }> }>;
    };
    for (const b of manifest.builds ?? [])
      for (const p of b.parts ?? []) if (typeof p.path === "string" && SAFE_NAME.test(p.path)) names.add(p.path);
  } catch {
    // no release yet, or an unreadable manifest: nothing but the page is served
  }
  return names;
}

/** Answers GET /flash/... itself and hands every other request to the server's own handler. */
export function serveFlashPage(server: Server, releaseDir: string): void {
  const [core] = server.listeners("request") as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/flash" && !path.startsWith("/flash/")) return core(req, res);
    if (req.method !== "GET") return send(res, 405, "text/plain", "Only GET.\n");
    const rest = path.slice("/flash/".length);
    if (rest === "" || rest === "index.html" || path === "/flash") return send(res, 200, "text/html; charset=utf-8", readFileSync(PAGE));
    if (rest.startsWith("esp-web-tools/")) {
      const name = rest.slice("esp-web-tools/".length);
      const file = join(espWebToolsDir(), basename(name));
      if (!SAFE_NAME.test(name) || !name.endsWith(".js") || !existsSync(file)) return send(res, 404, "text/plain", "Not found.\n");
      return send(res, 200, "text/javascript", readFileSync(file));
    }
    if (rest === "manifest.json" && existsSync(join(releaseDir, "manifest.json")))
      return send(res, 200, "application/json", readFileSync(join(releaseDir, "manifest.json")));
    if (releaseFiles(releaseDir).has(rest) && existsSync(join(releaseDir, rest)))
      return send(res, 200, "application/octet-stream", readFileSync(join(releaseDir, rest)));
    return send(res, 404, "text/plain", rest === "manifest.json" ? "No release here yet: run npm run release.\n" : "Not found.\n");
  });
}
