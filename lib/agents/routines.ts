import { toJson } from "../util/json";
import { HaloError } from "../errors";
// Routines (recurring scheduled turns) and wakeups (one-shot turns the
// assistant sets for itself), persisted in Settings on internal flash: one key
// per item (`loop.item.<id>`), so every change is one atomic write and an SD
// card pull never loses a routine. A routine the model creates is pending
// until the owner approves it and never fires before; a wakeup needs no
// approval. The scheduler (scheduler.ts) fires what is due.
import type { Clock, Log, Random, Settings } from "../ports";
import { randomHexId } from "../util/id";
import { clipForMessage } from "../util/text";
import { utf8Length } from "../util/utf8";
import {
  ROUTINE_CHAT_ID_MAX_CHARS,
  ROUTINE_NAME_MAX_CHARS,
  ROUTINE_PROMPT_MAX_CHARS,
  ROUTINE_RECORD_MAX_BYTES,
  ROUTINES_MAX,
  ROUTINES_MAX_PENDING,
  WAKEUP_MAX_MINUTES,
  WAKEUP_MIN_MINUTES,
  WAKEUPS_MAX_ARMED,
} from "./bounds";
import { isSchedule, nextRunAfter, type Schedule } from "../util/schedule";

export type RoutineKind = "routine" | "wakeup";

export interface RoutineRecord {
  /** "r" or "w" followed by 8 hex digits. */
  id: string;
  kind: RoutineKind;
  /** The namespace of the admin who created it: the fired turn runs as that person (re-derived at fire time). */
  owner: string;
  name: string;
  /** The routine's prompt, or the wakeup's note. */
  prompt: string;
  /** The allow-listed chat the routine's turn reports to. */
  chatId?: string;
  schedule?: Schedule;
  /** Routines: set by the owner. Wakeups: always true. */
  approved: boolean;
  created: number;
  /** Next planned fire (ms); absent while a routine awaits approval. */
  nextRun?: number;
  lastRun?: number;
  lastResult?: string;
  /** Consecutive failed runs. */
  failures: number;
  /** Wakeups: the attempt the next fire is (0 first, 1 the retry, 2 = retries exhausted). */
  attempt?: number;
}

export interface NewRoutine {
  name: string;
  prompt: string;
  chatId?: string;
  schedule: Schedule;
}

export interface RoutinesDeps {
  settings: Settings;
  clock: Clock;
  random: Random;
  log: Log;
  /** The owner's UTC offset in minutes (calendar schedules). */
  offsetMinutes(): number;
  /** Whether a chat id is on the owner's allow-list. */
  chatAllowed(chatId: string): boolean;
}

export const ROUTINE_KEY_PREFIX = "loop.item.";
export const ROUTINE_ID_PATTERN: RegExp = /^[rw][0-9a-f]{8}$/;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export class Routines {
  private readonly items = new Map<string, RoutineRecord>();

  constructor(private readonly deps: RoutinesDeps) {
    for (const key of deps.settings.keys(ROUTINE_KEY_PREFIX)) {
      const record = parseRecord(deps.settings.get(key));
      if (record && key === ROUTINE_KEY_PREFIX + record.id) this.items.set(record.id, record);
      else deps.log.warn(`loops: ignoring the unreadable stored routine ${clipForMessage(key.slice(ROUTINE_KEY_PREFIX.length), 16)}`);
    }
  }

  /** Every routine and wakeup, oldest first (copies). */
  list(): RoutineRecord[] {
    return Array.from(this.items.values(), copy).sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
  }

  get(id: string): RoutineRecord | undefined {
    const r = this.items.get(id);
    return r ? copy(r) : undefined;
  }

  count(kind: RoutineKind): number {
    let n = 0;
    for (const r of this.items.values()) if (r.kind === kind) n++;
    return n;
  }

  /** loop.create: saved pending the owner's approval. */
  create(owner: string, spec: NewRoutine): RoutineRecord {
    checkText(spec.name, ROUTINE_NAME_MAX_CHARS, "name");
    checkText(spec.prompt, ROUTINE_PROMPT_MAX_CHARS, "prompt");
    if (spec.chatId !== undefined) {
      if (spec.chatId.length === 0 || spec.chatId.length > ROUTINE_CHAT_ID_MAX_CHARS || !this.deps.chatAllowed(spec.chatId)) {
        throw new HaloError("not-allowed", "chat_id is not on the owner's chat allow-list.");
      }
    }
    if (this.count("routine") >= ROUTINES_MAX)
      throw new HaloError("limit", `${ROUTINES_MAX} routines exist, the most kept; cancel one first.`);
    const pending = this.list().filter((r) => r.kind === "routine" && !r.approved).length;
    if (pending >= ROUTINES_MAX_PENDING) {
      throw new HaloError("limit", `${ROUTINES_MAX_PENDING} routines already await the owner's approval; wait until they decide.`);
    }
    const record: RoutineRecord = {
      id: this.newId("r"),
      kind: "routine",
      owner,
      name: spec.name,
      prompt: spec.prompt,
      schedule: spec.schedule,
      approved: false,
      created: this.deps.clock.now(),
      failures: 0,
    };
    if (spec.chatId !== undefined) record.chatId = spec.chatId;
    this.save(record);
    return copy(record);
  }

  /** wakeup.set: armed at once, no approval. */
  setWakeup(owner: string, minutes: number, note: string): RoutineRecord {
    if (!Number.isInteger(minutes) || minutes < WAKEUP_MIN_MINUTES || minutes > WAKEUP_MAX_MINUTES) {
      throw new HaloError("invalid-arguments", `minutes is a whole number from ${WAKEUP_MIN_MINUTES} to ${WAKEUP_MAX_MINUTES} (7 days).`);
    }
    checkText(note, ROUTINE_PROMPT_MAX_CHARS, "note");
    if (this.count("wakeup") >= WAKEUPS_MAX_ARMED) {
      throw new HaloError("limit", `${WAKEUPS_MAX_ARMED} wakeups are already armed; cancel one with loop.cancel first.`);
    }
    const now = this.deps.clock.now();
    const record: RoutineRecord = {
      id: this.newId("w"),
      kind: "wakeup",
      owner,
      name: "wakeup",
      prompt: note,
      approved: true,
      created: now,
      nextRun: now + minutes * 60000,
      failures: 0,
      attempt: 0,
    };
    this.save(record);
    return copy(record);
  }

  /** loop.cancel and the owner API: deletes a routine or wakeup. */
  cancel(id: string): RoutineRecord {
    const r = this.items.get(id);
    if (!r) throw new HaloError("not-found", `no routine or wakeup ${clipForMessage(id, 16)}.`);
    this.delete(id);
    return copy(r);
  }

  /** Owner API: routines awaiting approval. */
  listPending(): RoutineRecord[] {
    return this.list().filter((r) => r.kind === "routine" && !r.approved);
  }

  /** Owner API: arms a pending routine; its first run is the next one after now. */
  approve(id: string): RoutineRecord {
    const r = this.items.get(id);
    if (r?.kind !== "routine" || r.approved || !r.schedule)
      throw new HaloError("not-found", `no routine ${clipForMessage(id, 16)} awaits approval.`);
    const now = this.deps.clock.now();
    const next = { ...r, approved: true, nextRun: nextRunAfter(r.schedule, now, now, this.deps.offsetMinutes()) };
    this.save(next);
    return copy(next);
  }

  /** Owner API: deletes a pending routine. */
  reject(id: string): RoutineRecord {
    const r = this.items.get(id);
    if (r?.kind !== "routine" || r.approved) throw new HaloError("not-found", `no routine ${clipForMessage(id, 16)} awaits approval.`);
    this.delete(id);
    return copy(r);
  }

  /** Scheduler: persists a changed record (ignored when it was cancelled meanwhile). */
  update(record: RoutineRecord): void {
    if (this.items.has(record.id)) this.save(copy(record));
  }

  /** Scheduler and cancel: removes a record from flash and memory. */
  delete(id: string): void {
    try {
      this.deps.settings.remove(ROUTINE_KEY_PREFIX + id);
    } catch {
      throw new HaloError("storage-error", "the routine could not be removed from flash; try again.");
    }
    this.items.delete(id);
  }

  private save(record: RoutineRecord): void {
    const json = toJson(record);
    if (utf8Length(json) > ROUTINE_RECORD_MAX_BYTES) {
      throw new HaloError("too-large", `the routine takes more than ${ROUTINE_RECORD_MAX_BYTES} bytes stored; shorten the prompt.`);
    }
    try {
      this.deps.settings.set(ROUTINE_KEY_PREFIX + record.id, json);
    } catch {
      throw new HaloError("storage-error", "the routine could not be saved to flash; nothing changed.");
    }
    this.items.set(record.id, record);
  }

  private newId(prefix: "r" | "w"): string {
    for (;;) {
      const id = randomHexId(this.deps.random, prefix, 4);
      if (!this.items.has(id)) return id;
    }
  }
}

function copy(r: RoutineRecord): RoutineRecord {
  const out = { ...r };
  if (r.schedule)
    out.schedule = { ...r.schedule, ...("days" in r.schedule && r.schedule.days ? { days: r.schedule.days.slice() } : {}) } as Schedule;
  return out;
}

function checkText(text: string, max: number, field: string): void {
  if (text.trim() === "") throw new HaloError("invalid-arguments", `${field} is empty.`);
  if (text.length > max) throw new HaloError("invalid-arguments", `${field} is longer than ${max} characters.`);
  if (CONTROL.test(text)) throw new HaloError("invalid-arguments", `${field} contains control characters.`);
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const optNum = (v: unknown): boolean => v === undefined || isNum(v);
const optStr = (v: unknown): boolean => v === undefined || typeof v === "string";

/** A record read back from flash, or undefined when it is not one. */
function parseRecord(text: string | undefined): RoutineRecord | undefined {
  if (text === undefined) return undefined;
  let r: RoutineRecord;
  try {
    r = JSON.parse(text) as RoutineRecord;
  } catch {
    return undefined;
  }
  if (!r || typeof r !== "object" || typeof r.id !== "string" || !ROUTINE_ID_PATTERN.test(r.id)) return undefined;
  if ((r.kind !== "routine" && r.kind !== "wakeup") || r.id[0] !== r.kind[0]) return undefined;
  if (typeof r.owner !== "string" || typeof r.name !== "string" || typeof r.prompt !== "string" || typeof r.approved !== "boolean")
    return undefined;
  if (!isNum(r.created) || !isNum(r.failures) || !optNum(r.nextRun) || !optNum(r.lastRun) || !optNum(r.attempt)) return undefined;
  if (!optStr(r.chatId) || !optStr(r.lastResult)) return undefined;
  if (r.kind === "routine" && !isSchedule(r.schedule)) return undefined;
  if (r.kind === "wakeup" && (r.nextRun === undefined || !r.approved)) return undefined;
  if (r.approved && r.nextRun === undefined) return undefined;
  return r;
}
