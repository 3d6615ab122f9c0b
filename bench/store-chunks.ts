// What a vector store costs the XS chunk heap (the memory the garbage collector
// scans and compacts), over a given arena: the XS test host's xsHeapInfo()
// after a full collection, before and after. Shared by bench/memory.xs.ts and
// test/xs/arena.xs.ts; runs on the XS host only.
import { residualBytes } from "../lib/memory/store/quantize.ts";
import { VectorStore } from "../lib/memory/store/vector-store.ts";
import type { LexiconKernels, VectorArena } from "../lib/ports.ts";

export const CHUNK_STORE_ROWS = 5000;
export const CHUNK_STORE_DIMS = 256;

export interface StoreChunks {
  /** Chunk bytes the store added, after a full collection. */
  chunkBytes: number;
  /** Bytes of its rows, residuals, per-row fields, id table, masks and text pages (in the arena, or in chunks over plain ArrayBuffers). */
  arenaBytes: number;
  /** Bytes of text pages among them, and the UTF-8 bytes of the texts they hold. */
  textBytes: number;
  /** Bytes of the lexical index among them. */
  lexiconBytes: number;
  textLength: number;
  /** Kept alive until measured, and for the caller to check. */
  store: VectorStore;
}

/** The text of entry `i` of the stores here: a sentence. */
export function chunkStoreText(i: number): string {
  return `Fact ${i}: the plant on shelf ${i % 97} needs water every ${1 + (i % 13)} days`;
}

/** A 5,000-row, 256-dimension store over `arena` holding `entries` entries (one namespace, texts of a sentence), indexed through `lexicon`. */
export function storeChunks(arena: VectorArena, entries: number, lexicon?: LexiconKernels): StoreChunks {
  const before = xsHeapInfo(true).chunkBytes;
  let textLength = 0;
  const store = filledStore(
    arena,
    entries,
    (i) => {
      const content = chunkStoreText(i);
      textLength += content.length + 4; // and "self"
      return content;
    },
    lexicon,
  );
  const after = xsHeapInfo(true).chunkBytes;
  return {
    chunkBytes: after - before,
    arenaBytes: store.arenaBytes,
    textBytes: store.textBytes,
    lexiconBytes: store.lexiconBytes,
    textLength,
    store,
  };
}

/**
 * A store of CHUNK_STORE_ROWS rows of CHUNK_STORE_DIMS over `arena` holding `entries` entries of one
 * namespace, source "self", content `contentOf(i)`; the rows are made up (each distinct, none all zeros).
 * Its lexical index goes through `lexicon` (the TypeScript kernels when not given).
 */
export function filledStore(arena: VectorArena, entries: number, contentOf: (i: number) => string, lexicon?: LexiconKernels): VectorStore {
  const store = new VectorStore(CHUNK_STORE_DIMS, CHUNK_STORE_ROWS, arena, lexicon);
  const row = new Int8Array(CHUNK_STORE_DIMS);
  const residual = new Uint8Array(residualBytes(CHUNK_STORE_DIMS));
  for (let i = 0; i < entries; i++) {
    for (let j = 0; j < CHUNK_STORE_DIMS; j++) row[j] = ((i * 31 + j * 17) % 255) - 127;
    row[i % CHUNK_STORE_DIMS] = 127;
    residual.fill(i & 0xff);
    const meta = {
      id: i + 1,
      ns: "owner",
      content: contentOf(i),
      source: "self",
      importance: 0.5,
      created: i,
      lastRecalled: i,
      flags: 0,
      ttlClass: 3,
    };
    store.add(meta, row, residual);
  }
  return store;
}
