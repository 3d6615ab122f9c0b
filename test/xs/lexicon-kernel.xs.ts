// XS entry: the lexicon kernels' contract (test/memory/lexicon-contract.ts) against the TypeScript kernels
// and the C kernels (modules/vector/lexicon.c), each over plain ArrayBuffers and over native arena memory
// (modules/vector/arena.c). One line per run:
//   LEXICON {"impl":"ts"|"ts-arena"|"c"|"c-arena","digest":..,"cases":[[name,digest,ok],..],"failures":[..]}
// then END. test/xs/lexicon-kernel.test.ts compares them with Node's run.
import { tsLexiconKernels } from "../../lib/memory/recall/lexicon-ts.ts";
import type { LexiconKernels } from "../../lib/ports.ts";
import { nativeArena, nativeArenaStats } from "../../modules/vector/arena.ts";
import { nativeLexiconKernels } from "../../modules/vector/lexicon.ts";
import { runLexiconContract } from "../memory/lexicon-contract.ts";

declare function print(...args: unknown[]): void;

function report(impl: string, kernels: LexiconKernels, arena?: typeof nativeArena): void {
  const r = runLexiconContract(kernels, arena);
  const cases = r.results.map((c) => [c.name, c.digest, c.ok]);
  print(`LEXICON ${JSON.stringify({ impl, digest: r.digest, cases, failures: r.failures })}`);
}

report("ts", tsLexiconKernels);
report("c", nativeLexiconKernels);
nativeArenaStats(64 * 1024 * 1024); // the contract takes many small regions and never gives them back
report("c-arena", nativeLexiconKernels, nativeArena);
report("ts-arena", tsLexiconKernels, nativeArena);
print("END");
