// The inverted index behind files.search, on the card under files/.sx/:
//
//   docs      record log (record-log.ts) of {t:"doc",r,k,u,s,n} / {t:"del",k}: which document (its
//             reference r) holds which file (key, its updated time and size) and its length
//   <bucket>  one line per (document, bucket): "<check> <r> <word>:<count> <word>:<count>...", the check
//             being djb2 over the line's bytes after it, as 10 decimal digits
//             for the document's words whose first two characters map to that bucket (bucketOf)
//
// A file is indexed as its bucket lines, then its "doc" record (the commit). A reference names the
// content: djb2 of the key, the updated time and djb2 of the text, so lines of a save that never
// committed, or of an older version, match no current document (or the same text), and a lost or
// cut docs log can never attribute a line to the wrong file. Repeated lines count once. The files are
// the truth: a file with no current document, or one whose time or size changed, is indexed again
// from its text at the next search; a damaged line anywhere drops the whole index, which is then
// rebuilt from the files. So a torn or lost index costs a rebuild, never a file or a wrong count.
//
// Counts follow the scan (artifact-search.ts) exactly: a word is a maximal run of [0-9a-z_] or any
// character above U+007F in the lower-cased text, a query term counts the words it starts, and a
// document's length is its lower-cased name's plus body's length in UTF-16 units.
//
// In memory each current document has a small numeric id (searches count into typed arrays by id), and
// the decoded postings of the last query terms are kept (postings-cache.ts) while their bucket keeps its
// size and the set of documents is unchanged (the generation).
import type { Storage } from "../ports";
import { djb2, djb2Bytes } from "../util/hash";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";
import { PostingsCache, type Postings } from "./postings-cache";
import { decodeRecords, encodeRecord } from "./record-log";

export type { Postings } from "./postings-cache";

export const SEARCH_INDEX_DIR = "files/.sx";
const DOCS_PATH = `${SEARCH_INDEX_DIR}/docs`;
/** Occurrences of one term counted per document (the scan's bound). */
export const SEARCH_MAX_COUNT = 1000;
/** A bucket is rewritten without dead lines when it holds more than this many and most are dead. */
const BUCKET_COMPACT_MIN_LINES = 64;
/** The docs log is rewritten once it holds this many more lines than live documents. */
const DOCS_COMPACT_SLACK_LINES = 256;

/** What a file is indexed as: its key, version (updated, size), and searchable name and body. */
export interface IndexedFile {
  key: string;
  updated: number;
  size: number;
  name: string;
  body: string;
}

/** A current document as a search sees it: a small id (reused once freed) and its length. */
export interface IndexedDoc {
  readonly id: number;
  readonly length: number;
}

interface DocEntry extends IndexedDoc {
  ref: string;
  updated: number;
  size: number;
}

/** Thrown when a bucket or the docs log is damaged: the caller drops the index and rebuilds it. */
export class SearchIndexDamaged extends Error {}

/** The bucket of a word or of a term of at least two characters: its first two characters, non-[0-9a-z_] as "~". */
export function bucketOf(word: string): string {
  let key = "";
  for (let i = 0; i < 2 && i < word.length; i++) {
    const c = word.charCodeAt(i);
    key += (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c === 95 ? word[i] : "~";
  }
  return key;
}

/** Whether the index can count `term` as the scan does: it must be one word (no "-"). */
export function indexable(term: string): boolean {
  const words = term.match(/[0-9a-z_\u0080-\uffff]+/g);
  return words !== null && words.length === 1 && words[0] === term;
}

export class SearchIndex {
  private readonly docs = new Map<string, DocEntry>();
  private readonly byRef = new Map<string, DocEntry>();
  /** Ids of removed documents, handed out again (so ids stay below the most documents ever held at once). */
  private readonly freeIds: number[] = [];
  private idCount = 0;
  /** Bumped whenever the set of current documents changes: cached postings of an older generation are stale. */
  private docsGeneration = 0;
  private readonly cache = new PostingsCache();
  /** Per bucket, how many of its bytes were checked (or written here) since the docs log was read. */
  private readonly verified = new Map<string, number>();
  private docsLines = 0;
  /** Bytes of the docs log as last read or written; -1 when nothing is loaded. */
  private docsBytes = -1;

  /** Forgets what is in memory (a card change): the next use reads the card again. */
  forget(): void {
    this.clearDocs();
    this.verified.clear();
    this.docsBytes = -1;
  }

  /** Brings the index in line with the card (call before find). */
  open(card: Storage): void {
    this.load(card);
  }

  /** Changes whenever the set of current documents does (a put, a remove, a reload). */
  get generation(): number {
    return this.docsGeneration;
  }

  /** Every document id is below this. */
  get idLimit(): number {
    return this.idCount;
  }

  /** The document of `key` when it is current for (updated, size), else undefined. */
  find(key: string, updated: number, size: number): IndexedDoc | undefined {
    const doc = this.docs.get(key);
    return doc && doc.updated === updated && doc.size === size ? doc : undefined;
  }

  /** Indexes one file (replacing its earlier document); returns its document. */
  put(card: Storage, file: IndexedFile): IndexedDoc {
    this.load(card);
    const lowered = file.name.toLowerCase();
    const body = file.body.toLowerCase();
    const ref =
      djb2(file.key).toString(36) + "." + file.updated.toString(36) + "." + djb2Bytes(encodeUtf8(lowered + "\n" + body)).toString(36);
    const counts = new Map<string, number>();
    for (const text of [lowered, body])
      for (const w of text.match(/[0-9a-z_\u0080-\uffff]+/g) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
    const buckets = new Map<string, string>();
    for (const [word, count] of counts) {
      const b = bucketOf(word);
      buckets.set(b, (buckets.get(b) ?? ref) + ` ${word}:${Math.min(count, SEARCH_MAX_COUNT)}`);
    }
    for (const [b, payload] of buckets) {
      const line = encodeUtf8(`0000000000 ${payload}\n`);
      line.set(encodeUtf8(checkOf(line, 11, line.length - 1)), 0);
      card.append(`${SEARCH_INDEX_DIR}/${b}`, line);
      // Lines this index wrote need no check; a bucket another writer touched is checked whole (load() clears this).
      const verified = this.verified.get(b);
      if (verified !== undefined) this.verified.set(b, verified + line.length);
    }
    const length = lowered.length + body.length;
    this.appendDocs(card, { t: "doc", r: ref, k: file.key, u: file.updated, s: file.size, n: length });
    return this.setDoc(file.key, ref, file.updated, file.size, length);
  }

  /** Drops a file's document (its lines become dead and go at the next compaction of their buckets). */
  remove(card: Storage, key: string): void {
    this.load(card);
    if (!this.docs.has(key)) return;
    this.appendDocs(card, { t: "del", k: key });
    this.unsetDoc(key);
  }

  /** Drops the whole index from the card and from memory (damage): it is rebuilt from the files. */
  reset(card: Storage): void {
    for (const name of card.list(SEARCH_INDEX_DIR)) card.remove(`${SEARCH_INDEX_DIR}/${name}`);
    this.forget();
  }

  /**
   * Per term, the current documents it occurs in and its count in each (at most SEARCH_MAX_COUNT).
   * Reads only the terms' buckets, and none whose decoded postings are cached and still current (a
   * stat says the bucket kept its size). Throws SearchIndexDamaged on a damaged line.
   */
  postings(card: Storage, terms: string[]): Postings[] {
    this.load(card);
    const out: Array<Postings | undefined> = [];
    /** Per term not cached, its counts per document id while its buckets are read. */
    const sums = new Map<number, Uint16Array>();
    /** Per bucket to read, the terms (indexes) it is read for. */
    const byBucket = new Map<string, number[]>();
    for (let j = 0; j < terms.length; j++) {
      const term = terms[j];
      if (term.length >= 2) {
        const stat = card.stat(`${SEARCH_INDEX_DIR}/${bucketOf(term)}`);
        const cached = this.cache.get(term, stat ? stat.size : 0, this.docsGeneration);
        if (cached !== undefined) {
          out.push(cached);
          continue;
        }
      }
      out.push(undefined);
      sums.set(j, new Uint16Array(this.idCount));
      for (const b of this.bucketsFor(card, term)) {
        const which = byBucket.get(b);
        if (which) which.push(j);
        else byBucket.set(b, [j]);
      }
    }
    if (sums.size === 0) return out as Postings[];
    const sizes = new Map<string, number>();
    for (const [b, which] of byBucket) {
      const needles = which.map((j) => " " + terms[j]);
      const tallies = which.map((j) => sums.get(j)!);
      sizes.set(b, this.scanBucket(card, b, needles, tallies));
    }
    for (const [j, sum] of sums) {
      const postings = postingsOf(sum);
      out[j] = postings;
      // A term of one character reads every bucket it may start: left out of the cache.
      if (terms[j].length >= 2) this.cache.set(terms[j], postings, sizes.get(bucketOf(terms[j])) ?? 0, this.docsGeneration);
    }
    return out as Postings[]; // every term not cached was read above
  }

  private bucketsFor(card: Storage, term: string): string[] {
    if (term.length >= 2) return [bucketOf(term)];
    const first = bucketOf(term);
    return card.list(SEARCH_INDEX_DIR).filter((name) => name.length <= 2 && name[0] === first);
  }

  /**
   * Adds to tallies[n][id] the counts of the words that needles[n] (" " + term) starts, in each current
   * document's line of `bucket` (the first line of a document only). Returns the bucket's size after.
   */
  private scanBucket(card: Storage, bucket: string, needles: string[], tallies: Uint16Array[]): number {
    const path = `${SEARCH_INDEX_DIR}/${bucket}`;
    const bytes = card.read(path);
    if (!bytes) return 0;
    let verified = this.verified.get(bucket) ?? 0;
    if (verified > bytes.length) verified = 0;
    if (verified < bytes.length) verifyLines(bytes, verified, path);
    this.verified.set(bucket, bytes.length);
    // One native decode and split, then short lines: XS finds a UTF-16 position in a long string by
    // walking it, so indexOf from a position in the whole bucket costs as much as the bucket.
    const lines = decodeUtf8(bytes).split("\n");
    lines.pop();
    const seen = new Uint8Array(this.idCount);
    let live = 0;
    for (let l = 0; l < lines.length; l++) {
      const line = lines[l];
      const idEnd = line.indexOf(" ", 11);
      const doc = this.byRef.get(idEnd < 0 ? line.slice(11) : line.slice(11, idEnd));
      if (doc === undefined || seen[doc.id] === 1) continue;
      seen[doc.id] = 1;
      live++;
      // Each " <term>" found starts a word field (a count follows a colon), so the word starts with the term.
      for (let n = 0; n < needles.length; n++) {
        const tally = tallies[n];
        for (let at = line.indexOf(needles[n], idEnd); at >= 0; at = line.indexOf(needles[n], at + 1)) {
          // The count's digits follow the word's colon; parseInt stops at the space after them.
          const count = parseInt(line.slice(line.indexOf(":", at) + 1), 10);
          tally[doc.id] = Math.min(SEARCH_MAX_COUNT, tally[doc.id] + count);
        }
      }
    }
    if (lines.length > BUCKET_COMPACT_MIN_LINES && live * 2 < lines.length) return this.compactBucket(card, path, lines);
    return bytes.length;
  }

  /** Rewrites a bucket with only its current documents' lines (temp + rename); returns its new size. */
  private compactBucket(card: Storage, path: string, lines: string[]): number {
    const seen = new Set<string>();
    const kept: string[] = [];
    for (const line of lines) {
      const idEnd = line.indexOf(" ", 11);
      const ref = idEnd < 0 ? line.slice(11) : line.slice(11, idEnd);
      if (!this.byRef.has(ref) || seen.has(ref)) continue;
      seen.add(ref);
      kept.push(line + "\n");
    }
    const bytes = encodeUtf8(kept.join(""));
    card.writeAtomic(path, bytes);
    this.verified.set(path.slice(SEARCH_INDEX_DIR.length + 1), bytes.length);
    return bytes.length;
  }

  /** Reads the docs log on first use and whenever it is not the one last seen (another writer, another card). */
  private load(card: Storage): void {
    const stat = card.stat(DOCS_PATH);
    const size = stat ? stat.size : 0;
    if (size === this.docsBytes) return;
    this.clearDocs();
    this.verified.clear();
    this.docsBytes = -1;
    const bytes = size > 0 ? card.read(DOCS_PATH) : undefined;
    const decoded = decodeRecords(bytes ? decodeUtf8(bytes) : "");
    if (decoded.torn) throw new SearchIndexDamaged(`${DOCS_PATH}: torn record`);
    for (const r of decoded.records as Array<{ t: string; r: string; k: string; u: number; s: number; n: number }>) {
      if (r.t === "doc" && typeof r.k === "string" && typeof r.r === "string") this.setDoc(r.k, r.r, r.u, r.s, r.n);
      else if (r.t === "del" && typeof r.k === "string") this.unsetDoc(r.k);
    }
    this.docsLines = decoded.records.length;
    this.docsBytes = size;
  }

  private appendDocs(card: Storage, record: object): void {
    const line = encodeUtf8(encodeRecord(record));
    try {
      card.append(DOCS_PATH, line);
    } catch (e) {
      this.forget();
      throw e;
    }
    this.docsBytes += line.length;
    this.docsLines++;
    if (this.docsLines > 2 * this.docs.size + DOCS_COMPACT_SLACK_LINES) {
      let text = "";
      for (const [k, d] of this.docs) text += encodeRecord({ t: "doc", r: d.ref, k, u: d.updated, s: d.size, n: d.length });
      const bytes = encodeUtf8(text);
      card.writeAtomic(DOCS_PATH, bytes);
      this.docsBytes = bytes.length;
      this.docsLines = this.docs.size;
    }
  }

  private setDoc(key: string, ref: string, updated: number, size: number, length: number): DocEntry {
    this.unsetDoc(key);
    const doc: DocEntry = { id: this.freeIds.pop() ?? this.idCount++, ref, updated, size, length };
    this.docs.set(key, doc);
    this.byRef.set(ref, doc);
    this.docsGeneration++;
    return doc;
  }

  private unsetDoc(key: string): void {
    const old = this.docs.get(key);
    if (!old) return;
    this.docs.delete(key);
    this.byRef.delete(old.ref);
    this.freeIds.push(old.id);
    this.docsGeneration++;
  }

  private clearDocs(): void {
    this.docs.clear();
    this.byRef.clear();
    this.freeIds.length = 0;
    this.idCount = 0;
    this.docsGeneration++;
    this.cache.clear();
  }
}

/** The nonzero entries of per-id counts, as postings. */
function postingsOf(sum: Uint16Array): Postings {
  let size = 0;
  for (let id = 0; id < sum.length; id++) if (sum[id] > 0) size++;
  const postings: Postings = { ids: new Int32Array(size), counts: new Uint16Array(size), size: 0 };
  for (let id = 0; id < sum.length; id++) {
    if (sum[id] === 0) continue;
    postings.ids[postings.size] = id;
    postings.counts[postings.size++] = sum[id];
  }
  return postings;
}

/** djb2 of bytes[start, end) as 10 decimal digits (bytes, not a string: XS indexes long strings slowly). */
function checkOf(bytes: Uint8Array, start: number, end: number): string {
  return String(djb2Bytes(bytes, start, end)).padStart(10, "0");
}

/** Throws SearchIndexDamaged unless every line from byte `from` ends in a newline and passes its check. */
function verifyLines(bytes: Uint8Array, from: number, path: string): void {
  for (let at = from; at < bytes.length;) {
    const end = bytes.indexOf(10, at);
    if (end < 0 || end < at + 11 || bytes[at + 10] !== 32) throw new SearchIndexDamaged(`${path}: torn or bad line`);
    if (decodeUtf8(bytes.subarray(at, at + 10)) !== checkOf(bytes, at + 11, end)) throw new SearchIndexDamaged(`${path}: bad check`);
    at = end + 1;
  }
}
