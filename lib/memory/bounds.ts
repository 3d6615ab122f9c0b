// Every bound of the memory subsystem, named once. The tools' schemas and the
// engines read them from here.

/** Largest fact memory.write stores (UTF-8 bytes; the schema bounds characters too). */
export const MEMORY_CONTENT_MAX_BYTES = 2000;
/** Longest search query (characters). */
export const MEMORY_QUERY_MAX_CHARS = 500;
/** `source` label of a memory (characters). */
export const MEMORY_SOURCE_MAX_CHARS = 32;
/** A namespace name as stored in the vector file (UTF-8 bytes). */
export const MEMORY_NS_MAX_BYTES = 64;
/** Distinct namespaces the store tracks (one per person). */
export const MEMORY_MAX_NAMESPACES = 1024;

/** Default and largest dimensions of an embedding. */
export const DEFAULT_EMBEDDING_DIMS = 256;
export const MAX_EMBEDDING_DIMS = 4096;

/** Store capacity: the max_vectors knob's range. */
export const MAX_VECTORS_DEFAULT = 5000;
export const MAX_VECTORS_LIMIT = 20000;
export const MAX_VECTORS_MIN = 100;
/**
 * The vector arena's budget on the device (ports.ts VectorArena): the most the
 * store's rows, per-row fields, id table and texts may take of the board's 8 MB
 * PSRAM, leaving the rest to the XS heap, Wi-Fi/TLS buffers and audio.
 * modules/vector/arena.c has the same figure (VECTOR_ARENA_BUDGET); the
 * simulator reports it too. At 256 dimensions it fits 5,163 entries (731 bytes
 * each with their residual planes, fields, reserved masks and allowances for
 * their texts and lexical index: store-arrays.ts maxVectorsFitting).
 */
export const VECTOR_ARENA_DEVICE_BYTES = 4 * 1024 * 1024;

/** Cosine distance under which two memories count as the same fact. */
export const NEAR_DUPLICATE_DISTANCE = 0.05;
/** Importance added when the same fact is written again. */
export const DUPLICATE_IMPORTANCE_BOOST = 0.1;
/** Importance added when a memory is recalled by a search. */
export const RECALL_IMPORTANCE_BOOST = 0.05;
/** Faded entries (importance under this) are pruned; a restored entry is lifted above it. */
export const PRUNE_IMPORTANCE_FLOOR = 0.05;
/** Importance a restored archive entry gets at least. */
export const RESTORE_IMPORTANCE_MIN = 0.3;
/** Default importance of a new memory. */
export const DEFAULT_IMPORTANCE = 0.5;

/** Recency never goes below this; a pinned entry's never below PINNED_RECENCY_MIN. */
export const RECENCY_FLOOR = 0.35;
export const PINNED_RECENCY_MIN = 0.75;
/** Candidates fetched from the kernel per search, before re-scoring. */
export const RECALL_CANDIDATES_MIN = 32;
/** Candidates the lexical index adds to the kernel's (hybrid recall, lexical.ts). */
export const LEXICAL_CANDIDATES = 16;
/** Distinct terms indexed per entry, and taken from a query. */
export const LEXICAL_MAX_TERMS_PER_ENTRY = 64;
export const LEXICAL_MAX_QUERY_TERMS = 32;
/** At most this many candidates take part in duplicate collapse and MMR. */
export const RECALL_POOL_MAX = 24;
/** Candidates whose score is within this of the best count as near-tied (MMR applies among them). */
export const MMR_TIE_BAND = 0.1;
/** Largest n_results a search returns. */
export const SEARCH_MAX_RESULTS = 20;

/** Maintenance (expiry, decay, pruning) runs at most this often, on the next call after it is due. */
export const MAINTAIN_INTERVAL_MS = 10 * 60 * 1000;
/** Recall boosts (not acknowledged writes) are saved at most this often. */
export const RECALL_FLUSH_INTERVAL_MS = 5 * 60 * 1000;

/**
 * The vector journal (memory/vectors.journal): a save appends one commit of at
 * most JOURNAL_MAX_COMMIT_OPS changes; more changes, or a journal past
 * JOURNAL_MAX_COMMITS commits or JOURNAL_MAX_SHARE of the snapshot's size (at
 * least JOURNAL_MIN_BYTES), make the save write a whole new snapshot instead.
 */
export const JOURNAL_MAX_COMMIT_OPS = 64;
export const JOURNAL_MAX_COMMITS = 256;
export const JOURNAL_MAX_SHARE = 0.25;
export const JOURNAL_MIN_BYTES = 64 * 1024;
/** Maintenance passes the journal holds at most: a boot replays each over the whole store (about 2 ms per 5,000 entries on XS on a PC). */
export const JOURNAL_MAX_MAINTENANCE = 8;

/**
 * Bytes the vector file (memory/vectors.bin) is read and written in at a time: a boot or a snapshot holds
 * one piece and one record (at most entry-codec.ts maxEntryBytes, 8.5 KB at 4,096 dimensions) beside the
 * store, never the whole file (2.5 MB at 5,000 entries of 256 dimensions).
 */
export const VECTOR_FILE_PIECE_BYTES = 16 * 1024;

/** Texts per embeddings request. */
export const EMBED_BATCH_MAX = 32;
/** Embeddings request deadline. */
export const EMBED_TIMEOUT_MS = 15000;

/** The SD archive of expired memories: bytes kept before the oldest entries are dropped. */
export const ARCHIVE_MAX_BYTES = 1024 * 1024;
/** Entries memory.archive list/search return at most. */
export const ARCHIVE_MAX_RESULTS = 50;

/** Scratchpad: active task, tiers, items per tier, bytes per item. */
export const SCRATCHPAD_ACTIVE_MAX_BYTES = 240;
export const SCRATCHPAD_TIER_MAX_ITEMS = 8;
export const SCRATCHPAD_ITEM_MAX_BYTES = 160;

/** Episodic log bounds. */
export const EPISODIC_TEXT_MAX_BYTES = 4096;
export const EPISODIC_SESSION_MAX_CHARS = 64;
export const EPISODIC_ROLE_MAX_CHARS = 16;
/** A day's log is split into parts of at most this size, so one read stays bounded. */
export const EPISODIC_PART_MAX_BYTES = 256 * 1024;
/** Parts per day; appends past the last part are refused. */
export const EPISODIC_PARTS_PER_DAY = 100;
/** The boot index holds at most this many recent rows, read from at most this many bytes of the newest parts. */
export const EPISODIC_INDEX_MAX_ROWS = 2000;
export const EPISODIC_BOOT_SCAN_BYTES = 1024 * 1024;
/** One memory.episodic call reads at most this many older parts before answering with a continue token. */
export const EPISODIC_QUERY_SCAN_PARTS = 8;
/** Rows per memory.episodic page. */
export const EPISODIC_PAGE_DEFAULT = 20;
export const EPISODIC_PAGE_MAX = 100;
/** Characters of a row's text shown in a listing. */
export const EPISODIC_SNIPPET_CHARS = 200;
/** Day files older than this are deleted. */
export const EPISODIC_RETENTION_DAYS = 90;
/** Longest memory.episodic text filter and time window. */
export const EPISODIC_FILTER_MAX_CHARS = 200;
export const EPISODIC_WINDOW_MAX_HOURS = 24 * 366 * 5;

/** memory.update with `old` replaces the closest entry only when it is at least this similar. */
export const UPDATE_MIN_SIMILARITY = 0.5;
/** Content ids that collide with different content are probed this far (id + 1, + 2, ...). */
export const CONTENT_ID_PROBES = 16;

/** Where a re-embed in place keeps the embedder it is on its way to, until it is done (config-ops.ts). */
export const REEMBED_SETTINGS_KEY = "memory.reembed";
/** Memories re-embedded (and saved, one journal commit) at a time; at most JOURNAL_MAX_COMMIT_OPS. */
export const REEMBED_BATCH = 32;
