// Every bound of the core, named once. Hosts and tools import from here.

/** Largest HTTP request body the MCP endpoint reads (bytes). */
export const MAX_HTTP_BODY_BYTES = 256 * 1024;
/** Deepest JSON nesting accepted from a client. */
export const MAX_JSON_DEPTH = 32;
/** Longest bearer token accepted (characters). */
export const MAX_TOKEN_CHARS = 512;
/** Tools per tools/list page: one page holds the whole catalog up to this bound; cursors page past it. */
export const TOOLS_PAGE_SIZE = 128;

/** How long a tool call may run when its caller gives no deadline of its own (an MCP call; a turn passes its own). */
export const TOOL_CALL_DEADLINE_MS = 120 * 1000;
/** A tool result's text beyond this is cut; the whole text stays in the results ring. */
export const RESULT_CLAMP_BYTES = 4 * 1024;
/** Entries and bytes kept in the results ring of one namespace. */
export const RESULTS_RING_MAX_ENTRIES = 32;
export const RESULTS_RING_MAX_BYTES = 128 * 1024;
/** Namespaces with a results ring at once (1 MB at most in all); a further one replaces the one idle longest. */
export const RESULTS_RING_MAX_NAMESPACES = 8;
/** Largest single result the ring keeps; the remainder of a larger one is dropped. */
export const RESULTS_RING_MAX_ENTRY_BYTES = 64 * 1024;

/** Longest task a sub-agent is given (characters), whichever starts it: session.spawn or a turn's spawn op. */
export const SUBAGENT_TASK_MAX_CHARS = 8000;

/** docs.* bounds. */
export const DOCS_SECTION_MAX_BYTES = 3500;
export const DOCS_QUERY_MAX_CHARS = 200;
export const DOCS_SEARCH_MAX_HITS = 10;
export const DOCS_SNIPPET_CHARS = 160;

/**
 * Largest value one Settings key may hold, in UTF-8 bytes. The device keeps
 * settings in ESP32 NVS, whose strings hold at most 4,000 bytes with the key
 * stored in front; every Settings implementation refuses more, so the
 * simulator and the tests fail where the device would.
 */
export const SETTINGS_VALUE_MAX_BYTES = 3800;

/** Tool names: the MCP rule. */
export const TOOL_NAME_PATTERN: RegExp = /^[A-Za-z0-9._-]{1,128}$/;

/** files.* and artifact.save bounds (the SD artifact store). */
export const ARTIFACT_TEXT_MAX_BYTES = 24 * 1024;
export const ARTIFACT_PROJECT_MAX_CHARS = 40;
export const ARTIFACT_NAME_MAX_CHARS = 80;
/** Files the store indexes in all; a save past this is refused. */
export const ARTIFACTS_MAX_COUNT = 4000;
/** One page of files.read (bytes), under the per-result clamp. */
export const FILES_READ_PAGE_BYTES = 3500;
export const FILES_LIST_MAX_ENTRIES = 100;
export const FILES_SEARCH_QUERY_MAX_CHARS = 200;
export const FILES_SEARCH_MAX_HITS = 10;
/** Bytes of one document that files.search reads. */
export const FILES_SEARCH_DOC_BYTES = 64 * 1024;
/** files.fetch: longest URL, default and largest owner-set per-file cap. */
export const FILES_FETCH_URL_MAX_CHARS = 2048;
export const FILES_FETCH_DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
export const FILES_FETCH_MAX_BYTES_LIMIT = 16 * 1024 * 1024;

/** skill.* bounds. */
export const SKILL_ID_MAX_CHARS = 23;
export const SKILL_MAX_BYTES = 8 * 1024;
/** Agent-authored capsules that may await the owner's approval at once. */
export const SKILLS_MAX_PENDING = 4;
/** Capsules spliced into one sub-agent brief by their inject: words, and the bytes of each one's text. */
export const SKILL_INJECT_MAX = 2;
export const SKILL_INJECT_MAX_BYTES = 4 * 1024;
/** Words or phrases one capsule's inject: line holds (the rest are ignored). */
export const SKILL_INJECT_WORDS_MAX = 8;
