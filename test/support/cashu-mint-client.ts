// The stand-in mint's faults, and an HttpClient port that calls the mint in-process (no socket): what the
// scenarios that also run on the XS host use. test/support/cashu-mint.ts applies the same faults on a socket.
import type { HttpClient, HttpClientResponse } from "../../lib/ports.ts";
import type { MintEndpoint, StandInMint } from "./cashu-mint-core.ts";

/**
 * What the next request to an endpoint meets: a 500 before the mint runs ("fail"), no answer ("hang"), the
 * mint's work done and the answer lost ("drop"), or the mint going offline at that request, before it runs
 * ("down": every later request fails too, until `offline` is cleared).
 */
export type MintFault = "fail" | "hang" | "drop" | "down";

export class MintFaults {
  /** Every request fails as if nothing listened. */
  offline = false;
  private readonly next = new Map<MintEndpoint, MintFault>();
  /** Requests seen, by endpoint (for tests that count calls). */
  readonly counts = new Map<MintEndpoint, number>();

  failNext(endpoint: MintEndpoint, fault: MintFault = "fail"): void {
    this.next.set(endpoint, fault);
  }

  /** The fault for this request, used up. */
  take(endpoint: MintEndpoint | undefined): MintFault | undefined {
    if (!endpoint) return undefined;
    this.counts.set(endpoint, (this.counts.get(endpoint) ?? 0) + 1);
    const f = this.next.get(endpoint);
    this.next.delete(endpoint);
    if (f === "down") this.offline = true;
    return f;
  }
}

function networkError(message: string): Error {
  return Object.assign(new Error(message), { code: "network" });
}

/** An HttpClient that answers `base`'s URLs from `mint`, applying `faults`; other URLs fail as unreachable. */
export function inProcessMintClient(mint: StandInMint, base: string, faults: MintFaults): HttpClient {
  return {
    request(req): Promise<HttpClientResponse> {
      if (!req.url.startsWith(base)) return Promise.reject(networkError("the connection failed"));
      if (faults.offline) return Promise.reject(networkError("the connection was refused"));
      const path = req.url.slice(base.length).split("?")[0];
      const fault = faults.take(mint.endpointOf(req.method, path));
      const body = typeof req.body === "string" ? req.body : req.body ? new TextDecoder().decode(req.body) : "";
      if (fault === "down") return Promise.reject(networkError("the connection was refused"));
      if (fault === "fail") return Promise.resolve(answer(500, '{"detail":"injected failure"}'));
      if (fault === "hang") {
        return new Promise((_, reject) =>
          setTimeout(() => reject(Object.assign(new Error("no answer"), { code: "timeout" })), req.timeoutMs),
        );
      }
      const out = mint.handle(req.method, path, body);
      if (fault === "drop") return Promise.reject(networkError("the connection closed before the answer"));
      return Promise.resolve(answer(out.status, out.body));
    },
  };
}

function answer(status: number, text: string): HttpClientResponse {
  return { status, headers: { "content-type": "application/json" }, body: new TextEncoder().encode(text) };
}
