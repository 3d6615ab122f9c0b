// cashu-ts's errors as Halo's: a mint's refusal (a NUT error code, a 4xx) as a MintRefused, a mint that did not
// answer or failed (network, timeout, 5xx) as "unavailable", and cashu-ts's own checks as one short sentence.
// No sentence repeats the mint's text or cashu-ts's message: either may hold a proof or a token.
import { CTSError, HttpResponseError, isMintOperationError, NetworkError, RateLimitError } from "@cashu/cashu-ts";
import { HaloError } from "../../errors";
import { MintRefused, refusalFor } from "../errors";

export function kitError(e: unknown): HaloError {
  if (e instanceof HaloError) return e;
  if (isMintOperationError(e)) {
    const { tag, sentence } = refusalFor(e.code);
    return new MintRefused(tag, sentence, e.code);
  }
  if (e instanceof RateLimitError) return new MintRefused("rate-limited", "the mint asks to slow down.", 0);
  if (e instanceof HttpResponseError) {
    if (e.status >= 400 && e.status < 500) return new MintRefused("refused", `the mint refused the request (HTTP ${e.status}).`, 0);
    return new HaloError("unavailable", `the mint failed (HTTP ${e.status}).`);
  }
  if (e instanceof NetworkError) return new HaloError("unavailable", "the mint did not answer.");
  if (e instanceof CTSError && /not enough (funds|proofs)/i.test(e.message)) {
    return new HaloError("invalid-arguments", "the balance at that mint does not cover the amount and its fees.");
  }
  if (e instanceof CTSError && /unrecognised keyset|keyset .*not (found|known)/i.test(e.message)) {
    return new HaloError("invalid", "a proof's keyset is not one of its mint's.");
  }
  if (e instanceof CTSError && /DLEQ/.test(e.message)) return new HaloError("invalid", "a proof's DLEQ does not verify.");
  return new HaloError("failed", "the Cashu operation failed.");
}

/**
 * cashu-ts names each error in its constructor by assigning its `name` (CTSError, MintOperationError...). Where the host has frozen
 * Error.prototype (the device and lin after preload), that assignment meets the inherited read-only `name` and
 * throws a TypeError, so every cashu-ts error, a mint's refusal among them, became a TypeError. Every cashu-ts error
 * class derives from CTSError, which cashu-ts makes at run time (it is not preloaded): an own writable `name` on its
 * prototype shadows Error.prototype's for all of them. Safe to call more than once.
 */
export function nameableCashuErrors(): void {
  const proto = CTSError.prototype;
  if (Object.hasOwn(proto, "name")) return;
  Object.defineProperty(proto, "name", { value: "CTSError", writable: true, configurable: true, enumerable: false });
}
