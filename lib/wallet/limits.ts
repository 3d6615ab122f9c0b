// Every bound of the Cashu wallet, named once.

/** The one unit the wallet holds. */
export const WALLET_UNIT = "sat";
/** Largest amount of one operation: a mint quote, a payment, a token sent or received (sats). */
export const WALLET_AMOUNT_MAX_SATS = 1_000_000;
/** Largest balance the wallet keeps; an operation that would pass it is refused (sats). */
export const WALLET_BALANCE_MAX_SATS = 10_000_000;
/** Proofs held at once, over every mint; a receive past it is refused (swap to larger proofs first). */
export const WALLET_PROOFS_MAX = 2000;
/** Proofs in one token received, and in one token sent. */
export const WALLET_TOKEN_PROOFS_MAX = 64;
/** Longest token string read (characters). */
export const WALLET_TOKEN_MAX_CHARS = 16 * 1024;
/** Mints in the wallet's list, in the public (NIP-61) list and in the owner's allow-list. */
export const WALLET_MINTS_MAX = 8;
/** Longest mint URL (characters). */
export const WALLET_MINT_URL_MAX_CHARS = 256;
/** Longest Lightning invoice a melt quote accepts (characters). */
export const WALLET_INVOICE_MAX_CHARS = 2048;
/** Open mint and melt quotes remembered on the card; the oldest settled ones go first. */
export const WALLET_QUOTES_MAX = 32;
/** Operations journaled and not yet resolved; another waits until recovery resolves one. */
export const WALLET_PENDING_OPS_MAX = 8;
/** Tokens sent and not yet seen spent that the card remembers (the oldest is forgotten past it). */
export const WALLET_SENT_TOKENS_MAX = 64;
/** One mint request: deadline and largest answer. */
export const WALLET_HTTP_TIMEOUT_MS = 15_000;
export const WALLET_HTTP_MAX_RESPONSE_BYTES = 256 * 1024;
/** Proofs per NUT-07 check-state request. */
export const WALLET_CHECK_BATCH = 100;
/** The card's wallet log is rewritten as one snapshot when it grows past this (bytes). */
export const WALLET_LOG_COMPACT_BYTES = 128 * 1024;
/** A wallet log larger than this is not read (bytes): the card holds something else. */
export const WALLET_LOG_MAX_BYTES = 4 * 1024 * 1024;
/** Proofs in one NIP-60 token event (kind 7375), so its encrypted content stays under NIP-44's 64 KB. */
export const WALLET_TOKEN_EVENT_PROOFS_MAX = 100;
/** NIP-60 events read back from the relays at boot, and how long the query waits. */
export const WALLET_RELAY_EVENTS_MAX = 100;
export const WALLET_RELAY_QUERY_TIMEOUT_MS = 5_000;
/** Longest memo put in a token sent (characters). */
export const WALLET_MEMO_MAX_CHARS = 140;
