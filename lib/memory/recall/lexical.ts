// The lexical side of hybrid recall: a BM25-style inverted index over the
// stored texts, one per namespace, kept up to date as entries are added,
// replaced and removed (VectorStore indexes each entry as it stores it, so a
// boot builds the index as it reads the vector file). An exact word, name or
// number of a stored fact is found this way whatever the embedder makes of it.
//
// A fact's score for a query is the share of the query's idf mass it holds:
//   sum over query terms t in the fact of idf(t) x min(1, tf x (k1 + 1) / (tf + k1 x (1 - b + b x len / avglen)))
//   / sum over all query terms of idf(t),        idf(t) = ln(1 + (N - n + 0.5) / (n + 0.5))
// so it lies in [0, 1]: 1 when every query term is in the fact at least once
// at about the average length.
//
// The index lives in arena memory (ports.ts VectorArena: native memory on XS,
// outside the collected heap): per namespace a heap of term records and their
// postings, a term table and a docs region (lexicon-layout.ts). The work over
// them (tokenizing and hashing a text, probing the table, scoring) is the
// LexiconKernels port: C on XS, lexicon-ts.ts elsewhere. This file allocates
// and grows the regions; a region the arena refuses fails the add with its
// HaloError "full" and the index as it was.
import type { LexiconKernels, VectorArena } from "../../ports";
import { LEXICAL_MAX_QUERY_TERMS } from "../bounds";
import {
  D_CAPACITY,
  D_LIVE,
  D_TOTAL,
  DOC_LIMIT,
  docsBytes,
  docsHeader,
  DOCS_MIN,
  H_CAPACITY,
  H_GARBAGE,
  H_TOP,
  heapHeader,
  HEAP_MIN_WORDS,
  NEED_DOCS,
  NEED_TABLE,
  newDocs,
  newHeap,
  newTable,
  TABLE_HEADER_WORDS,
  TABLE_MIN_CELLS,
  tableCells,
} from "./lexicon-layout";
import { tsLexiconKernels } from "./lexicon-ts";
import { STOPWORDS, wordChar } from "./lexicon-tokens";

function pushTerm(word: string, out: string[]): void {
  if (STOPWORDS.has(word)) return;
  const n = word.length;
  if (n < 2 && !(word >= "0" && word <= "9")) return;
  out.push(n > 3 && word[n - 1] === "s" && !"sui".includes(word[n - 2]) ? word.slice(0, n - 1) : word);
}

/**
 * The index terms of `text`: lower-cased words and numbers, stopwords dropped, a plural "s" cut (not of
 * -ss, -us, -is). The definition, read from the string; the kernels read the same terms from the
 * lower-cased text's UTF-8 (lexicon-tokens.ts), at most LEXICAL_MAX_TERMS_PER_ENTRY distinct ones per entry.
 */
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

export interface LexicalHit {
  id: number;
  /** In [0, 1] (see the top of this file). */
  score: number;
}

/** One namespace's index: its three regions of arena memory (lexicon-layout.ts) and views of two headers. */
interface Lexicon {
  heap: ArrayBuffer;
  table: ArrayBuffer;
  docs: ArrayBuffer;
  heapHeader: Uint32Array;
  docsHeader: Uint32Array;
}

/** An arena of plain ArrayBuffers with no budget: what a LexicalIndex made on its own uses. */
export function heapArena(): VectorArena {
  let used = 0;
  return {
    budgetBytes: () => Number.MAX_SAFE_INTEGER,
    usedBytes: () => used,
    allocate(bytes: number): ArrayBuffer {
      used += bytes;
      return new ArrayBuffer(bytes);
    },
    release(memory: ArrayBuffer): void {
      used -= memory.byteLength;
    },
  };
}

export class LexicalIndex {
  private readonly lexicons = new Map<string, Lexicon>();
  /** Scratch of search(): the looked-up terms and their idfs. */
  private readonly looked = new Int32Array(2 * LEXICAL_MAX_QUERY_TERMS);
  private readonly idfs = new Float64Array(LEXICAL_MAX_QUERY_TERMS);

  constructor(
    private readonly arena: VectorArena = heapArena(),
    private readonly kernels: LexiconKernels = tsLexiconKernels,
  ) {}

  /** Whether `ns` has entries indexed. */
  has(ns: string): boolean {
    return this.lexicons.has(ns);
  }

  /** Arena bytes the index holds. */
  get bytes(): number {
    let n = 0;
    for (const l of this.lexicons.values())
      n += 4 * (l.heapHeader[H_CAPACITY] + TABLE_HEADER_WORDS + tableCells(l.table)) + docsBytes(l.docsHeader[D_CAPACITY]);
    return n;
  }

  /** Indexes the entry `id` of `ns`. Throws the arena's HaloError "full" when a region can't grow (nothing changes then). */
  add(ns: string, id: number, text: string): void {
    const lower = text.toLowerCase();
    const known = this.lexicons.get(ns);
    if (known) {
      this.fit(known, lower, id);
      return;
    }
    const l = this.create();
    try {
      this.fit(l, lower, id);
    } catch (e) {
      this.drop(l);
      throw e;
    }
    this.lexicons.set(ns, l);
  }

  /**
   * Removes the entry `id` of `ns`, whose text was `text` (its terms say which postings hold it). Never
   * fails: a namespace left empty gives its regions back, and a heap left half holes is compacted and,
   * when the arena gives the memory, moved to a smaller one.
   */
  remove(ns: string, id: number, text: string): void {
    const l = this.lexicons.get(ns);
    if (!l || this.kernels.remove(l.heap, l.table, l.docs, text.toLowerCase(), id) < 0) return;
    if (l.docsHeader[D_LIVE] === 0) {
      this.lexicons.delete(ns);
      this.drop(l);
    } else if (l.heapHeader[H_GARBAGE] * 2 >= l.heapHeader[H_CAPACITY] && l.heapHeader[H_CAPACITY] > HEAP_MIN_WORDS) this.shrink(l);
  }

  /**
   * The entry `id` of `ns` now reads `text` instead of `old`. The room for the new text is made first,
   * so a refusal (HaloError "full") leaves the entry indexed as it was.
   */
  replace(ns: string, id: number, old: string, text: string): void {
    const l = this.lexicons.get(ns);
    const lower = text.toLowerCase();
    if (!l) return this.add(ns, id, text);
    this.fit(l, lower, -1);
    // Unindexing frees a document number and never takes room, so the add fits what reserve made.
    if (this.kernels.remove(l.heap, l.table, l.docs, old.toLowerCase(), id) < 0) return this.add(ns, id, text);
    if (this.kernels.add(l.heap, l.table, l.docs, lower, id) < 0) throw new Error("the lexical index lost its room");
  }

  /** `ns`'s best `limit` entries for `query` (score > 0), best first, ties to the lower id. */
  search(ns: string, query: string, limit: number): LexicalHit[] {
    const l = this.lexicons.get(ns);
    if (!l || limit <= 0) return [];
    const { looked, idfs } = this;
    const count = this.kernels.lookup(l.heap, l.table, query.toLowerCase(), looked);
    const docs = l.docsHeader[D_LIVE];
    const average = l.docsHeader[D_TOTAL] / docs || 1;
    let mass = 0;
    for (let j = 0; j < count; j++) {
      const n = looked[2 * j + 1];
      idfs[j] = Math.log(1 + (docs - n + 0.5) / (n + 0.5));
      mass += idfs[j];
    }
    if (mass <= 0) return [];
    const out = new Float64Array(2 * limit);
    const found = this.kernels.score(l.heap, l.docs, looked, idfs, count, average, mass, limit, out);
    const hits: LexicalHit[] = [];
    for (let i = 0; i < found; i++) hits.push({ id: out[2 * i], score: out[2 * i + 1] });
    return hits;
  }

  /** `ns`'s regions (lexicon-layout.ts), for tests that read them; undefined when it has no entries. */
  regions(ns: string): { heap: ArrayBuffer; table: ArrayBuffer; docs: ArrayBuffer } | undefined {
    const l = this.lexicons.get(ns);
    return l && { heap: l.heap, table: l.table, docs: l.docs };
  }

  /** Compacts `l`'s heap and moves it to one half as large again as what it holds, if the arena gives that. */
  private shrink(l: Lexicon): void {
    this.kernels.compact(l.heap, l.table);
    const top = l.heapHeader[H_TOP];
    const words = Math.max(HEAP_MIN_WORDS, top + (top >> 1));
    if (words >= l.heapHeader[H_CAPACITY]) return;
    try {
      this.moveHeap(l, words);
    } catch {
      // The arena is short: the heap stays as large as it was, compacted.
    }
  }

  /** Moves `l`'s heap into new memory of `words` words (at least its top); throws the arena's refusal, `l` unchanged. */
  private moveHeap(l: Lexicon, words: number): void {
    const heap = newHeap(this.arena, words);
    const top = l.heapHeader[H_TOP];
    new Uint8Array(heap, 0, 4 * top).set(new Uint8Array(l.heap, 0, 4 * top));
    heapHeader(heap)[H_CAPACITY] = words;
    this.arena.release(l.heap);
    l.heap = heap;
    l.heapHeader = heapHeader(heap);
  }

  /** A new namespace's regions, at their smallest. */
  private create(): Lexicon {
    const heap = newHeap(this.arena, HEAP_MIN_WORDS);
    let table: ArrayBuffer | undefined;
    try {
      table = newTable(this.arena, TABLE_MIN_CELLS);
      const docs = newDocs(this.arena, DOCS_MIN);
      return { heap, table, docs, heapHeader: heapHeader(heap), docsHeader: docsHeader(docs) };
    } catch (e) {
      this.arena.release(heap);
      if (table) this.arena.release(table);
      throw e;
    }
  }

  /** Gives every namespace's regions back (the store is being dropped); the index is empty afterwards. */
  releaseAll(): void {
    for (const l of this.lexicons.values()) this.drop(l);
    this.lexicons.clear();
  }

  private drop(l: Lexicon): void {
    this.arena.release(l.heap);
    this.arena.release(l.table);
    this.arena.release(l.docs);
  }

  /**
   * Indexes `text` as the entry `id` (-1: reserves room for it as a replacement, kernels.reserve) once it
   * fits, giving `l` the room the kernel asks for first: a table
   * twice as large, a quarter more document numbers, or a heap compacted (when an eighth of it is holes)
   * or a quarter larger (at least what was asked). Growing copies into new memory and gives the old
   * back; the arena's refusal leaves `l` as it was, if larger.
   */
  private fit(l: Lexicon, text: string, id: number): number {
    let compacted = false;
    for (let round = 0; round < 16; round++) {
      const r = id < 0 ? this.kernels.reserve(l.heap, l.table, text) : this.kernels.add(l.heap, l.table, l.docs, text, id);
      if (r >= 0) return r;
      if (r === NEED_TABLE) {
        const table = newTable(this.arena, 2 * tableCells(l.table));
        this.kernels.rebuild(l.heap, table);
        this.arena.release(l.table);
        l.table = table;
      } else if (r === NEED_DOCS) {
        const capacity = l.docsHeader[D_CAPACITY];
        const docs = newDocs(this.arena, Math.min(DOC_LIMIT, capacity + Math.max(1, capacity >> 2)));
        this.kernels.moveDocs(l.docs, docs);
        this.arena.release(l.docs);
        l.docs = docs;
        l.docsHeader = docsHeader(docs);
      } else if (!compacted && l.heapHeader[H_GARBAGE] * 8 >= l.heapHeader[H_CAPACITY]) {
        this.kernels.compact(l.heap, l.table);
        compacted = true;
      } else {
        const capacity = l.heapHeader[H_CAPACITY];
        this.moveHeap(l, Math.max(-r, capacity + (capacity >> 2)));
      }
    }
    throw new Error("the lexical index found no room");
  }
}
