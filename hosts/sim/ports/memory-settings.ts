// Settings port in memory (no Node imports: also bundled for the XS test host).
import { SETTINGS_VALUE_MAX_BYTES } from "../../../lib/limits.ts";
import type { Settings } from "../../../lib/ports.ts";
import { utf8Length } from "../../../lib/util/utf8.ts";

export const SETTINGS_KEY: RegExp = /^[a-z0-9._-]{1,64}$/;

export function checkKey(key: string): void {
  if (!SETTINGS_KEY.test(key) || key.startsWith(".")) throw new Error("bad settings key");
}

/** The device's limit, enforced by every implementation so tests fail where the device would. */
export function checkValue(value: string): void {
  if (utf8Length(value) > SETTINGS_VALUE_MAX_BYTES) throw new Error("the setting is too large to store");
}

export function memorySettings(): Settings {
  const map = new Map<string, string>();
  return {
    get: (key) => map.get(key),
    set: (key, value) => void (checkKey(key), checkValue(value), map.set(key, value)),
    remove: (key) => void map.delete(key),
    keys: (prefix) =>
      Array.from(map.keys())
        .filter((k) => k.startsWith(prefix))
        .sort(),
  };
}
