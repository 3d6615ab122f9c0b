// The turn contract: the one JSON object a model answers a turn with, and its
// parser. The three required strings must be there and be strings (else a
// clear error); the arrays are tolerant: a bad item is dropped and reported,
// each array is capped. Reports name fields and indices, never a value.
import { droppedReason, MAX_DEVICE_ACTIONS } from "../device/actions";
import { PROVIDERS, type Provider } from "../device/knobs";
import { MEMORY_CONTENT_MAX_BYTES, MEMORY_QUERY_MAX_CHARS, SCRATCHPAD_TIER_MAX_ITEMS, SEARCH_MAX_RESULTS } from "../memory/bounds";
import { TTL_CLASSES, type TtlClass } from "../memory/forgetting/ttl";
import { truncateUtf8, utf8Length } from "../util/utf8";
import {
  ASK_MAX_BYTES,
  CONTRACT_MAX_PROBLEMS,
  MEM_QUERY_MAX_ITEMS,
  MEM_WRITE_MAX_ITEMS,
  MEMORY_NOTE_MAX_BYTES,
  REPLY_MAX_BYTES,
  SESSION_ATTACH_MAX,
  SESSION_FIELD_MAX_CHARS,
  SESSION_OPS_MAX_ITEMS,
  SESSION_TASK_MAX_CHARS,
} from "./bounds";
import { deviceElement } from "./device-form";

export { TURN_ANSWER, TURN_ANSWER_NAME, TURN_ANSWER_SCHEMA } from "./contract-schema";

export interface MemWriteItem {
  content: string;
  importance?: number;
  permanent?: boolean;
  ttl?: TtlClass;
}

export interface MemQueryItem {
  query: string;
  n_results?: number;
}

export type SessionOp =
  | { op: "spawn"; task: string; provider?: Provider; model?: string; skill?: string; name?: string; project?: string; attach?: string[] }
  | { op: "terminate"; id: string };

/** Absent fields are left as they are. */
export interface ScratchpadUpdate {
  active?: string;
  short?: string[];
  mid?: string[];
  long?: string[];
}

export interface TurnAnswer {
  reply: string;
  memory: string;
  ask: string;
  memWrite: MemWriteItem[];
  memQuery: MemQueryItem[];
  sessionOps: SessionOp[];
  /** device[] elements in the validator's form (lib/device/actions.ts), not yet validated. */
  device: unknown[];
  scratchpad?: ScratchpadUpdate;
}

export type ContractParse = { ok: true; answer: TurnAnswer; problems: string[] } | { ok: false; error: string };

type Obj = { [key: string]: unknown };
/** An item reader: the item, or why it is dropped. */
type ItemReader<T> = (item: Obj) => T | string;

const TOP_FIELDS = ["reply", "memory", "ask", "mem_write", "mem_query", "session_ops", "device", "scratchpad"];

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function typeName(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** Validates a provider's parsed answer against the turn contract. */
export function parseTurnAnswer(value: unknown): ContractParse {
  if (!isObject(value)) return { ok: false, error: `the answer must be one JSON object, not ${typeName(value)}.` };
  for (const field of ["reply", "memory", "ask"]) {
    if (!(field in value)) return { ok: false, error: `the answer has no '${field}' field (a required string).` };
    if (typeof value[field] !== "string") return { ok: false, error: `'${field}' must be a string, not ${typeName(value[field])}.` };
  }
  const problems: string[] = [];
  const unknown = Object.keys(value).filter((k) => TOP_FIELDS.indexOf(k) < 0);
  if (unknown.length) problems.push(`ignored ${unknown.length} unknown field${unknown.length === 1 ? "" : "s"}.`);
  const answer: TurnAnswer = {
    reply: boundedText(value.reply as string, REPLY_MAX_BYTES, "reply", problems),
    memory: boundedText(value.memory as string, MEMORY_NOTE_MAX_BYTES, "memory", problems),
    ask: boundedText(value.ask as string, ASK_MAX_BYTES, "ask", problems),
    memWrite: readList(value.mem_write, "mem_write", MEM_WRITE_MAX_ITEMS, readMemWrite, problems),
    memQuery: readList(value.mem_query, "mem_query", MEM_QUERY_MAX_ITEMS, readMemQuery, problems),
    sessionOps: readList(value.session_ops, "session_ops", SESSION_OPS_MAX_ITEMS, readSessionOp, problems),
    device: readDevice(value.device, problems),
  };
  const pad = readScratchpad(value.scratchpad, problems);
  if (pad) answer.scratchpad = pad;
  if (problems.length > CONTRACT_MAX_PROBLEMS) {
    const more = problems.length - (CONTRACT_MAX_PROBLEMS - 1);
    problems.splice(CONTRACT_MAX_PROBLEMS - 1, problems.length, `and ${more} more problems.`);
  }
  return { ok: true, answer, problems };
}

function boundedText(text: string, maxBytes: number, field: string, problems: string[]): string {
  if (utf8Length(text) <= maxBytes) return text;
  problems.push(`${field}: cut to ${maxBytes} bytes.`);
  return truncateUtf8(text, maxBytes);
}

function readList<T>(raw: unknown, field: string, max: number, read: ItemReader<T>, problems: string[]): T[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push(`${field}: not a list; ignored.`);
    return [];
  }
  const out: T[] = [];
  const n = Math.min(raw.length, max);
  for (let i = 0; i < n; i++) {
    const item = raw[i];
    const result = isObject(item) ? read(item) : "it is not an object";
    if (typeof result === "string") problems.push(`${field}[${i}]: dropped (${result}).`);
    else out.push(result);
  }
  if (raw.length > max) problems.push(`${field}: ${raw.length - max} items past the limit of ${max} were dropped.`);
  return out;
}

/** Why `item` has a field outside `allowed`, or undefined. */
function extraField(item: Obj, allowed: string[]): string | undefined {
  for (const k of Object.keys(item)) if (allowed.indexOf(k) < 0) return "it has an unknown field";
  return undefined;
}

/** A nullable string field: undefined when absent or null, else the string, or a reason. */
function optionalString(item: Obj, field: string, maxChars: number): string | undefined | { bad: string } {
  const v = item[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.length === 0 || v.length > maxChars)
    return { bad: `${field} must be a string of 1-${maxChars} characters` };
  return v;
}

function readMemWrite(item: Obj): MemWriteItem | string {
  const extra = extraField(item, ["content", "importance", "permanent", "ttl"]);
  if (extra) return extra;
  const { content, importance, permanent, ttl } = item;
  if (typeof content !== "string" || content.trim() === "") return "content must be a non-empty string";
  if (utf8Length(content) > MEMORY_CONTENT_MAX_BYTES) return `content is longer than ${MEMORY_CONTENT_MAX_BYTES} bytes`;
  const out: MemWriteItem = { content };
  if (importance !== undefined && importance !== null) {
    if (typeof importance !== "number" || !(importance >= 0 && importance <= 1)) return "importance must be a number from 0 to 1";
    out.importance = importance;
  }
  if (permanent !== undefined && permanent !== null) {
    if (typeof permanent !== "boolean") return "permanent must be true or false";
    out.permanent = permanent;
  }
  if (ttl !== undefined && ttl !== null) {
    if ((TTL_CLASSES as readonly unknown[]).indexOf(ttl) < 0) return `ttl must be one of ${TTL_CLASSES.join(", ")}`;
    out.ttl = ttl as TtlClass;
  }
  return out;
}

function readMemQuery(item: Obj): MemQueryItem | string {
  const extra = extraField(item, ["query", "n_results"]);
  if (extra) return extra;
  const { query, n_results } = item;
  if (typeof query !== "string" || query.trim() === "" || query.length > MEMORY_QUERY_MAX_CHARS) {
    return `query must be a non-empty string of at most ${MEMORY_QUERY_MAX_CHARS} characters`;
  }
  const out: MemQueryItem = { query };
  if (n_results !== undefined && n_results !== null) {
    if (typeof n_results !== "number" || !Number.isInteger(n_results) || n_results < 1 || n_results > SEARCH_MAX_RESULTS) {
      return `n_results must be an integer from 1 to ${SEARCH_MAX_RESULTS}`;
    }
    out.n_results = n_results;
  }
  return out;
}

const SPAWN_FIELDS = ["op", "task", "provider", "model", "skill", "name", "project", "attach", "id"];

function readSessionOp(item: Obj): SessionOp | string {
  const extra = extraField(item, SPAWN_FIELDS);
  if (extra) return extra;
  if (item.op === "terminate") {
    const id = optionalString(item, "id", SESSION_FIELD_MAX_CHARS);
    if (id === undefined || typeof id !== "string") return `terminate needs an id of 1-${SESSION_FIELD_MAX_CHARS} characters`;
    return { op: "terminate", id };
  }
  if (item.op !== "spawn") return "op must be spawn or terminate";
  const task = optionalString(item, "task", SESSION_TASK_MAX_CHARS);
  if (typeof task !== "string" || task.trim() === "") return `spawn needs a task of 1-${SESSION_TASK_MAX_CHARS} characters`;
  const op: SessionOp = { op: "spawn", task };
  if (item.provider !== undefined && item.provider !== null) {
    if ((PROVIDERS as readonly unknown[]).indexOf(item.provider) < 0) return `provider must be one of ${PROVIDERS.join(", ")}`;
    op.provider = item.provider as Provider;
  }
  for (const field of ["model", "skill", "name", "project"] as const) {
    const v = optionalString(item, field, SESSION_FIELD_MAX_CHARS);
    if (typeof v === "object") return v.bad;
    if (v !== undefined) op[field] = v;
  }
  if (item.attach !== undefined && item.attach !== null) {
    const attach = item.attach;
    if (!Array.isArray(attach) || attach.length > SESSION_ATTACH_MAX)
      return `attach must be a list of at most ${SESSION_ATTACH_MAX} documents`;
    for (const doc of attach) {
      if (typeof doc !== "string" || !/^[^/]{1,64}\/[^/]{1,128}$/.test(doc)) return 'every attach entry must be "<project>/<name>"';
    }
    if (attach.length) op.attach = attach.slice() as string[];
  }
  return op;
}

function readDevice(raw: unknown, problems: string[]): unknown[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push("device: not a list; ignored.");
    return [];
  }
  if (raw.length > MAX_DEVICE_ACTIONS) problems.push(`device: ${droppedReason(raw.length - MAX_DEVICE_ACTIONS)}`);
  return raw.slice(0, MAX_DEVICE_ACTIONS).map(deviceElement);
}

function readScratchpad(raw: unknown, problems: string[]): ScratchpadUpdate | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) {
    problems.push("scratchpad: not an object; ignored.");
    return undefined;
  }
  const out: ScratchpadUpdate = {};
  if (extraField(raw, ["active", "short", "mid", "long"])) problems.push("scratchpad: unknown fields ignored.");
  if (raw.active !== undefined && raw.active !== null) {
    if (typeof raw.active === "string") out.active = raw.active;
    else problems.push("scratchpad.active: not a string; ignored.");
  }
  for (const tier of ["short", "mid", "long"] as const) {
    const items = raw[tier];
    if (items === undefined || items === null) continue;
    if (!Array.isArray(items) || items.length > SCRATCHPAD_TIER_MAX_ITEMS || items.some((s) => typeof s !== "string")) {
      problems.push(`scratchpad.${tier}: must be a list of at most ${SCRATCHPAD_TIER_MAX_ITEMS} strings; ignored.`);
    } else out[tier] = items.slice() as string[];
  }
  return Object.keys(out).length ? out : undefined;
}
