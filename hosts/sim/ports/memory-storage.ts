// Storage port in memory, with a card that can be pulled and reinserted (tests, generators, benches).
import type { FileStat, Storage } from "../../../lib/ports.ts";

export interface MemoryStorage extends Storage {
  pull(): void;
  insert(): void;
  /** Every file and its bytes (tests inspect what was written). */
  files: Map<string, Uint8Array>;
}

export function memoryStorage(capacityBytes = 64 * 1024 * 1024): MemoryStorage {
  const files = new Map<string, Uint8Array>();
  const mtimes = new Map<string, number>();
  let present = true;
  const used = (): number => {
    let n = 0;
    for (const b of files.values()) n += b.length;
    return n;
  };
  const card = (): void => {
    if (!present) throw new Error("no SD card");
  };
  const put = (path: string, data: Uint8Array): void => {
    const old = files.get(path)?.length ?? 0;
    if (used() - old + data.length > capacityBytes) throw new Error("the SD card is full");
    files.set(path, data);
    mtimes.set(path, Date.now());
  };
  return {
    files,
    pull: () => void (present = false),
    insert: () => void (present = true),
    present: () => present,
    read(path) {
      card();
      const b = files.get(path);
      return b ? b.slice() : undefined;
    },
    writeAtomic(path, data) {
      card();
      put(path, data.slice());
    },
    append(path, data) {
      card();
      const old = files.get(path) ?? new Uint8Array(0);
      const next = new Uint8Array(old.length + data.length);
      next.set(old);
      next.set(data, old.length);
      put(path, next);
    },
    rename(from, to) {
      card();
      const b = files.get(from);
      if (!b) throw new Error("no such file");
      files.delete(from);
      files.set(to, b);
      mtimes.set(to, mtimes.get(from) ?? Date.now());
    },
    remove(path) {
      card();
      files.delete(path);
      for (const p of Array.from(files.keys())) if (p.startsWith(path + "/")) files.delete(p);
    },
    list(dir) {
      card();
      const prefix = dir === "" ? "" : dir.replace(/\/$/, "") + "/";
      const names = new Set<string>();
      for (const p of files.keys()) if (p.startsWith(prefix)) names.add(p.slice(prefix.length).split("/")[0]);
      return Array.from(names).sort();
    },
    stat(path): FileStat | undefined {
      card();
      const b = files.get(path);
      if (b) return { size: b.length, mtime: mtimes.get(path) ?? 0, directory: false };
      for (const p of files.keys()) if (p.startsWith(path + "/")) return { size: 0, mtime: 0, directory: true };
      return undefined;
    },
    freeBytes() {
      card();
      return capacityBytes - used();
    },
  };
}
