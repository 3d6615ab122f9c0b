// Settings port over a folder: one file per key, written atomically.
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Settings } from "../../../lib/ports.ts";
import { checkKey, checkValue, SETTINGS_KEY } from "./memory-settings.ts";

export function folderSettings(dir: string): Settings {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return {
    get(key) {
      checkKey(key);
      try {
        return readFileSync(join(dir, key), "utf8");
      } catch {
        return undefined;
      }
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
    },
    remove(key) {
      checkKey(key);
      rmSync(join(dir, key), { force: true });
    },
    keys(prefix) {
      return readdirSync(dir)
        .filter((k) => k.startsWith(prefix) && SETTINGS_KEY.test(k) && !k.startsWith("."))
        .sort();
    },
  };
}
