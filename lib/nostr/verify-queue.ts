// Verification that cannot starve the device: every event a relay delivers waits here for its id and
// signature check, in one of two bounded lanes: the preferred lane (the owner's events, followed keys',
// the device's own, and answers to the owner's queries) is always checked first. At most
// NOSTR_VERIFY_PER_SECOND checks run per second, NOSTR_VERIFY_BATCH at a time between yields to the
// event loop, so /mcp, the turn and the ring keep answering during a flood. What does not fit is dropped
// and counted (one log line per flood window); the relay that sent it is told, and backs off (relay.ts).
import type { Curve, Log } from "../ports";
import { type EventRefusal, type NostrEvent, type Sha256Port, verifyEvent } from "./event";
import {
  NOSTR_RELAY_WINDOW_MS,
  NOSTR_VERIFY_BATCH,
  NOSTR_VERIFY_OTHERS_MAX,
  NOSTR_VERIFY_PER_SECOND,
  NOSTR_VERIFY_PREFERRED_MAX,
} from "./limits";

export type Verdict = { event: NostrEvent } | { refused: EventRefusal };

/** What a relay connection needs of the queue. */
export interface EventVerifier {
  /**
   * Queues `raw` (fresh from JSON.parse) for its check; `done` gets the verdict later. `key` groups a
   * relay's subscription (afterPending); `preferred` puts it in the first lane whatever its author.
   * False: the lane was full and the event was dropped (counted here).
   */
  submit(raw: unknown, key: string, preferred: boolean, done: (verdict: Verdict) => void): boolean;
  /** Runs `then` once every event queued so far under `key` has its verdict (a relay's EOSE waits for them). */
  afterPending(key: string, then: () => void): void;
}

export interface VerifyQueueDeps {
  curve: Curve;
  /** The ids' and the signatures' SHA-256: the host's Digest port. */
  digest: Sha256Port;
  log: Log;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Whether an event by this (claimed) author goes in the first lane. */
  isPreferred(pubkey: string): boolean;
  /** Checks per second; tests and the bench change it. */
  perSecond?: number;
}

/** The queue's counts since boot, for device.status. */
export interface VerifyQueueStatus {
  waiting: number;
  waitingPreferred: number;
  capacity: number;
  perSecond: number;
  verified: number;
  refused: number;
  dropped: number;
  droppedPreferred: number;
}

interface Item {
  raw: unknown;
  key: string;
  done: (verdict: Verdict) => void;
}

export class VerifyQueue implements EventVerifier {
  private readonly preferred: Item[] = [];
  private readonly others: Item[] = [];
  private readonly pending = new Map<string, number>();
  private readonly waiters = new Map<string, Array<() => void>>();
  private readonly counts = { verified: 0, refused: 0, dropped: 0, droppedPreferred: 0 };
  private readonly perSecond: number;
  private pumping = false;
  private secondStart = 0;
  private spent = 0;
  private dropLogAt = Number.NEGATIVE_INFINITY;
  private droppedSinceLog = 0;

  constructor(private readonly deps: VerifyQueueDeps) {
    this.perSecond = Math.max(1, Math.floor(deps.perSecond ?? NOSTR_VERIFY_PER_SECOND));
  }

  submit(raw: unknown, key: string, preferred: boolean, done: (verdict: Verdict) => void): boolean {
    const author = raw && typeof raw === "object" ? (raw as { pubkey?: unknown }).pubkey : undefined;
    const first = preferred || (typeof author === "string" && this.deps.isPreferred(author));
    const lane = first ? this.preferred : this.others;
    if (lane.length >= (first ? NOSTR_VERIFY_PREFERRED_MAX : NOSTR_VERIFY_OTHERS_MAX)) {
      this.counts.dropped++;
      if (first) this.counts.droppedPreferred++;
      this.noteDrop();
      return false;
    }
    lane.push({ raw, key, done });
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    if (!this.pumping) {
      this.pumping = true;
      void this.pump();
    }
    return true;
  }

  afterPending(key: string, then: () => void): void {
    if (!this.pending.get(key)) {
      then();
      return;
    }
    const list = this.waiters.get(key);
    if (list) list.push(then);
    else this.waiters.set(key, [then]);
  }

  status(): VerifyQueueStatus {
    return {
      waiting: this.preferred.length + this.others.length,
      waitingPreferred: this.preferred.length,
      capacity: NOSTR_VERIFY_PREFERRED_MAX + NOSTR_VERIFY_OTHERS_MAX,
      perSecond: this.perSecond,
      ...this.counts,
    };
  }

  /** Checks what waits, within the budget, yielding between batches; ends when both lanes are empty. */
  private async pump(): Promise<void> {
    try {
      for (;;) {
        const now = this.deps.now();
        if (now - this.secondStart >= 1000) {
          this.secondStart = now;
          this.spent = 0;
        }
        if (this.spent >= this.perSecond) {
          await this.deps.sleep(Math.max(1, 1000 - (now - this.secondStart)));
          // the sleep is the wait: a new second starts even under a clock that does not move (tests)
          this.secondStart = this.deps.now();
          this.spent = 0;
          continue;
        }
        for (let n = 0; n < NOSTR_VERIFY_BATCH && this.spent < this.perSecond; n++) {
          const item = this.preferred.shift() ?? this.others.shift();
          if (!item) return;
          this.spent++;
          this.check(item);
        }
        if (this.preferred.length + this.others.length === 0) return;
        await this.deps.sleep(0);
      }
    } finally {
      this.pumping = false;
    }
  }

  private check(item: Item): void {
    const verdict = verifyEvent(this.deps.curve, this.deps.digest, item.raw, Math.floor(this.deps.now() / 1000));
    if ("event" in verdict) this.counts.verified++;
    else this.counts.refused++;
    try {
      item.done(verdict);
    } catch (e) {
      this.deps.log.warn(`nostr: an event's receiver failed (${e instanceof Error ? e.name : "error"})`);
    }
    const left = (this.pending.get(item.key) ?? 1) - 1;
    if (left > 0) {
      this.pending.set(item.key, left);
      return;
    }
    this.pending.delete(item.key);
    const waiting = this.waiters.get(item.key);
    if (!waiting) return;
    this.waiters.delete(item.key);
    for (const then of waiting) then();
  }

  /** One line per flood window, with the count, so a flood cannot flood the log. */
  private noteDrop(): void {
    this.droppedSinceLog++;
    const now = this.deps.now();
    if (now - this.dropLogAt < NOSTR_RELAY_WINDOW_MS) return;
    this.dropLogAt = now;
    this.deps.log.warn(
      `nostr: the verification queue is full; dropped ${this.droppedSinceLog} event(s) (${this.counts.dropped} since boot)`,
    );
    this.droppedSinceLog = 0;
  }
}
