import { RESULTS_RING_MAX_BYTES, RESULTS_RING_MAX_ENTRIES, RESULTS_RING_MAX_ENTRY_BYTES } from "../limits";
import { truncateUtf8, utf8Length } from "../util/utf8";

export interface StoredResult {
  tag: string;
  ns: string;
  kind: string;
  name: string;
  text: string;
  bytes: number;
  /** True when the output was larger than one ring entry may hold. */
  cut: boolean;
}

/**
 * A bounded ring of recent tool outputs, so a clamped result can be read back
 * in full. Bounded by entry count and total bytes; the oldest entries go first.
 * Entries belong to the caller's namespace and are visible only there.
 */
export class ResultsRing {
  private readonly entries: StoredResult[] = [];
  private totalBytes = 0;
  private counter = 0;

  /** Stores `text` and returns its tag. */
  put(ns: string, kind: string, name: string, text: string): string {
    let bytes = utf8Length(text);
    let cut = false;
    if (bytes > RESULTS_RING_MAX_ENTRY_BYTES) {
      text = truncateUtf8(text, RESULTS_RING_MAX_ENTRY_BYTES);
      bytes = utf8Length(text);
      cut = true;
    }
    this.counter = (this.counter + 1) % 0x7fffffff;
    const tag = "r" + this.counter.toString(36);
    this.entries.push({ tag, ns, kind, name, text, bytes, cut });
    this.totalBytes += bytes;
    while (this.entries.length > RESULTS_RING_MAX_ENTRIES || this.totalBytes > RESULTS_RING_MAX_BYTES) {
      const old = this.entries.shift()!;
      this.totalBytes -= old.bytes;
    }
    return tag;
  }

  get(ns: string, tag: string): StoredResult | undefined {
    for (const e of this.entries) if (e.tag === tag && e.ns === ns) return e;
    return undefined;
  }

  /** The caller's entries, newest first. */
  list(ns: string): StoredResult[] {
    const out: StoredResult[] = [];
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i].ns === ns) out.push(this.entries[i]);
    return out;
  }
}
