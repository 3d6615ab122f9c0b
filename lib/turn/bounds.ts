// Every bound of the orchestrator turn, named once: the contract, the prompt,
// the tool loop and the conversation state read them from here.
import { SUBAGENT_TASK_MAX_CHARS } from "../limits";

/** The answer's required strings (UTF-8 bytes). A longer reply is cut and the cut reported. */
export const REPLY_MAX_BYTES = 8 * 1024;
export const MEMORY_NOTE_MAX_BYTES = 600;
export const ASK_MAX_BYTES = 600;
/** Items read from each answer array; the rest are dropped and reported. */
export const MEM_WRITE_MAX_ITEMS = 8;
export const MEM_QUERY_MAX_ITEMS = 4;
export const SESSION_OPS_MAX_ITEMS = 4;
/** Documents one spawn op may attach. */
export const SESSION_ATTACH_MAX = 4;
/** Longest sub-agent task (characters): the same cap as session.spawn's, whichever starts the task. Then the short fields of a session op. */
export const SESSION_TASK_MAX_CHARS = SUBAGENT_TASK_MAX_CHARS;
export const SESSION_FIELD_MAX_CHARS = 128;
/** Problems (dropped items, cut fields) reported per answer. */
export const CONTRACT_MAX_PROBLEMS = 16;

/** Longest text a turn accepts from the person (UTF-8 bytes). */
export const TURN_TEXT_MAX_BYTES = 8 * 1024;
/** Longest channel label (characters). */
export const TURN_CHANNEL_MAX_CHARS = 32;
/** Longest episodic session id a turn may be given (characters; the episodic log keeps 64). */
export const TURN_SESSION_MAX_CHARS = 64;
/** Bytes of one tool call's output kept in the episodic history (the whole of a cut one stays in the results ring). */
export const TOOL_OUTPUT_HISTORY_MAX_BYTES = 2 * 1024;

/** Prompt sections (UTF-8 bytes each); a longer section is cut with a note. */
export const PROMPT_CAPABILITIES_MAX_BYTES = 16 * 1024;
export const PROMPT_RECALL_MAX_BYTES = 1500;
export const PROMPT_QUERY_RESULTS_MAX_BYTES = 3000;
/** Query text sent to the memory recall (characters; memory.search's own bound is 500). */
export const RECALL_QUERY_MAX_CHARS = 500;

/** Conversation state per person: verbatim turns kept, and their bytes. */
export const HISTORY_MAX_TURNS = 12;
export const HISTORY_MAX_BYTES = 8 * 1024;
/** One side of one remembered turn (the person's text, the reply). */
export const HISTORY_ENTRY_MAX_BYTES = 2 * 1024;
/** The summary older turns fold into: one short line per turn, oldest dropped first. */
export const SUMMARY_MAX_BYTES = 1500;
export const SUMMARY_LINE_USER_CHARS = 100;
export const SUMMARY_LINE_REPLY_CHARS = 140;
/** One mem_query result kept for the next turn. */
export const QUERY_RESULT_MAX_BYTES = 1024;
/** Conversation states kept in RAM (the least recently used goes first). */
export const CONVERSATION_CACHE_MAX = 16;
/** Largest conversation state file read back. */
export const CONVERSATION_FILE_MAX_BYTES = 32 * 1024;

/** Tool calls run per round; further calls in the same round are answered with a refusal. */
export const TOOL_CALLS_PER_ROUND_MAX = 8;
/** Bytes of all tool results given to the model in one turn (each is clamped at RESULT_CLAMP_BYTES); overflow stays in the results ring. */
export const TOOL_RESULTS_TOTAL_MAX_BYTES = 24 * 1024;
/** Answers that break the contract are sent back for one repair. */
export const CONTRACT_REPAIRS_MAX = 1;

/** The whole turn's deadline, and one provider call's. */
export const TURN_DEADLINE_MS = 120 * 1000;
export const PROVIDER_CALL_TIMEOUT_MS = 60 * 1000;
/** Less time than this left is not worth a provider call. */
export const PROVIDER_CALL_MIN_MS = 1000;
/** Output tokens of one turn call. */
export const TURN_MAX_OUTPUT_TOKENS = 4096;
