// XS entry of bench/files.mjs: builds the corpus (scriptArgs[1] documents) on
// the XS host and times files.search through the index, the scan it replaced,
// and the index's first search after a save, with hostNow(). Prints one line:
// FILES-XS {json}.
import { buildFilesCorpus } from "./files-corpus.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
/** [samples, documents] */
declare const scriptArgs: readonly string[];

const samples = Number(scriptArgs[0] ?? "3");
const corpus = buildFilesCorpus(Number(scriptArgs[1] ?? "1000"));
const ms: number[] = [];
const scanMs: number[] = [];
let hits = 0;
for (let s = 0; s < samples; s++) {
  let start = hostNow();
  hits = corpus.search();
  ms.push(hostNow() - start);
  start = hostNow();
  if (corpus.scan() !== hits) throw new Error("the index and the scan disagree");
  scanMs.push(hostNow() - start);
}
// The first search after a save: the postings and documents the index held are stale and read again.
const afterSaveMs: number[] = [];
for (let s = 0; s < samples; s++) {
  corpus.resave();
  const start = hostNow();
  if (corpus.search() !== hits) throw new Error("a save of an unchanged document changed the hits");
  afterSaveMs.push(hostNow() - start);
}
const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1];
print(`FILES-XS ${JSON.stringify({ medianMs: median(ms), scanMs: median(scanMs), afterSaveMs: median(afterSaveMs), hits })}`);
