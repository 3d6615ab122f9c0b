// files.search ranking: BM25 (term frequency, saturated and length-normalised,
// weighted by how rare a term is) over the documents a caller may read. The
// counts come from the inverted index (search-index.ts) or, as the reference
// and for terms the index cannot count, from a scan that uses the engine's
// native lowerCase/indexOf and holds one document's text at a time.
import { DOCS_SNIPPET_CHARS, FILES_SEARCH_MAX_HITS } from "../limits";
import { clipForMessage, snippetAround } from "../util/text";
import type { ArtifactRecord } from "./artifact-index";

export interface SearchHit {
  record: ArtifactRecord;
  score: number;
  snippet: string;
}

/** What of a record is searched: its name, and a body (content, or an image's note) that snippets come from. */
export interface SearchText {
  name: string;
  body: string;
}

/** Returns the searchable text of a record, or undefined when it cannot be read. */
export type SearchTextReader = (record: ArtifactRecord) => SearchText | undefined;

const K1 = 1.2;
const B = 0.75;
/** Occurrences of one term counted per document; more add nothing to BM25's saturated score. */
const MAX_COUNT = 1000;

/** Per record and term, the count of word starts (records.length x terms.length), each record's length, and which records were read. */
export interface TermTable {
  counts: Uint16Array;
  lengths: Float64Array;
  present: Uint8Array;
}

/** The scan: reads every record's text and counts the terms in it. */
export function scanTerms(records: readonly ArtifactRecord[], terms: string[], read: SearchTextReader): TermTable {
  const t = terms.length;
  const table: TermTable = {
    counts: new Uint16Array(records.length * t),
    lengths: new Float64Array(records.length),
    present: new Uint8Array(records.length),
  };
  for (let i = 0; i < records.length; i++) {
    const text = read(records[i]);
    if (text === undefined) continue;
    const name = text.name.toLowerCase();
    const body = text.body.toLowerCase();
    table.lengths[i] = name.length + body.length;
    table.present[i] = 1;
    for (let j = 0; j < t; j++)
      table.counts[i * t + j] = Math.min(MAX_COUNT, countWordStarts(name, terms[j]) + countWordStarts(body, terms[j]));
  }
  return table;
}

/** files.search by scanning every record (the reference the index must agree with). */
export function searchArtifacts(records: readonly ArtifactRecord[], terms: string[], read: SearchTextReader): SearchHit[] {
  if (terms.length === 0 || records.length === 0) return [];
  return rankArtifacts(records, terms, scanTerms(records, terms, read), read);
}

/** BM25 over the records the table says were read; `read` is used only for the hits' snippets. */
export function rankArtifacts(records: readonly ArtifactRecord[], terms: string[], table: TermTable, read: SearchTextReader): SearchHit[] {
  const t = terms.length;
  const { counts, lengths, present } = table;
  const df = new Uint32Array(t);
  let totalLength = 0;
  let readable = 0;
  for (let i = 0, base = 0; i < records.length; i++, base += t) {
    if (!present[i]) continue;
    totalLength += lengths[i];
    readable++;
    for (let j = 0; j < t; j++) if (counts[base + j] > 0) df[j]++;
  }
  if (readable === 0) return [];
  const avg = totalLength / readable || 1;
  const idf = Array.from(df, (d) => Math.log(1 + (readable - d + 0.5) / (d + 0.5)));
  // The best FILES_SEARCH_MAX_HITS, kept in order as they come (no sort of every match): higher score, then
  // the newer file, then the earlier record. Once there are that many, a lower score than the last is
  // dropped without a call (the usual case over thousands of files).
  const scored: Array<{ index: number; score: number }> = [];
  let lowest = 0;
  for (let i = 0, base = 0; i < records.length; i++, base += t) {
    if (!present[i]) continue;
    let score = 0;
    const norm = K1 * (1 - B + (B * lengths[i]) / avg);
    for (let j = 0; j < t; j++) {
      const tf = counts[base + j];
      if (tf > 0) score += (idf[j] * tf * (K1 + 1)) / (tf + norm);
    }
    if (!(score > 0)) continue;
    if (scored.length === FILES_SEARCH_MAX_HITS && (score < lowest || !ranksBefore(records, i, score, scored[scored.length - 1]))) continue;
    if (scored.length === FILES_SEARCH_MAX_HITS) scored.pop();
    let at = scored.length;
    scored.push({ index: i, score });
    for (; at > 0 && ranksBefore(records, i, score, scored[at - 1]); at--) scored[at] = scored[at - 1];
    scored[at] = { index: i, score };
    lowest = scored[scored.length - 1].score;
  }
  return scored.map(({ index, score }) => {
    const record = records[index];
    const best = bestTerm(terms, idf, counts, index * t);
    const body = read(record)?.body || record.name;
    const snippet = clipForMessage(snippetAround(body, best, DOCS_SNIPPET_CHARS), DOCS_SNIPPET_CHARS + 2);
    return { record, score: Math.round(score * 1000) / 1000, snippet };
  });
}

/** Whether record `i` with `score` ranks before `other` (a record of a lower index). */
function ranksBefore(records: readonly ArtifactRecord[], i: number, score: number, other: { index: number; score: number }): boolean {
  if (score !== other.score) return score > other.score;
  return records[i].updated > records[other.index].updated;
}

/** The rarest term the document contains: its snippet centres on it. */
function bestTerm(terms: string[], idf: number[], counts: Uint16Array, base: number): string {
  let best = 0;
  for (let j = 1; j < terms.length; j++) if (counts[base + j] > 0 && (counts[base + best] === 0 || idf[j] > idf[best])) best = j;
  return terms[best];
}

/** Occurrences of `term` that start a word (so "run" finds "running" but not "brunch"). */
function countWordStarts(text: string, term: string): number {
  let n = 0;
  for (let at = text.indexOf(term); at >= 0 && n < MAX_COUNT; at = text.indexOf(term, at + term.length)) {
    if (at === 0 || !isWordChar(text.charCodeAt(at - 1))) n++;
  }
  return n;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}
