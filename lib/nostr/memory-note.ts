// The device's memory on Nostr (the second seed's memory_save / memory_recall): one NIP-78 app-data event,
// kind 30078 with d=memory, its text NIP-44-encrypted to the device's own key, so only this device reads
// it and any of its relays keeps it. A save puts the new entry first and drops the oldest entries past
// NOSTR_MEMORY_MAX_CHARS. A replaceable event holds only the newest copy, so a save that could not read
// the current note (no relay answered, or it does not decrypt) is refused rather than publish a note that
// forgets the rest; saves run one at a time, each reading what the one before wrote.
import { HaloError } from "../errors";
import type { NostrEvent } from "./event";
import type { NostrIdentity } from "./identity";
import type { PublishOutcome, RelayPool } from "./pool";

export const KIND_APP_DATA = 30078;
/** The d tags of the seed's notes on Nostr. */
export const NOSTR_MEMORY_D = "memory";
/** The whole note at most (characters; NIP-44 takes at most 65,535 bytes). */
export const NOSTR_MEMORY_MAX_CHARS = 12_000;
/** One entry at most (characters). */
export const NOSTR_MEMORY_ENTRY_MAX_CHARS = 2000;
/** How long a read waits for the relays (ms). */
export const NOSTR_MEMORY_QUERY_MS = 4000;
/** Between two entries; an entry's own copy of it is broken up so entries split back the same. */
export const NOSTR_MEMORY_SEPARATOR = "\n---\n";

/** The note after prepending `entry` (dated `nowSeconds`), and how many old entries were dropped to fit. */
export function prependEntry(existing: string, entry: string, nowSeconds: number): { text: string; dropped: number } {
  const clean = entry.replace(/\r\n?/g, "\n").split(NOSTR_MEMORY_SEPARATOR).join("\n- - -\n").trim();
  if (!clean) throw new HaloError("invalid", "a memory entry has some text.");
  if (clean.length > NOSTR_MEMORY_ENTRY_MAX_CHARS)
    throw new HaloError("too-large", `a memory entry is at most ${NOSTR_MEMORY_ENTRY_MAX_CHARS} characters.`);
  const stamp = new Date(nowSeconds * 1000).toISOString().slice(0, 16).replace("T", " ");
  const entries = [`[${stamp}] ${clean}`, ...entriesOf(existing)];
  let dropped = 0;
  while (entries.length > 1 && entries.join(NOSTR_MEMORY_SEPARATOR).length > NOSTR_MEMORY_MAX_CHARS) {
    entries.pop();
    dropped++;
  }
  return { text: entries.join(NOSTR_MEMORY_SEPARATOR), dropped };
}

/** The entries of a note, newest first. */
export function entriesOf(note: string): string[] {
  return note ? note.split(NOSTR_MEMORY_SEPARATOR).filter((e) => e.trim()) : [];
}

/** What the memory note needs of the Nostr subsystem. */
export interface NostrMemoryDeps {
  identity: NostrIdentity;
  pool: RelayPool | undefined;
  nowSeconds(): number;
}

/** The memory note: read from the relays, saved one at a time. State lives in this object, made at run time. */
export class NostrMemory {
  private queue: Promise<unknown> = Promise.resolve();
  /** The newest note this device wrote or read, so a slow relay does not hide the last save. */
  private last?: { at: number; text: string };

  constructor(private readonly deps: NostrMemoryDeps) {}

  /** The note's text ("" when there is none yet) and its date (0 then). */
  recall(): Promise<{ text: string; at: number }> {
    return this.serial(() => this.read());
  }

  /** Prepends `entry` and publishes the note; resolves with the event and each relay's answer. */
  save(entry: string): Promise<{ event: NostrEvent; outcomes: PublishOutcome[]; dropped: number; entries: number }> {
    return this.serial(async () => {
      const current = await this.read();
      const next = prependEntry(current.text, entry, this.deps.nowSeconds());
      const { identity } = this.deps;
      // A replaceable event: the newer created_at wins, so two saves in one second must not tie.
      const at = Math.max(this.deps.nowSeconds(), current.at + 1);
      const event = identity.sign({
        kind: KIND_APP_DATA,
        tags: [["d", NOSTR_MEMORY_D]],
        content: identity.nip44Encrypt(identity.pubkey, next.text),
        created_at: at,
      });
      const outcomes = await this.pool().publish(event);
      if (outcomes.some((o) => o.result === "ok" || o.result === "queued")) this.last = { at, text: next.text };
      return { event, outcomes, dropped: next.dropped, entries: entriesOf(next.text).length };
    });
  }

  private async read(): Promise<{ text: string; at: number }> {
    const pool = this.pool();
    if (pool.connectedCount() === 0) throw new HaloError("unavailable", "no relay is connected; the memory note cannot be read.");
    const me = this.deps.identity.pubkey;
    const found = await pool.query([{ kinds: [KIND_APP_DATA], authors: [me], "#d": [NOSTR_MEMORY_D], limit: 1 }], NOSTR_MEMORY_QUERY_MS);
    const newest = found
      .filter((e) => e.pubkey === me && e.kind === KIND_APP_DATA && e.tags.some((t) => t[0] === "d" && t[1] === NOSTR_MEMORY_D))
      .sort((a, b) => b.created_at - a.created_at)[0];
    if (this.last && (!newest || newest.created_at <= this.last.at)) return this.last;
    if (!newest) return { text: "", at: 0 };
    let text: string;
    try {
      text = this.deps.identity.nip44Decrypt(me, newest.content);
    } catch {
      throw new HaloError("invalid", "the memory note on the relays does not decrypt with the device's key; it was left as it is.");
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
