// Files served as they are stored (the web UI in flash): gzipped once at
// build time, with an ETag so a browser that has them asks with
// If-None-Match and gets 304 without the bytes.
import type { RouteSpec } from "./pipeline";
import type { HttpResponse } from "./types";

export interface StaticAsset {
  /** The URL path, e.g. "/" or "/app.js". */
  path: string;
  contentType: string;
  /** The bytes as sent when the client accepts gzip. */
  gzip: Uint8Array;
  /** The bytes for a client that does not accept gzip. */
  identity: Uint8Array;
  /** A strong validator of the content, quoted, e.g. "\"3f2a…\"". */
  etag: string;
}

/** The answer to GET or HEAD of an asset. */
export function serveAsset(asset: StaticAsset, headers: { [name: string]: string }): HttpResponse {
  const common = { etag: asset.etag, "cache-control": "no-cache", vary: "accept-encoding", "x-content-type-options": "nosniff" };
  const known = headers["if-none-match"];
  if (known?.split(",").some((t) => t.trim() === asset.etag)) return { status: 304, headers: common, body: "" };
  const gzip = /(^|[,\s])gzip(\s*;\s*q=(?!0(\.0*)?(\s|,|$))[0-9.]+)?(\s*(,|$))/i.test(headers["accept-encoding"] ?? "");
  const h: { [name: string]: string } = { ...common, "content-type": asset.contentType };
  if (gzip) h["content-encoding"] = "gzip";
  return { status: 200, headers: h, body: gzip ? asset.gzip : asset.identity };
}

/** GET and HEAD routes for each asset. */
export function assetRoutes(assets: StaticAsset[]): RouteSpec[] {
  const routes: RouteSpec[] = [];
  for (const asset of assets) {
    for (const method of ["GET", "HEAD"]) {
      routes.push({
        method,
        pattern: asset.path,
        maxBody: 0,
        errors: "api",
        use: [],
        handler: (ctx) => serveAsset(asset, ctx.req.headers),
      });
    }
  }
  return routes;
}
