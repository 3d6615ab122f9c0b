// files.search figures, one `name: value` line each:
//
//   files-search-ms-1000-docs      one files.search (two terms, BM25) over 1,000 documents of 4 KB, Node
//   files-search-ms-1000-docs-xs   the same search on the XS host (the device's engine, on this PC), through
//                                  the inverted index (lib/store/search-index.ts)
//   files-search-ms-1000-docs-scan-xs  the same search by the scan the index replaced (every file read), same run
//   files-search-speedup-index-vs-scan-xs  scan / index at 1,000 documents
//   files-search-ms-1000-docs-after-save-xs  the index's first search after a save (one document saved again):
//                                  what it holds in memory is stale, so it reads its buckets and looks up
//                                  every document again (the lines above repeat a search)
//   files-search-ms-4000-docs-xs   the index at 4,000 documents, the device store's maximum (ARTIFACTS_MAX_COUNT)
//   files-search-ms-10000-docs-xs  the index at 10,000 documents, in a store opened with room for them (the
//                                  device's store refuses a file past 4,000): how the index scales
//                                  (writing that corpus on XS takes about 12 minutes: the whole bench is long)
//
// The corpus (bench/files-corpus.ts): mulberry32 seed 4242, a vocabulary of 3,000 random words of 3-9
// letters; every document holds "common" about once in 40 words, every 50th document also "rare". The
// documents live in an ArtifactStore over the memory card, so the figures time the store and the
// ranking, not a disk. Medians of 11 searches on Node and 3 on XS.
//
//   node bench/files.mjs          (or through `npm run bench`)
//   node bench/files.mjs --1000   only the 1,000-document lines (Node and XS: under a minute), to iterate
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const NODE_SAMPLES = 11;
const XS_SAMPLES = 3;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Every files figure, as [name, value] pairs. */
export async function runFilesBench() {
  const { buildFilesCorpus } = await tsImport("./files-corpus.ts", import.meta.url);
  const corpus = buildFilesCorpus();
  corpus.search(); // warm-up
  const ms = [];
  for (let i = 0; i < NODE_SAMPLES; i++) {
    const start = performance.now();
    corpus.search();
    ms.push(performance.now() - start);
  }
  const figures = [["files-search-ms-1000-docs", median(ms)]];
  const { runOnXs } = await import("../hosts/xs/run.mjs");
  const xs = async (docs) => {
    const r = await runOnXs("bench/files.xs.ts", {
      args: [String(XS_SAMPLES), String(docs)],
      timeoutMs: docs > 4000 ? 1_800_000 : 900_000,
    });
    const line = /FILES-XS (\{.*\})/.exec(r.stdout);
    if (r.code !== 0 || !line) throw new Error(`the XS files bench failed (exit ${r.code}): ${r.stderr.slice(0, 400)}`);
    return JSON.parse(line[1]);
  };
  const thousand = await xs(1000);
  figures.push(["files-search-ms-1000-docs-xs", thousand.medianMs]);
  figures.push(["files-search-ms-1000-docs-scan-xs", thousand.scanMs]);
  figures.push(["files-search-speedup-index-vs-scan-xs", thousand.scanMs / thousand.medianMs]);
  figures.push(["files-search-ms-1000-docs-after-save-xs", thousand.afterSaveMs]);
  if (!process.argv.includes("--1000")) {
    figures.push(["files-search-ms-4000-docs-xs", (await xs(4000)).medianMs]);
    figures.push(["files-search-ms-10000-docs-xs", (await xs(10000)).medianMs]);
  }
  return figures;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, value] of await runFilesBench()) console.log(`${name}: ${value.toFixed(3)}`);
}
