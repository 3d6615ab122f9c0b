// The lexical side of hybrid recall: a BM25-style inverted index over the
// stored texts, one per namespace, kept up to date as entries are added and
// removed (VectorStore calls add/remove). An exact word, name or number of a
// stored fact is found this way whatever the embedder makes of it.
//
// A fact's score for a query is the share of the query's idf mass it holds:
//   sum over query terms t in the fact of idf(t) x min(1, tf x (k1 + 1) / (tf + k1 x (1 - b + b x len / avglen)))
//   / sum over all query terms of idf(t),        idf(t) = ln(1 + (N - n + 0.5) / (n + 0.5))
// so it lies in [0, 1]: 1 when every query term is in the fact at least once
// at about the average length.
import { LEXICAL_MAX_TERMS_PER_ENTRY, LEXICAL_MAX_QUERY_TERMS } from "../bounds";

const K1 = 1.2;
const B = 0.75;
/** Words too common to tell facts apart (English; the idf would shrink them anyway). */
const STOPWORDS = new Set(
  (
    "a an and are as at be been but by did do does for from had has have he her his i in is it its me my of on or our " +
    "she so that the their them there they this to was we were what when where which who why will with you your"
  ).split(" "),
);

/** The index terms of `text`: lower-cased words and numbers, stopwords dropped, a plural "s" cut (not of -ss, -us, -is). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const match of text
    .toLowerCase()
    .match(/[a-z0-9\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]+/g) ?? []) {
    if (STOPWORDS.has(match)) continue;
    if (match.length < 2 && !(match >= "0" && match <= "9")) continue;
    const n = match.length;
    out.push(n > 3 && match[n - 1] === "s" && !"sui".includes(match[n - 2]) ? match.slice(0, n - 1) : match);
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

/** One namespace's index. */
class Lexicon {
  /** Entry id -> its length in terms. */
  readonly lengths = new Map<number, number>();
  /** Term -> (entry id -> occurrences). */
  readonly postings = new Map<string, Map<number, number>>();
  totalLength = 0;
}

export interface LexicalHit {
  id: number;
  /** In [0, 1] (see the top of this file). */
  score: number;
}

export class LexicalIndex {
  private readonly lexicons = new Map<string, Lexicon>();

  add(ns: string, id: number, text: string): void {
    let lexicon = this.lexicons.get(ns);
    if (!lexicon) {
      lexicon = new Lexicon();
      this.lexicons.set(ns, lexicon);
    }
    if (lexicon.lengths.has(id)) throw new Error("entry indexed twice");
    const { counts, length } = countTerms(text);
    lexicon.lengths.set(id, length);
    lexicon.totalLength += length;
    for (const [term, tf] of counts) {
      let posting = lexicon.postings.get(term);
      if (!posting) {
        posting = new Map();
        lexicon.postings.set(term, posting);
      }
      posting.set(id, tf);
    }
  }

  /** Removes the entry `id` of `ns`, whose text was `text` (its terms say which postings hold it). */
  remove(ns: string, id: number, text: string): void {
    const lexicon = this.lexicons.get(ns);
    const length = lexicon?.lengths.get(id);
    if (!lexicon || length === undefined) return;
    lexicon.lengths.delete(id);
    lexicon.totalLength -= length;
    for (const term of countTerms(text).counts.keys()) {
      const posting = lexicon.postings.get(term);
      if (posting?.delete(id) && posting.size === 0) lexicon.postings.delete(term);
    }
    if (lexicon.lengths.size === 0) this.lexicons.delete(ns);
  }

  /** `ns`'s best `limit` entries for `query` (score > 0), best first, ties to the lower id. */
  search(ns: string, query: string, limit: number): LexicalHit[] {
    const lexicon = this.lexicons.get(ns);
    if (!lexicon) return [];
    const queryTerms = [...new Set(terms(query))].slice(0, LEXICAL_MAX_QUERY_TERMS);
    const docs = lexicon.lengths.size;
    const average = lexicon.totalLength / docs || 1;
    const scores = new Map<number, number>();
    let mass = 0;
    for (const term of queryTerms) {
      const posting = lexicon.postings.get(term);
      const n = posting ? posting.size : 0;
      const idf = Math.log(1 + (docs - n + 0.5) / (n + 0.5));
      mass += idf;
      if (!posting) continue;
      for (const [id, tf] of posting) {
        const norm = K1 * (1 - B + (B * lexicon.lengths.get(id)!) / average);
        scores.set(id, (scores.get(id) ?? 0) + idf * Math.min(1, (tf * (K1 + 1)) / (tf + norm)));
      }
    }
    if (mass <= 0) return [];
    const hits: LexicalHit[] = [];
    for (const [id, score] of scores) hits.push({ id, score: score / mass });
    hits.sort((a, b) => b.score - a.score || a.id - b.id);
    return hits.slice(0, limit);
  }
}
