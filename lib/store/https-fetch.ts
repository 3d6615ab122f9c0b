// One download for files.fetch: follows redirects itself (the HttpClient port
// never does), re-checking every hop's URL, and refuses bodies past the cap or
// whose Content-Length does not match what arrived.
import type { Clock, HttpClient, HttpClientResponse } from "../ports";
import { clipForMessage } from "../util/text";
import { formatHttpUrl, isLocalHost, parseHttpUrl, resolveLocation, type HttpUrl } from "../util/url";

export interface FetchRules {
  maxBytes: number;
  /** The whole download, every hop included. */
  timeoutMs: number;
  maxRedirects: number;
  /** Test only: accept http:// and hosts on the local network. */
  insecure: boolean;
}

/** A download that failed: the message is one sentence for the caller. */
export class FetchFailure extends Error {}

const REDIRECTS = [301, 302, 303, 307, 308];

/** The URL as a download target, or a sentence saying why it is not allowed. */
export function checkFetchUrl(text: string, insecure: boolean): HttpUrl | string {
  const url = parseHttpUrl(text);
  if (typeof url === "string") return url;
  if (url.scheme !== "https" && !insecure) return "only https URLs are allowed";
  if (isLocalHost(url.host) && !insecure) return "addresses on the local network or the device itself are not allowed";
  return url;
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
    const remaining = Math.max(1, deadline - clock.now());
    let res: HttpClientResponse;
    try {
      res = await http.request({
        method: "GET",
        url: formatHttpUrl(url),
        headers: { accept: "*/*", "user-agent": "halo-files-fetch" },
        timeoutMs: Math.min(remaining, rules.timeoutMs),
        maxResponseBytes: rules.maxBytes,
      });
    } catch (e) {
      throw new FetchFailure(`the download failed: ${clipForMessage(e instanceof Error ? e.message : "network error", 100)}`);
    }
    if (REDIRECTS.indexOf(res.status) >= 0) {
      if (hop >= rules.maxRedirects) throw new FetchFailure(`the download was redirected more than ${rules.maxRedirects} times`);
      const next = resolveLocation(url, res.headers.location || "");
      if (typeof next === "string") throw new FetchFailure(`a redirect was refused: ${next}`);
      const allowed = checkFetchUrl(formatHttpUrl(next), rules.insecure);
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
