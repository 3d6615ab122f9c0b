// Atomic replace on FAT, whose rename never replaces an existing file. One
// replace runs at a time (the Storage port is synchronous), so one marker file
// at the card's root names the replace in flight; mount-time recovery reads it
// and finishes or undoes the replace, whatever step a power cut or a pulled
// card stopped it at. Only the marker is read at boot: no scan of the card.
//
// writeAtomic(path):                         rename(from, to) with `to` present:
//   1 marker   "W\n<path>.halo-tmp\n<path>\n.\n"   1 marker "R\n<from>\n<to>\n.\n"
//   2 temp     <path>.halo-tmp written, synced     -
//   3 backup   <path> -> <path>.halo-old (if present)  3 backup <to> -> <to>.halo-old
//   4 swap     <path>.halo-tmp -> <path>           4 swap   <from> -> <to>
//   5 cleanup  unlink <path>.halo-old              5 cleanup unlink <to>.halo-old
//   6 done     unlink the marker                   6 done   unlink the marker
//
// Recovery: with a backup present the source was complete (step 2 ends before
// step 3 starts), so a missing target is finished from the source (or, with no
// source, restored from the backup) and the backup removed. Without a backup a
// leftover temporary file is an unfinished write: it is removed and the old
// file stays. A marker that is not whole was cut during step 1: nothing else
// happened yet, so it is removed; so is a marker naming paths the card cannot
// hold, or, for a write, a source that is not the target's temporary file.
import type { SdCard } from "./sdcard";

/** Suffix of a replacement being written; the Storage port hides and refuses these names. */
export const TEMP_SUFFIX = ".halo-tmp";
/** Suffix of the old file while its replacement moves in. */
export const BACKUP_SUFFIX = ".halo-old";
/** The marker of the replace in flight, at the card's root. */
export const REPLACE_MARKER = ".halo-replace";
/** Bytes written per call: a cut can land between two of them. */
export const REPLACE_WRITE_CHUNK = 32 * 1024;
/** Longest marker read back (two 255-byte paths and the framing). */
const MARKER_MAX_BYTES = 1024;

export type ReplaceStep = "marker" | "temp-partial" | "temp" | "backup" | "swap" | "cleanup" | "done";

/** Called after each step; a test throws from it to cut the replace there. */
export type StepHook = (step: ReplaceStep) => void;

function exists(card: SdCard, path: string): boolean {
  return card.stat(path) !== undefined;
}

/** Writes `data` to `path` (created or truncated), in chunks, synced before close. */
export function writeWhole(card: SdCard, path: string, data: Uint8Array, onChunk?: () => void): void {
  const handle = card.open(path, "w");
  try {
    for (let at = 0; at < data.length; at += REPLACE_WRITE_CHUNK) {
      if (at > 0) onChunk?.();
      card.write(handle, data.subarray(at, Math.min(data.length, at + REPLACE_WRITE_CHUNK)));
    }
    card.sync(handle);
  } finally {
    card.close(handle);
  }
}

function writeMarker(card: SdCard, kind: "W" | "R", source: string, target: string): void {
  writeWhole(card, REPLACE_MARKER, new TextEncoder().encode(`${kind}\n${source}\n${target}\n.\n`));
}

/** Moves `source` over `target` (which may be absent) by steps 3-6, the marker already written. */
function swapIn(card: SdCard, source: string, target: string, hook: StepHook | undefined): void {
  const backup = target + BACKUP_SUFFIX;
  const had = exists(card, target);
  if (had) {
    if (exists(card, backup)) card.unlink(backup);
    card.rename(target, backup);
  }
  hook?.("backup");
  card.rename(source, target);
  hook?.("swap");
  if (had) card.unlink(backup);
  hook?.("cleanup");
  card.unlink(REPLACE_MARKER);
  hook?.("done");
}

/**
 * Writes the pieces `next` gives (until undefined) to `path` (created or truncated), each in chunks of at
 * most REPLACE_WRITE_CHUNK, synced before close; `onChunk` runs before every write but the first.
 */
export function writePieces(card: SdCard, path: string, next: () => Uint8Array | undefined, onChunk?: () => void): void {
  const handle = card.open(path, "w");
  try {
    let first = true;
    for (let piece = next(); piece !== undefined; piece = next()) {
      for (let at = 0; at < piece.length; at += REPLACE_WRITE_CHUNK) {
        if (!first) onChunk?.();
        first = false;
        card.write(handle, piece.subarray(at, Math.min(piece.length, at + REPLACE_WRITE_CHUNK)));
      }
    }
    card.sync(handle);
  } finally {
    card.close(handle);
  }
}

/**
 * Replaces (or creates) `path` with the pieces `next` gives (each written before it is called again) so
 * that a cut at any point leaves the old or the new file. A throw from `next` leaves the marker and a
 * partial temporary file, which recoverReplace removes (the old file stays).
 */
export function replaceFileFrom(card: SdCard, path: string, next: () => Uint8Array | undefined, hook?: StepHook): void {
  const temp = path + TEMP_SUFFIX;
  writeMarker(card, "W", temp, path);
  hook?.("marker");
  writePieces(card, temp, next, () => hook?.("temp-partial"));
  hook?.("temp");
  swapIn(card, temp, path, hook);
}

/** Renames `from` over an existing `to`, recoverably (a plain rename when `to` is absent). */
export function renameOver(card: SdCard, from: string, to: string, hook?: StepHook): void {
  if (!exists(card, to)) {
    card.rename(from, to);
    return;
  }
  writeMarker(card, "R", from, to);
  hook?.("marker");
  swapIn(card, from, to, hook);
}

function readMarker(card: SdCard): string | undefined {
  const info = card.stat(REPLACE_MARKER);
  if (info === undefined || info.directory || info.size > MARKER_MAX_BYTES) return undefined;
  const handle = card.open(REPLACE_MARKER, "r");
  try {
    const bytes = new Uint8Array(info.size);
    let got = 0;
    for (let n = 1; got < bytes.length && n > 0; got += n) n = card.read(handle, bytes.subarray(got));
    return new TextDecoder().decode(bytes.subarray(0, got));
  } finally {
    card.close(handle);
  }
}

/** Whether the card takes `path` as a file path (the module refuses a bad one with a RangeError). */
function plausible(card: SdCard, path: string): boolean {
  if (path === "" || path === REPLACE_MARKER) return false;
  try {
    card.stat(path);
    return true;
  } catch (e) {
    if (e instanceof RangeError) return false;
    throw e;
  }
}

/**
 * Finishes or undoes the replace the marker names (see the top of this file).
 * Returns what it did: "none" (no marker), "finished", "undone" or "discarded" (a partial marker).
 */
export function recoverReplace(card: SdCard): "none" | "finished" | "undone" | "discarded" {
  if (!exists(card, REPLACE_MARKER)) return "none";
  const lines = (readMarker(card) ?? "").split("\n");
  const whole = lines.length === 5 && (lines[0] === "W" || lines[0] === "R") && lines[3] === "." && lines[4] === "";
  const [kind, source, target] = lines;
  // a W marker names its own temporary file: one naming anything else is not ours to delete
  if (!whole || !plausible(card, source) || !plausible(card, target) || (kind === "W" && source !== target + TEMP_SUFFIX)) {
    card.unlink(REPLACE_MARKER);
    return "discarded";
  }
  const backup = target + BACKUP_SUFFIX;
  let outcome: "finished" | "undone";
  if (exists(card, backup)) {
    outcome = "finished";
    if (!exists(card, target)) {
      const from = exists(card, source) ? source : backup;
      if (from === backup) outcome = "undone";
      card.rename(from, target);
    }
    if (exists(card, backup)) card.unlink(backup);
  } else {
    outcome = kind === "W" && exists(card, source) ? "undone" : "finished";
  }
  if (kind === "W" && exists(card, source)) card.unlink(source);
  card.unlink(REPLACE_MARKER);
  return outcome;
}
