import { decodeBase64 } from "../util/base64";
import { decodeUtf8 } from "../util/utf8";

/**
 * A 2026-07-28 header value as the client meant it: values that are not plain
 * visible ASCII arrive as `=?base64?<b64 of UTF-8>?=`. Undefined when malformed.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(raw);
  if (!m) return /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(raw) ? raw : undefined;
  const bytes = decodeBase64(m[1]);
  return bytes ? decodeUtf8(bytes) : undefined;
}

/** The era a POST speaks: per-request (2026-07-28) when its header or its _meta says so. */
export function isModernRequest(headerVersion: string | undefined, message: unknown): boolean {
  if (headerVersion !== undefined && headerVersion >= "2026-07-28") return true;
  if (typeof message !== "object" || message === null || Array.isArray(message)) return false;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== "object" || params === null) return false;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === "object" && meta !== null && "io.modelcontextprotocol/protocolVersion" in meta;
}
