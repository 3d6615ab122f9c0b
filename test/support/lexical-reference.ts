// The lexical index as first written (a regex tokenizer and a Map per posting), kept as the
// reference the compact index (lib/memory/recall/lexical.ts) must agree with hit for hit,
// score for score. Not used by lib/.
const K1 = 1.2;
const B = 0.75;
const MAX_TERMS_PER_ENTRY = 64;
const MAX_QUERY_TERMS = 32;
const STOPWORDS = new Set(
  (
    "a an and are as at be been but by did do does for from had has have he her his i in is it its me my of on or our " +
    "she so that the their them there they this to was we were what when where which who why will with you your"
  ).split(" "),
);

export function referenceTerms(text: string): string[] {
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

function countTerms(text: string): { counts: Map<string, number>; length: number } {
  const counts = new Map<string, number>();
  let length = 0;
  for (const term of referenceTerms(text)) {
    const seen = counts.get(term);
    if (seen === undefined && counts.size >= MAX_TERMS_PER_ENTRY) continue;
    counts.set(term, (seen ?? 0) + 1);
    length++;
  }
  return { counts, length };
}

interface Lexicon {
  lengths: Map<number, number>;
  postings: Map<string, Map<number, number>>;
  totalLength: number;
}

export class ReferenceLexicalIndex {
  private readonly lexicons = new Map<string, Lexicon>();

  add(ns: string, id: number, text: string): void {
    let lexicon = this.lexicons.get(ns);
    if (!lexicon) {
      lexicon = { lengths: new Map(), postings: new Map(), totalLength: 0 };
      this.lexicons.set(ns, lexicon);
    }
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

  search(ns: string, query: string, limit: number): Array<{ id: number; score: number }> {
    const lexicon = this.lexicons.get(ns);
    if (!lexicon) return [];
    const queryTerms = [...new Set(referenceTerms(query))].slice(0, MAX_QUERY_TERMS);
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
    const hits: Array<{ id: number; score: number }> = [];
    for (const [id, score] of scores) hits.push({ id, score: score / mass });
    hits.sort((a, b) => b.score - a.score || a.id - b.id);
    return hits.slice(0, limit);
  }
}
