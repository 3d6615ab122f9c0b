// The decoded postings of the last few query terms, kept by the search index
// (search-index.ts) so that repeating a search reads no bucket: an entry holds
// while its bucket keeps the size it was decoded at (a stat, not a read) and
// the index's documents are unchanged (its generation). Bounded: at most
// POSTINGS_CACHE_TERMS terms, each at most 6 bytes per indexed document.

/** One term's postings: the ids of the current documents holding it and its count in each (`size` of each array). */
export interface Postings {
  ids: Int32Array;
  counts: Uint16Array;
  size: number;
}

/** Terms kept (a query has at most 8): 8 x 4,000 documents x 6 bytes is 192 KB at the device store's limit. */
export const POSTINGS_CACHE_TERMS = 8;

interface Entry {
  postings: Postings;
  bucketBytes: number;
  generation: number;
}

export class PostingsCache {
  /** In use order, oldest first (a hit moves its entry last). */
  private readonly entries = new Map<string, Entry>();

  /** The postings of `term` decoded from a bucket of `bucketBytes` at `generation`, else undefined. */
  get(term: string, bucketBytes: number, generation: number): Postings | undefined {
    const entry = this.entries.get(term);
    if (entry === undefined) return undefined;
    this.entries.delete(term);
    if (entry.bucketBytes !== bucketBytes || entry.generation !== generation) return undefined;
    this.entries.set(term, entry);
    return entry.postings;
  }

  set(term: string, postings: Postings, bucketBytes: number, generation: number): void {
    this.entries.delete(term);
    if (this.entries.size >= POSTINGS_CACHE_TERMS) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(term, { postings, bucketBytes, generation });
  }

  clear(): void {
    this.entries.clear();
  }
}
