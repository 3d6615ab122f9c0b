// The DM channel's memory of the events it has run, kept in the settings so a relay
// reconnect, a restart or a flood cannot make an old DM run again. An entry is kept at
// least as long as NIP-17's timestamp window (NOSTR_SEEN_KEEP_S): past it, an event is
// refused by its age anyway, so only then is it evicted. The ids are spread over
// NOSTR_SEEN_BUCKETS settings values by their first hex digit (each under the settings'
// value limit, so one new id rewrites one small value); a full bucket with nothing old
// enough to evict refuses the new id, and the caller drops the DM rather than forget.
import type { Settings } from "../ports";
import { NOSTR_SEEN_BUCKET_MAX, NOSTR_SEEN_BUCKETS, NOSTR_SEEN_KEEP_S } from "./limits";

const PREFIX = "nostr.seen.";
/** Hex digits of an id kept (64 bits: a collision by chance is out of reach, and ids cannot be ground to one). */
const ID_CHARS = 16;

export class SeenEvents {
  private buckets: Array<Map<string, number>> | undefined;

  constructor(
    private readonly settings: Settings,
    private readonly nowSeconds: () => number,
  ) {}

  /** True when `id` ran before (and is still inside the window). */
  has(id: string): boolean {
    return this.bucket(id).has(id.slice(0, ID_CHARS));
  }

  /** Records `id` (its event dated `time`); false when its bucket is full of entries still inside the window. */
  add(id: string, time: number): boolean {
    const bucket = this.bucket(id);
    const key = id.slice(0, ID_CHARS);
    if (bucket.has(key)) return true;
    const cutoff = this.nowSeconds() - NOSTR_SEEN_KEEP_S;
    for (const [k, t] of bucket) if (t < cutoff) bucket.delete(k);
    if (bucket.size >= NOSTR_SEEN_BUCKET_MAX) return false;
    bucket.set(key, time);
    this.save(id, bucket);
    return true;
  }

  /** Entries held (tests, status). */
  size(): number {
    let n = 0;
    for (const b of this.all()) n += b.size;
    return n;
  }

  private bucket(id: string): Map<string, number> {
    const n = parseInt(id.charAt(0), 16);
    return this.all()[Number.isNaN(n) ? 0 : n % NOSTR_SEEN_BUCKETS];
  }

  private all(): Array<Map<string, number>> {
    if (this.buckets) return this.buckets;
    const out: Array<Map<string, number>> = [];
    for (let i = 0; i < NOSTR_SEEN_BUCKETS; i++) {
      const m = new Map<string, number>();
      for (const entry of (this.settings.get(PREFIX + i) ?? "").split(",")) {
        const at = entry.indexOf(".");
        const time = at === ID_CHARS ? parseInt(entry.slice(at + 1), 36) : NaN;
        if (time >= 0) m.set(entry.slice(0, ID_CHARS), time);
      }
      out.push(m);
    }
    this.buckets = out;
    return out;
  }

  private save(id: string, bucket: Map<string, number>): void {
    const n = parseInt(id.charAt(0), 16);
    const parts: string[] = [];
    for (const [k, t] of bucket) parts.push(`${k}.${t.toString(36)}`);
    this.settings.set(PREFIX + (Number.isNaN(n) ? 0 : n % NOSTR_SEEN_BUCKETS), parts.join(","));
  }
}
