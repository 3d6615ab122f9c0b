// XS entry of bench/memory.mjs: the memory engine's timings with the C kernel on the XS host. Prints MEMORY-XS {json}.
import { nativeArena } from "../modules/vector/arena.ts";
import { nativeKernels } from "../modules/vector/vector.ts";
import { measureMemory } from "./memory-bench.ts";

declare function print(...args: unknown[]): void;
declare function hostNow(): number;
declare function exit(code: number): void;

measureMemory(nativeKernels, nativeArena, hostNow, 5).then(
  (figures) => print(`MEMORY-XS ${JSON.stringify(figures)}`),
  (e) => {
    print(`FAILED ${e instanceof Error ? e.stack || e.message : String(e)}`);
    exit(1);
  },
);
