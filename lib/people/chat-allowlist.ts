import { toJson } from "../util/json";
import type { Log, Settings } from "../ports";
import { PERSON_ID_PATTERN } from "./people";

/** Most chats the owner may allow-list. */
export const MAX_ALLOWED_CHATS = 32;
const SETTINGS_KEY = "chat.allow";

/**
 * The chat allow-list: the device's own auth gate for chat conversations.
 * Human-web-only: the owner API writes it, no tool can. A chat not on it is
 * an unknown principal whatever role its person record holds.
 */
export class ChatAllowList {
  private ids: string[] = [];

  constructor(
    private readonly settings: Settings,
    log: Log,
  ) {
    const text = settings.get(SETTINGS_KEY);
    if (text === undefined) return;
    const ids = parseIds(text);
    if (ids) this.ids = ids;
    else log.warn(`chat allow-list: ${SETTINGS_KEY} is unreadable; no chat is allowed until the owner sets it again`);
  }

  list(): string[] {
    return this.ids.slice();
  }

  has(id: string): boolean {
    return this.ids.indexOf(id) >= 0;
  }

  /** Replaces the list; an error sentence when the list is invalid (nothing changes then). */
  replace(ids: unknown): string | undefined {
    const valid = validIds(ids);
    if (typeof valid === "string") return valid;
    this.settings.set(SETTINGS_KEY, toJson(valid));
    this.ids = valid;
    return undefined;
  }
}

function validIds(ids: unknown): string[] | string {
  if (!Array.isArray(ids)) return "chats must be an array of chat ids.";
  if (ids.length > MAX_ALLOWED_CHATS) return `at most ${MAX_ALLOWED_CHATS} chats.`;
  const out: string[] = [];
  for (const id of ids) {
    if (typeof id !== "string" || !PERSON_ID_PATTERN.test(id)) return "each chat id is 1-49 of a-z 0-9 . _ - (it may start with -).";
    if (out.indexOf(id) < 0) out.push(id);
  }
  return out;
}

function parseIds(text: string): string[] | undefined {
  try {
    const v = validIds(JSON.parse(text));
    return typeof v === "string" ? undefined : v;
  } catch {
    return undefined;
  }
}
