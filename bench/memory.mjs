// The memory engine's figures, one `name: value` line each (see bench/memory-bench.ts for what is timed):
//
//   memory-search-ms-5k-node   memory.search's work over 5,000 facts, TypeScript kernel, Node (median of 9)
//   memory-write-ms-5k-node    memory.write's work for a new fact, its vector-journal append included, Node
//   memory-boot-ms-5k-node     reading the 5,000-fact vector file (and replaying the journal) into a new engine,
//                              each entry's texts indexed as it is read (recall/lexical.ts), Node
//   memory-first-search-ms-5k-node  the rebooted engine's first memory.search (memory-search-ms-* is every later search)
//   memory-search-ms-5k-xs     the same four with the C kernel on the XS host (median of 5)
//   memory-write-ms-5k-xs
//   memory-boot-ms-5k-xs
//   memory-first-search-ms-5k-xs
//   memory-file-kb-5k          size of the 5,000-fact vector file
//   memory-store-chunk-kb-5k-xs        XS chunk heap taken by a 5,000-row, 256-dim store holding 5,000 entries,
//                                      rows in the native vector arena (modules/vector/arena.c)
//   memory-store-chunk-kb-5k-plain-xs  the same store over plain ArrayBuffers (the rows in chunks), same run
//   memory-store-chunk-ratio-5k-xs     the first over the second
//   memory-store-chunk-kb-5k-1-xs      the same 5,000-row store holding one entry (its memory taken), arena
//   memory-store-chunk-kb-5k-1-plain-xs  and over plain ArrayBuffers
//   memory-lexicon-chunk-kb-5k-xs      XS chunk heap a lexical index of that full store's 5,000 texts keeps
//                                      (lexical.ts, C kernels: its regions are in the native arena), after a search
//   memory-lexicon-slot-kb-5k-xs       and the slots it keeps
//   memory-lexicon-arena-kb-5k-xs      the arena bytes of that index's regions (heap, term table, docs)
//   memory-boot-peak-kb-5000-xs        how far the XS heap grows (live, sampled after a collection at every
//                                      16 KB piece) while a 5,000-entry, 256-dim vector file is read into a
//                                      store in pieces, as a boot does (bench/memory-peak.xs.ts)
//   memory-boot-peak-kb-5000-whole-xs  the same with the whole file read into one buffer first, same run
//   memory-boot-peak-ratio-5000-xs     the first over the second
//   memory-boot-extra-kb-5000-xs       of the first, what is not the store itself: the read's own buffers
//   memory-boot-extra-kb-5000-whole-xs and of the whole-file read
//   memory-boot-journal-peak-kb-xs     how far the heap grows while the same file is read with a journal of
//                                      16 commits of 64 changes beside it (495 KB), replayed a frame at a time
//                                      as a boot does (sampled at every piece and every frame read)
//   memory-boot-journal-peak-kb-whole-xs  the same with the whole journal read into one buffer first, same run
//   memory-save-peak-kb-5000-xs        how far the heap grows while that store is written as a vector file
//                                      in pieces (a compaction), and
//   memory-save-peak-kb-5000-whole-xs  encoded whole into one buffer, same run
//   memory-hit-at-5-hybrid     share of the hybrid set's questions (bench/hybrid-set.ts) whose fact is in
//                              memory.search's first 5, offline embedder, lexical_weight at its default
//   memory-hit-at-5-vector-only  the same with lexical_weight 0 (embeddings only)
//
//   node bench/memory.mjs       (or through `npm run bench`)
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { tsImport } from "tsx/esm/api";
import { runOnXs } from "../hosts/xs/run.mjs";

export async function runMemoryBench() {
  const { measureMemory } = await tsImport("./memory-bench.ts", import.meta.url);
  const { tsKernels } = await tsImport("../lib/memory/store/kernel-ts.ts", import.meta.url);
  const { simVectorArena } = await tsImport("../hosts/sim/ports/vector-arena.ts", import.meta.url);
  const node = await measureMemory(tsKernels, simVectorArena(), () => performance.now(), 9);
  const r = await runOnXs("bench/memory.xs.ts", { timeoutMs: 600_000 });
  const m = /^MEMORY-XS (.*)$/m.exec(r.stdout);
  if (r.code !== 0 || !m) throw new Error(`XS memory bench failed (${r.code}): ${(r.stderr + r.stdout).slice(0, 500)}`);
  const xs = JSON.parse(m[1]);
  const p = await runOnXs("bench/memory-peak.xs.ts", { timeoutMs: 600_000 });
  const pm = /^MEMORY-PEAK-XS (.*)$/m.exec(p.stdout);
  if (p.code !== 0 || !pm) throw new Error(`XS memory peak bench failed (${p.code}): ${(p.stderr + p.stdout).slice(0, 500)}`);
  const peak = JSON.parse(pm[1]);
  const { hybridHitAt5 } = await tsImport("./hybrid-set.ts", import.meta.url);
  const { MEM_CONFIG_KNOBS } = await tsImport("../lib/memory/config.ts", import.meta.url);
  const hybrid = await hybridHitAt5(MEM_CONFIG_KNOBS.find((k) => k.name === "lexical_weight").default);
  const vectorOnly = await hybridHitAt5(0);
  return [
    ["memory-search-ms-5k-node", node.searchMs],
    ["memory-write-ms-5k-node", node.writeMs],
    ["memory-boot-ms-5k-node", node.bootMs],
    ["memory-first-search-ms-5k-node", node.firstSearchMs],
    ["memory-search-ms-5k-xs", xs.searchMs],
    ["memory-write-ms-5k-xs", xs.writeMs],
    ["memory-boot-ms-5k-xs", xs.bootMs],
    ["memory-first-search-ms-5k-xs", xs.firstSearchMs],
    ["memory-file-kb-5k", Math.round(node.fileBytes / 1024)],
    ["memory-store-chunk-kb-5k-xs", xs.chunks.fullArena / 1024],
    ["memory-store-chunk-kb-5k-plain-xs", xs.chunks.fullPlain / 1024],
    ["memory-store-chunk-ratio-5k-xs", xs.chunks.fullArena / xs.chunks.fullPlain],
    ["memory-store-chunk-kb-5k-1-xs", xs.chunks.oneArena / 1024],
    ["memory-store-chunk-kb-5k-1-plain-xs", xs.chunks.onePlain / 1024],
    ["memory-lexicon-chunk-kb-5k-xs", xs.chunks.lexiconChunks / 1024],
    ["memory-lexicon-slot-kb-5k-xs", xs.chunks.lexiconSlots / 1024],
    ["memory-lexicon-arena-kb-5k-xs", xs.chunks.lexiconArena / 1024],
    ["memory-boot-peak-kb-5000-xs", peak.boot.peak / 1024],
    ["memory-boot-peak-kb-5000-whole-xs", peak.bootWhole.peak / 1024],
    ["memory-boot-peak-ratio-5000-xs", peak.boot.peak / peak.bootWhole.peak],
    ["memory-boot-extra-kb-5000-xs", (peak.boot.peak - peak.boot.kept) / 1024],
    ["memory-boot-extra-kb-5000-whole-xs", (peak.bootWhole.peak - peak.bootWhole.kept) / 1024],
    ["memory-boot-journal-peak-kb-xs", peak.bootJournal.peak / 1024],
    ["memory-boot-journal-peak-kb-whole-xs", peak.bootJournalWhole.peak / 1024],
    ["memory-save-peak-kb-5000-xs", peak.save.peak / 1024],
    ["memory-save-peak-kb-5000-whole-xs", peak.saveWhole.peak / 1024],
    ["memory-hit-at-5-hybrid", hybrid.hitAt5],
    ["memory-hit-at-5-vector-only", vectorOnly.hitAt5],
  ];
}

if (resolve(fileURLToPath(import.meta.url)) === resolve(process.argv[1] ?? "")) {
  for (const [name, value] of await runMemoryBench()) console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(3)}`);
}
