// The entries' texts (content and source, UTF-8, back to back) in pages of
// arena memory, so the XS heap holds no string per memory: a string is made
// when one is read (a search's results, a save) and collected soon after.
// Where a slot's texts are is kept in the store's per-row fields (TextRefs,
// store-arrays.ts), so moving an entry to another slot moves no text.
// A page is appended to until a text no longer fits; freed texts leave
// holes, and a page whose texts are all freed is given back. When the holes
// outweigh the live texts, the emptiest page's texts move to the page being
// filled and that page is given back (compact).
import type { VectorArena } from "../../ports";
import { decodeUtf8, utf8Length } from "../../util/utf8";

/** Bytes of the first page; each further page held doubles it up to TEXT_PAGE_MAX_BYTES, so a small store takes little. */
export const TEXT_PAGE_MIN_BYTES = 2 * 1024;
/** Bytes of the largest page: offsets fit in 16 bits. A page is never smaller than the text it is made for. */
export const TEXT_PAGE_MAX_BYTES = 32 * 1024;

/** Where each slot's texts are: per-row fields of the store (store-arrays.ts). */
export interface TextRefs {
  textPage: Uint16Array;
  textOffset: Uint16Array;
  contentBytes: Uint16Array;
  sourceBytes: Uint8Array;
}

interface Page {
  memory: ArrayBuffer;
  size: number;
  bytes: Uint8Array;
  /** Bytes written so far (texts are appended at this offset). */
  used: number;
  /** Bytes of texts still referenced. */
  live: number;
}

export class TextPages {
  /** By page number; a page given back leaves a hole, filled by the next page made. */
  private readonly pages: Array<Page | undefined> = [];
  /** The page texts are appended to, or -1. */
  private current = -1;
  private liveBytes = 0;
  private usedBytes = 0;
  private encoder: InstanceType<typeof TextEncoder> | undefined;

  constructor(private readonly arena: VectorArena) {}

  /** Arena bytes the pages hold. */
  get bytes(): number {
    let n = 0;
    for (const page of this.pages) if (page) n += page.size;
    return n;
  }

  /**
   * Makes room for `length` more bytes of text in the page being filled, taking a new page when it has not
   * (throws the arena's HaloError "full" when it can't give one; nothing changes then).
   */
  private reserve(length: number): void {
    if (this.current >= 0) {
      const page = this.pages[this.current]!;
      if (page.used + length <= page.size) return;
    }
    let held = 0;
    for (const page of this.pages) if (page) held++;
    const size = Math.min(TEXT_PAGE_MAX_BYTES, Math.max(length, TEXT_PAGE_MIN_BYTES * 2 ** Math.min(held, 4)));
    const memory = this.arena.allocate(size);
    if (this.current >= 0 && this.pages[this.current]!.live === 0) this.drop(this.current);
    let at = this.pages.indexOf(undefined);
    if (at < 0) at = this.pages.length;
    this.pages[at] = { memory, size, bytes: new Uint8Array(memory, 0, size), used: 0, live: 0 };
    this.current = at;
  }

  /**
   * Makes room for an entry's texts (reserve): three bytes per UTF-16 unit when the page being filled has
   * that, else their exact UTF-8 length (counting is a loop in JS; most entries never need it).
   */
  reserveFor(content: string, source: string): void {
    const page = this.current >= 0 ? this.pages[this.current]! : undefined;
    if (page && page.used + 3 * (content.length + source.length) <= page.size) return;
    this.reserve(utf8Length(content) + utf8Length(source));
  }

  /** Writes `slot`'s texts into the page being filled; reserveFor(content, source) first. */
  put(refs: TextRefs, slot: number, content: string, source: string): void {
    const page = this.pages[this.current]!;
    this.encoder ??= new TextEncoder(); // made on first use: a preloaded module cannot make one while loading
    const encoder = this.encoder;
    const start = page.used;
    const contentLength = encoder.encodeInto(content, page.bytes.subarray(start)).written;
    const sourceLength = encoder.encodeInto(source, page.bytes.subarray(start + contentLength)).written;
    this.claim(page, contentLength + sourceLength);
    refs.textPage[slot] = this.current;
    refs.textOffset[slot] = start;
    refs.contentBytes[slot] = contentLength;
    refs.sourceBytes[slot] = sourceLength;
  }

  content(refs: TextRefs, slot: number): string {
    return decodeUtf8(this.contentUtf8(refs, slot));
  }

  source(refs: TextRefs, slot: number): string {
    return decodeUtf8(this.sourceUtf8(refs, slot));
  }

  /** The slot's content as UTF-8: a view of the page, valid until the store next changes. */
  contentUtf8(refs: TextRefs, slot: number): Uint8Array {
    const start = refs.textOffset[slot];
    return this.pages[refs.textPage[slot]]!.bytes.subarray(start, start + refs.contentBytes[slot]);
  }

  /** The slot's source label as UTF-8 (a view, as contentUtf8). */
  sourceUtf8(refs: TextRefs, slot: number): Uint8Array {
    const start = refs.textOffset[slot] + refs.contentBytes[slot];
    return this.pages[refs.textPage[slot]]!.bytes.subarray(start, start + refs.sourceBytes[slot]);
  }

  /** Frees `slot`'s texts (its refs are left as they are); gives its page back when nothing on it is live. */
  free(refs: TextRefs, slot: number): void {
    const number = refs.textPage[slot];
    const page = this.pages[number]!;
    const length = refs.contentBytes[slot] + refs.sourceBytes[slot];
    page.live -= length;
    this.liveBytes -= length;
    if (page.live > 0) return;
    if (number !== this.current) this.drop(number);
    else {
      this.usedBytes -= page.used; // nothing live: the page being filled starts over
      page.used = 0;
    }
  }

  /**
   * When the holes outweigh the live texts (and a page's worth), moves the texts of the emptiest pages
   * to the page being filled and gives those pages back. `refs` covers slots [0, count). Stops quietly
   * when the arena has no page to give: the texts stay readable where they are.
   */
  compact(refs: TextRefs, count: number): void {
    // Each round gives a page back; the bound is only a guard.
    for (
      let round = this.pages.length;
      round > 0 && this.usedBytes - this.liveBytes > Math.max(TEXT_PAGE_MAX_BYTES, this.liveBytes);
      round--
    ) {
      const emptiest = this.emptiestPage();
      if (emptiest < 0) return;
      const from = this.pages[emptiest]!;
      for (let slot = 0; slot < count; slot++) {
        if (refs.textPage[slot] !== emptiest) continue;
        const length = refs.contentBytes[slot] + refs.sourceBytes[slot];
        try {
          this.reserve(length);
        } catch {
          return;
        }
        const to = this.pages[this.current]!;
        const start = refs.textOffset[slot];
        to.bytes.set(from.bytes.subarray(start, start + length), to.used);
        refs.textPage[slot] = this.current;
        refs.textOffset[slot] = to.used;
        this.claim(to, length);
        from.live -= length;
        this.liveBytes -= length;
      }
      this.drop(emptiest);
    }
  }

  private claim(page: Page, length: number): void {
    page.used += length;
    page.live += length;
    this.usedBytes += length;
    this.liveBytes += length;
  }

  /** The page with the fewest live bytes, not the one being filled; -1 when there is none. */
  private emptiestPage(): number {
    let best = -1;
    for (let i = 0; i < this.pages.length; i++) {
      const page = this.pages[i];
      if (page && i !== this.current && (best < 0 || page.live < this.pages[best]!.live)) best = i;
    }
    return best;
  }

  /** Gives every page back (the store is being dropped); the pages are empty afterwards. */
  releaseAll(): void {
    for (let i = 0; i < this.pages.length; i++) if (this.pages[i]) this.drop(i);
  }

  private drop(number: number): void {
    const page = this.pages[number]!;
    this.usedBytes -= page.used;
    this.liveBytes -= page.live;
    this.pages[number] = undefined;
    this.arena.release(page.memory);
  }
}
