// Settings port over a folder: one file per key, written atomically. What was read or written is kept in
// memory too (this process owns the folder), so a read is not a file open: secrets, knobs and the
// availability of tools are read on every listing and call.
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Settings } from "../../../lib/ports.ts";
import { checkKey, checkValue, SETTINGS_KEY } from "./memory-settings.ts";

export function folderSettings(dir: string): Settings {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const known = new Map<string, string | undefined>();
  return {
    get(key) {
      checkKey(key);
      if (known.has(key)) return known.get(key);
      let value: string | undefined;
      try {
        value = readFileSync(join(dir, key), "utf8");
      } catch {
        value = undefined;
      }
      known.set(key, value);
      return value;
    },
    set(key, value) {
      checkKey(key);
      checkValue(value);
      const tmp = join(dir, `.${key}.tmp`);
      const fd = openSync(tmp, "w", 0o600);
      try {
        writeSync(fd, value);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, join(dir, key));
      known.set(key, value);
    },
    remove(key) {
      checkKey(key);
      rmSync(join(dir, key), { force: true });
      known.set(key, undefined);
    },
    keys(prefix) {
      return readdirSync(dir)
        .filter((k) => k.startsWith(prefix) && SETTINGS_KEY.test(k) && !k.startsWith("."))
        .sort();
    },
  };
}
