// Settings port over Moddable's Preference module (NVS on ESP32, a JSON file
// on lin). NVS keys hold at most 15 characters and lib/ keys run to 64, so each
// key is stored under "k" + its djb2 hash, and the value keeps the full key in
// front of it ("key\nvalue") to detect a collision and to list keys by prefix.
import Preference from "preference";
import { SETTINGS_VALUE_MAX_BYTES } from "../../../lib/limits";
import { djb2Hex } from "../../../lib/util/hash";
import { utf8Length } from "../../../lib/util/utf8";
import type { Settings } from "../../../lib/ports";

const DOMAIN = "halo";
const KEY = /^[a-z0-9._-]{1,64}$/;

function checkKey(key: string): void {
  if (!KEY.test(key) || key.startsWith(".")) throw new Error("bad settings key");
}

function slot(key: string): string {
  return "k" + djb2Hex(key);
}

/** The stored [key, value] pair of an NVS slot, or undefined. */
function readSlot(name: string): [string, string] | undefined {
  const stored = Preference.get(DOMAIN, name);
  if (typeof stored !== "string") return undefined;
  const nl = stored.indexOf("\n");
  return nl < 0 ? undefined : [stored.slice(0, nl), stored.slice(nl + 1)];
}

export const preferenceSettings: Settings = {
  get(key: string): string | undefined {
    checkKey(key);
    const pair = readSlot(slot(key));
    return pair && pair[0] === key ? pair[1] : undefined;
  },
  set(key: string, value: string): void {
    checkKey(key);
    if (utf8Length(value) > SETTINGS_VALUE_MAX_BYTES) throw new Error("the setting is too large to store");
    const name = slot(key);
    const pair = readSlot(name);
    if (pair && pair[0] !== key) throw new Error("settings key collision");
    Preference.set(DOMAIN, name, key + "\n" + value);
  },
  remove(key: string): void {
    checkKey(key);
    const name = slot(key);
    const pair = readSlot(name);
    if (pair && pair[0] === key) Preference.delete(DOMAIN, name);
  },
  keys(prefix: string): string[] {
    const out: string[] = [];
    for (const name of Preference.keys(DOMAIN)) {
      const pair = readSlot(name);
      if (pair?.[0].startsWith(prefix)) out.push(pair[0]);
    }
    return out.sort();
  },
};
