// The two JSON documents Nostr reads over HTTP: NIP-05 (`/.well-known/nostr.json`)
// and NIP-11 (a relay's information document). Both bounded, no redirects followed.
import { HaloError } from "../errors";
import type { HttpClient, HttpClientResponse } from "../ports";
import { isHex64 } from "./event";

export const NOSTR_HTTP_TIMEOUT_MS = 8000;
export const NOSTR_HTTP_MAX_BYTES = 64 * 1024;
const NIP05 = /^(?:([a-z0-9._-]{1,64})@)?([a-z0-9.-]{1,253}\.[a-z]{2,63})$/;

async function getJson(http: HttpClient, url: string, accept: string): Promise<unknown> {
  let res: HttpClientResponse;
  try {
    res = await http.request({
      method: "GET",
      url,
      headers: { accept },
      timeoutMs: NOSTR_HTTP_TIMEOUT_MS,
      maxResponseBytes: NOSTR_HTTP_MAX_BYTES,
    });
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new HaloError(
      code === "timeout" ? "timeout" : code === "too-large" ? "too-large" : "unavailable",
      "the server did not answer with a document.",
    );
  }
  if (res.status !== 200) throw new HaloError("not-found", `the server answered HTTP ${res.status}.`);
  try {
    return JSON.parse(new TextDecoder().decode(res.body));
  } catch {
    throw new HaloError("invalid", "the server's answer is not JSON.");
  }
}

/** Resolves `name@domain` (or `domain` for `_`) to a public key and the relays the document lists for it. */
export async function lookupNip05(http: HttpClient, identifier: string): Promise<{ pubkey: string; relays: string[] }> {
  const m = NIP05.exec(identifier.trim().toLowerCase());
  if (!m) throw new HaloError("invalid", "a NIP-05 identifier is name@domain.");
  const name = m[1] ?? "_";
  const doc = await getJson(http, `https://${m[2]}/.well-known/nostr.json?name=${encodeURIComponent(name)}`, "application/json");
  const names = doc && typeof doc === "object" ? (doc as { names?: unknown }).names : undefined;
  const pubkey = names && typeof names === "object" ? (names as { [n: string]: unknown })[name] : undefined;
  if (!isHex64(pubkey)) throw new HaloError("not-found", "the domain's document has no valid key for that name.");
  const relayMap = (doc as { relays?: unknown }).relays;
  const listed = relayMap && typeof relayMap === "object" ? (relayMap as { [k: string]: unknown })[pubkey] : undefined;
  const relays = Array.isArray(listed) ? listed.filter((r): r is string => typeof r === "string" && r.length <= 256).slice(0, 8) : [];
  return { pubkey, relays };
}

/** The NIP-11 document of a relay (ws → http, wss → https), as the fields a person reads. */
export async function relayInfo(http: HttpClient, relayUrl: string): Promise<{ [field: string]: unknown }> {
  const m = /^ws(s?):\/\/([^\s/?#]+)(\/[^\s]*)?$/.exec(relayUrl.trim());
  if (!m) throw new HaloError("invalid", "a relay is a ws:// or wss:// URL.");
  const doc = await getJson(http, `http${m[1]}://${m[2]}${m[3] ?? "/"}`, "application/nostr+json");
  if (!doc || typeof doc !== "object" || Array.isArray(doc))
    throw new HaloError("invalid", "the relay's information document is not an object.");
  const out: { [field: string]: unknown } = {};
  for (const field of ["name", "description", "pubkey", "contact", "software", "version", "supported_nips", "limitation"]) {
    const v = (doc as { [k: string]: unknown })[field];
    if (v !== undefined) out[field] = v;
  }
  return out;
}
