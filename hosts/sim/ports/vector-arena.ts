// The VectorArena of Node hosts (and of scenarios on the XS test host that
// keep to portable ports): plain ArrayBuffers, whose bytes V8 keeps outside its
// JS heap already. The budget is a configured figure, the device's by default
// (VECTOR_ARENA_DEVICE_BYTES), and the live total is held to it: max_vectors
// clamps, and what would not fit on the board is refused here. No Node imports.
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
 * An arena over ArrayBuffers that keeps the device's budget: it refuses an allocation that would take the
 * live total past it, as the native arena does (modules/vector/arena.c), so what does not fit in the
 * device's 4 MB does not fit here either. The core gives back what it drops (VectorStore.release); a
 * buffer nobody released is counted until V8 collects it (a FinalizationRegistry gives it back then),
 * as the native arena counts it until the XS collector does.
 */
export function simVectorArena(budgetBytes: number = VECTOR_ARENA_DEVICE_BYTES): SimVectorArena {
  let used = 0;
  let made = 0;
  let refusing = false;
  const sizes = new WeakMap<ArrayBuffer, number>();
  /** Each live buffer's token: collected ones give their bytes back. */
  const live = new WeakMap<ArrayBuffer, { size: number; released: boolean }>();
  const Registry = (globalThis as { FinalizationRegistry?: typeof FinalizationRegistry }).FinalizationRegistry;
  const collected = Registry
    ? new Registry<{ size: number; released: boolean }>((token) => {
        if (!token.released) used -= token.size;
      })
    : undefined;
  return {
    budgetBytes: () => budgetBytes,
    usedBytes: () => used,
    allocate(bytes: number): ArrayBuffer {
      if (!Number.isInteger(bytes) || bytes < 0) throw new RangeError("bad arena size");
      if (refusing || bytes > budgetBytes - used) {
        throw new HaloError(
          "full",
          `the vector store needs ${bytes} bytes more; this host's vector arena has ${Math.max(0, budgetBytes - used)} of ${budgetBytes} free.`,
        );
      }
      const memory = new ArrayBuffer(bytes);
      const token = { size: bytes, released: false };
      sizes.set(memory, bytes);
      live.set(memory, token);
      collected?.register(memory, token);
      used += bytes;
      made++;
      return memory;
    },
    release(memory: ArrayBuffer): void {
      const size = sizes.get(memory);
      if (size === undefined) return;
      sizes.delete(memory);
      const token = live.get(memory);
      if (token) token.released = true;
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
