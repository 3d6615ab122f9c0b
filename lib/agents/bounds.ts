// Every bound of sub-agents and routines, named once. The tools' schemas, the
// session manager and the scheduler read them from here.

/** Sub-agents with a provider exchange in flight, device-wide. */
export const SUBAGENTS_MAX_RUNNING = 4;
/** Sub-agents (spawns or follow-ups) waiting for a running slot, device-wide; one more is refused. */
export const SUBAGENTS_MAX_QUEUED = 12;
/** Running plus queued sub-agents one member or guest may hold, so nobody starves the owner. */
export const SUBAGENTS_MAX_ACTIVE_PER_MEMBER = 4;
/** Sub-agents remembered (their conversation and last reply); the oldest inactive one is forgotten first. */
export const SUBAGENTS_MAX_KEPT = 16;
/** One follow-up message to a sub-agent (characters; the task's bound is SUBAGENT_TASK_MAX_CHARS in lib/limits.ts). */
export const SUBAGENT_MESSAGE_MAX_CHARS = 4000;
/** Display name of a sub-agent (also its saved document's stem). */
export const SUBAGENT_NAME_MAX_CHARS = 40;
/** Documents spliced into a brief, and the bytes kept of each. */
export const SUBAGENT_ATTACH_MAX = 4;
export const SUBAGENT_ATTACH_MAX_BYTES = 12 * 1024;
/** Model name a caller may pick. */
export const SUBAGENT_MODEL_MAX_CHARS = 64;
/** One exchange: output cap and deadline. */
export const SUBAGENT_MAX_OUTPUT_TOKENS = 4096;
export const SUBAGENT_TIMEOUT_MS = 120000;
/** A history-carried conversation (Anthropic, Mistral): messages and UTF-8 bytes kept; older exchanges are dropped first. */
export const SUBAGENT_HISTORY_MAX_MESSAGES = 24;
export const SUBAGENT_HISTORY_MAX_BYTES = 96 * 1024;
/** Largest result saved to the artifact store (bytes). */
export const SUBAGENT_RESULT_MAX_BYTES = 64 * 1024;

/** wakeup.set: delay bounds in minutes, and how many may be armed at once. */
export const WAKEUP_MIN_MINUTES = 2;
export const WAKEUP_MAX_MINUTES = 7 * 24 * 60;
export const WAKEUPS_MAX_ARMED = 4;
/** A failed wakeup turn is retried once, this long after the failure. */
export const WAKEUP_RETRY_DELAY_MS = 60 * 1000;
/** Routines stored (approved or pending), and how many may await the owner's approval. */
export const ROUTINES_MAX = 16;
export const ROUTINES_MAX_PENDING = 4;
/** A routine's name, its prompt, and a wakeup's note (characters). */
export const ROUTINE_NAME_MAX_CHARS = 60;
export const ROUTINE_PROMPT_MAX_CHARS = 1000;
/** A stored routine record (UTF-8 bytes of its JSON): under the device's settings value limit. */
export const ROUTINE_RECORD_MAX_BYTES = 3500;
/** A chat id a routine reports to. */
export const ROUTINE_CHAT_ID_MAX_CHARS = 64;
/** An occurrence later than this (device off, clock jump) is skipped, not run late; wakeups still run. */
export const ROUTINE_MISSED_GRACE_MS = 10 * 60 * 1000;
/** A scheduled turn that has not finished after this long counts as failed. */
export const ROUTINE_TURN_TIMEOUT_MS = 10 * 60 * 1000;
/** Consecutive failures of a routine after which the owner is alerted. */
export const ROUTINE_ALERT_AFTER_FAILURES = 3;
/** How often the host should call the scheduler's tick() (ms). */
export const SCHEDULER_TICK_MS = 20 * 1000;

/** Owner alerts kept, and the length of one. */
export const OWNER_ALERTS_MAX = 16;
export const OWNER_ALERT_MAX_CHARS = 200;
