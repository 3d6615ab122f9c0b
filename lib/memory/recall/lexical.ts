// The lexical side of hybrid recall: a BM25-style inverted index over the
// stored texts, one per namespace, kept up to date as entries are added and
// removed. An exact word, name or number of a stored fact is found this way
// whatever the embedder makes of it. VectorStore builds a namespace's index on
// its first search (nothing is tokenized at boot) and keeps it from then on.
//
// A fact's score for a query is the share of the query's idf mass it holds:
//   sum over query terms t in the fact of idf(t) x min(1, tf x (k1 + 1) / (tf + k1 x (1 - b + b x len / avglen)))
//   / sum over all query terms of idf(t),        idf(t) = ln(1 + (N - n + 0.5) / (n + 0.5))
// so it lies in [0, 1]: 1 when every query term is in the fact at least once
// at about the average length.
//
// Layout (XS runs this: no regex, no Map per posting or per entry): each
// indexed entry has a dense document number, its id and length in typed
// arrays and id -> number in an open-addressing table (slot-table.ts); a
// term's posting is one packed number (doc x 65536 + tf) while a single entry
// holds it, else a Uint32Array of them.
import { LEXICAL_MAX_TERMS_PER_ENTRY, LEXICAL_MAX_QUERY_TERMS } from "../bounds";
import { deleteSlot, findSlot, setSlot, SLOT_TABLE_CELLS } from "../store/slot-table";

const K1 = 1.2;
const B = 0.75;
/** tf lives in a packed posting's low 16 bits (a stored text is at most 2,000 bytes, so it never reaches it). */
const TF_BITS = 65536;
/** Words too common to tell facts apart (English; the idf would shrink them anyway). */
const STOPWORDS = new Set(
  (
    "a an and are as at be been but by did do does for from had has have he her his i in is it its me my of on or our " +
    "she so that the their them there they this to was we were what when where which who why will with you your"
  ).split(" "),
);

/** Whether a lower-cased UTF-16 unit is part of a word: [a-z0-9], Latin, Greek, Cyrillic, kana, CJK, Hangul. */
function wordChar(c: number): boolean {
  if (c < 0xc0) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  return (
    c <= 0x24f || (c >= 0x370 && c <= 0x4ff) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af)
  );
}

function pushTerm(word: string, out: string[]): void {
  if (STOPWORDS.has(word)) return;
  const n = word.length;
  if (n < 2 && !(word >= "0" && word <= "9")) return;
  out.push(n > 3 && word[n - 1] === "s" && !"sui".includes(word[n - 2]) ? word.slice(0, n - 1) : word);
}

/** The index terms of `text`: lower-cased words and numbers, stopwords dropped, a plural "s" cut (not of -ss, -us, -is). */
export function terms(text: string): string[] {
  const out: string[] = [];
  // Split on spaces natively; only a piece with other non-word characters is walked (regexes are slow on XS).
  for (const piece of text.toLowerCase().split(" ")) {
    const n = piece.length;
    let start = 0;
    for (let i = 0; i < n; i++) {
      if (wordChar(piece.charCodeAt(i))) continue;
      if (i > start) pushTerm(piece.slice(start, i), out);
      start = i + 1;
    }
    if (n > start) pushTerm(start === 0 ? piece : piece.slice(start), out);
  }
  return out;
}

/** How often each term occurs in `text` (at most LEXICAL_MAX_TERMS_PER_ENTRY distinct ones) and how many terms it has. */
function countTerms(text: string): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  let length = 0;
  for (const term of terms(text)) {
    const seen = counts.get(term);
    if (seen === undefined && counts.size >= LEXICAL_MAX_TERMS_PER_ENTRY) continue;
    counts.set(term, (seen ?? 0) + 1);
    length++;
  }
  return { counts, length };
}

/** A term's entries, packed (doc x 65536 + tf), in `packed[0, size)`. */
interface Sparse {
  packed: Uint32Array;
  size: number;
}

/** A term most entries hold: its tf per document number (0: not there), and how many hold it. */
interface Dense {
  tf: Uint16Array;
  size: number;
}

/** A sparse posting of at least this many entries turns dense when more than half the entries hold its term. */
const DENSE_MIN = 64;

/** Document numbers the arrays of a new lexicon hold (doubled as needed). */
const FIRST_DOCS = 16;

/** One namespace's index. */
class Lexicon {
  /** Document number -> entry id, and -> its length in terms (-1: a free number); numbers [0, docCount) are in use. */
  ids = new Uint32Array(FIRST_DOCS);
  lengths = new Int32Array(FIRST_DOCS);
  docCount = 0;
  /** Free document numbers: a stack in [0, freeCount). */
  free = new Int32Array(FIRST_DOCS);
  freeCount = 0;
  /** Entries indexed. */
  live = 0;
  /** Entry id -> document number + 1 (slot-table.ts): SLOT_TABLE_CELLS cells per document number. */
  slotTable = new Int32Array(SLOT_TABLE_CELLS * FIRST_DOCS);
  /** Term -> its only entry, packed, or its posting. */
  readonly postings = new Map<string, number | Sparse | Dense>();
  totalLength = 0;
  /** Scratch of search(), kept between searches: candidate number + 1 per document (0 after each use), tf per candidate and query term. */
  candidateOf = new Int32Array(0);
  tfs = new Uint16Array(0);
}

export interface LexicalHit {
  id: number;
  /** In [0, 1] (see the top of this file). */
  score: number;
}

export class LexicalIndex {
  private readonly lexicons = new Map<string, Lexicon>();

  /** Whether `ns` has entries indexed. */
  has(ns: string): boolean {
    return this.lexicons.has(ns);
  }

  add(ns: string, id: number, text: string): void {
    let lexicon = this.lexicons.get(ns);
    if (!lexicon) {
      lexicon = new Lexicon();
      this.lexicons.set(ns, lexicon);
    }
    if (findSlot(lexicon, 0, id) >= 0) throw new Error("entry indexed twice");
    if (lexicon.freeCount === 0 && lexicon.docCount >= TF_BITS) throw new Error("too many entries for the lexical index");
    const { counts, length } = countTerms(text);
    if (lexicon.freeCount === 0 && lexicon.docCount === lexicon.ids.length) growDocs(lexicon);
    const doc = lexicon.freeCount > 0 ? lexicon.free[--lexicon.freeCount] : lexicon.docCount++;
    lexicon.ids[doc] = id;
    lexicon.lengths[doc] = length;
    setSlot(lexicon, 0, id, doc);
    lexicon.totalLength += length;
    const live = ++lexicon.live;
    for (const [term, tf] of counts) {
      const packed = doc * TF_BITS + tf;
      const posting = lexicon.postings.get(term);
      if (posting === undefined) lexicon.postings.set(term, packed);
      else if (typeof posting === "number") {
        const grown = new Uint32Array(4);
        grown[0] = posting;
        grown[1] = packed;
        lexicon.postings.set(term, { packed: grown, size: 2 });
      } else if ("tf" in posting) {
        if (doc >= posting.tf.length) posting.tf = grow16(posting.tf, lexicon.docCount * 2);
        posting.tf[doc] = tf;
        posting.size++;
      } else {
        if (posting.size === posting.packed.length) {
          const grown = new Uint32Array(posting.size * 2);
          grown.set(posting.packed);
          posting.packed = grown;
        }
        posting.packed[posting.size++] = packed;
        if (posting.size >= DENSE_MIN && posting.size * 2 > live) lexicon.postings.set(term, densify(posting, lexicon.docCount));
      }
    }
  }

  /** Removes the entry `id` of `ns`, whose text was `text` (its terms say which postings hold it). */
  remove(ns: string, id: number, text: string): void {
    const lexicon = this.lexicons.get(ns);
    const doc = lexicon ? findSlot(lexicon, 0, id) : -1;
    if (!lexicon || doc < 0) return;
    deleteSlot(lexicon, 0, id);
    lexicon.totalLength -= lexicon.lengths[doc];
    lexicon.lengths[doc] = -1;
    lexicon.free[lexicon.freeCount++] = doc;
    lexicon.live--;
    for (const term of countTerms(text).counts.keys()) {
      const posting = lexicon.postings.get(term);
      if (posting === undefined) continue;
      if (typeof posting === "number") {
        if (posting >>> 16 === doc) lexicon.postings.delete(term);
      } else if ("tf" in posting) {
        if (posting.tf[doc] === 0) continue;
        posting.tf[doc] = 0;
        // Back to a list once it would take less than a quarter of the dense array.
        if (--posting.size === 0) lexicon.postings.delete(term);
        else if (posting.size * 8 < posting.tf.length) lexicon.postings.set(term, sparsify(posting));
      } else {
        const { packed } = posting;
        for (let i = 0; i < posting.size; i++) {
          if (packed[i] >>> 16 !== doc) continue;
          packed[i] = packed[--posting.size];
          break;
        }
        if (posting.size === 1) lexicon.postings.set(term, packed[0]);
      }
    }
    if (lexicon.live === 0) this.lexicons.delete(ns);
  }

  /**
   * `ns`'s best `limit` entries for `query` (score > 0), best first, ties to the lower id.
   * The candidates are the entries of the query's listed (not dense) terms; a dense term's
   * tf is looked up for them. Only when an entry holding dense terms alone could still rank
   * (their idf sum reaches the last kept score) are all entries scored.
   */
  search(ns: string, query: string, limit: number): LexicalHit[] {
    const lexicon = this.lexicons.get(ns);
    if (!lexicon || limit <= 0) return [];
    const queryTerms = [...new Set(terms(query))].slice(0, LEXICAL_MAX_QUERY_TERMS);
    const t = queryTerms.length;
    const { ids, lengths, docCount } = lexicon;
    const docs = lexicon.live;
    const average = lexicon.totalLength / docs || 1;
    const postings: Array<number | Sparse | Dense | undefined> = [];
    const idfs: number[] = [];
    let mass = 0;
    let denseMass = 0;
    let listed = 0;
    for (const term of queryTerms) {
      const posting = lexicon.postings.get(term);
      const n = posting === undefined ? 0 : typeof posting === "number" ? 1 : posting.size;
      const idf = Math.log(1 + (docs - n + 0.5) / (n + 0.5));
      postings.push(posting);
      idfs.push(idf);
      mass += idf;
      if (posting !== undefined && typeof posting !== "number" && "tf" in posting) denseMass += idf;
      else listed += n;
    }
    if (mass <= 0) return [];
    if (lexicon.candidateOf.length < docCount) lexicon.candidateOf = new Int32Array(docCount + 64);
    if (lexicon.tfs.length < listed * t) lexicon.tfs = new Uint16Array(listed * t + 64);
    const { candidateOf, tfs } = lexicon;
    // The candidates and their tf per query term.
    const candidates: number[] = [];
    for (let j = 0; j < t; j++) {
      const posting = postings[j];
      if (posting === undefined) continue;
      if (typeof posting === "number") note(candidates, candidateOf, tfs, t, j, posting);
      else if (!("tf" in posting)) for (let i = 0; i < posting.size; i++) note(candidates, candidateOf, tfs, t, j, posting.packed[i]);
    }
    for (let j = 0; j < t; j++) {
      const posting = postings[j];
      if (posting === undefined || typeof posting === "number" || !("tf" in posting)) continue;
      for (let c = 0; c < candidates.length; c++) tfs[c * t + j] = posting.tf[candidates[c]];
    }
    const best: LexicalHit[] = [];
    // Each entry's score sums its terms in query order, as the definition reads (same sums, same ties).
    const score = (doc: number, base: number): number => {
      const norm = K1 * (1 - B + (B * lengths[doc]) / average);
      let sum = 0;
      for (let j = 0; j < t; j++) {
        const tf = base < 0 ? denseTf(postings[j], doc) : tfs[base + j];
        if (tf > 0) sum += idfs[j] * Math.min(1, (tf * (K1 + 1)) / (tf + norm));
      }
      return sum;
    };
    for (let c = 0; c < candidates.length; c++) {
      keep(best, limit, ids[candidates[c]], score(candidates[c], c * t) / mass);
      candidateOf[candidates[c]] = 0;
    }
    tfs.fill(0, 0, candidates.length * t);
    // An entry of dense terms alone scores at most their idf sum (a margin for rounding).
    if (denseMass > 0 && (best.length < limit || denseMass * (1 + 1e-9) >= best[limit - 1].score * mass)) {
      for (let c = 0; c < candidates.length; c++) candidateOf[candidates[c]] = -1;
      for (let doc = 0; doc < docCount; doc++) {
        if (lengths[doc] < 0 || candidateOf[doc] !== 0) continue;
        const sum = score(doc, -1);
        if (sum > 0) keep(best, limit, ids[doc], sum / mass);
      }
      for (let c = 0; c < candidates.length; c++) candidateOf[candidates[c]] = 0;
    }
    return best;
  }
}

/** Records a packed posting entry for query term `j`: its document becomes a candidate if it was not one. */
function note(candidates: number[], candidateOf: Int32Array, tfs: Uint16Array, t: number, j: number, packed: number): void {
  const doc = packed >>> 16;
  let c = candidateOf[doc] - 1;
  if (c < 0) {
    c = candidates.length;
    candidates.push(doc);
    candidateOf[doc] = c + 1;
  }
  tfs[c * t + j] = packed & 0xffff;
}

/** The tf of `doc` in a dense posting (0 for any other kind: the full pass scores dense terms only). */
function denseTf(posting: number | Sparse | Dense | undefined, doc: number): number {
  return posting !== undefined && typeof posting !== "number" && "tf" in posting && doc < posting.tf.length ? posting.tf[doc] : 0;
}

/** Inserts a hit into `best` (sorted, at most `limit`) if it ranks. */
function keep(best: LexicalHit[], limit: number, id: number, score: number): void {
  if (best.length === limit) {
    const last = best[limit - 1];
    if (!(score > last.score || (score === last.score && id < last.id))) return;
    best.pop();
  }
  const hit = { id, score };
  let at = best.length;
  best.push(hit);
  for (; at > 0 && better(hit, best[at - 1]); at--) best[at] = best[at - 1];
  best[at] = hit;
}

/** Twice the document numbers: the arrays copied, the id table rebuilt for its new size. */
function growDocs(lexicon: Lexicon): void {
  const size = lexicon.ids.length * 2;
  const ids = new Uint32Array(size);
  ids.set(lexicon.ids);
  const lengths = new Int32Array(size);
  lengths.set(lexicon.lengths);
  const free = new Int32Array(size);
  free.set(lexicon.free.subarray(0, lexicon.freeCount));
  lexicon.ids = ids;
  lexicon.lengths = lengths;
  lexicon.free = free;
  lexicon.slotTable = new Int32Array(SLOT_TABLE_CELLS * size);
  for (let doc = 0; doc < lexicon.docCount; doc++) if (lengths[doc] >= 0) setSlot(lexicon, 0, ids[doc], doc);
}

function grow16(a: Uint16Array, size: number): Uint16Array {
  const next = new Uint16Array(size);
  next.set(a);
  return next;
}

function densify(posting: Sparse, docNumbers: number): Dense {
  const tf = new Uint16Array(docNumbers + 64);
  for (let i = 0; i < posting.size; i++) tf[posting.packed[i] >>> 16] = posting.packed[i] & 0xffff;
  return { tf, size: posting.size };
}

function sparsify(posting: Dense): Sparse | number {
  const packed = new Uint32Array(Math.max(4, posting.size));
  let size = 0;
  for (let doc = 0; doc < posting.tf.length; doc++) if (posting.tf[doc] > 0) packed[size++] = doc * TF_BITS + posting.tf[doc];
  return size === 1 ? packed[0] : { packed, size };
}

/** Higher score first, ties to the lower id. */
function better(a: LexicalHit, b: LexicalHit): boolean {
  return a.score > b.score || (a.score === b.score && a.id < b.id);
}
