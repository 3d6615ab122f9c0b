import { toJson } from "../util/json";
// Skills as Nostr events (the seed's kind 31123, adopted through a kind 10123
// list of `a` addresses). An adopted skill waits for the owner's approval, like
// an on-device capsule the model saves; only an approved one is ever used. The
// trigger the device runs is the DM trigger: a permitted DM containing the
// skill's keyword brings the skill's instructions into that turn.
import { HaloError } from "../errors";
import { SETTINGS_VALUE_MAX_BYTES } from "../limits";
import type { Log, Settings } from "../ports";
import type { NostrEvent } from "./event";
import { tagValue } from "./event";

export const KIND_SKILL = 31123;
export const KIND_SKILL_ADOPTIONS = 10123;
/** Adopted skills kept, and the longest skill text (UTF-8 bytes: each is one Settings value). */
export const NOSTR_SKILLS_MAX = 8;
export const NOSTR_SKILL_CONTENT_MAX_BYTES = 2000;
export const NOSTR_SKILL_PATTERN_MAX_CHARS = 64;
const KEY_PREFIX = "nostr.skill.";

export interface AdoptedSkill {
  /** Short id the owner approves by: the first 16 hex of the event id. */
  id: string;
  /** `31123:<author>:<d>` */
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

/** The skill an event describes, or a refusal sentence. */
export function skillFromEvent(e: NostrEvent): AdoptedSkill {
  const d = tagValue(e, "d");
  if (e.kind !== KIND_SKILL || !d) throw new HaloError("invalid", "that event is not a skill (kind 31123 with a d tag).");
  if (new TextEncoder().encode(e.content).length > NOSTR_SKILL_CONTENT_MAX_BYTES)
    throw new HaloError("too-large", `a skill's text is at most ${NOSTR_SKILL_CONTENT_MAX_BYTES} bytes on this device.`);
  const pattern = tagValue(e, "filter");
  return {
    id: e.id.slice(0, 16),
    address: `${KIND_SKILL}:${e.pubkey}:${d}`,
    author: e.pubkey,
    d: d.slice(0, 64),
    description: (tagValue(e, "description") ?? "").slice(0, 200),
    content: e.content,
    trigger: tagValue(e, "trigger")?.slice(0, 16),
    pattern: pattern === undefined ? undefined : pattern.slice(0, NOSTR_SKILL_PATTERN_MAX_CHARS),
    requiresTools: e.tags.filter((t) => t[0] === "requires_tool" && t[1]).map((t) => t[1].slice(0, 128)),
    approved: false,
  };
}

export class NostrSkills {
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
    return record;
  }

  /** Owner API: each throws not-found when no adopted skill has that id. */
  approve(id: string): AdoptedSkill {
    const s = this.find(id);
    s.approved = true;
    this.settings.set(KEY_PREFIX + s.id, toJson(s));
    this.log.info(`nostr: skill ${s.d} approved by the owner`);
    return s;
  }

  remove(id: string): AdoptedSkill {
    const s = this.find(id);
    this.settings.remove(KEY_PREFIX + s.id);
    return s;
  }

  /** Approved DM-triggered skills whose keyword the text contains (case-insensitive). */
  forDm(text: string): AdoptedSkill[] {
    const lower = text.toLowerCase();
    return this.list().filter((s) => s.approved && s.trigger === "dm" && !!s.pattern && lower.includes(s.pattern.toLowerCase()));
  }

  private find(id: string): AdoptedSkill {
    const s = /^[0-9a-f]{16}$/.test(id) ? this.list().find((x) => x.id === id) : undefined;
    if (!s) throw new HaloError("not-found", "no adopted skill has that id.");
    return s;
  }
}

/** The turn text when skills apply: their instructions first, then the message. */
export function withSkills(text: string, skills: AdoptedSkill[]): string {
  if (skills.length === 0) return text;
  const parts = skills.map((s) => `[skill "${s.d}" by ${s.author.slice(0, 16)}..., approved by the owner]\n${s.content}`);
  return `${parts.join("\n\n")}\n\n[message]\n${text}`;
}
