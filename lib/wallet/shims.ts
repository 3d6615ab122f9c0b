// The three host globals @cashu/cashu-ts reaches that a bare XS machine lacks: crypto.getRandomValues,
// btoa/atob and URL. installCashuGlobals puts them on globalThis at run time, from the Random port and
// lib/util, and only where the host has none (Node keeps its own). Nothing here is kept at the module's
// top level: the device preloads lib/, and what a preloaded module holds is frozen.
import type { Random } from "../ports";
import { decodeBase64 } from "../util/base64";
import { parseHttpUrl } from "../util/url";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard base64 with padding of a "binary string" (one byte per character), as btoa. */
export function binaryToBase64(binary: string): string {
  let out = "";
  let i = 0;
  for (; i + 2 < binary.length; i += 3) {
    const n = (byteAt(binary, i) << 16) | (byteAt(binary, i + 1) << 8) | byteAt(binary, i + 2);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  const rest = binary.length - i;
  if (rest === 1) {
    const n = byteAt(binary, i) << 16;
    out += `${ALPHABET[n >> 18]}${ALPHABET[(n >> 12) & 63]}==`;
  } else if (rest === 2) {
    const n = (byteAt(binary, i) << 16) | (byteAt(binary, i + 1) << 8);
    out += `${ALPHABET[n >> 18]}${ALPHABET[(n >> 12) & 63]}${ALPHABET[(n >> 6) & 63]}=`;
  }
  return out;
}

function byteAt(binary: string, i: number): number {
  const code = binary.charCodeAt(i);
  // btoa's contract: a character above U+00FF is an error, never silently truncated.
  if (code > 255) throw new TypeError("btoa: a character is outside Latin-1");
  return code;
}

/** The "binary string" of standard base64 text (whitespace and padding tolerated), as atob. */
export function base64ToBinary(text: string): string {
  const bytes = decodeBase64(text.replace(/[\t\n\f\r ]/g, ""));
  if (!bytes) throw new TypeError("atob: not base64");
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
  return out;
}

/**
 * The part of WHATWG URL cashu-ts reads of a mint's address (href, protocol, host, pathname, search, hash,
 * username, password), for absolute http(s) URLs only; anything else throws as `new URL` does.
 */
export class HttpOnlyUrl {
  readonly href: string;
  readonly protocol: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
  readonly origin: string;
  readonly username = "";
  readonly password = "";

  constructor(text: string) {
    const parsed = parseHttpUrl(String(text));
    if (typeof parsed === "string") throw new TypeError(`Invalid URL: ${parsed}`);
    const q = parsed.path.indexOf("?");
    const rawHash = String(text).indexOf("#");
    this.protocol = `${parsed.scheme}:`;
    this.hostname = parsed.host;
    this.port = parsed.port === undefined ? "" : String(parsed.port);
    this.host = parsed.port === undefined ? parsed.host : `${parsed.host}:${parsed.port}`;
    this.pathname = q < 0 ? parsed.path : parsed.path.slice(0, q);
    this.search = q < 0 || q === parsed.path.length - 1 ? "" : parsed.path.slice(q);
    this.hash = rawHash < 0 || rawHash === String(text).length - 1 ? "" : String(text).slice(rawHash);
    this.origin = `${this.protocol}//${this.host}`;
    this.href = `${this.origin}${parsed.path}${this.hash}`;
  }

  toString(): string {
    return this.href;
  }
}

interface CashuHostGlobals {
  crypto?: { getRandomValues?: <T extends ArrayBufferView>(array: T) => T };
  btoa?: (binary: string) => string;
  atob?: (text: string) => string;
  URL?: unknown;
}

/** What installCashuGlobals added, for a test to check (the names it found missing). */
export type InstalledGlobal = "crypto.getRandomValues" | "btoa" | "atob" | "URL";

/**
 * Installs, where missing, the globals cashu-ts needs: random bytes from `random` (the Random port), base64
 * from lib/util and the http(s) URL above. Returns what it installed. Safe to call more than once.
 */
export function installCashuGlobals(random: Random): InstalledGlobal[] {
  const g = globalThis as unknown as CashuHostGlobals;
  const added: InstalledGlobal[] = [];
  const define = (target: object, name: string, value: unknown): void => {
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
  };
  if (typeof g.crypto?.getRandomValues !== "function") {
    const getRandomValues = <T extends ArrayBufferView>(array: T): T => {
      random.fill(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
      return array;
    };
    if (g.crypto && Object.isExtensible(g.crypto)) define(g.crypto, "getRandomValues", getRandomValues);
    else define(globalThis, "crypto", { getRandomValues });
    added.push("crypto.getRandomValues");
  }
  if (typeof g.btoa !== "function") {
    define(globalThis, "btoa", binaryToBase64);
    added.push("btoa");
  }
  if (typeof g.atob !== "function") {
    define(globalThis, "atob", base64ToBinary);
    added.push("atob");
  }
  if (typeof g.URL !== "function") {
    define(globalThis, "URL", HttpOnlyUrl);
    added.push("URL");
  }
  return added;
}
