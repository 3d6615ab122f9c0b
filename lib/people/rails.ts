// The rails on every door that spends the owner's money or runs a turn: HTTP chat and voice, webhooks,
// Telegram, Nostr DMs and session.spawn all ask `decide` (one function) before anything reaches a
// provider. It applies the credit rules (lib/people/credit.ts: admins always, users and guests as the
// owner's knobs say) and a rate limit per client or sender (a token bucket: RAILS_TURN_BURST at once,
// then one every RAILS_TURN_REFILL_MS). The owner's own principal is not rate-limited: the owner is
// the one paying. test/security/entry-rails.test.ts enumerates the doors.
import { HaloError } from "../errors";
import type { Principal } from "../registry/principal";
import { CREDIT_REFUSAL, mayUseCredit, type CreditKnobs } from "./credit";

/** Turns one client or sender may start at once, and how often one more comes back. */
export const RAILS_TURN_BURST = 6;
export const RAILS_TURN_REFILL_MS = 10_000;
/** Clients and senders tracked; past it the one idle longest is forgotten (it comes back with a full burst). */
export const RAILS_KEYS_MAX = 512;
export const RATE_REFUSAL = "too many requests from this caller; try again in a minute.";

/** The doors that spend credit, named in refusals' logs and in the entry-point test. */
export type SpendDoor = "chat" | "voice" | "webhook" | "telegram" | "nostr-dm" | "nostr-skill" | "session-spawn";

/** Every door, for the entry-point test. */
export const SPEND_DOORS: readonly SpendDoor[] = ["chat", "voice", "webhook", "telegram", "nostr-dm", "nostr-skill", "session-spawn"];

interface Bucket {
  tokens: number;
  at: number;
}

export class SpendRails {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly deps: { config: CreditKnobs; now(): number }) {}

  /**
   * The one decision: undefined when `principal` may start a turn (or a transcription, a sub-agent) through
   * `door` now, else the refusal to throw. `sender` is the rate limit's key (a client's name, a chat, a Nostr
   * key); the principal's namespace when absent. A refusal takes nothing from the bucket.
   */
  decide(principal: Principal, _door: SpendDoor, sender?: string): HaloError | undefined {
    if (!mayUseCredit(this.deps.config, principal)) return new HaloError("not-allowed", CREDIT_REFUSAL);
    if (principal.role === "admin") return undefined;
    const key = `${principal.role}:${sender ?? principal.ns}`;
    const now = this.deps.now();
    const b = this.buckets.get(key) ?? { tokens: RAILS_TURN_BURST, at: now };
    const refilled = Math.min(RAILS_TURN_BURST, b.tokens + Math.floor((now - b.at) / RAILS_TURN_REFILL_MS));
    const at = refilled > b.tokens ? b.at + (refilled - b.tokens) * RAILS_TURN_REFILL_MS : b.at;
    if (refilled < 1) {
      this.keep(key, { tokens: refilled, at });
      return new HaloError("rate-limited", RATE_REFUSAL);
    }
    this.keep(key, { tokens: refilled - 1, at: refilled === RAILS_TURN_BURST ? now : at });
    return undefined;
  }

  /** decide, thrown. */
  admit(principal: Principal, door: SpendDoor, sender?: string): void {
    const refusal = this.decide(principal, door, sender);
    if (refusal) throw refusal;
  }

  private keep(key: string, bucket: Bucket): void {
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > RAILS_KEYS_MAX) this.buckets.delete(this.buckets.keys().next().value as string);
  }
}
