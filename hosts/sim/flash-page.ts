// The flashing page on the simulator, at /flash/: docs/flash/index.html,
// esp-web-tools' browser build from node_modules, and the manifest and images
// of a release folder (HALO_RELEASE_DIR, by default ./release). Only files a
// release's manifest names are served from it. These are routes of the
// pipeline (createHalo's hostRoutes), so the Host and Origin check, the
// token-in-URL refusal, the page headers and the error writer cover them.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { notFound } from "../../lib/http/http-error.ts";
import type { RouteHandler, RouteSpec } from "../../lib/http/pipeline.ts";
import type { HttpResponse } from "../../lib/http/types.ts";
import { espWebToolsDir } from "../../tools/release/release.ts";

const PAGE = resolve(dirname(fileURLToPath(import.meta.url)), "../../docs/flash/index.html");
const SAFE_NAME = /^[A-Za-z0-9._-]{1,128}$/;

function file(type: string, body: Uint8Array): HttpResponse {
  return { status: 200, headers: { "content-type": type, "cache-control": "no-store" }, body };
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

/** GET /flash/ (also /flash and /flash/index.html), esp-web-tools' scripts, and the release's manifest and images. */
export function flashPageRoutes(releaseDir: string): RouteSpec[] {
  const page = (): HttpResponse => file("text/html; charset=utf-8", readFileSync(PAGE));
  const tools: RouteHandler = (ctx) => {
    const name = ctx.params.file;
    const path = join(espWebToolsDir(), basename(name));
    if (!SAFE_NAME.test(name) || !name.endsWith(".js") || !existsSync(path)) throw notFound("no such file.");
    return file("text/javascript", readFileSync(path));
  };
  const release: RouteHandler = (ctx) => {
    const name = ctx.params.file;
    if (name === "index.html") return page();
    const manifest = join(releaseDir, "manifest.json");
    if (name === "manifest.json") {
      if (!existsSync(manifest)) throw notFound("no release here yet: run npm run release.");
      return file("application/json", readFileSync(manifest));
    }
    if (!releaseFiles(releaseDir).has(name) || !existsSync(join(releaseDir, name))) throw notFound("no such file.");
    return file("application/octet-stream", readFileSync(join(releaseDir, name)));
  };
  const get = (pattern: string, handler: RouteHandler): RouteSpec => ({
    method: "GET",
    pattern,
    maxBody: 0,
    errors: "api",
    use: [],
    handler,
  });
  return [get("/flash", page), get("/flash/esp-web-tools/:file", tools), get("/flash/:file", release)];
}
