// Storage port over Moddable's `file` module, rooted at a folder. On lin the
// folder is on the PC. On the device it is meant to be the SD card's mount
// point, but the Moddable SDK has no SD-card module and Halo's native mount
// module does not exist yet: there the folder is absent, present() is false
// and every other method refuses with "no SD card".
// Semantics follow the simulator's folder storage: parent folders are made on
// write, temporary files are hidden from list(), a missing folder lists empty.
import { Directory, File, Iterator } from "file";
import type { FileStat, Storage } from "../../../lib/ports";
import { FREE_SPACE_UNKNOWN } from "../../../lib/util/format";

/** Suffix of writeAtomic's temporary file, written beside its target. */
const TEMP = ".halo-tmp";
/** Suffix of a fully written replacement waiting to be renamed over its target. */
const STAGED = ".halo-new";
const MAX_PATH_CHARS = 1024;

/** The last line that keeps every path inside the card; callers validate first. */
function checkPath(path: string, allowRoot = false): void {
  if (path === "" && allowRoot) return;
  if (path.length === 0 || path.length > MAX_PATH_CHARS) throw new Error("bad path");
  if (/[\u0000-\u001f\u007f\\:]/.test(path) || path.startsWith("/") || path.endsWith(TEMP) || path.endsWith(STAGED)) {
    throw new Error("bad path");
  }
  for (const segment of path.split("/")) {
    if (segment === "" || segment === "." || segment === "..") throw new Error("bad path");
  }
}

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return (whole ? bytes.buffer : bytes.slice().buffer) as ArrayBuffer;
}

function isDirectory(path: string): boolean {
  try {
    const it = new Iterator(path);
    while (it.next() !== undefined); // runs the iterator to its end, which closes it
    return true;
  } catch {
    return false;
  }
}

function readAll(path: string): Uint8Array {
  const file = new File(path);
  try {
    return file.length === 0 ? new Uint8Array(0) : new Uint8Array(file.read(ArrayBuffer));
  } finally {
    file.close();
  }
}

function writeNew(path: string, data: Uint8Array): void {
  File.delete(path); // opening for write does not truncate
  const file = new File(path, true);
  try {
    if (data.length > 0) file.write(arrayBuffer(data));
  } finally {
    file.close();
  }
}

/**
 * Renames over an existing file. POSIX rename replaces; FAT refuses, so the
 * file is staged as `to.halo-new` first: a crash between the delete and the
 * last rename leaves a complete staged file, which read() finishes renaming.
 */
function renameOver(from: string, to: string): void {
  if (File.rename(from, to)) return;
  const staged = to + STAGED;
  File.delete(staged);
  if (!File.rename(from, staged)) throw new Error("the SD card operation failed");
  File.delete(to);
  if (!File.rename(staged, to)) throw new Error("the SD card operation failed");
}

export function fileStorage(root: string, create: boolean): Storage {
  if (create && !isDirectory(root)) {
    try {
      Directory.create(root);
    } catch {
      // present() reports it
    }
  }
  const present = (): boolean => isDirectory(root);
  const at = (path: string, allowRoot = false): string => {
    if (!present()) throw new Error("no SD card");
    checkPath(path, allowRoot);
    return root + path;
  };
  /** Makes the folders above `path` (relative), as the simulator's card does. */
  const makeParents = (path: string): void => {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) Directory.create(root + parts.slice(0, i).join("/"));
  };
  return {
    present,
    read(path: string): Uint8Array | undefined {
      const full = at(path);
      if (!File.exists(full)) {
        if (!File.exists(full + STAGED)) return undefined;
        if (!File.rename(full + STAGED, full)) throw new Error("the SD card operation failed");
      }
      if (isDirectory(full)) throw new Error("a folder has that name");
      return readAll(full);
    },
    writeAtomic(path: string, data: Uint8Array): void {
      const full = at(path);
      makeParents(path);
      if (isDirectory(full)) throw new Error("a folder has that name");
      writeNew(full + TEMP, data);
      renameOver(full + TEMP, full);
    },
    append(path: string, data: Uint8Array): void {
      const full = at(path);
      makeParents(path);
      const file = new File(full, true);
      try {
        file.position = file.length;
        if (data.length > 0) file.write(arrayBuffer(data));
      } finally {
        file.close();
      }
    },
    rename(from: string, to: string): void {
      const fullFrom = at(from);
      checkPath(to);
      if (!File.exists(fullFrom)) throw new Error("no such file");
      makeParents(to);
      renameOver(fullFrom, root + to);
    },
    remove(path: string): void {
      const full = at(path);
      if (!File.exists(full)) return;
      if (isDirectory(full)) Directory.delete(full);
      else File.delete(full);
    },
    list(dir: string): string[] {
      const full = at(dir, true);
      const names: string[] = [];
      let it: Iterator;
      try {
        it = new Iterator(full);
      } catch {
        return names;
      }
      for (let entry = it.next(); entry !== undefined; entry = it.next()) {
        const name = entry.name;
        if (name !== "." && name !== ".." && !name.endsWith(TEMP) && !name.endsWith(STAGED)) names.push(name);
      }
      return names.sort();
    },
    stat(path: string): FileStat | undefined {
      const full = at(path);
      if (!File.exists(full)) return undefined;
      // The file module reports no modification time: mtime is always 0 here.
      if (isDirectory(full)) return { size: 0, mtime: 0, directory: true };
      const file = new File(full);
      try {
        return { size: file.length, mtime: 0, directory: false };
      } finally {
        file.close();
      }
    },
    freeBytes(): number {
      at("", true);
      // The file module's System.info() describes its own flash partition, not
      // a mounted card, and says nothing on lin: free space is unknown here,
      // reported as the largest safe integer until the SD module can tell.
      return FREE_SPACE_UNKNOWN;
    },
  };
}
