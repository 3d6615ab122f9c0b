// The lexical index as the vector store keeps it, against a from-scratch build and the reference index:
// seeded adds, removals, replacements and resizes in four namespaces, with refused allocations (an
// arena that says "full" at random), texts from a small vocabulary (terms most entries share), names,
// numbers, non-Latin words and now and then a text of the largest size. Every few steps and after each
// refusal, each namespace's index must hold exactly the terms, postings, counts and lengths a fresh
// index of the model's entries holds, and its arena bytes must stay within a bound of what it holds;
// searches must give the reference's hits and scores. Returns a transcript: Node (TypeScript kernels)
// and XS (C kernels over the native arena) must match line for line.
import { HaloError } from "../../lib/errors.ts";
import { MEMORY_CONTENT_MAX_BYTES } from "../../lib/memory/bounds.ts";
import { heapArena, LexicalIndex } from "../../lib/memory/recall/lexical.ts";
import { recordWords } from "../../lib/memory/recall/lexicon-layout.ts";
import { residualBytes } from "../../lib/memory/store/quantize.ts";
import { VectorStore } from "../../lib/memory/store/vector-store.ts";
import type { LexiconKernels, VectorArena } from "../../lib/ports.ts";
import { utf8Length } from "../../lib/util/utf8.ts";
import { dumpDocs, dumpTerms, type Regions } from "../memory/lexicon-dump.ts";
import { ReferenceLexicalIndex } from "../support/lexical-reference.ts";
import { mulberry32, type Prng } from "../support/prng.ts";

const DIMS = 4;
const NAMESPACES = ["owner", "kim", "guest-ü", "家"];
const COMMON = ["note", "today", "reminder", "Ficus", "water", "plants", "the", "is"];
const RARE = ["zoë's", "Straße", "ключ", "東京", "서울", "glass", "status", "taxis", "PIN", "dentist's"];

function sentence(rng: Prng): string {
  if (rng.int(0, 24) === 0) {
    let long = "";
    while (utf8Length(long) < MEMORY_CONTENT_MAX_BYTES - 40) long += `${COMMON[rng.int(0, COMMON.length - 1)]} word${rng.int(0, 9999)} `;
    return long;
  }
  const words: string[] = [];
  for (let n = rng.int(1, 24); n > 0; n--) {
    const r = rng.next();
    words.push(
      r < 0.45
        ? COMMON[rng.int(0, COMMON.length - 1)]
        : r < 0.65
          ? RARE[rng.int(0, RARE.length - 1)]
          : r < 0.8
            ? String(rng.int(0, 999))
            : `name${rng.int(0, 3000)}`,
    );
  }
  const text = words.join(rng.int(0, 3) === 0 ? ", " : " ");
  return rng.int(0, 5) === 0 ? text.toUpperCase() : text;
}

/** Hits to 9 places, in that order (ties by id): Math.log may differ in the last bit between engines, and so the order of near ties. */
function rounded(hits: Array<{ id: number; score: number }>): string {
  const shown = hits.map((h) => ({ id: h.id, score: h.score.toFixed(9) }));
  shown.sort((a, b) => (a.score === b.score ? a.id - b.id : a.score < b.score ? 1 : -1));
  return shown.map((h) => `${h.id}:${h.score}`).join(" ");
}

interface Entry {
  ns: string;
  id: number;
  content: string;
}

function switchableArena(inner: VectorArena): VectorArena & { refusing: boolean } {
  const arena = {
    refusing: false,
    budgetBytes: () => inner.budgetBytes(),
    usedBytes: () => inner.usedBytes(),
    allocate(bytes: number): ArrayBuffer {
      if (arena.refusing) throw new HaloError("full", "refused by the test");
      return inner.allocate(bytes);
    },
    release: (memory: ArrayBuffer) => inner.release(memory),
  };
  return arena;
}

function describe(r: Regions | undefined): string {
  if (!r) return "none";
  const docs = dumpDocs(r.docs);
  const lengths = [...docs.lengths].sort((a, b) => a[0] - b[0]).map(([id, n]) => `${id}:${n}`);
  const terms = dumpTerms(r).map((t) => `${t.term}=${t.postings.join(",")}`);
  return `live ${docs.live} total ${docs.total} lengths ${lengths.join(",")} terms ${terms.join(" ")}`;
}

/** Arena bytes a namespace's index needs at least: its records with exactly their postings, its documents, a table half full. */
function neededBytes(r: Regions): number {
  let words = 0;
  const terms = dumpTerms(r);
  for (const t of terms) words += recordWords(utf8Length(t.term), t.postings.length);
  return 4 * words + 24 * dumpDocs(r.docs).live + 8 * terms.length;
}

/** What is wrong with the store's index against a fresh one of the model's entries, or "". */
function mismatch(store: VectorStore, model: Map<string, Entry>, lexicon: LexiconKernels): string {
  let needed = 0;
  for (const ns of NAMESPACES) {
    const fresh = new LexicalIndex(heapArena(), lexicon);
    for (const e of [...model.values()].sort((a, b) => a.id - b.id)) if (e.ns === ns) fresh.add(ns, e.id, e.content);
    const got = describe(store.lexicalRegions(ns));
    const want = describe(fresh.regions(ns));
    if (got !== want) return `${ns}: ${got.slice(0, 300)} / fresh ${want.slice(0, 300)}`;
    const regions = store.lexicalRegions(ns);
    if (regions) needed += neededBytes(regions);
  }
  // Growth by half again and shrinking once half is holes keep the index within a few times what it needs.
  if (store.lexiconBytes > 4 * needed + 6 * 1024 * NAMESPACES.length) return `index ${store.lexiconBytes} bytes for ${needed} needed`;
  return "";
}

/** `arena`: plain ArrayBuffers on Node, the native arena on XS; `lexicon`: the kernels (TypeScript, C). */
export async function runLexiconModelScenario(arena: VectorArena, lexicon: LexiconKernels, steps = 1500): Promise<string[]> {
  const out: string[] = [];
  const rng = mulberry32(20261203);
  const gate = switchableArena(arena);
  const store = new VectorStore(DIMS, 64, gate, lexicon);
  const model = new Map<string, Entry>();
  const reference = new ReferenceLexicalIndex();
  const row = Int8Array.from([9, 1, 2, 3]);
  const residual = new Uint8Array(residualBytes(DIMS));
  const meta = (e: Entry) => ({ ...e, source: "self", importance: 0.5, created: 0, lastRecalled: 0, flags: 0, ttlClass: 3 });
  const pick = (): Entry | undefined => {
    let i = rng.int(0, Math.max(0, model.size - 1));
    for (const e of model.values()) if (i-- === 0) return e;
    return undefined;
  };
  let refused = 0;
  let searches = 0;
  let peak = 0;
  for (let step = 1; step <= steps; step++) {
    const op = rng.int(0, 99);
    gate.refusing = rng.int(0, 5) === 0;
    const before = store.version;
    let checkNow = step % 16 === 0;
    try {
      if (op < 50) {
        const e = { ns: NAMESPACES[rng.int(0, NAMESPACES.length - 1)], id: rng.int(1, 400), content: sentence(rng) };
        const key = `${e.ns}/${e.id}`;
        if (!model.has(key)) {
          if (store.count === store.capacity) store.resize(store.capacity * 2);
          store.add(meta(e), row, residual);
          model.set(key, e);
          reference.add(e.ns, e.id, e.content);
        }
      } else if (op < 75) {
        const e = pick();
        if (e) {
          store.remove(store.slotOf(e.ns, e.id));
          model.delete(`${e.ns}/${e.id}`);
          reference.remove(e.ns, e.id, e.content);
        }
      } else if (op < 90) {
        const e = pick();
        if (e) {
          const next = { ...e, content: rng.int(0, 4) === 0 ? e.content : sentence(rng) };
          store.replace(store.slotOf(e.ns, e.id), meta(next), row, residual, 1);
          model.set(`${e.ns}/${e.id}`, next);
          reference.remove(e.ns, e.id, e.content);
          reference.add(e.ns, e.id, next.content);
        }
      } else if (op < 93) {
        store.resize(Math.max(store.count, rng.int(16, 400)));
      } else {
        gate.refusing = false;
        const ns = NAMESPACES[rng.int(0, NAMESPACES.length - 1)];
        const query = rng.int(0, 2) === 0 ? "note today water" : sentence(rng).slice(0, 80);
        const limit = [1, 5, 16][rng.int(0, 2)];
        const got = store.lexicalSearch(ns, query, limit);
        const want = reference.search(ns, query, limit);
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          out.push(`step ${step}: search ${JSON.stringify(query)} ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
          break;
        }
        searches++;
        out.push(`${ns} ${JSON.stringify(query.slice(0, 40))} => ${rounded(got)}`);
      }
    } catch (e) {
      if (!(e instanceof HaloError && e.tag === "full")) throw e;
      refused++;
      checkNow = true;
      if (store.version !== before) out.push(`step ${step}: a refused change changed the store`);
    }
    gate.refusing = false;
    peak = Math.max(peak, store.lexiconBytes);
    const wrong = checkNow ? mismatch(store, model, lexicon) : "";
    if (wrong) {
      out.push(`step ${step} (op ${op}): ${wrong}`);
      break;
    }
    if (step % 250 === 0) out.push(`step ${step}: ${model.size} entries, index ${store.lexiconBytes} bytes, ${refused} refused`);
  }
  while (store.count > 0) store.remove(store.count - 1);
  out.push(`emptied: index ${store.lexiconBytes} bytes, peak ${peak}, ${searches} searches`);
  return out;
}
