// Binds the native vector arena (arena.c) as the VectorArena port: the vector
// store's memory outside the XS chunk heap (PSRAM on the ESP32-S3). On the
// device xsc turns each native("...") into a host function at build time; on
// the XS test host native() is a global that finds the function in the linked modules.
import { HaloError } from "../../lib/errors";
import type { VectorArena } from "../../lib/ports";

// biome-ignore lint/suspicious/noExplicitAny: the bound C function's signature is given where it is used
declare function native(name: string): (...args: any[]) => any;

const alloc = native("xs_vector_arena_alloc") as (bytes: number) => ArrayBuffer | undefined;
const release = native("xs_vector_arena_release") as (memory: ArrayBuffer) => void;
const stats = native("xs_vector_arena_stats") as (budget?: number) => { budget: number; used: number };

/** The arena's budget and the bytes it has given out; a number sets the budget first (tests and benchmarks only). */
export const nativeArenaStats: (budget?: number) => { budget: number; used: number } = stats;

/** The native arena: the same contract as the simulator's (hosts/sim/ports/vector-arena.ts). */
export const nativeArena: VectorArena = {
  budgetBytes: () => stats().budget,
  usedBytes: () => stats().used,
  allocate(bytes: number): ArrayBuffer {
    const memory = alloc(bytes);
    if (memory === undefined) {
      const { budget, used } = stats();
      throw new HaloError(
        "full",
        `the vector store asked for ${bytes} bytes and this device cannot give them (${used} of the ${budget} bytes of its vector arena are in use).`,
      );
    }
    return memory;
  },
  release: (memory) => release(memory),
};
