// The device's Storage port, over Halo's SD-card module (modules/sdcard) only:
// a FAT card over SPI on the ESP32-S3, a folder on lin and on the XS test host.
// Atomic replace follows the staged protocol of modules/sdcard/replace.ts
// (FAT's rename never replaces); a pulled card unmounts, reads as absent and
// is mounted again with backoff (card-mount.ts). Errors are short sentences
// that never name a path.
import type { FileStat, Log, Storage } from "../../../lib/ports";
import { utf8Length } from "../../../lib/util/utf8";
import { BACKUP_SUFFIX, renameOver, REPLACE_MARKER, replaceFileFrom, recoverReplace, TEMP_SUFFIX } from "../../../modules/sdcard/replace";
import type { ReplaceStep } from "../../../modules/sdcard/replace";
import { errnoOf, SDCARD_MAX_PATH_BYTES } from "../../../modules/sdcard/common";
import type { SdCard, SdMountOptions } from "../../../modules/sdcard/sdcard";
import { CardMount } from "./card-mount";
import { storageErrorSentence } from "../../../lib/store/storage-errors";
import { onePiece } from "../../../lib/util/bytes";

export interface SdStorageOptions {
  card: SdCard;
  mount: SdMountOptions;
  /** Monotonic milliseconds, for the remount backoff. */
  now: () => number;
  log?: Log;
  /** Tests: called after each step of a replace (writeAtomic, rename over a file). */
  onStep?: (step: ReplaceStep, path: string) => void;
}

/** The Storage port plus the mount it runs on (for status and tests). */
export interface SdStorage extends Storage {
  readonly mount: CardMount;
}

const LONGEST_SUFFIX = Math.max(TEMP_SUFFIX.length, BACKUP_SUFFIX.length);
const FAT_REFUSED = /[\u0000-\u001f\u007f\\:*?"<>|]/;

export function sdStorage(options: SdStorageOptions): SdStorage {
  const { card } = options;
  const mount = new CardMount(card, options.mount, options.now, options.log);
  mount.ensure();
  /** Bytes a relative path may take: the mount point, "/", the longest suffix and the NUL come off. */
  const maxPathBytes = SDCARD_MAX_PATH_BYTES - utf8Length(options.mount.root.replace(/\/+$/, "")) - 2 - LONGEST_SUFFIX;

  const checkPath = (path: string, allowRoot = false): void => {
    if (typeof path !== "string") throw new Error("bad path");
    if (path === "" && allowRoot) return;
    if (path === "" || path.length > maxPathBytes || utf8Length(path) > maxPathBytes || FAT_REFUSED.test(path)) throw new Error("bad path");
    if (path.startsWith("/") || path.endsWith(TEMP_SUFFIX) || path.endsWith(BACKUP_SUFFIX) || path === REPLACE_MARKER)
      throw new Error("bad path");
    for (const segment of path.split("/")) if (segment === "" || segment === "." || segment === "..") throw new Error("bad path");
  };

  /** Runs `step` on a mounted card, turning module errors into the port's sentences. */
  const onCard = <T>(step: () => T): T => {
    if (!mount.ensure()) throw new Error("no SD card");
    try {
      return step();
    } catch (e) {
      const errno = errnoOf(e);
      if (errno === undefined) throw e;
      if (errno === "EIO" || errno === "ENODEV" || !card.mounted()) {
        mount.lost();
        throw new Error("no SD card");
      }
      throw new Error(storageErrorSentence(errno));
    }
  };

  /** Makes the folders above `path`. */
  const makeParents = (path: string): void => {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join("/");
      const info = card.stat(folder);
      if (info === undefined) card.mkdir(folder);
      else if (!info.directory) throw new Error("a parent is a file");
    }
  };

  const readAll = (path: string): Uint8Array => {
    const handle = card.open(path, "r");
    try {
      const bytes = new Uint8Array(card.size(handle));
      let got = 0;
      for (let n = 1; got < bytes.length && n > 0; got += n) n = card.read(handle, bytes.subarray(got));
      return got === bytes.length ? bytes : bytes.slice(0, got);
    } finally {
      card.close(handle);
    }
  };

  /**
   * After a replace the card refused (ENOSPC...) while still there, or whose producer threw (`refused`),
   * undo it now rather than at the next mount.
   */
  const undoOnFailure = <T>(step: () => T, refused?: () => boolean): T => {
    try {
      return step();
    } catch (e) {
      if (card.mounted() && (errnoOf(e) !== undefined || refused?.())) {
        try {
          recoverReplace(card);
        } catch {
          // the next mount recovers
        }
      }
      throw e;
    }
  };

  const hook = (path: string) => (options.onStep ? (step: ReplaceStep) => options.onStep?.(step, path) : undefined);

  const writeAtomicFrom = (path: string, next: () => Uint8Array | undefined): void =>
    onCard(() => {
      checkPath(path);
      makeParents(path);
      if (card.stat(path)?.directory) throw new Error("a folder has that name");
      let refused = false;
      const pieces = (): Uint8Array | undefined => {
        try {
          return next();
        } catch (e) {
          refused = true;
          throw e;
        }
      };
      undoOnFailure(
        () => replaceFileFrom(card, path, pieces, hook(path)),
        () => refused,
      );
    });

  return {
    mount,
    present: (): boolean => mount.present(),
    read: (path: string): Uint8Array | undefined =>
      onCard(() => {
        checkPath(path);
        const info = card.stat(path);
        if (info === undefined) return undefined;
        if (info.directory) throw new Error("a folder has that name");
        return readAll(path);
      }),
    readRange: (path: string, offset: number, into: Uint8Array): number | undefined =>
      onCard(() => {
        checkPath(path);
        if (!Number.isSafeInteger(offset) || offset < 0) throw new Error("bad offset");
        const info = card.stat(path);
        if (info === undefined) return undefined;
        if (info.directory) throw new Error("a folder has that name");
        if (offset >= info.size || into.length === 0) return 0;
        const handle = card.open(path, "r");
        try {
          card.seek(handle, offset);
          let got = 0;
          for (let n = 1; got < into.length && n > 0; got += n) n = card.read(handle, into.subarray(got));
          return got;
        } finally {
          card.close(handle);
        }
      }),
    writeAtomic: (path: string, data: Uint8Array): void => writeAtomicFrom(path, onePiece(data)),
    writeAtomicFrom,
    append: (path: string, data: Uint8Array): void =>
      onCard(() => {
        checkPath(path);
        makeParents(path);
        const before = card.stat(path);
        if (before?.directory) throw new Error("a folder has that name");
        const handle = card.open(path, "a");
        try {
          card.write(handle, data);
          card.sync(handle);
        } catch (e) {
          // a refused append leaves the file as it was (a pulled card is beyond reach: its torn tail is the reader's to drop)
          if (card.mounted()) card.truncate(handle, before?.size ?? 0);
          throw e;
        } finally {
          card.close(handle);
        }
      }),
    rename: (from: string, to: string): void =>
      onCard(() => {
        checkPath(from);
        checkPath(to);
        if (card.stat(from) === undefined) throw new Error("no such file");
        if (from === to) return;
        makeParents(to);
        if (card.stat(to)?.directory) throw new Error("a folder has that name");
        undoOnFailure(() => renameOver(card, from, to, hook(to)));
      }),
    remove: (path: string): void =>
      onCard(() => {
        checkPath(path);
        const info = card.stat(path);
        if (info === undefined) return;
        if (info.directory) card.rmdir(path);
        else card.unlink(path);
      }),
    list: (dir: string): string[] =>
      onCard(() => {
        checkPath(dir, true);
        const info = card.stat(dir);
        if (info === undefined || !info.directory) return [];
        return card
          .readdir(dir)
          .filter((n) => !n.endsWith(TEMP_SUFFIX) && !n.endsWith(BACKUP_SUFFIX) && !(dir === "" && n === REPLACE_MARKER))
          .sort();
      }),
    stat: (path: string): FileStat | undefined =>
      onCard(() => {
        checkPath(path);
        const info = card.stat(path);
        return info === undefined ? undefined : { size: info.size, mtime: info.mtime, directory: info.directory };
      }),
    freeBytes: (): number => onCard(() => card.space()[0]),
  };
}
