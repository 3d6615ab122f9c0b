// The device's memory on Nostr (the second seed's memory_save / memory_recall): one NIP-78 app-data event,
// kind 30078 with d=memory, its text NIP-44-encrypted to the device's own key, so only this device reads
// it and any of its relays keeps it. A save puts the new entry first and drops the oldest entries past
// NOSTR_MEMORY_MAX_CHARS. A replaceable event holds only the newest copy, so a save that could not read
// the current note (no relay answered, or it does not decrypt) is refused rather than publish a note that
// forgets the rest; saves run one at a time, each reading what the one before wrote (./self-note).
import { HaloError } from "../errors";
import type { NostrEvent } from "./event";
import type { PublishOutcome } from "./pool";
import type { SelfNote } from "./self-note";

/** The memory note's d tag (kind 30078). */
export const NOSTR_MEMORY_D = "memory";
/** The whole note at most (characters; NIP-44 takes at most 65,535 bytes). */
export const NOSTR_MEMORY_MAX_CHARS = 12_000;
/** One entry at most (characters). */
export const NOSTR_MEMORY_ENTRY_MAX_CHARS = 2000;
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

/** The memory note: read from the relays, saved one at a time (./self-note). */
export class NostrMemory {
  constructor(
    private readonly note: SelfNote,
    private readonly nowSeconds: () => number,
  ) {}

  /** The note's text ("" when there is none yet) and its date (0 then). */
  recall(): Promise<{ text: string; at: number }> {
    return this.note.read();
  }

  /** Prepends `entry` and publishes the note; resolves with the event and each relay's answer. */
  async save(entry: string): Promise<{ event: NostrEvent; outcomes: PublishOutcome[]; dropped: number; entries: number }> {
    const r = await this.note.change((current) => {
      const next = prependEntry(current, entry, this.nowSeconds());
      return { text: next.text, result: { dropped: next.dropped, entries: entriesOf(next.text).length } };
    });
    return { event: r.event, outcomes: r.outcomes, ...r.result };
  }
}
