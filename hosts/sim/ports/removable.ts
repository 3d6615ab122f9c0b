// What the simulator's Storage implementations share: a card that can be
// pulled and reinserted, a fault hook for tests, the path rules, the temp-file
// naming. No Node imports: the memory storage also runs on the XS test host.
import type { Storage } from "../../../lib/ports.ts";

/** A Storage whose card can be pulled and reinserted while the device runs. */
export interface RemovableStorage extends Storage {
  pull(): void;
  insert(): void;
}

/** Test hooks that interrupt an operation at its most delicate point. */
export interface StorageFaults {
  /**
   * Runs after writeAtomic's (or writeAtomicFrom's) temporary file is complete, before the rename (e.g. to
   * pull the card). A pull in the middle of a streamed write is the producer's to make: the next piece then
   * finds the card gone.
   */
  beforeRename?: (path: string) => void;
}

/** Suffix of writeAtomic's temporary files; list() never shows them. */
export const TEMP_SUFFIX = ".halo-tmp";
/** Longest path the port accepts. */
export const MAX_STORAGE_PATH_CHARS = 1024;

/** Temporary name of `path`, in the same folder so the rename stays on one volume. */
export function tempPathOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return `${path.slice(0, slash + 1)}.${path.slice(slash + 1)}${TEMP_SUFFIX}`;
}

/** Throws unless `offset` (of Storage.readRange) is a whole number of bytes from the start. */
export function checkOffset(offset: number): void {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new Error("bad offset");
}

/**
 * Throws unless `path` is relative, '/'-separated, without empty, "." or ".."
 * segments, backslashes or control characters. Callers validate first; this is
 * the last line that keeps every write inside the card.
 */
export function checkStoragePath(path: string, allowRoot = false): void {
  if (typeof path !== "string") throw new Error("bad path");
  if (path === "" && allowRoot) return;
  if (path.length === 0 || path.length > MAX_STORAGE_PATH_CHARS) throw new Error("bad path");
  if (/[\u0000-\u001f\u007f\\:]/.test(path) || path.startsWith("/") || path.endsWith(TEMP_SUFFIX)) throw new Error("bad path");
  for (const segment of path.split("/")) {
    if (segment === "" || segment === "." || segment === "..") throw new Error("bad path");
  }
}
