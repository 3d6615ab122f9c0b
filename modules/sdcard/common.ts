// The SD module's bounds and error names, apart from the native bindings so
// that code which only needs these (and Node-side tests) can import them.

/** Bytes of a full path on the card, the mount point and the terminating NUL included (SDCARD_MAX_PATH). */
export const SDCARD_MAX_PATH_BYTES = 256;
/** Files open at once (SDCARD_MAX_FILES). */
export const SDCARD_MAX_FILES = 8;
/** Names one readdir returns at most (SDCARD_MAX_ENTRIES); past it readdir throws E2BIG. */
export const SDCARD_MAX_ENTRIES = 4096;

const ERRNO = /\b(E[A-Z0-9]+)\b/;

/** The errno name a module error carries ("ENOENT"...), "bad path" for a refused path, or undefined for anything else. */
export function errnoOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error instanceof RangeError && /bad path/.test(error.message)) return "bad path";
  const m = ERRNO.exec(error.message);
  return m ? m[1] : undefined;
}
