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
import type { Storage } from "../ports";
import { djb2, djb2Bytes } from "../util/hash";
import { decodeUtf8, encodeUtf8 } from "../util/utf8";
import { decodeRecords, encodeRecord } from "./record-log";

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

interface DocEntry {
  ref: string;
  updated: number;
  size: number;
  length: number;
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
  private readonly keyByRef = new Map<string, string>();
  /** Per bucket, how many of its bytes were checked (or written here) since the docs log was read. */
  private readonly verified = new Map<string, number>();
  private docsLines = 0;
  /** Bytes of the docs log as last read or written; -1 when nothing is loaded. */
  private docsBytes = -1;

  /** Forgets what is in memory (a card change): the next use reads the card again. */
  forget(): void {
    this.docs.clear();
    this.keyByRef.clear();
    this.verified.clear();
    this.docsBytes = -1;
  }

  /** Brings the index in line with the card (call before lengthOf). */
  open(card: Storage): void {
    this.load(card);
  }

  /** The indexed length of `key` when its document is current for (updated, size), else undefined. */
  lengthOf(key: string, updated: number, size: number): number | undefined {
    const doc = this.docs.get(key);
    return doc && doc.updated === updated && doc.size === size ? doc.length : undefined;
  }

  /** Indexes one file (replacing its earlier document); returns its length. */
  put(card: Storage, file: IndexedFile): number {
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
    this.setDoc(file.key, { ref, updated: file.updated, size: file.size, length });
    return length;
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
   * Per term, the count in each current document it occurs in (key -> count, at most
   * SEARCH_MAX_COUNT). Reads only the terms' buckets. Throws SearchIndexDamaged on a damaged line.
   */
  counts(card: Storage, terms: string[]): Array<Map<string, number>> {
    this.load(card);
    const out = terms.map(() => new Map<string, number>());
    const byBucket = new Map<string, number[]>();
    terms.forEach((term, j) => {
      for (const b of this.bucketsFor(card, term)) byBucket.set(b, [...(byBucket.get(b) ?? []), j]);
    });
    for (const [b, which] of byBucket) this.scanBucket(card, b, terms, which, out);
    return out;
  }

  private bucketsFor(card: Storage, term: string): string[] {
    if (term.length >= 2) return [bucketOf(term)];
    const first = bucketOf(term);
    return card.list(SEARCH_INDEX_DIR).filter((name) => name.length <= 2 && name[0] === first);
  }

  private scanBucket(card: Storage, bucket: string, terms: string[], which: number[], out: Array<Map<string, number>>): void {
    const path = `${SEARCH_INDEX_DIR}/${bucket}`;
    const bytes = card.read(path);
    if (!bytes) return;
    let verified = this.verified.get(bucket) ?? 0;
    if (verified > bytes.length) verified = 0;
    if (verified < bytes.length) verifyLines(bytes, verified, path);
    this.verified.set(bucket, bytes.length);
    // One native decode and split: XS indexes UTF-16 positions of a long string slowly.
    const lines = decodeUtf8(bytes).split("\n");
    lines.pop();
    const seen = new Set<string>();
    const needles = which.map((j) => " " + terms[j]);
    for (const line of lines) {
      const idEnd = line.indexOf(" ", 11);
      const ref = idEnd < 0 ? line.slice(11) : line.slice(11, idEnd);
      const key = this.keyByRef.get(ref);
      if (key === undefined || seen.has(ref)) continue;
      seen.add(ref);
      // Each " <term>" found starts a word field (a count follows a colon), so the word starts with the term.
      needles.forEach((needle, n) => {
        const map = out[which[n]];
        for (let at = line.indexOf(needle, idEnd); at >= 0; at = line.indexOf(needle, at + 1)) {
          const colon = line.indexOf(":", at);
          const end = line.indexOf(" ", colon);
          const count = Number(end < 0 ? line.slice(colon + 1) : line.slice(colon + 1, end));
          map.set(key, Math.min(SEARCH_MAX_COUNT, (map.get(key) ?? 0) + count));
        }
      });
    }
    if (lines.length > BUCKET_COMPACT_MIN_LINES && seen.size * 2 < lines.length) this.compactBucket(card, path, lines);
  }

  /** Rewrites a bucket with only its current documents' lines (temp + rename). */
  private compactBucket(card: Storage, path: string, lines: string[]): void {
    const seen = new Set<string>();
    const kept: string[] = [];
    for (const line of lines) {
      const idEnd = line.indexOf(" ", 11);
      const ref = idEnd < 0 ? line.slice(11) : line.slice(11, idEnd);
      if (!this.keyByRef.has(ref) || seen.has(ref)) continue;
      seen.add(ref);
      kept.push(line + "\n");
    }
    const bytes = encodeUtf8(kept.join(""));
    card.writeAtomic(path, bytes);
    this.verified.set(path.slice(SEARCH_INDEX_DIR.length + 1), bytes.length);
  }

  /** Reads the docs log on first use and whenever it is not the one last seen (another writer, another card). */
  private load(card: Storage): void {
    const stat = card.stat(DOCS_PATH);
    const size = stat ? stat.size : 0;
    if (size === this.docsBytes) return;
    this.docs.clear();
    this.keyByRef.clear();
    this.verified.clear();
    this.docsBytes = -1;
    const bytes = size > 0 ? card.read(DOCS_PATH) : undefined;
    const decoded = decodeRecords(bytes ? decodeUtf8(bytes) : "");
    if (decoded.torn) throw new SearchIndexDamaged(`${DOCS_PATH}: torn record`);
    for (const r of decoded.records as Array<{ t: string; r: string; k: string; u: number; s: number; n: number }>) {
      if (r.t === "doc" && typeof r.k === "string" && typeof r.r === "string")
        this.setDoc(r.k, { ref: r.r, updated: r.u, size: r.s, length: r.n });
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

  private setDoc(key: string, doc: DocEntry): void {
    this.unsetDoc(key);
    this.docs.set(key, doc);
    this.keyByRef.set(doc.ref, key);
  }

  private unsetDoc(key: string): void {
    const old = this.docs.get(key);
    if (!old) return;
    this.docs.delete(key);
    this.keyByRef.delete(old.ref);
  }
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
