// NIP-50 search: a filter's `search` field asks a relay that supports it (NIP-11 `supported_nips` has 50) for
// events whose content matches. Relays rank and match as they like and one that does not support it may ignore
// the field, so the device keeps only events whose content holds every plain word of the query itself
// (case-insensitive); `key:value` tokens are NIP-50 extensions, passed to the relay and not matched here.
import type { NostrEvent } from "./event";

/** The longest search query sent (characters). */
export const NOSTR_SEARCH_MAX_CHARS = 256;
/** Plain words matched locally at most; more are the relay's to match. */
const WORDS_MAX = 16;

/** The plain words of a query, lower case (extension tokens `key:value` left out). */
export function searchWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0 && w.indexOf(":") < 0)
    .slice(0, WORDS_MAX);
}

/** Whether the event's content holds every word. */
export function matchesSearch(e: NostrEvent, words: string[]): boolean {
  const content = e.content.toLowerCase();
  for (const w of words) if (content.indexOf(w) < 0) return false;
  return true;
}
