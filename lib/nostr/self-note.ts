// A note the device keeps on its relays for itself (the second seed's memory and tasks): one NIP-78 app-data
// event, kind 30078 under a d tag, its text NIP-44-encrypted to the device's own key. A replaceable event holds
// only its newest copy, so every change reads the current note first and is refused when it cannot (no relay
// connected, a note that does not decrypt) rather than publish a copy that forgets the rest; changes run one at
// a time, and the device keeps the last note it wrote or read, so a relay slow to show a save loses nothing.
// State lives in the object, made at run time.
import { HaloError } from "../errors";
import type { NostrEvent } from "./event";
import type { NostrIdentity } from "./identity";
import type { PublishOutcome, RelayPool } from "./pool";

export const KIND_APP_DATA = 30078;
/** How long a read waits for the relays (ms). */
export const NOSTR_SELF_NOTE_QUERY_MS = 4000;

/** What a self note needs of the Nostr subsystem. */
export interface SelfNoteDeps {
  identity: NostrIdentity;
  pool: RelayPool | undefined;
  nowSeconds(): number;
}

export class SelfNote {
  private queue: Promise<unknown> = Promise.resolve();
  /** The newest copy this device wrote or read. */
  private last?: { at: number; text: string };

  constructor(
    private readonly deps: SelfNoteDeps,
    /** The d tag, also the note's name in refusals ("memory", "tasks"). */
    private readonly d: string,
  ) {}

  /** The note's text ("" when there is none yet) and its date (0 then). */
  read(): Promise<{ text: string; at: number }> {
    return this.serial(() => this.fetch());
  }

  /** Reads the note, makes the new text from it, signs and publishes it; resolves with each relay's answer. */
  change<R>(make: (current: string) => { text: string; result: R }): Promise<{ event: NostrEvent; outcomes: PublishOutcome[]; result: R }> {
    return this.serial(async () => {
      const current = await this.fetch();
      const next = make(current.text);
      const { identity } = this.deps;
      // The newer created_at wins, so two changes in one second must not tie.
      const at = Math.max(this.deps.nowSeconds(), current.at + 1);
      const event = identity.sign({
        kind: KIND_APP_DATA,
        tags: [["d", this.d]],
        content: identity.nip44Encrypt(identity.pubkey, next.text),
        created_at: at,
      });
      const outcomes = await this.pool().publish(event);
      if (outcomes.some((o) => o.result === "ok" || o.result === "queued")) this.last = { at, text: next.text };
      return { event, outcomes, result: next.result };
    });
  }

  private async fetch(): Promise<{ text: string; at: number }> {
    const pool = this.pool();
    if (pool.connectedCount() === 0) throw new HaloError("unavailable", `no relay is connected; the ${this.d} note cannot be read.`);
    const me = this.deps.identity.pubkey;
    const found = await pool.query([{ kinds: [KIND_APP_DATA], authors: [me], "#d": [this.d], limit: 1 }], NOSTR_SELF_NOTE_QUERY_MS);
    const newest = found
      .filter((e) => e.pubkey === me && e.kind === KIND_APP_DATA && e.tags.some((t) => t[0] === "d" && t[1] === this.d))
      .sort((a, b) => b.created_at - a.created_at)[0];
    if (this.last && (!newest || newest.created_at <= this.last.at)) return this.last;
    if (!newest) return { text: "", at: 0 };
    let text: string;
    try {
      text = this.deps.identity.nip44Decrypt(me, newest.content);
    } catch {
      throw new HaloError("invalid", `the ${this.d} note on the relays does not decrypt with the device's key; it was left as it is.`);
    }
    this.last = { at: newest.created_at, text };
    return this.last;
  }

  private pool(): RelayPool {
    if (!this.deps.pool) throw new HaloError("not-configured", "this device has no WebSocket client for relays.");
    return this.deps.pool;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
