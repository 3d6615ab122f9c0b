// Storage port in memory, with a card that can be pulled and reinserted (tests, generators, benches).
// No Node imports: XS test scenarios use it too. Folders exist implicitly, as prefixes of file paths.
import type { FileStat } from "../../../lib/ports.ts";
import { concatBytes, onePiece } from "../../../lib/util/bytes.ts";
import { checkOffset, checkStoragePath, tempPathOf, TEMP_SUFFIX, type RemovableStorage, type StorageFaults } from "./removable.ts";

export interface MemoryStorage extends RemovableStorage {
  /** Every file and its bytes (tests inspect what was written). */
  files: Map<string, Uint8Array>;
}

export function memoryStorage(capacityBytes = 64 * 1024 * 1024, faults: StorageFaults = {}): MemoryStorage {
  const files = new Map<string, Uint8Array>();
  const mtimes = new Map<string, number>();
  /** The appended file whose buffer has spare room after it (only this module's own buffers grow in place). */
  const spare = new Map<string, Uint8Array>();
  let present = true;
  let used = 0;
  const card = (): void => {
    if (!present) throw new Error("no SD card");
  };
  const isFolder = (path: string): boolean => {
    for (const p of files.keys()) if (p.startsWith(path + "/")) return true;
    return false;
  };
  /** A file may not sit where a folder is, nor under a file. An existing file is in a good place. */
  const checkPlace = (path: string): void => {
    if (files.has(path)) return;
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) if (files.has(parts.slice(0, i).join("/"))) throw new Error("a parent is a file");
    if (isFolder(path)) throw new Error("a folder has that name");
  };
  const put = (path: string, data: Uint8Array): void => {
    const old = files.get(path)?.length ?? 0;
    if (used - old + data.length > capacityBytes) throw new Error("the SD card is full");
    files.set(path, data);
    used += data.length - old;
    mtimes.set(path, Date.now());
  };
  const drop = (path: string): void => {
    const old = files.get(path);
    if (!old) return;
    used -= old.length;
    files.delete(path);
    mtimes.delete(path);
    spare.delete(path);
  };
  const writeAtomicFrom = (path: string, next: () => Uint8Array | undefined): void => {
    card();
    checkStoragePath(path);
    checkPlace(path);
    // The temporary file takes the pieces as they come (copies: the producer may reuse its buffer); the
    // card is checked before each, so a pull mid-write stops it with the old file untouched.
    const pieces: Uint8Array[] = [];
    let size = 0;
    for (let piece = next(); piece !== undefined; piece = next()) {
      card();
      if (used + size + piece.length > capacityBytes) throw new Error("the SD card is full");
      pieces.push(piece.slice());
      size += piece.length;
    }
    const temp = tempPathOf(path);
    put(temp, pieces.length === 1 ? pieces[0] : concatBytes(pieces));
    faults.beforeRename?.(path);
    card(); // pulled before the rename: the old file is untouched
    const bytes = files.get(temp)!;
    drop(temp);
    put(path, bytes);
  };
  return {
    files,
    pull: () => {
      present = false;
    },
    insert: () => {
      present = true;
    },
    present: () => present,
    read(path) {
      card();
      checkStoragePath(path);
      const b = files.get(path);
      return b ? b.slice() : undefined;
    },
    readRange(path, offset, into) {
      card();
      checkStoragePath(path);
      checkOffset(offset);
      const b = files.get(path);
      if (!b) return undefined;
      const n = Math.max(0, Math.min(into.length, b.length - offset));
      into.set(b.subarray(offset, offset + n));
      return n;
    },
    writeAtomic(path, data) {
      writeAtomicFrom(path, onePiece(data));
    },
    writeAtomicFrom,
    append(path, data) {
      card();
      checkStoragePath(path);
      checkPlace(path);
      const old = files.get(path) ?? new Uint8Array(0);
      // Room to grow in place (doubling), so many small appends cost linear time.
      const room = old.buffer.byteLength - old.byteOffset - old.length;
      let next: Uint8Array;
      if (room >= data.length && spare.get(path) === old) next = new Uint8Array(old.buffer, old.byteOffset, old.length + data.length);
      else {
        next = new Uint8Array(new ArrayBuffer(Math.max(64, 2 * (old.length + data.length))), 0, old.length + data.length);
        next.set(old);
      }
      next.set(data, old.length);
      put(path, next);
      spare.set(path, next);
    },
    rename(from, to) {
      card();
      checkStoragePath(from);
      checkStoragePath(to);
      const b = files.get(from);
      if (!b) throw new Error("no such file");
      if (from === to) return;
      checkPlace(to);
      const mtime = mtimes.get(from) ?? Date.now();
      drop(from);
      drop(to);
      put(to, b);
      mtimes.set(to, mtime);
    },
    remove(path) {
      card();
      checkStoragePath(path);
      drop(path);
      for (const p of Array.from(files.keys())) if (p.startsWith(path + "/")) drop(p);
    },
    list(dir) {
      card();
      checkStoragePath(dir, true);
      const prefix = dir === "" ? "" : dir + "/";
      const names = new Set<string>();
      for (const p of files.keys()) {
        if (!p.startsWith(prefix)) continue;
        const name = p.slice(prefix.length).split("/")[0];
        if (!name.endsWith(TEMP_SUFFIX)) names.add(name);
      }
      return Array.from(names).sort();
    },
    stat(path): FileStat | undefined {
      card();
      checkStoragePath(path);
      const b = files.get(path);
      if (b) return { size: b.length, mtime: mtimes.get(path) ?? 0, directory: false };
      return isFolder(path) ? { size: 0, mtime: 0, directory: true } : undefined;
    },
    freeBytes() {
      card();
      return capacityBytes - used;
    },
  };
}
