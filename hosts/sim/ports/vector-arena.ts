// The VectorArena of Node hosts (and of scenarios on the XS test host that
// keep to portable ports): plain ArrayBuffers, whose bytes V8 keeps outside its
// JS heap already. The budget is a configured figure, the device's by default,
// so max_vectors clamps as it does on the board. No Node imports.
import { HaloError } from "../../../lib/errors.ts";
import { VECTOR_ARENA_DEVICE_BYTES } from "../../../lib/memory/bounds.ts";
import type { VectorArena } from "../../../lib/ports.ts";

export interface SimVectorArena extends VectorArena {
  /** Test knob: refuse every allocation from now on (a full PSRAM), or allow them again. */
  refuseAll(refuse: boolean): void;
  /** Allocations made so far (refused ones not counted). */
  allocations(): number;
}

/**
 * An arena over ArrayBuffers. It refuses one allocation larger than the
 * budget; it does not refuse on the sum of live ones, because buffers nobody
 * released are freed by V8 at a time Node does not report (the native arena
 * collects garbage and counts exactly).
 */
export function simVectorArena(budgetBytes: number = VECTOR_ARENA_DEVICE_BYTES): SimVectorArena {
  let used = 0;
  let made = 0;
  let refusing = false;
  const sizes = new WeakMap<ArrayBuffer, number>();
  return {
    budgetBytes: () => budgetBytes,
    usedBytes: () => used,
    allocate(bytes: number): ArrayBuffer {
      if (!Number.isInteger(bytes) || bytes < 0) throw new RangeError("bad arena size");
      if (refusing || bytes > budgetBytes) {
        throw new HaloError("full", `the vector store needs ${bytes} bytes; this host's vector arena gives at most ${budgetBytes}.`);
      }
      const memory = new ArrayBuffer(bytes);
      sizes.set(memory, bytes);
      used += bytes;
      made++;
      return memory;
    },
    release(memory: ArrayBuffer): void {
      const size = sizes.get(memory);
      if (size === undefined) return;
      sizes.delete(memory);
      used -= size;
      // Detached where the engine can (Node): views over released memory read as empty, as on XS, so a use after release shows in tests.
      const clone = (globalThis as { structuredClone?: (value: unknown, options: { transfer: ArrayBuffer[] }) => unknown }).structuredClone;
      if (typeof clone === "function") clone(memory, { transfer: [memory] });
    },
    refuseAll(refuse: boolean): void {
      refusing = refuse;
    },
    allocations: () => made,
  };
}
