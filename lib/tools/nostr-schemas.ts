// Argument schemas the Nostr tools share.
import {
  NOSTR_CONTENT_MAX_BYTES,
  NOSTR_QUERY_EVENTS_MAX,
  NOSTR_QUERY_TIMEOUT_MAX_MS,
  NOSTR_TAG_ENTRIES_MAX,
  NOSTR_TAG_VALUE_MAX_CHARS,
} from "../nostr/limits";

export const HEX64 = { type: "string", pattern: "^[0-9a-f]{64}$" } as const;
export const PUBKEY = { type: "string", minLength: 1, maxLength: 400, description: "64 hex characters or an npub" } as const;
export const KIND = { type: "integer", minimum: 0, maximum: 65535 } as const;
export const CONTENT = { type: "string", maxLength: NOSTR_CONTENT_MAX_BYTES } as const;
export const TAGS = {
  type: "array",
  maxItems: 50,
  items: { type: "array", minItems: 1, maxItems: NOSTR_TAG_ENTRIES_MAX, items: { type: "string", maxLength: NOSTR_TAG_VALUE_MAX_CHARS } },
} as const;
export const TIMEOUT_MS = { type: "integer", minimum: 100, maximum: NOSTR_QUERY_TIMEOUT_MAX_MS } as const;
const HEX_LIST = { type: "array", maxItems: 50, items: HEX64 } as const;

/** A NIP-01 filter: the fields relays index, bounded. */
export const FILTER = {
  type: "object",
  properties: {
    ids: HEX_LIST,
    authors: HEX_LIST,
    kinds: { type: "array", maxItems: 20, items: KIND },
    "#e": HEX_LIST,
    "#p": HEX_LIST,
    "#t": { type: "array", maxItems: 20, items: { type: "string", maxLength: 100 } },
    "#d": { type: "array", maxItems: 20, items: { type: "string", maxLength: 200 } },
    since: { type: "integer", minimum: 0 },
    until: { type: "integer", minimum: 0 },
    limit: { type: "integer", minimum: 1, maximum: NOSTR_QUERY_EVENTS_MAX },
  },
  additionalProperties: false,
} as const;
