// The simulator's SD card: a folder ($HALO_DATA/sd). pull() and insert() take
// the card out and put it back while the simulator runs; a missing folder also
// reads as an absent card. Errors are short sentences without host paths.
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  statfsSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { FileStat } from "../../../lib/ports.ts";
import { onePiece } from "../../../lib/util/bytes.ts";
import { checkOffset, checkStoragePath, tempPathOf, TEMP_SUFFIX, type RemovableStorage, type StorageFaults } from "./removable.ts";
import { storageErrorSentence } from "../../../lib/store/storage-errors.ts";

export interface FolderStorageOptions extends StorageFaults {
  /** A simulated card size: writes past it fail as on a full card, and freeBytes() counts down from it. */
  capacityBytes?: number;
  /** Creates the folder when missing (default true). */
  create?: boolean;
}

/** The Node error as one short sentence, never naming the host path. */
function portError(e: unknown): Error {
  const code = (e as { code?: string }).code;
  return new Error(storageErrorSentence(code));
}

function writeFileSynced(path: string, data: Uint8Array, flags: "w" | "a"): void {
  const fd = openSync(path, flags, 0o600);
  try {
    for (let at = 0; at < data.length;) at += writeSync(fd, data, at, data.length - at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function folderBytes(dir: string): number {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    n += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return n;
}

export function folderStorage(root: string, options: FolderStorageOptions = {}): RemovableStorage {
  if (options.create !== false) mkdirSync(root, { recursive: true, mode: 0o700 });
  let pulled = false;
  const present = (): boolean => !pulled && existsSync(root);
  const card = (): void => {
    if (!present()) throw new Error("no SD card");
  };
  /** Runs a file-system step with the card checked and Node's error turned into a port error. */
  const onCard = <T>(path: string, allowRoot: boolean, step: (full: string) => T): T => {
    card();
    checkStoragePath(path, allowRoot);
    try {
      return step(path === "" ? root : join(root, path));
    } catch (e) {
      throw e instanceof Error && !(e as { code?: string }).code ? e : portError(e);
    }
  };
  /** Bytes `full` may hold on the simulated card, its old contents counted as free (Infinity without a size). */
  const roomFor = (full: string): number => {
    if (options.capacityBytes === undefined) return Number.POSITIVE_INFINITY;
    const replaced = existsSync(full) ? statSync(full).size : 0;
    return options.capacityBytes - folderBytes(root) + replaced;
  };
  const ensureRoom = (full: string, adding: number): void => {
    if (adding > roomFor(full)) throw new Error("the SD card is full");
  };
  const parentOf = (full: string): string => full.slice(0, full.lastIndexOf("/"));

  const writeAtomicFrom = (path: string, next: () => Uint8Array | undefined): void =>
    onCard(path, false, (full) => {
      const temp = join(root, tempPathOf(path));
      mkdirSync(parentOf(full), { recursive: true, mode: 0o700 });
      const room = roomFor(full);
      const fd = openSync(temp, "w", 0o600);
      let closed = false;
      try {
        let written = 0;
        for (let piece = next(); piece !== undefined; piece = next()) {
          card(); // pulled mid-write: the old file is untouched
          if (written + piece.length > room) throw new Error("the SD card is full");
          for (let at = 0; at < piece.length;) at += writeSync(fd, piece, at, piece.length - at);
          written += piece.length;
        }
        fsyncSync(fd);
        closeSync(fd);
        closed = true;
        options.beforeRename?.(path);
        card(); // pulled before the rename: the old file is untouched
        if (existsSync(full) && statSync(full).isDirectory()) throw new Error("a folder has that name");
        renameSync(temp, full);
      } catch (e) {
        if (!closed) closeSync(fd);
        if (existsSync(temp)) rmSync(temp);
        throw e;
      }
    });

  return {
    pull: () => {
      pulled = true;
    },
    insert: () => {
      pulled = false;
    },
    present,
    read: (path) =>
      onCard(path, false, (full) => {
        try {
          return new Uint8Array(readFileSync(full));
        } catch (e) {
          if ((e as { code?: string }).code === "ENOENT") return undefined;
          throw e;
        }
      }),
    readRange: (path, offset, into) =>
      onCard(path, false, (full) => {
        checkOffset(offset);
        let fd: number;
        try {
          fd = openSync(full, "r");
        } catch (e) {
          if ((e as { code?: string }).code === "ENOENT") return undefined;
          throw e;
        }
        try {
          let got = 0;
          for (let n = 1; got < into.length && n > 0; got += n) n = readSync(fd, into, got, into.length - got, offset + got);
          return got;
        } finally {
          closeSync(fd);
        }
      }),
    writeAtomic: (path, data) => writeAtomicFrom(path, onePiece(data)),
    writeAtomicFrom,
    append: (path, data) =>
      onCard(path, false, (full) => {
        mkdirSync(parentOf(full), { recursive: true, mode: 0o700 });
        ensureRoom(full, (existsSync(full) ? statSync(full).size : 0) + data.length);
        writeFileSynced(full, data, "a");
      }),
    rename: (from, to) =>
      onCard(from, false, (fullFrom) => {
        checkStoragePath(to);
        const fullTo = join(root, to);
        if (!existsSync(fullFrom)) throw new Error("no such file");
        mkdirSync(parentOf(fullTo), { recursive: true, mode: 0o700 });
        renameSync(fullFrom, fullTo);
      }),
    remove: (path) =>
      onCard(path, false, (full) => {
        if (!existsSync(full)) return;
        if (statSync(full).isDirectory()) rmdirSync(full);
        else rmSync(full);
      }),
    list: (dir) =>
      onCard(dir, true, (full) => {
        if (!existsSync(full) || !statSync(full).isDirectory()) return [];
        return readdirSync(full)
          .filter((n) => !n.endsWith(TEMP_SUFFIX))
          .sort();
      }),
    stat: (path) =>
      onCard(path, false, (full): FileStat | undefined => {
        if (!existsSync(full)) return undefined;
        const s = statSync(full);
        return { size: s.isDirectory() ? 0 : s.size, mtime: Math.floor(s.mtimeMs), directory: s.isDirectory() };
      }),
    freeBytes: () =>
      onCard("", true, () => {
        const fs = statfsSync(root);
        const disk = Number(fs.bavail) * Number(fs.bsize);
        return options.capacityBytes === undefined ? disk : Math.max(0, Math.min(disk, options.capacityBytes - folderBytes(root)));
      }),
  };
}
