// The Settings port over NVS through the SDK's `preference` module, within its
// limits on the ESP32: domain and entry names of at most 15 characters, values
// of at most 4,000 bytes. docs/storage.md has the mapping; in short:
//
// - One domain, "halo". A setting key k ([a-z0-9._-]{1,64}) has a base name:
//   k itself when it has at most 14 characters, else "#" and 12 base-32 digits
//   of a 60-bit hash of k (30 bits each of djb2 and FNV-1a); "#" never starts a
//   key, so the two forms never meet. The base name plus "a" or "b" names the
//   key's two NVS entries.
// - An entry is a blob (ArrayBuffer): the UTF-8 of "<generation>\n<k>\n<value>".
//   The full key inside tells keys() the names back and refuses a hash collision.
// - set() writes the entry that does not hold the current value, with the next
//   generation, then deletes the old one. The SDK erases an entry before it
//   writes it, so a power cut inside a write loses that entry: never the one
//   holding the current value. get() takes the highest generation present.
import { SETTINGS_VALUE_MAX_BYTES } from "../../../lib/limits";
import type { Settings } from "../../../lib/ports";
import { djb2 } from "../../../lib/util/hash";
import { utf8Length } from "../../../lib/util/utf8";

/** The calls of the SDK's Preference class this port uses (a class with static methods fits). */
export interface PreferenceStore {
  set(domain: string, key: string, value: ArrayBuffer): void;
  get(domain: string, key: string): unknown;
  delete(domain: string, key: string): void;
  keys(domain: string): string[];
}

/** The preference domain (an NVS namespace) every setting lives in. */
export const SETTINGS_DOMAIN = "halo";
/** Longest NVS namespace or entry name. */
export const NVS_NAME_MAX_CHARS = 15;
/** Largest value the SDK documents for NVS on the ESP32. */
export const NVS_VALUE_MAX_BYTES = 4000;
/** Keys up to this length are their own base name. */
const DIRECT_MAX_CHARS = NVS_NAME_MAX_CHARS - 1;
const KEY = /^[a-z0-9._-]{1,64}$/;
const BASE32 = "0123456789abcdefghijklmnopqrstuv";

function checkKey(key: string): void {
  if (typeof key !== "string" || !KEY.test(key) || key.startsWith(".")) throw new Error("bad settings key");
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function base32(n: number, digits: number): string {
  let out = "";
  for (let i = 0; i < digits; i++, n = Math.floor(n / 32)) out = BASE32[n % 32] + out;
  return out;
}

/** The base name of a key's NVS entries (see the top of this file). */
export function nvsBaseName(key: string): string {
  if (key.length <= DIRECT_MAX_CHARS) return key;
  return "#" + base32(djb2(key) & 0x3fffffff, 6) + base32(fnv1a(key) & 0x3fffffff, 6);
}

/** The two NVS entry names of a key. */
export function nvsEntryNames(key: string): [string, string] {
  const base = nvsBaseName(key);
  return [base + "a", base + "b"];
}

interface Entry {
  name: string;
  generation: number;
  key: string;
  value: string;
}

function decode(name: string, stored: unknown): Entry | undefined {
  if (!(stored instanceof ArrayBuffer)) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(stored));
  } catch {
    return undefined;
  }
  const first = text.indexOf("\n");
  const second = first < 0 ? -1 : text.indexOf("\n", first + 1);
  if (second < 0) return undefined;
  const generation = Number(text.slice(0, first));
  if (!Number.isSafeInteger(generation) || generation < 1) return undefined;
  return { name, generation, key: text.slice(first + 1, second), value: text.slice(second + 1) };
}

function encode(generation: number, key: string, value: string): ArrayBuffer {
  const bytes = new TextEncoder().encode(`${generation}\n${key}\n${value}`);
  if (bytes.length > NVS_VALUE_MAX_BYTES) throw new Error("the setting is too large to store");
  return bytes.buffer as ArrayBuffer;
}

export function nvsSettings(preference: PreferenceStore, domain = SETTINGS_DOMAIN): Settings {
  /** The key's entries that hold it, newest first; throws on an entry holding another key (a hash collision). */
  const entries = (key: string): Entry[] => {
    const found: Entry[] = [];
    for (const name of nvsEntryNames(key)) {
      const entry = decode(name, preference.get(domain, name));
      if (entry === undefined) continue;
      if (entry.key !== key) throw new Error("settings key collision");
      found.push(entry);
    }
    return found.sort((a, b) => b.generation - a.generation);
  };
  return {
    get(key: string): string | undefined {
      checkKey(key);
      return entries(key)[0]?.value;
    },
    set(key: string, value: string): void {
      checkKey(key);
      if (typeof value !== "string" || utf8Length(value) > SETTINGS_VALUE_MAX_BYTES) throw new Error("the setting is too large to store");
      const newest = entries(key)[0];
      const [a, b] = nvsEntryNames(key);
      // the other entry (an older value, if any, is overwritten), then the current one goes
      preference.set(domain, newest?.name === a ? b : a, encode((newest?.generation ?? 0) + 1, key, value));
      if (newest !== undefined) preference.delete(domain, newest.name);
    },
    remove(key: string): void {
      checkKey(key);
      // the older entry first: a cut between the two deletes must not bring an older value back
      for (const entry of entries(key).reverse()) preference.delete(domain, entry.name);
    },
    keys(prefix: string): string[] {
      const found = new Set<string>();
      for (const name of preference.keys(domain)) {
        const entry = decode(name, preference.get(domain, name));
        if (entry !== undefined && KEY.test(entry.key) && entry.key.startsWith(prefix) && nvsEntryNames(entry.key).includes(name)) {
          found.add(entry.key);
        }
      }
      return Array.from(found).sort();
    },
  };
}
