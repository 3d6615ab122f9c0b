// The two JSON documents Nostr reads over HTTP: NIP-05 (`/.well-known/nostr.json`)
// and NIP-11 (a relay's information document). Both bounded, no redirects followed, and both through the
// guarded client: the domain and the relay come from a caller, so an inward address is refused, and every
// failure to get an answer reads the same (closed, open or HTTP-speaking ports are not told apart).
import { HaloError } from "../errors";
import { OUTBOUND_REFUSED, originOfText, type OutboundHttp, type OutboundResponse } from "../net/outbound";
import { isHex64 } from "./event";

export const NOSTR_HTTP_TIMEOUT_MS = 8000;
export const NOSTR_HTTP_MAX_BYTES = 64 * 1024;
const NIP05 = /^(?:([a-z0-9._-]{1,64})@)?([a-z0-9.-]{1,253}\.[a-z]{2,63})$/;

async function getJson(http: OutboundHttp, url: string, accept: string, trusted: readonly string[] = []): Promise<unknown> {
  let res: OutboundResponse;
  try {
    res = await http.request({
      method: "GET",
      url,
      headers: { accept },
      timeoutMs: NOSTR_HTTP_TIMEOUT_MS,
      maxResponseBytes: NOSTR_HTTP_MAX_BYTES,
      maxRedirects: 0,
      trusted,
    });
  } catch {
    throw new HaloError("unavailable", `${OUTBOUND_REFUSED}.`);
  }
  if (res.status !== 200) throw new HaloError("not-found", `the server answered HTTP ${res.status}.`);
  try {
    return JSON.parse(new TextDecoder().decode(res.body));
  } catch {
    throw new HaloError("invalid", "the server's answer is not JSON.");
  }
}

/** Resolves `name@domain` (or `domain` for `_`) to a public key and the relays the document lists for it. */
export async function lookupNip05(http: OutboundHttp, identifier: string): Promise<{ pubkey: string; relays: string[] }> {
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

/**
 * The NIP-11 document of a relay (ws → http, wss → https), as the fields a person reads. `ownerRelays` are the
 * relays the owner set: reached as they are (a relay on the LAN); any other relay must be on the public internet.
 */
export async function relayInfo(
  http: OutboundHttp,
  relayUrl: string,
  ownerRelays: readonly string[] = [],
): Promise<{ [field: string]: unknown }> {
  const m = /^ws(s?):\/\/([^\s/?#]+)(\/[^\s]*)?$/.exec(relayUrl.trim());
  if (!m) throw new HaloError("invalid", "a relay is a ws:// or wss:// URL.");
  const trusted = ownerRelays.map(originOfText).filter((o): o is string => o !== undefined);
  const doc = await getJson(http, `http${m[1]}://${m[2]}${m[3] ?? "/"}`, "application/nostr+json", trusted);
  if (!doc || typeof doc !== "object" || Array.isArray(doc))
    throw new HaloError("invalid", "the relay's information document is not an object.");
  const out: { [field: string]: unknown } = {};
  for (const field of ["name", "description", "pubkey", "contact", "software", "version", "supported_nips", "limitation"]) {
    const v = (doc as { [k: string]: unknown })[field];
    if (v !== undefined) out[field] = v;
  }
  return out;
}
