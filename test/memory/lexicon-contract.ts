// The contract suite of the lexicon kernels (ports.ts LexiconKernels), run against every implementation:
// the TypeScript kernels on Node and on XS, the C kernels on XS over ArrayBuffers and over native arena
// memory. It imports nothing of Node, so the XS host runs it.
//
// Each case turns into one outcome line. A case passes when its outcome equals the expected one: the
// terms of the definition (lexical.ts terms()) for the tokenizer, the reference index
// (test/support/lexical-reference.ts) for the hits and scores, a literal for room codes and errors. The
// digest of every outcome (region bytes included) lets implementations and engines be compared.
import { LEXICAL_MAX_TERMS_PER_ENTRY } from "../../lib/memory/bounds.ts";
import { heapArena, LexicalIndex, terms } from "../../lib/memory/recall/lexical.ts";
import {
  D_COUNT,
  DOC_LIMIT,
  H_CAPACITY,
  H_TOP,
  HEAP_HEADER_WORDS,
  newDocs,
  newHeap,
  newTable,
  recordWords,
  TERM_MAX_BYTES,
} from "../../lib/memory/recall/lexicon-layout.ts";
import type { LexiconKernels, VectorArena } from "../../lib/ports.ts";
import { djb2Hex } from "../../lib/util/hash.ts";
import { dumpDocs, dumpTerms, regionsDigest, type Regions } from "./lexicon-dump.ts";
import { ReferenceLexicalIndex } from "../support/lexical-reference.ts";
import { mulberry32 } from "../support/prng.ts";

export interface CaseResult {
  name: string;
  outcome: string;
  expected: string;
  ok: boolean;
  digest: string;
}

export interface ContractReport {
  results: CaseResult[];
  failures: string[];
  digest: string;
}

interface Case {
  name: string;
  run: () => string;
  /** undefined: the outcome is compared across implementations only (region bytes). */
  expected?: string;
}

function outcomeOf(run: () => string): string {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof Error)) return `thrown ${String(error)}`;
    // The XS host's debug build prefixes native errors with the function's name.
    return `${error.name}:${error.message.replace(/^[\w$]+: /, "")}`;
  }
}

/** The index one text makes: its length and each term with its count, as the definition counts them. */
function definitionOf(text: string): string {
  const counts = new Map<string, number>();
  let length = 0;
  for (const word of terms(text)) {
    const term = word.length > TERM_MAX_BYTES ? word.slice(0, TERM_MAX_BYTES) : word; // ASCII in the cases
    const seen = counts.get(term);
    if (seen === undefined && counts.size >= LEXICAL_MAX_TERMS_PER_ENTRY) continue;
    counts.set(term, (seen ?? 0) + 1);
    length++;
  }
  const sorted = [...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `len ${length} | ${sorted.map(([t, n]) => `${t}=1:${n}`).join(" ")}`;
}

function indexed(r: Regions | undefined): string {
  if (!r) return "none";
  const docs = dumpDocs(r.docs);
  return `len ${docs.lengths.get(1)} | ${dumpTerms(r)
    .map((t) => `${t.term}=${t.postings.join(",")}`)
    .join(" ")}`;
}

const TEXTS = [
  "the ficus needs water",
  "Water the garden on Sunday, and the FICUS too!",
  "zoë's Straße: ключ 東京 서울 αβγ ÀÉÎ ×÷",
  "glass status taxis bicycles hers this its was does",
  "a 7 x 42 i9 q7 ab",
  "tab\tnew\nline-dash'quote\"comma,dot.end",
  "emoji😀between🎉words and ☃ snow",
  "lone \ud800 surrogate \udc00 here and nul\u0000byte",
  "Ⱥ Kelvin \u212a İstanbul ẞ",
  "repeat repeat repeat Repeat REPEATS",
  "a".repeat(3000) + " tail",
  Array.from({ length: 70 }, (_, i) => `w${i}`).join(" ") + " w1 w69 w2",
  "",
  "... --- !!!",
];

function tokenCases(kernels: LexiconKernels, arena: VectorArena): Case[] {
  return TEXTS.map((text, i) => ({
    name: `terms ${i}`,
    run: () => {
      const index = new LexicalIndex(arena, kernels);
      index.add("n", 1, text);
      return indexed(index.regions("n"));
    },
    expected: definitionOf(text),
  }));
}

/** Hits to 9 places, in that order (ties by id): Math.log may differ in the last bit between engines, and so the order of near ties. */
function rounded(hits: Array<{ id: number; score: number }>): string {
  const shown = hits.map((h) => ({ id: h.id, score: h.score.toFixed(9) }));
  shown.sort((a, b) => (a.score === b.score ? a.id - b.id : a.score < b.score ? 1 : -1));
  return shown.map((h) => `${h.id}:${h.score}`).join(" ");
}

/** Seeded adds, removes, replaces and searches against the reference; one case per search, and the region bytes. */
function scoreCases(kernels: LexiconKernels, arena: VectorArena): Case[] {
  const prng = mulberry32(2712);
  const words = ["note", "today", "garden", "dentist", "ficus", "zoë's", "ключ", "東京", "status", "glass", "pin", "7", "42"];
  const sentence = (): string => {
    let s = "";
    const n = prng.int(1, 12);
    for (let i = 0; i < n; i++) s += (prng.int(0, 2) === 0 ? `name${prng.int(0, 300)}` : words[prng.int(0, words.length - 1)]) + " ";
    return prng.int(0, 4) === 0 ? s.toUpperCase() : s;
  };
  const index = new LexicalIndex(arena, kernels);
  const reference = new ReferenceLexicalIndex();
  const live: Array<{ ns: string; id: number; text: string }> = [];
  const cases: Case[] = [];
  const digests: string[] = [];
  let next = 1;
  for (let step = 0; step < 900; step++) {
    const r = prng.next();
    if (r < 0.55 || live.length < 10) {
      const e = { ns: prng.int(0, 3) === 0 ? "kim" : "owner", id: next++, text: sentence() };
      index.add(e.ns, e.id, e.text);
      reference.add(e.ns, e.id, e.text);
      live.push(e);
    } else if (r < 0.75) {
      const [e] = live.splice(prng.int(0, live.length - 1), 1);
      index.remove(e.ns, e.id, e.text);
      reference.remove(e.ns, e.id, e.text);
    } else if (r < 0.85) {
      const e = live[prng.int(0, live.length - 1)];
      const text = sentence();
      index.replace(e.ns, e.id, e.text, text);
      reference.remove(e.ns, e.id, e.text);
      reference.add(e.ns, e.id, text);
      e.text = text;
    } else {
      const ns = prng.int(0, 3) === 0 ? "kim" : "owner";
      const query = prng.int(0, 2) === 0 ? "note today" : sentence();
      const limit = [1, 5, 16, 40][prng.int(0, 3)];
      const got = index.search(ns, query, limit);
      const want = reference.search(ns, query, limit);
      // Exactly the reference's on this engine; to 9 places across engines (Math.log may differ in the last bit).
      const exact = JSON.stringify(got) === JSON.stringify(want) ? "" : "inexact ";
      cases.push({ name: `search ${step}`, run: () => exact + rounded(got), expected: rounded(want) });
    }
    for (const ns of step % 8 === 0 ? ["owner", "kim"] : []) {
      const regions = index.regions(ns);
      if (regions) digests.push(regionsDigest(regions));
    }
  }
  cases.push({ name: "region bytes every 8 steps", run: () => djb2Hex(digests.join("|")) });
  return cases;
}

/** Fresh regions of the given sizes (heap words, table cells, document numbers). */
function regions(arena: VectorArena, heapWords: number, cells: number, docs: number): Regions {
  return { heap: newHeap(arena, heapWords), table: newTable(arena, cells), docs: newDocs(arena, docs) };
}

function literalCases(k: LexiconKernels, arena: VectorArena): Case[] {
  const add = (r: Regions, text: string, id: number): number => k.add(r.heap, r.table, r.docs, text, id);
  const out = new Int32Array(64);
  const hits = new Float64Array(32);
  const withHeader = (r: Regions, index: number, value: number): Regions => {
    new Uint32Array(r.heap, 0, HEAP_HEADER_WORDS)[index] = value;
    return r;
  };
  const cases: Case[] = [
    {
      name: "a heap without room asks for its new top",
      run: () => String(add(regions(arena, 12, 64, 4), "alpha beta", 1)),
      expected: String(-(HEAP_HEADER_WORDS + recordWords(5, 1) + recordWords(4, 1))),
    },
    {
      name: "a table over half full asks for a larger one",
      run: () => String(add(regions(arena, 256, 2, 4), "alpha beta", 1)),
      expected: "-1",
    },
    {
      name: "no free document number asks for more",
      run: () => {
        const r = regions(arena, 256, 64, 1);
        return `${add(r, "alpha", 1)} ${add(r, "beta", 2)}`;
      },
      expected: "1 -2",
    },
    {
      name: "the room codes change nothing",
      run: () => {
        const r = regions(arena, 256, 64, 1);
        add(r, "alpha beta", 1);
        const before = regionsDigest(r);
        const codes = [add(r, "gamma", 2), k.reserve(r.heap, r.table, Array.from({ length: 60 }, (_, i) => `t${i}`).join(" "))];
        return `${codes.join(" ")} ${regionsDigest(r) === before}`;
      },
      expected: "-2 -1 true",
    },
    {
      name: "reserve fits a replacement's text",
      run: () => {
        const r = regions(arena, 256, 64, 1);
        add(r, "alpha beta", 1);
        return String(k.reserve(r.heap, r.table, "alpha gamma"));
      },
      expected: "0",
    },
    {
      name: "the first of postings grown past their room moves the record",
      run: () => {
        const r = regions(arena, 256, 64, 8);
        for (let id = 1; id <= 6; id++) add(r, "common word", id);
        k.remove(r.heap, r.table, r.docs, "common word", 3);
        return `${dumpTerms(r)
          .map((t) => `${t.term}=${t.postings.join(",")}`)
          .join(" ")} top ${new Uint32Array(r.heap, 0, HEAP_HEADER_WORDS)[H_TOP]}`;
      },
      expected: "common=1:1,2:1,4:1,5:1,6:1 word=1:1,2:1,4:1,5:1,6:1 top 72",
    },
    {
      name: "lookup: the query's distinct terms, their records' entry counts",
      run: () => {
        const r = regions(arena, 256, 64, 8);
        add(r, "alpha beta", 1);
        add(r, "beta gamma", 2);
        const n = k.lookup(r.heap, r.table, "beta zeta beta alpha the", out);
        return `${n} ${Array.from(out.subarray(0, 2 * n), (v, i) => (i % 2 ? v : v > 0 ? "r" : 0)).join(",")}`;
      },
      expected: "3 r,2,0,0,r,1",
    },
    {
      name: "score: equal scores rank the lower id first, the limit keeps the best",
      run: () => {
        const r = regions(arena, 256, 64, 8);
        for (const id of [9, 3, 7, 5]) add(r, "same words", id);
        const n = k.lookup(r.heap, r.table, "same", out);
        const found = k.score(r.heap, r.docs, out, new Float64Array([0.5]), n, 2, 0.5, 3, hits);
        return Array.from(hits.subarray(0, 2 * found)).join(",");
      },
      expected: "3,1,5,1,7,1",
    },
    {
      name: "a count past 65,535 saturates",
      run: () => {
        const r = regions(arena, 256, 64, 4);
        return `${add(r, "x1 ".repeat(70000), 1)} ${dumpTerms(r)[0].postings.join(",")}`;
      },
      expected: "70000 1:65535",
    },
    {
      name: "remove of an entry not indexed",
      run: () => {
        const r = regions(arena, 256, 64, 4);
        return String(k.remove(r.heap, r.table, r.docs, "alpha", 5));
      },
      expected: "-1",
    },
    {
      name: "indexed twice",
      run: () => {
        const r = regions(arena, 256, 64, 4);
        add(r, "alpha", 1);
        return String(add(r, "beta", 1));
      },
      expected: "Error:indexed twice",
    },
    {
      name: "too many entries",
      run: () => {
        const r = regions(arena, 256, 64, DOC_LIMIT);
        new Uint32Array(r.docs, 0, 8)[D_COUNT] = DOC_LIMIT;
        return String(add(r, "alpha", 1));
      },
      expected: "RangeError:too many entries",
    },
    {
      name: "bad heap capacity",
      run: () => String(add(withHeader(regions(arena, 16, 64, 4), H_CAPACITY, 4), "a", 1)),
      expected: "RangeError:bad heap",
    },
    {
      name: "a heap capacity past its buffer",
      run: () => String(add(withHeader(regions(arena, 16, 64, 4), H_CAPACITY, 17), "a", 1)),
      expected: "RangeError:bad heap",
    },
    {
      name: "a top past the capacity",
      run: () => String(add(withHeader(regions(arena, 16, 64, 4), H_TOP, 17), "a", 1)),
      expected: "RangeError:bad heap",
    },
    {
      name: "a table of 3 cells",
      run: () => {
        const r = regions(arena, 16, 4, 4);
        new Uint32Array(r.table, 0, 1)[0] = 3;
        return String(add(r, "a", 1));
      },
      expected: "RangeError:bad table",
    },
    {
      name: "docs with no capacity",
      run: () => {
        const r = regions(arena, 16, 4, 4);
        new Uint32Array(r.docs, 0, 1)[0] = 0;
        return String(add(r, "a", 1));
      },
      expected: "RangeError:bad docs",
    },
    {
      name: "a text not a string",
      run: () => {
        const r = regions(arena, 16, 4, 4);
        return String(k.add(r.heap, r.table, r.docs, 5 as unknown as string, 1));
      },
      expected: "TypeError:bad text",
    },
    { name: "a negative id", run: () => String(add(regions(arena, 16, 4, 4), "a", -1)), expected: "RangeError:bad id" },
    { name: "a fractional id", run: () => String(add(regions(arena, 16, 4, 4), "a", 1.5)), expected: "RangeError:bad id" },
    {
      name: "lookup into 63 slots",
      run: () => String(k.lookup(newHeap(arena, 16), newTable(arena, 4), "a", new Int32Array(63))),
      expected: "RangeError:bad out",
    },
    {
      name: "lookup into a Float64Array",
      run: () => String(k.lookup(newHeap(arena, 16), newTable(arena, 4), "a", new Float64Array(64) as unknown as Int32Array)),
      expected: "RangeError:bad out",
    },
    {
      name: "score of 33 terms",
      run: () => String(k.score(newHeap(arena, 16), newDocs(arena, 4), new Int32Array(66), new Float64Array(33), 33, 1, 1, 1, hits)),
      expected: "RangeError:bad count",
    },
    {
      name: "score with terms too short",
      run: () => String(k.score(newHeap(arena, 16), newDocs(arena, 4), new Int32Array(3), new Float64Array(2), 2, 1, 1, 1, hits)),
      expected: "RangeError:bad terms",
    },
    {
      name: "score with a record past the top",
      run: () => String(k.score(newHeap(arena, 16), newDocs(arena, 4), new Int32Array([12, 1]), new Float64Array(1), 1, 1, 1, 1, hits)),
      expected: "RangeError:bad terms",
    },
    {
      name: "score with a negative limit",
      run: () => String(k.score(newHeap(arena, 16), newDocs(arena, 4), new Int32Array(2), new Float64Array(1), 1, 1, 1, -1, hits)),
      expected: "RangeError:bad limit",
    },
    {
      name: "score into too few slots",
      run: () => String(k.score(newHeap(arena, 16), newDocs(arena, 4), new Int32Array(2), new Float64Array(1), 1, 1, 1, 17, hits)),
      expected: "RangeError:bad out",
    },
    {
      name: "rebuild into a table too small",
      run: () => {
        const r = regions(arena, 256, 64, 4);
        add(r, "alpha beta gamma delta", 1);
        k.rebuild(r.heap, newTable(arena, 4));
        return "rebuilt";
      },
      expected: "RangeError:bad table",
    },
    {
      name: "moveDocs into fewer numbers",
      run: () => {
        const r = regions(arena, 256, 64, 4);
        add(r, "alpha", 1);
        add(r, "beta", 2);
        k.moveDocs(r.docs, newDocs(arena, 1));
        return "moved";
      },
      expected: "RangeError:bad docs",
    },
    {
      name: "moveDocs, rebuild and compact keep the index",
      run: () => {
        const r = regions(arena, 256, 64, 4);
        for (let id = 1; id <= 4; id++) add(r, `alpha w${id} beta`, id);
        k.remove(r.heap, r.table, r.docs, "alpha w2 beta", 2);
        const docs = newDocs(arena, 9);
        k.moveDocs(r.docs, docs);
        const table = newTable(arena, 128);
        k.rebuild(r.heap, table);
        const moved = { heap: r.heap, table, docs };
        k.compact(moved.heap, moved.table);
        const n = k.lookup(moved.heap, moved.table, "beta w3", out);
        const found = k.score(moved.heap, moved.docs, out, new Float64Array([1, 2]), n, 3, 3, 4, hits);
        return `${indexed({ ...moved, docs: r.docs }).split(" | ")[1]} ${add(moved, "w5", 2)} ${Array.from(hits.subarray(0, 2 * found)).join(",")}`;
      },
      expected: "alpha=1:1,3:1,4:1 beta=1:1,3:1,4:1 w1=1:1 w3=3:1 w4=4:1 1 3,1,1,0.3333333333333333,4,0.3333333333333333",
    },
  ];
  return cases;
}

/** Runs every case against `kernels`, regions taken from `arena` (plain ArrayBuffers when not given); never throws for a failing case. */
export function runLexiconContract(kernels: LexiconKernels, arena: VectorArena = heapArena()): ContractReport {
  const cases = [...tokenCases(kernels, arena), ...literalCases(kernels, arena)];
  let scored: Case[];
  try {
    scored = scoreCases(kernels, arena);
  } catch (e) {
    const message = e instanceof Error ? `${e.name}:${e.message}` : String(e);
    scored = [{ name: "seeded adds, removes and searches", run: () => message, expected: "no error" }];
  }
  const results: CaseResult[] = [];
  const failures: string[] = [];
  for (const c of [...cases, ...scored]) {
    const outcome = outcomeOf(c.run);
    const expected = c.expected ?? outcome;
    const ok = outcome === expected;
    results.push({ name: c.name, outcome, expected, ok, digest: djb2Hex(outcome) });
    if (!ok) failures.push(`${c.name}: got ${outcome.slice(0, 300)} expected ${expected.slice(0, 300)}`);
  }
  return { results, failures, digest: djb2Hex(results.map((r) => r.outcome).join("\n")) };
}
