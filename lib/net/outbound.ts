// The one outbound policy: every request the device makes for a caller, or
// from data it received (a NIP-05 domain, a relay's information document, a
// release image named by the feed, a download), goes through here. A URL's
// host is read as the HTTP client reads it, a name is resolved and every
// address it has is classified (loopback, private, link-local and cloud
// metadata, CGNAT, multicast, IPv6 ULA and link-local, IPv4 inside IPv6), and
// the connection is pinned to the checked address, so a name that re-resolves
// inward cannot slip in between. A redirect is followed only here, and each
// hop is checked again. Every way a request fails before an answer arrives
// (an inward address, a name that does not resolve, a closed port, a port
// that does not speak HTTP, a timeout) gives the same sentence, so a caller
// learns nothing about what is listening where. Origins the owner set (the
// release feed, the owner's relays) are trusted as they are: the owner may
// point the device at a server on the LAN.
import { HaloError } from "../errors";
import type { HttpClient, HttpClientRequest, HttpClientResponse, Resolver } from "../ports";
import { formatAddress, isPublicAddress, parseHostAddress, parseResolvedAddress } from "../util/ip-address";
import { formatHttpUrl, parseHttpUrl, resolveLocation, type HttpUrl } from "../util/url";

/** The one refusal for every outbound request that did not get an answer: it names nothing about the target. */
export const OUTBOUND_REFUSED = "that address could not be reached from this device";
/** files.fetch's wording for an address that is not on the public internet, however it was written or reached. */
export const BLOCKED_ADDRESS = "addresses on the local network or the device itself are not allowed";

/** Names that are the device or its LAN whatever a resolver says. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|lan|intranet|corp)\.?$/;
const REDIRECTS = [301, 302, 303, 307, 308];
/** Redirects the guarded client follows by default (each re-checked). */
export const OUTBOUND_REDIRECTS_MAX = 3;

/** Why a target was refused; the caller words it (files.fetch) or says OUTBOUND_REFUSED. */
export class OutboundRefusal extends Error {}

/** "scheme://host[:port]" of a URL, the form trusted origins are written in. */
export function originOf(url: HttpUrl): string {
  return `${url.scheme}://${url.host}${url.port === undefined ? "" : ":" + url.port}`;
}

/** The origin of a URL text ("wss://relay.example" counts as "https://relay.example"); undefined when it is not a URL. */
export function originOfText(text: string): string | undefined {
  const url = parseHttpUrl(text.replace(/^ws(s?):/i, "http$1:"));
  return typeof url === "string" ? undefined : originOf(url);
}

/** The URL's host as a literal address: refused when inward, undefined for a name (resolve it first). */
export function literalVerdict(url: HttpUrl): "blocked" | "name" | "public" | "invalid" {
  const address = parseHostAddress(url.host);
  if (!address) return "invalid";
  if (address.kind === "name") return LOCAL_NAME.test(address.name) ? "blocked" : "name";
  return isPublicAddress(address) ? "public" : "blocked";
}

/**
 * The checked address to connect to for `url`: a literal that is public, or the first address of a name whose
 * every address is public. Throws an OutboundRefusal whose message says why (for files.fetch's wording).
 */
export async function pinPublicAddress(url: HttpUrl, resolver: Resolver | undefined): Promise<string> {
  const address = parseHostAddress(url.host);
  if (!address) throw new OutboundRefusal("the URL's host name is not valid");
  if (address.kind !== "name") {
    if (!isPublicAddress(address)) throw new OutboundRefusal(BLOCKED_ADDRESS);
    return formatAddress(address);
  }
  if (LOCAL_NAME.test(address.name)) throw new OutboundRefusal(BLOCKED_ADDRESS);
  if (!resolver) throw new OutboundRefusal("host names cannot be checked on this device; use the address");
  let found: string[];
  try {
    found = await resolver.resolve(address.name.replace(/\.$/, ""));
  } catch {
    throw new OutboundRefusal("the host name could not be resolved");
  }
  if (found.length === 0) throw new OutboundRefusal("the host name could not be resolved");
  // Every address is checked: a client may pick any of them, and a name with one inward address is refused whole.
  const parsed = found.map(parseResolvedAddress);
  for (const a of parsed) if (!a || !isPublicAddress(a)) throw new OutboundRefusal(BLOCKED_ADDRESS);
  return formatAddress(parsed[0]!);
}

/** What a guarded request may add to the HttpClient's: redirects to follow, origins the owner set. */
export interface OutboundRequest extends Omit<HttpClientRequest, "address"> {
  /** Redirects followed, each hop checked again (default OUTBOUND_REDIRECTS_MAX; 0 returns the 3xx as it is). */
  maxRedirects?: number;
  /** Origins ("https://feed.example:8443") the owner set: reached as they are, without the address check. */
  trusted?: readonly string[];
}

/** An answer, with the URL that gave it (after redirects). */
export interface OutboundResponse extends HttpClientResponse {
  url: string;
}

/** What code that fetches through the policy takes: the guarded client, or a test's stand-in for it. */
export interface GuardedHttp {
  request(req: OutboundRequest): Promise<HttpClientResponse>;
}

/**
 * The guarded HTTP client. Refusals and failures before an answer reject with a HaloError("unavailable",
 * OUTBOUND_REFUSED) whose `code` is the HttpClient's ("timeout", "too-large" or "network"), so callers
 * that retry by kind still can; the sentence is the same for all of them.
 */
export class OutboundHttp implements GuardedHttp {
  constructor(private readonly deps: { http: HttpClient; resolver: Resolver | undefined; clock: { now(): number } }) {}

  async request(req: OutboundRequest): Promise<OutboundResponse> {
    const start = parseHttpUrl(req.url);
    if (typeof start === "string") throw refused("network");
    const deadline = this.deps.clock.now() + req.timeoutMs;
    const maxRedirects = req.maxRedirects ?? OUTBOUND_REDIRECTS_MAX;
    let url = start;
    let method = req.method;
    let body = req.body;
    for (let hop = 0; ; hop++) {
      const trusted = (req.trusted ?? []).indexOf(originOf(url)) >= 0;
      let address: string | undefined;
      if (!trusted) {
        try {
          address = await pinPublicAddress(url, this.deps.resolver);
        } catch {
          throw refused("network");
        }
      }
      let res: HttpClientResponse;
      try {
        res = await this.deps.http.request({
          method,
          url: formatHttpUrl(url),
          headers: req.headers,
          body,
          timeoutMs: Math.max(1, Math.min(req.timeoutMs, deadline - this.deps.clock.now())),
          maxResponseBytes: req.maxResponseBytes,
          signal: req.signal,
          address,
        });
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        throw refused(code === "timeout" || code === "too-large" ? code : "network");
      }
      if (REDIRECTS.indexOf(res.status) < 0 || hop >= maxRedirects) return { ...res, url: formatHttpUrl(url) };
      const next = resolveLocation(url, res.headers.location || "");
      if (typeof next === "string") throw refused("network");
      url = next;
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
      }
    }
  }
}

function refused(code: "timeout" | "too-large" | "network"): HaloError {
  const e = new HaloError("unavailable", OUTBOUND_REFUSED);
  (e as HaloError & { code: string }).code = code;
  return e;
}
