// files.search figures, one `name: value` line each:
//
//   files-search-ms-1000-docs      one files.search (two terms, BM25) over 1,000 documents of 4 KB, Node
//   files-search-ms-1000-docs-xs   the same search on the XS host (the device's engine, on this PC)
//
// The corpus (bench/files-corpus.ts): mulberry32 seed 4242, a vocabulary of 3,000 random words of 3-9
// letters; every document holds "common" about once in 40 words, every 50th document also "rare". The
// documents live in an ArtifactStore over the memory card, so the figures time the store and the
// ranking, not a disk. Medians of 11 searches on Node and 3 on XS.
//
//   node bench/files.mjs          (or through `npm run bench`)
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
  const r = await runOnXs("bench/files.xs.ts", { args: [String(XS_SAMPLES)], timeoutMs: 600_000 });
  const line = /FILES-XS (\{.*\})/.exec(r.stdout);
  if (r.code !== 0 || !line) throw new Error(`the XS files bench failed (exit ${r.code}): ${r.stderr.slice(0, 400)}`);
  figures.push(["files-search-ms-1000-docs-xs", JSON.parse(line[1]).medianMs]);
  return figures;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, value] of await runFilesBench()) console.log(`${name}: ${value.toFixed(3)}`);
}
