// A small http(s) URL parser and Location resolver. XS has no URL global, and
// lib/ needs only the parts a download checks: scheme, host, port, path.

export interface HttpUrl {
  scheme: "http" | "https";
  /** Lower case; IPv6 literals keep their brackets. */
  host: string;
  /** Explicit port, or undefined for the scheme's default. */
  port?: number;
  /** Path with query, always starting with "/"; the fragment is dropped. */
  path: string;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/;

/** Parses an absolute http or https URL; a one-sentence reason when it is not one. */
export function parseHttpUrl(text: string): HttpUrl | string {
  if (/[\u0000-\u0020\u007f\\]/.test(text)) return "the URL contains spaces, control characters or backslashes";
  const m = SCHEME.exec(text);
  if (!m) return "the URL has no scheme";
  const scheme = m[1].toLowerCase();
  if (scheme !== "http" && scheme !== "https") return "only https URLs are allowed";
  const rest = text.slice(m[0].length);
  if (!rest.startsWith("//")) return "the URL has no host";
  const afterSlashes = rest.slice(2);
  const end = afterSlashes.search(/[/?#]/);
  const authority = end < 0 ? afterSlashes : afterSlashes.slice(0, end);
  let path = end < 0 ? "/" : afterSlashes.slice(end);
  if (authority.indexOf("@") >= 0) return "a URL with a user name or password is not allowed";
  const hash = path.indexOf("#");
  if (hash >= 0) path = path.slice(0, hash);
  if (path.startsWith("?")) path = "/" + path;
  if (path === "") path = "/";
  let host = authority.toLowerCase();
  let port: number | undefined;
  const portMatch = /:(\d{1,5})$/.exec(host);
  if (portMatch) {
    port = Number(portMatch[1]);
    host = host.slice(0, portMatch.index);
    if (port < 1 || port > 65535) return "the URL's port is out of range";
  } else if (/:[^\]]*$/.test(host) && !IPV6_LITERAL.test(host)) return "the URL's port is not a number";
  if (host === "" || (!HOST_NAME.test(host) && !IPV6_LITERAL.test(host))) return "the URL's host name is not valid";
  return { scheme, host, port, path };
}

export function formatHttpUrl(url: HttpUrl): string {
  return `${url.scheme}://${url.host}${url.port === undefined ? "" : ":" + url.port}${url.path}`;
}

/** Resolves a redirect's Location against the URL that answered it. */
export function resolveLocation(base: HttpUrl, location: string): HttpUrl | string {
  const loc = location.trim();
  if (loc === "") return "the redirect has no location";
  if (SCHEME.test(loc)) return parseHttpUrl(loc);
  if (loc.startsWith("//")) return parseHttpUrl(`${base.scheme}:${loc}`);
  const origin = `${base.scheme}://${base.host}${base.port === undefined ? "" : ":" + base.port}`;
  if (loc.startsWith("/")) return parseHttpUrl(origin + loc);
  const basePath = base.path.split("?")[0];
  const dir = basePath.slice(0, basePath.lastIndexOf("/") + 1);
  const q = loc.search(/[?#]/);
  const path = q < 0 ? dir + loc : dir + loc.slice(0, q);
  return parseHttpUrl(origin + removeDotSegments(path) + (q < 0 ? "" : loc.slice(q)));
}

/** RFC 3986 dot-segment removal for an absolute path ("/a/b/../c" is "/a/c"). */
function removeDotSegments(path: string): string {
  const out: string[] = [];
  const segments = path.split("/").slice(1);
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === "..") {
      if (out.length > 0) out.pop();
      if (last) out.push("");
    } else if (segment === ".") {
      if (last) out.push("");
    } else out.push(segment);
  });
  return "/" + out.join("/");
}
