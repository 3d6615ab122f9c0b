import { RESULTS_RING_MAX_BYTES, RESULTS_RING_MAX_ENTRIES, RESULTS_RING_MAX_ENTRY_BYTES, RESULTS_RING_MAX_NAMESPACES } from "../limits";
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

/** One namespace's entries, oldest first. */
interface NamespaceRing {
  entries: StoredResult[];
  bytes: number;
  /** The ring's write counter at this namespace's last put (which namespace has been idle longest). */
  lastPut: number;
}

/**
 * Bounded rings of recent tool outputs, so a clamped result can be read back
 * in full. One ring per namespace, each bounded by entry count and bytes with
 * the oldest entries going first, so one person's calls never evict another's
 * entries. At most RESULTS_RING_MAX_NAMESPACES rings live at once; a further
 * namespace takes the place of the one idle longest.
 */
export class ResultsRing {
  private readonly rings = new Map<string, NamespaceRing>();
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
    const ring = this.ringFor(ns);
    ring.lastPut = this.counter;
    ring.entries.push({ tag, ns, kind, name, text, bytes, cut });
    ring.bytes += bytes;
    while (ring.entries.length > RESULTS_RING_MAX_ENTRIES || ring.bytes > RESULTS_RING_MAX_BYTES) {
      const old = ring.entries.shift()!;
      ring.bytes -= old.bytes;
    }
    return tag;
  }

  get(ns: string, tag: string): StoredResult | undefined {
    const ring = this.rings.get(ns);
    if (ring) for (const e of ring.entries) if (e.tag === tag) return e;
    return undefined;
  }

  /** The caller's entries, newest first. */
  list(ns: string): StoredResult[] {
    const ring = this.rings.get(ns);
    return ring ? ring.entries.slice().reverse() : [];
  }

  private ringFor(ns: string): NamespaceRing {
    let ring = this.rings.get(ns);
    if (ring) return ring;
    if (this.rings.size >= RESULTS_RING_MAX_NAMESPACES) {
      let idlest: string | undefined;
      let oldest = Infinity;
      // lastPut wraps with the counter only after 2^31 puts; a wrong pick then costs one idle ring.
      for (const [key, r] of this.rings) {
        if (r.lastPut < oldest) {
          oldest = r.lastPut;
          idlest = key;
        }
      }
      if (idlest !== undefined) this.rings.delete(idlest);
    }
    ring = { entries: [], bytes: 0, lastPut: 0 };
    this.rings.set(ns, ring);
    return ring;
  }
}
