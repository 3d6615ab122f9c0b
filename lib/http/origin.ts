/**
 * Whether a browser Origin may call the device: the page must come from the
 * device itself (same host as the Host header) or from this machine. Guards
 * against DNS rebinding from pages on other sites.
 */
export function originAllowed(origin: string, host: string | undefined): boolean {
  const m = /^https?:\/\/([^/?#]+)$/i.exec(origin);
  if (!m) return false;
  const authority = m[1].toLowerCase();
  if (host !== undefined && authority === host.toLowerCase()) return true;
  const hostname = authority.startsWith("[") ? authority.slice(0, authority.indexOf("]") + 1) : authority.split(":")[0];
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}
