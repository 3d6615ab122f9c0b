import { toJson } from "../util/json";
// Per-person conversation state between turns: the recent turns verbatim, a
// summary older turns fold into, the last turn's memory note and the results
// of its mem_query[]. Kept in RAM (a small LRU) and on the SD card
// (turn/<ns>.json, written atomically); without a card it lives in RAM only.
import type { Log, Storage } from "../ports";
import { djb2Hex } from "../util/hash";
import { clipForMessage } from "../util/text";
import { decodeUtf8, encodeUtf8, truncateUtf8, utf8Length } from "../util/utf8";
import {
  CONVERSATION_CACHE_MAX,
  CONVERSATION_FILE_MAX_BYTES,
  HISTORY_ENTRY_MAX_BYTES,
  HISTORY_MAX_BYTES,
  HISTORY_MAX_TURNS,
  MEM_QUERY_MAX_ITEMS,
  MEMORY_NOTE_MAX_BYTES,
  QUERY_RESULT_MAX_BYTES,
  SUMMARY_LINE_REPLY_CHARS,
  SUMMARY_LINE_USER_CHARS,
  SUMMARY_MAX_BYTES,
} from "./bounds";

export interface TurnRecord {
  user: string;
  reply: string;
  /** ms since the epoch. */
  at: number;
}

export interface QueryResult {
  query: string;
  text: string;
}

export interface ConversationState {
  ns: string;
  /** Oldest first. */
  turns: TurnRecord[];
  /** One line per folded turn, oldest first. */
  summary: string[];
  /** The last turn's `memory` note. */
  note: string;
  /** The last turn's mem_query[] results, shown once in the next turn. */
  queryResults: QueryResult[];
}

export const CONVERSATION_DIR = "turn";

export function emptyConversation(ns: string): ConversationState {
  return { ns, turns: [], summary: [], note: "", queryResults: [] };
}

/** The state file of a namespace: the name itself when it is a safe file name, else a hash (the file names its ns). */
export function conversationPath(ns: string): string {
  const safe = /^[a-z0-9_-][a-z0-9._-]{0,63}$/.test(ns) ? ns : "h-" + djb2Hex(ns);
  return `${CONVERSATION_DIR}/${safe}.json`;
}

/** Adds a finished turn and folds the oldest turns into the summary past the bounds. */
export function recordTurn(state: ConversationState, user: string, reply: string, at: number): void {
  state.turns.push({ user: truncateUtf8(user, HISTORY_ENTRY_MAX_BYTES), reply: truncateUtf8(reply, HISTORY_ENTRY_MAX_BYTES), at });
  while (state.turns.length > HISTORY_MAX_TURNS || (state.turns.length > 1 && historyBytes(state.turns) > HISTORY_MAX_BYTES)) {
    state.summary.push(summaryLine(state.turns.shift()!));
  }
  boundSummary(state);
}

/** Drops the oldest summary lines until the summary fits. */
function boundSummary(state: ConversationState): void {
  while (state.summary.length > 0 && utf8Length(state.summary.join("\n")) > SUMMARY_MAX_BYTES) state.summary.shift();
}

function historyBytes(turns: TurnRecord[]): number {
  let n = 0;
  for (const t of turns) n += utf8Length(t.user) + utf8Length(t.reply);
  return n;
}

function summaryLine(t: TurnRecord): string {
  return `- ${new Date(t.at).toISOString().slice(0, 16)}Z they said: ${clipForMessage(t.user.replace(/\s+/g, " "), SUMMARY_LINE_USER_CHARS)} / you said: ${clipForMessage(t.reply.replace(/\s+/g, " "), SUMMARY_LINE_REPLY_CHARS)}`;
}

/** A stored state, or undefined when the text is not one (or belongs to another namespace). */
export function parseConversation(text: string, ns: string): ConversationState | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const o = v as { [key: string]: unknown };
  if (typeof v !== "object" || v === null || o.ns !== ns || typeof o.note !== "string") return undefined;
  if (!Array.isArray(o.turns) || !Array.isArray(o.summary) || !Array.isArray(o.queryResults)) return undefined;
  const turns = o.turns.filter(
    (t): t is TurnRecord => isRecord(t) && typeof t.user === "string" && typeof t.reply === "string" && typeof t.at === "number",
  );
  const summary = o.summary.filter((s): s is string => typeof s === "string");
  const results = o.queryResults.filter((r): r is QueryResult => isRecord(r) && typeof r.query === "string" && typeof r.text === "string");
  const state = emptyConversation(ns);
  state.note = truncateUtf8(o.note, MEMORY_NOTE_MAX_BYTES);
  state.queryResults = results
    .slice(0, MEM_QUERY_MAX_ITEMS)
    .map((r) => ({ query: r.query, text: truncateUtf8(r.text, QUERY_RESULT_MAX_BYTES) }));
  // Re-applying the bounds on load: a file written under other bounds (or by hand) cannot grow the prompt.
  for (const line of summary) state.summary.push(line);
  for (const t of turns) recordTurn(state, t.user, t.reply, t.at);
  boundSummary(state);
  return state;
}

function isRecord(v: unknown): v is { [key: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** States by namespace: a bounded RAM cache in front of the SD card. */
export class ConversationStore {
  private readonly cache = new Map<string, ConversationState>();

  constructor(
    private readonly storage: Storage | undefined,
    private readonly log: Log,
  ) {}

  /** The state of `ns`: from RAM, else from the card, else empty. A damaged file counts as empty (logged). */
  load(ns: string): ConversationState {
    const cached = this.cache.get(ns);
    if (cached) return cached;
    const state = this.read(ns) ?? emptyConversation(ns);
    this.remember(state);
    return state;
  }

  /** Keeps `state` and writes it to the card. Returns a sentence when the card refused (the state stays in RAM). */
  save(state: ConversationState): string | undefined {
    this.remember(state);
    const storage = this.storage;
    if (!storage) return undefined;
    try {
      if (!storage.present()) return "the SD card is not inserted, so this conversation is kept in RAM only";
      storage.writeAtomic(conversationPath(state.ns), encodeUtf8(toJson(state)));
      return undefined;
    } catch (e) {
      this.log.warn(`turn: saving a conversation failed (${clipForMessage(e instanceof Error ? e.message : "unknown", 80)})`);
      return "the conversation could not be saved to the SD card; it is kept in RAM";
    }
  }

  private read(ns: string): ConversationState | undefined {
    const storage = this.storage;
    if (!storage) return undefined;
    const path = conversationPath(ns);
    let bytes: Uint8Array | undefined;
    try {
      if (!storage.present()) return undefined;
      const stat = storage.stat(path);
      if (!stat) return undefined;
      if (stat.size > CONVERSATION_FILE_MAX_BYTES) {
        this.log.warn(`turn: ${path} is larger than ${CONVERSATION_FILE_MAX_BYTES} bytes; starting afresh`);
        return undefined;
      }
      bytes = storage.read(path);
    } catch {
      return undefined;
    }
    if (!bytes) return undefined;
    const state = parseConversation(decodeUtf8(bytes), ns);
    if (!state) this.log.warn(`turn: ${path} is unreadable; starting afresh`);
    return state;
  }

  private remember(state: ConversationState): void {
    this.cache.delete(state.ns);
    this.cache.set(state.ns, state);
    while (this.cache.size > CONVERSATION_CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
  }
}
