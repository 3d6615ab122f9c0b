// One download for files.fetch: follows redirects itself (the HttpClient port
// never does), re-checking every hop, and refuses bodies past the cap or whose
// Content-Length does not match what arrived. Each hop's host is read as the
// HTTP client reads it, names are resolved, every address is checked, and the
// connection is pinned to a checked address, so neither a numeric trick nor a
// name that resolves (or re-resolves) inward reaches the device or the LAN.
// The address rules are the device's one outbound policy (lib/net/outbound.ts); this file words them for files.fetch.
import { BLOCKED_ADDRESS, literalVerdict, OutboundRefusal, originOf, pinPublicAddress } from "../net/outbound";
import type { Clock, HttpClient, HttpClientResponse, Resolver } from "../ports";
import { formatHttpUrl, parseHttpUrl, resolveLocation, type HttpUrl } from "../util/url";

export { BLOCKED_ADDRESS };

export interface FetchRules {
  maxBytes: number;
  /** The whole download, every hop included. */
  timeoutMs: number;
  maxRedirects: number;
  /** Test only: accept http:// and hosts on the local network. */
  insecure: boolean;
  /** Test only: origins ("http://127.0.0.1:4711") exempt from the scheme and address checks; every other hop is checked. */
  exemptOrigins?: string[];
  /** Resolves host names; without one a name cannot be checked and is refused. */
  resolver?: Resolver;
}

/** A download that failed: the message is one sentence for the caller. */
export class FetchFailure extends Error {}

const REDIRECTS = [301, 302, 303, 307, 308];

/** The URL as a download target, or a sentence saying why it is not allowed (names are checked again when resolved). */
export function checkFetchUrl(text: string, insecure: boolean, exemptOrigins: string[] = []): HttpUrl | string {
  const url = parseHttpUrl(text);
  if (typeof url === "string") return url;
  if (insecure || isExempt(url, exemptOrigins)) return url;
  if (url.scheme !== "https") return "only https URLs are allowed";
  const verdict = literalVerdict(url);
  if (verdict === "invalid") return "the URL's host name is not valid";
  if (verdict === "blocked") return BLOCKED_ADDRESS;
  return url;
}

/** The checked address to connect to for `url`, or undefined to let the client resolve (insecure or exempt). */
async function pinAddress(url: HttpUrl, rules: FetchRules): Promise<string | undefined> {
  if (rules.insecure || isExempt(url, rules.exemptOrigins ?? [])) return undefined;
  try {
    return await pinPublicAddress(url, rules.resolver);
  } catch (e) {
    throw new FetchFailure(e instanceof OutboundRefusal ? e.message : BLOCKED_ADDRESS);
  }
}

function isExempt(url: HttpUrl, origins: string[]): boolean {
  return origins.indexOf(originOf(url)) >= 0;
}

export async function fetchFollowingRedirects(
  http: HttpClient,
  clock: Clock,
  start: HttpUrl,
  rules: FetchRules,
): Promise<{ bytes: Uint8Array; url: HttpUrl }> {
  const deadline = clock.now() + rules.timeoutMs;
  let url = start;
  for (let hop = 0; ; hop++) {
    const address = await pinAddress(url, rules);
    const remaining = Math.max(1, deadline - clock.now());
    let res: HttpClientResponse;
    try {
      res = await http.request({
        method: "GET",
        url: formatHttpUrl(url),
        headers: { accept: "*/*", "user-agent": "halo-files-fetch" },
        timeoutMs: Math.min(remaining, rules.timeoutMs),
        maxResponseBytes: rules.maxBytes,
        address,
      });
    } catch (e) {
      throw new FetchFailure(`the download failed: ${failureSentence(e, rules.maxBytes)}`);
    }
    if (REDIRECTS.indexOf(res.status) >= 0) {
      if (hop >= rules.maxRedirects) throw new FetchFailure(`the download was redirected more than ${rules.maxRedirects} times`);
      const next = resolveLocation(url, res.headers.location || "");
      if (typeof next === "string") throw new FetchFailure(`a redirect was refused: ${next}`);
      const allowed = checkFetchUrl(formatHttpUrl(next), rules.insecure, rules.exemptOrigins);
      if (typeof allowed === "string") throw new FetchFailure(`a redirect was refused: ${allowed}`);
      url = allowed;
      continue;
    }
    if (res.status !== 200 && res.status !== 203) throw new FetchFailure(`the server answered HTTP ${res.status}`);
    const declared = res.headers["content-length"];
    if (declared !== undefined) {
      const n = /^\d{1,15}$/.test(declared.trim()) ? Number(declared.trim()) : NaN;
      if (!(n <= rules.maxBytes)) throw new FetchFailure(`the file is larger than the ${rules.maxBytes}-byte cap`);
      if (n !== res.body.length) {
        throw new FetchFailure(`the server's Content-Length (${n}) does not match the ${res.body.length} bytes it sent`);
      }
    }
    if (res.body.length > rules.maxBytes) throw new FetchFailure(`the file is larger than the ${rules.maxBytes}-byte cap`);
    return { bytes: res.body, url };
  }
}

// The client's own wording would tell a refused port from a TLS failure or a reset: only the kind is passed on.
function failureSentence(e: unknown, maxBytes: number): string {
  const code = (e as { code?: unknown }).code;
  if (code === "timeout") return "no complete answer came in time";
  if (code === "too-large") return `the response is larger than ${maxBytes} bytes`;
  return "the connection failed";
}
