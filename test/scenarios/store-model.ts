// The vector store against a plain model: seeded random adds, removals,
// replacements, resizes and refused allocations, with texts of every UTF-8
// width up to the largest a memory may hold and ids that collide across
// namespaces. Every few steps (and after each refusal) each entry the model holds must be found by
// (namespace, id) at a slot whose row, fields and texts are its own, and no
// other; the text pages must stay within a bound of the live texts
// (compaction). Returns a transcript; Node and XS (native arena) must match.
import { HaloError } from "../../lib/errors.ts";
import { MEMORY_CONTENT_MAX_BYTES } from "../../lib/memory/bounds.ts";
import { residualBytes } from "../../lib/memory/store/quantize.ts";
import { TEXT_PAGE_MAX_BYTES } from "../../lib/memory/store/text-pages.ts";
import { VectorStore, type EntryMeta } from "../../lib/memory/store/vector-store.ts";
import type { LexiconKernels, VectorArena } from "../../lib/ports.ts";
import { utf8Length } from "../../lib/util/utf8.ts";
import { mulberry32, type Prng } from "../support/prng.ts";

const DIMS = 12;
const NAMESPACES = ["owner", "kim", "guest-ü", "家"];
const PIECES = ["a", "é", "€", "漢", "😀", " ", "word ", "7"];

interface ModelEntry {
  meta: EntryMeta;
  seed: number;
}

function text(rng: Prng, maxBytes: number): string {
  const long = rng.int(0, 9) === 0;
  const target = long ? maxBytes : rng.int(1, 120);
  const parts: string[] = [];
  let bytes = 0;
  for (;;) {
    const piece = PIECES[rng.int(0, PIECES.length - 1)];
    const size = utf8Length(piece);
    if (bytes + size > target) return parts.length > 0 ? parts.join("") : "x";
    parts.push(piece);
    bytes += size;
  }
}

function rowOf(seed: number): Int8Array {
  return Int8Array.from({ length: DIMS }, (_, i) => ((seed * 31 + i * 17) % 200) - 100 || 1);
}

function residualOf(seed: number): Uint8Array {
  return Uint8Array.from({ length: residualBytes(DIMS) }, (_, i) => (seed * 13 + i * 7) & 0xff);
}

/** An arena over `inner` that refuses while `refusing` is set. */
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

/** What is wrong with the store against the model, or "" (every entry, then the count and the text pages' bound). */
function mismatch(store: VectorStore, model: Map<string, ModelEntry>, liveText: number): string {
  if (store.count !== model.size) return `count ${store.count}, model ${model.size}`;
  for (const [key, e] of model) {
    const slot = store.slotOf(e.meta.ns, e.meta.id);
    if (slot < 0) return `${key} not found`;
    const got = store.metaAt(slot);
    for (const field of ["id", "ns", "content", "source", "created", "flags", "ttlClass"] as const)
      if (got[field] !== e.meta[field]) return `${key} ${field}: ${String(got[field]).slice(0, 40)}`;
    if (Math.fround(e.meta.importance) !== got.importance) return `${key} importance`;
    if (store.row(slot).join() !== rowOf(e.seed).join()) return `${key} row`;
    if (store.residual(slot).join() !== residualOf(e.seed).join()) return `${key} residual`;
    if (!store.maskOf(e.meta.ns) || store.maskOf(e.meta.ns)![slot] !== 1) return `${key} mask`;
  }
  for (const ns of NAMESPACES) {
    let n = 0;
    for (const e of model.values()) if (e.meta.ns === ns) n++;
    if (store.countIn(ns) !== n) return `${ns} count ${store.countIn(ns)}, model ${n}`;
  }
  // Holes never outweigh the live texts by more than a page or two (compaction), and every live byte is held.
  if (store.count > 0 && store.textBytes < liveText) return `text pages ${store.textBytes} under the live ${liveText}`;
  if (store.textBytes > 2 * liveText + 3 * TEXT_PAGE_MAX_BYTES) return `text pages ${store.textBytes} for ${liveText} live bytes`;
  return "";
}

/** `arena`: plain ArrayBuffers on Node, the native arena on XS; `lexicon`: the lexical index's kernels (the C ones on XS); the transcript is the same. */
export async function runStoreModelScenario(arena: VectorArena, steps = 2000, lexicon?: LexiconKernels): Promise<string[]> {
  const out: string[] = [];
  const rng = mulberry32(20261202);
  const gate = switchableArena(arena);
  const store = new VectorStore(DIMS, 64, gate, lexicon);
  const model = new Map<string, ModelEntry>();
  const keyOf = (ns: string, id: number): string => `${ns}/${id}`;
  let liveText = 0;
  let refused = 0;
  let peakPages = 0;
  const pick = (): ModelEntry | undefined => {
    if (model.size === 0) return undefined;
    let i = rng.int(0, model.size - 1);
    for (const e of model.values()) if (i-- === 0) return e;
    return undefined;
  };
  for (let step = 1; step <= steps; step++) {
    const op = rng.int(0, 99);
    gate.refusing = rng.int(0, 7) === 0;
    const before = store.version;
    let checkNow = step % 8 === 0;
    try {
      if (op < 50 && store.count < store.capacity) {
        // Ids from a small range: the same id lives in several namespaces, and the table's probe runs are long.
        const ns = NAMESPACES[rng.int(0, NAMESPACES.length - 1)];
        const id = rng.int(1, 150) * 4096;
        if (!model.has(keyOf(ns, id))) {
          const seed = step;
          const meta: EntryMeta = {
            id,
            ns,
            content: text(rng, MEMORY_CONTENT_MAX_BYTES),
            source: text(rng, 32),
            importance: rng.next(),
            created: step,
            lastRecalled: step,
            flags: rng.int(0, 3),
            ttlClass: rng.int(0, 3),
          };
          store.add(meta, rowOf(seed), residualOf(seed));
          model.set(keyOf(ns, id), { meta, seed });
          liveText += utf8Length(meta.content) + utf8Length(meta.source);
        }
      } else if (op < 85) {
        const e = pick();
        if (e) {
          store.remove(store.slotOf(e.meta.ns, e.meta.id));
          model.delete(keyOf(e.meta.ns, e.meta.id));
          liveText -= utf8Length(e.meta.content) + utf8Length(e.meta.source);
        }
      } else if (op < 95) {
        const e = pick();
        if (e) {
          const meta = { ...e.meta, content: rng.int(0, 1) ? text(rng, MEMORY_CONTENT_MAX_BYTES) : e.meta.content, importance: rng.next() };
          const seed = step;
          store.replace(store.slotOf(meta.ns, meta.id), meta, rowOf(seed), residualOf(seed), 1);
          liveText += utf8Length(meta.content) - utf8Length(e.meta.content);
          model.set(keyOf(meta.ns, meta.id), { meta, seed });
        }
      } else {
        store.resize(Math.max(store.count, rng.int(16, 160)));
      }
    } catch (e) {
      if (!(e instanceof HaloError && e.tag === "full")) throw e;
      refused++;
      checkNow = true;
      if (store.version !== before && op < 50) out.push(`step ${step}: a refused add changed the store`);
    }
    peakPages = Math.max(peakPages, store.textBytes);
    const wrong = checkNow ? mismatch(store, model, liveText) : "";
    if (wrong) {
      out.push(`step ${step} (op ${op}): ${wrong}`);
      break;
    }
    if (step % 250 === 0)
      out.push(`step ${step}: ${store.count} entries, capacity ${store.capacity}, ${liveText} live text bytes, ${refused} refused`);
  }
  gate.refusing = false;
  while (store.count > 0) store.remove(store.count - 1);
  out.push(`emptied: text pages ${store.textBytes} bytes, peak ${peakPages}`);
  return out;
}
