// A tiny path router for the owner API: literal segments and `:name` parameters.

export interface Route<H> {
  method: string;
  /** e.g. "/api/secrets/:name". */
  pattern: string;
  handler: H;
}

export type RouteMatch<H> =
  | { kind: "found"; handler: H; params: { [name: string]: string } }
  /** The path exists but not with this method: `allow` lists the methods it has. */
  | { kind: "wrong-method"; allow: string[] }
  | { kind: "not-found" }
  | { kind: "bad-path" };

/** Longest path segment accepted (percent-decoded), so a hostile path costs nothing. */
export const MAX_SEGMENT_CHARS = 128;

export function matchRoute<H>(routes: ReadonlyArray<Route<H>>, method: string, path: string): RouteMatch<H> {
  const segments = splitPath(path);
  if (!segments) return { kind: "bad-path" };
  const allow: string[] = [];
  for (const route of routes) {
    const params = matchPattern(route.pattern, segments);
    if (!params) continue;
    if (route.method === method) return { kind: "found", handler: route.handler, params };
    if (allow.indexOf(route.method) < 0) allow.push(route.method);
  }
  return allow.length > 0 ? { kind: "wrong-method", allow } : { kind: "not-found" };
}

function splitPath(path: string): string[] | undefined {
  const raw = path.replace(/\/+$/, "").split("/").slice(1);
  const out: string[] = [];
  for (const s of raw) {
    if (s.length > MAX_SEGMENT_CHARS * 3) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(s);
    } catch {
      return undefined;
    }
    if (decoded.length === 0 || decoded.length > MAX_SEGMENT_CHARS || decoded.indexOf("/") >= 0) return undefined;
    out.push(decoded);
  }
  return out;
}

function matchPattern(pattern: string, segments: string[]): { [name: string]: string } | undefined {
  const parts = pattern.replace(/\/+$/, "").split("/").slice(1);
  if (parts.length !== segments.length) return undefined;
  const params: { [name: string]: string } = {};
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].startsWith(":")) params[parts[i].slice(1)] = segments[i];
    else if (parts[i] !== segments[i]) return undefined;
  }
  return params;
}
