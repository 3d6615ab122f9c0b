import { MAX_TOKEN_CHARS } from "../limits";

const BEARER = new RegExp(`^Bearer ([\\x21-\\x7e]{1,${MAX_TOKEN_CHARS}})$`, "i");

/** The token of an `Authorization: Bearer <token>` header, or undefined when absent or malformed. */
export function bearerToken(headers: { [name: string]: string }): string | undefined {
  const header = headers.authorization;
  if (!header) return undefined;
  const m = BEARER.exec(header.trim());
  return m ? m[1] : undefined;
}

/** True when a URL's query carries a token: tokens belong in the Authorization header, never in a URL (logs, history). */
export function tokenInQuery(path: string): boolean {
  const q = path.indexOf("?");
  return q >= 0 && /(^|[?&])(access_token|token)=/i.test(path.slice(q));
}

/** The path without its query string. */
export function pathOnly(path: string): string {
  const q = path.indexOf("?");
  return q >= 0 ? path.slice(0, q) : path;
}
