// Settings port in memory (no Node imports: also bundled for the XS test host).
import type { Settings } from "../../../lib/ports.ts";

export const SETTINGS_KEY: RegExp = /^[a-z0-9._-]{1,64}$/;

export function checkKey(key: string): void {
  if (!SETTINGS_KEY.test(key) || key.startsWith(".")) throw new Error("bad settings key");
}

export function memorySettings(): Settings {
  const map = new Map<string, string>();
  return {
    get: (key) => map.get(key),
    set: (key, value) => void (checkKey(key), map.set(key, value)),
    remove: (key) => void map.delete(key),
    keys: (prefix) => Array.from(map.keys()).filter((k) => k.startsWith(prefix)).sort(),
  };
}
