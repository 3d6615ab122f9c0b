// Every bound of the Nostr subsystem, named once.

/** Largest relay message read (bytes of JSON text); a larger frame is refused unparsed. */
export const NOSTR_MESSAGE_MAX_BYTES = 128 * 1024;
/** Frames up to this size reach the relay code, which refuses the large ones by name; a larger frame closes the socket. */
export const NOSTR_FRAME_MAX_BYTES = 4 * NOSTR_MESSAGE_MAX_BYTES;
/** Largest event content accepted or published (UTF-8 bytes). */
export const NOSTR_CONTENT_MAX_BYTES = 64 * 1024;
/** Most tags on one event, and the longest tag (entries) and tag value (characters). */
export const NOSTR_TAGS_MAX = 200;
export const NOSTR_TAG_ENTRIES_MAX = 16;
export const NOSTR_TAG_VALUE_MAX_CHARS = 1024;
/** An event dated further than this in the future is refused (seconds). */
export const NOSTR_FUTURE_SKEW_S = 15 * 60;
/** Relays in the pool. */
export const NOSTR_RELAYS_MAX = 8;
/** Longest relay URL (characters). */
export const NOSTR_RELAY_URL_MAX_CHARS = 256;
/** Managed subscriptions at once, and filters in one. */
export const NOSTR_SUBSCRIPTIONS_MAX = 16;
export const NOSTR_FILTERS_MAX = 4;
/** Events one relay may deliver per window before the rest are dropped (flood guard). */
export const NOSTR_RELAY_EVENTS_PER_WINDOW = 200;
export const NOSTR_RELAY_WINDOW_MS = 10_000;
/** Ids remembered to drop duplicates delivered by several relays (in memory; the DM channel's gate is SeenEvents). */
export const NOSTR_SEEN_IDS_MAX = 2048;
/** The DM channel's run ids (lib/nostr/seen-store.ts): settings values, and ids in each (24 bytes an id, under 3,800). */
export const NOSTR_SEEN_BUCKETS = 16;
export const NOSTR_SEEN_BUCKET_MAX = 150;
/** Events one query returns at most, and its wait bounds (ms). */
export const NOSTR_QUERY_EVENTS_MAX = 100;
export const NOSTR_QUERY_TIMEOUT_DEFAULT_MS = 5000;
export const NOSTR_QUERY_TIMEOUT_MAX_MS = 15_000;
/** How long a publish waits for a relay's OK (ms). */
export const NOSTR_PUBLISH_TIMEOUT_MS = 5000;
/** Reconnect backoff: first wait, doubling to the cap (ms). */
export const NOSTR_BACKOFF_MIN_MS = 1000;
export const NOSTR_BACKOFF_MAX_MS = 60_000;
/** Publishes waiting for a relay to (re)connect. */
export const NOSTR_OUTBOX_MAX = 32;
/** DMs waiting for the channel's worker; more are dropped (and logged once). */
export const NOSTR_INBOUND_QUEUE_MAX = 8;
/** Longest DM text taken into a turn or sent (characters). */
export const NOSTR_DM_MAX_CHARS = 8000;
/** Gift wraps are back-dated by up to two days (NIP-59): the inbox looks that far back. */
export const NOSTR_GIFT_WRAP_LOOKBACK_S = 2 * 24 * 3600;
/**
 * How long a run DM's id is kept, and the oldest a DM may be to run: NIP-17's two-day window and an hour of
 * clock skew. An older DM is refused by its date, so its id may be forgotten only past this.
 */
export const NOSTR_SEEN_KEEP_S = NOSTR_GIFT_WRAP_LOOKBACK_S + 3600;
/** Contacts (kind 3 `p` tags) of the owner taken as the web of trust. */
export const NOSTR_WOT_MAX = 2000;
/**
 * Incoming events waiting for their signature check (lib/nostr/verify-queue.ts): the preferred lane (the
 * owner's, followed keys', the device's own, and what the owner's queries asked for) and the rest.
 */
export const NOSTR_VERIFY_PREFERRED_MAX = 64;
export const NOSTR_VERIFY_OTHERS_MAX = 128;
/** Signature checks per second at most: what one busy relay may take of the device's only JavaScript thread. */
export const NOSTR_VERIFY_PER_SECOND = 20;
/** Checks run back to back before the queue yields to the event loop (HTTP, the turn, the ring). */
export const NOSTR_VERIFY_BATCH = 4;
/** A relay whose events the full queue refused this many times in one flood window is backed off. */
export const NOSTR_RELAY_QUEUE_DROPS_MAX = 32;
