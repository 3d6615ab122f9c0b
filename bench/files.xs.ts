// XS entry of bench/files.mjs: builds the same corpus on the XS host and times
// files.search with hostNow(). Prints one line: FILES-XS {json}.
import { buildFilesCorpus } from "./files-corpus.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
/** [samples] */
declare const scriptArgs: readonly string[];

const samples = Number(scriptArgs[0] ?? "3");
const corpus = buildFilesCorpus();
const ms: number[] = [];
let hits = 0;
for (let s = 0; s < samples; s++) {
  const start = hostNow();
  hits = corpus.search();
  ms.push(hostNow() - start);
}
ms.sort((a, b) => a - b);
print(`FILES-XS ${JSON.stringify({ medianMs: ms[ms.length >> 1], hits })}`);
