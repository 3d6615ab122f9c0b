import { toJson } from "../util/json";
// Skills as Nostr events (the seed's kind 31123, and 31124 whose text is
// NIP-44-encrypted to its author, adopted through a kind 10123 list of `a`
// addresses). An adopted skill waits for the owner's approval, like an
// on-device capsule the model saves; only an approved one is ever used. Its
// trigger (dm, schedule, subscription, webhook, chain) is run by
// triggers.ts; its `filter` tag is checked here, when it is adopted.
import { HaloError } from "../errors";
import { SETTINGS_VALUE_MAX_BYTES } from "../limits";
import type { Log, Settings } from "../ports";
import { parseSchedule, type Schedule } from "../util/schedule";
import type { NostrEvent } from "./event";
import { tagValue } from "./event";
import type { Filter } from "./relay";

export const KIND_SKILL = 31123;
/** A skill whose text is NIP-44-encrypted to its author: only the author's device can read it. */
export const KIND_SKILL_PRIVATE = 31124;
export const SKILL_TRIGGERS = ["dm", "schedule", "subscription", "webhook", "chain"] as const;
export type SkillTrigger = (typeof SKILL_TRIGGERS)[number];
/** Longest trigger filter (a schedule or a relay filter as JSON). */
export const NOSTR_SKILL_FILTER_MAX_CHARS = 512;
const FILTER_KEYS = ["ids", "authors", "kinds", "#e", "#p", "#t", "#d", "#a"];
const FILTER_VALUES_MAX = 20;
const HEX64 = /^[0-9a-f]{64}$/;
export const KIND_SKILL_ADOPTIONS = 10123;
/** Adopted skills kept, and the longest skill text (UTF-8 bytes: each is one Settings value). */
export const NOSTR_SKILLS_MAX = 8;
export const NOSTR_SKILL_CONTENT_MAX_BYTES = 2000;
export const NOSTR_SKILL_PATTERN_MAX_CHARS = 64;
const KEY_PREFIX = "nostr.skill.";

export interface AdoptedSkill {
  /** Short id the owner approves by: the first 16 hex of the event id. */
  id: string;
  /** `<kind>:<author>:<d>` */
  address: string;
  author: string;
  d: string;
  description: string;
  content: string;
  trigger?: string;
  pattern?: string;
  requiresTools: string[];
  approved: boolean;
}

/**
 * The skill an event describes (throws a HaloError sentence when it is not a
 * usable one). `content` is the readable text: a kind 31124's decrypted text.
 */
export function skillFromEvent(e: NostrEvent, content = e.content): AdoptedSkill {
  const d = tagValue(e, "d");
  if ((e.kind !== KIND_SKILL && e.kind !== KIND_SKILL_PRIVATE) || !d)
    throw new HaloError("invalid", "that event is not a skill (kind 31123 or 31124 with a d tag).");
  if (new TextEncoder().encode(content).length > NOSTR_SKILL_CONTENT_MAX_BYTES)
    throw new HaloError("too-large", `a skill's text is at most ${NOSTR_SKILL_CONTENT_MAX_BYTES} bytes on this device.`);
  const trigger = tagValue(e, "trigger");
  if (trigger !== undefined && !(SKILL_TRIGGERS as readonly string[]).includes(trigger))
    throw new HaloError("invalid", `a skill's trigger is one of ${SKILL_TRIGGERS.join(", ")}.`);
  const pattern = tagValue(e, "filter");
  checkFilter(trigger as SkillTrigger | undefined, pattern);
  return {
    id: e.id.slice(0, 16),
    address: `${e.kind}:${e.pubkey}:${d}`,
    author: e.pubkey,
    d: d.slice(0, 64),
    description: (tagValue(e, "description") ?? "").slice(0, 200),
    content,
    trigger,
    pattern,
    requiresTools: e.tags.filter((t) => t[0] === "requires_tool" && t[1]).map((t) => t[1].slice(0, 128)),
    approved: false,
  };
}

/** Refuses a trigger filter the device could not run (HaloError "invalid"). */
export function checkFilter(trigger: SkillTrigger | undefined, pattern: string | undefined): void {
  const bad = (why: string): never => {
    throw new HaloError("invalid", why);
  };
  if (pattern !== undefined && pattern.length > NOSTR_SKILL_FILTER_MAX_CHARS)
    bad(`a skill's filter is at most ${NOSTR_SKILL_FILTER_MAX_CHARS} characters.`);
  if (trigger === "dm" && (!pattern || pattern.length > NOSTR_SKILL_PATTERN_MAX_CHARS))
    bad(`a DM-triggered skill's filter is its keyword, 1 to ${NOSTR_SKILL_PATTERN_MAX_CHARS} characters.`);
  if (trigger === "schedule") scheduleOf(pattern);
  if (trigger === "subscription") relayFilterOf(pattern);
  if (trigger === "chain" && !/^[A-Za-z0-9._-]{1,64}$/.test(pattern ?? ""))
    bad("a chained skill's filter is the d tag of the skill it follows.");
}

/** A schedule skill's filter: JSON {"kind": "interval", "every_seconds": 3600} or {"kind": "daily", "at": "08:00"}. */
export function scheduleOf(pattern: string | undefined): Schedule {
  const parsed = parseSchedule(jsonObject(pattern, "a scheduled skill's filter is a schedule as JSON"));
  if (typeof parsed === "string") throw new HaloError("invalid", parsed);
  return parsed;
}

/** A subscription skill's filter: one NIP-01 filter as JSON, with kinds, at most 20 values a field. */
export function relayFilterOf(pattern: string | undefined): Filter {
  const raw = jsonObject(pattern, "a subscription skill's filter is a relay filter as JSON");
  const bad = (): never => {
    throw new HaloError(
      "invalid",
      `a subscription filter has kinds and only ${FILTER_KEYS.join(", ")}, each a list of 1 to ${FILTER_VALUES_MAX}.`,
    );
  };
  const out: Filter = {};
  for (const key of Object.keys(raw)) {
    const v = raw[key];
    if (!FILTER_KEYS.includes(key) || !Array.isArray(v) || v.length === 0 || v.length > FILTER_VALUES_MAX) bad();
    const list = v as unknown[];
    const ok =
      key === "kinds"
        ? list.every((k) => Number.isInteger(k) && (k as number) >= 0 && (k as number) <= 65535)
        : key === "ids" || key === "authors" || key === "#e" || key === "#p"
          ? list.every((x) => typeof x === "string" && HEX64.test(x))
          : list.every((x) => typeof x === "string" && x.length > 0 && x.length <= 128);
    if (!ok) bad();
    out[key] = list.slice();
  }
  if (!out.kinds) bad();
  return out;
}

function jsonObject(pattern: string | undefined, what: string): { [key: string]: unknown } {
  let v: unknown;
  try {
    v = JSON.parse(pattern ?? "");
  } catch {
    throw new HaloError("invalid", `${what}.`);
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new HaloError("invalid", `${what}.`);
  return v as { [key: string]: unknown };
}

export class NostrSkills {
  /** Told after every adoption, approval and removal (the trigger runtime re-reads the skills). */
  onChange: () => void = () => undefined;

  constructor(
    private readonly settings: Settings,
    private readonly log: Log,
  ) {}

  list(): AdoptedSkill[] {
    const out: AdoptedSkill[] = [];
    for (const key of this.settings.keys(KEY_PREFIX)) {
      try {
        out.push(JSON.parse(this.settings.get(key) ?? "") as AdoptedSkill);
      } catch {
        this.log.warn("nostr: an adopted skill record is unreadable; ignoring it");
      }
    }
    return out;
  }

  /** Keeps a skill as adopted and unapproved (a newer version of the same address replaces the old one, unapproved again). */
  adopt(skill: AdoptedSkill): AdoptedSkill {
    const existing = this.list().filter((s) => s.address === skill.address);
    if (existing.length === 0 && this.list().length >= NOSTR_SKILLS_MAX)
      throw new HaloError("full", `at most ${NOSTR_SKILLS_MAX} adopted skills.`);
    for (const old of existing) this.settings.remove(KEY_PREFIX + old.id);
    const record = { ...skill, approved: false };
    const text = toJson(record);
    if (new TextEncoder().encode(text).length > SETTINGS_VALUE_MAX_BYTES)
      throw new HaloError("too-large", "that skill is too large to keep on this device.");
    this.settings.set(KEY_PREFIX + record.id, text);
    this.onChange();
    return record;
  }

  /** Owner API: each throws not-found when no adopted skill has that id. */
  approve(id: string): AdoptedSkill {
    const s = this.find(id);
    s.approved = true;
    this.settings.set(KEY_PREFIX + s.id, toJson(s));
    this.log.info(`nostr: skill ${s.d} approved by the owner`);
    this.onChange();
    return s;
  }

  remove(id: string): AdoptedSkill {
    const s = this.find(id);
    this.settings.remove(KEY_PREFIX + s.id);
    this.onChange();
    return s;
  }

  /** Approved skills with `trigger`. */
  approved(trigger: SkillTrigger): AdoptedSkill[] {
    return this.list().filter((s) => s.approved && s.trigger === trigger);
  }

  /** Approved DM-triggered skills whose keyword the text contains (case-insensitive). */
  forDm(text: string): AdoptedSkill[] {
    const lower = text.toLowerCase();
    return this.approved("dm").filter((s) => !!s.pattern && lower.includes(s.pattern.toLowerCase()));
  }

  private find(id: string): AdoptedSkill {
    const s = /^[0-9a-f]{16}$/.test(id) ? this.list().find((x) => x.id === id) : undefined;
    if (!s) throw new HaloError("not-found", "no adopted skill has that id.");
    return s;
  }
}

/** The tools a turn of these skills may use: the union of their requires_tool lists; undefined (all) when one declares none. */
export function toolsOf(skills: AdoptedSkill[]): string[] | undefined {
  if (skills.length === 0 || skills.some((s) => s.requiresTools.length === 0)) return undefined;
  return Array.from(new Set(skills.flatMap((s) => s.requiresTools)));
}
