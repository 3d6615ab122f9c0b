import { HaloError } from "../errors";
// Knowledge capsules: the four built-ins in the firmware plus owner- and
// agent-authored capsules on the SD card (skills/<id>.md). A capsule the model
// saves is stamped created_by: agent, approved: false, and stays inert (never
// injected) until the owner approves it.
import {
  SKILL_ID_MAX_CHARS,
  SKILL_INJECT_MAX,
  SKILL_INJECT_MAX_BYTES,
  SKILL_INJECT_WORDS_MAX,
  SKILL_MAX_BYTES,
  SKILLS_MAX_PENDING,
} from "../limits";
import type { Clock, Storage } from "../ports";
import { clipForMessage } from "../util/text";
import { decodeUtf8, encodeUtf8, truncateUtf8 } from "../util/utf8";
import { onCard } from "./card";
import { parseFrontMatter, renderFrontMatter } from "./front-matter";
import { BUILTIN_SKILLS } from "./skills-builtin";

export type SkillSource = "built-in" | "owner" | "agent";

export interface SkillInfo {
  id: string;
  title: string;
  source: SkillSource;
  /** Built-ins and owner capsules are approved; an agent capsule once the owner approves it. */
  approved: boolean;
  /**
   * When a sub-agent's brief gets the capsule without being named: words or phrases, comma-separated
   * (`inject: report, weekly summary`), or `always`. Matched against the task by injectMatches below.
   */
  inject?: string;
  bytes: number;
}

export const SKILL_ID_PATTERN: RegExp = new RegExp(`^[a-z0-9_-]{1,${SKILL_ID_MAX_CHARS}}$`);
const SKILLS_DIR = "skills";
/** Capsule files read from the card at most (a listing stays bounded). */
const SKILLS_MAX_STORED = 64;
const TITLE_MAX_CHARS = 80;
const INJECT_MAX_CHARS = 200;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

interface StoredSkill {
  info: SkillInfo;
  md: string;
}

export class SkillStore {
  constructor(
    private readonly storage: Storage | undefined,
    private readonly clock: Clock,
  ) {}

  /** Every capsule; with the card out, the built-ins and a note saying so. */
  list(): { skills: SkillInfo[]; note?: string } {
    const builtins = BUILTIN_SKILLS.map((b) => builtinInfo(b.id, b.title, b.md));
    if (!this.storage?.present()) {
      return { skills: builtins, note: "The SD card is not available: only the built-in capsules are listed." };
    }
    return { skills: builtins.concat(this.readAll().map((s) => s.info)) };
  }

  /** One capsule by id, or undefined. */
  get(id: string): StoredSkill | undefined {
    const builtin = BUILTIN_SKILLS.find((b) => b.id === id);
    if (builtin) return { info: builtinInfo(builtin.id, builtin.title, builtin.md), md: builtin.md };
    if (!SKILL_ID_PATTERN.test(id)) return undefined;
    return onCard(this.storage, (card) => this.readOne(card, id));
  }

  /** skill.save: an agent capsule, stamped unapproved. */
  saveByAgent(id: string, md: string): SkillInfo {
    this.checkId(id);
    return onCard(this.storage, (card) => {
      const existing = this.readOne(card, id);
      if (existing && existing.info.source === "owner") {
        throw new HaloError("owner-created", `the capsule ${id} was written by the owner; choose another id.`);
      }
      const waiting = this.readAll().filter((s) => s.info.source === "agent" && !s.info.approved && s.info.id !== id);
      if (waiting.length >= SKILLS_MAX_PENDING) {
        throw new HaloError(
          "limit",
          `${SKILLS_MAX_PENDING} capsules already await the owner's approval; wait until they approve or reject one.`,
        );
      }
      return this.write(card, id, md, "agent", false);
    });
  }

  /** skill.delete: only agent-authored capsules. */
  deleteByAgent(id: string): void {
    this.checkId(id);
    onCard(this.storage, (card) => {
      const existing = this.readOne(card, id);
      if (!existing) throw new HaloError("not-found", `no capsule ${id}.`);
      if (existing.info.source !== "agent") {
        throw new HaloError("owner-created", `the capsule ${id} was written by the owner; only they can delete it (owner API).`);
      }
      card.remove(pathOf(id));
    });
  }

  /** Agent capsules awaiting the owner's decision (owner API). */
  listPending(): SkillInfo[] {
    if (!this.storage?.present()) return [];
    return this.readAll()
      .filter((s) => s.info.source === "agent" && !s.info.approved)
      .map((s) => s.info);
  }

  /** Owner API: makes an agent capsule active. */
  approve(id: string): SkillInfo {
    return onCard(this.storage, (card) => {
      const s = this.readOne(card, id);
      if (s?.info.source !== "agent") throw new HaloError("not-found", `no agent capsule ${clipForMessage(id, 30)}.`);
      if (s.info.approved) return s.info;
      return this.write(card, id, s.md, "agent", true);
    });
  }

  /** Owner API: deletes an agent capsule awaiting approval. */
  reject(id: string): void {
    onCard(this.storage, (card) => {
      const s = this.readOne(card, id);
      if (s?.info.source !== "agent" || s.info.approved)
        throw new HaloError("not-found", `no capsule ${clipForMessage(id, 30)} awaits approval.`);
      card.remove(pathOf(id));
    });
  }

  /** Owner API: a capsule the owner writes is active at once. */
  saveByOwner(id: string, md: string): SkillInfo {
    this.checkId(id);
    return onCard(this.storage, (card) => this.write(card, id, md, "owner", true));
  }

  /** Owner API: deletes any stored capsule (built-ins cannot be deleted). */
  removeByOwner(id: string): void {
    this.checkId(id);
    onCard(this.storage, (card) => {
      if (!this.readOne(card, id)) throw new HaloError("not-found", `no capsule ${id}.`);
      card.remove(pathOf(id));
    });
  }

  /** The capsule text the turn engine may splice into a brief: built-ins and approved capsules only. */
  injectable(id: string): string | undefined {
    const s = this.get(id);
    return s?.info.approved ? parseFrontMatter(s.md).body : undefined;
  }

  /**
   * The approved capsules a sub-agent task calls for by their inject: words (not `except`, the one named),
   * at most SKILL_INJECT_MAX in id order, each text cut at SKILL_INJECT_MAX_BYTES. Unapproved: never.
   */
  injectedFor(task: string, except?: string): Array<{ id: string; text: string }> {
    if (!this.storage?.present()) return [];
    const out: Array<{ id: string; text: string }> = [];
    const candidates = this.readAll()
      .filter((s) => s.info.approved && s.info.inject && s.info.id !== except)
      .sort((a, b) => (a.info.id < b.info.id ? -1 : 1));
    for (const s of candidates) {
      if (out.length >= SKILL_INJECT_MAX) break;
      if (!injectMatches(s.info.inject!, task)) continue;
      const body = parseFrontMatter(s.md).body;
      const text = truncateUtf8(body, SKILL_INJECT_MAX_BYTES);
      out.push({
        id: s.info.id,
        text: text.length < body.length ? `${text}\n[cut: the capsule is longer; skill.get ${s.info.id} reads it whole]` : text,
      });
    }
    return out;
  }

  private checkId(id: string): void {
    if (!SKILL_ID_PATTERN.test(id)) {
      throw new HaloError(
        "invalid",
        `use 1-${SKILL_ID_MAX_CHARS} of a-z, 0-9, '-' and '_'.`,
        `invalid id: use 1-${SKILL_ID_MAX_CHARS} of a-z, 0-9, '-' and '_'.`,
      );
    }
    if (BUILTIN_SKILLS.some((b) => b.id === id)) throw new HaloError("reserved", `${id} is a built-in capsule and cannot be replaced.`);
  }

  private write(card: Storage, id: string, md: string, source: "owner" | "agent", approved: boolean): SkillInfo {
    if (CONTROL.test(md)) throw new HaloError("binary", "the capsule contains control characters; write markdown text.");
    const { fields, body } = parseFrontMatter(md);
    if (body.trim() === "") throw new HaloError("invalid", "the capsule has no text after its front matter.");
    const title = (fields.title || firstHeading(body) || id).slice(0, TITLE_MAX_CHARS);
    const stamped: Array<[string, string]> = [["title", title]];
    if (fields.inject) stamped.push(["inject", fields.inject.slice(0, INJECT_MAX_CHARS)]);
    stamped.push(["created_by", source], ["approved", String(approved)], ["saved", new Date(this.clock.now()).toISOString()]);
    const bytes = encodeUtf8(renderFrontMatter(stamped, body));
    if (bytes.length > SKILL_MAX_BYTES) {
      throw new HaloError("too-large", `the capsule is ${bytes.length} bytes with its front matter; at most ${SKILL_MAX_BYTES}.`);
    }
    card.writeAtomic(pathOf(id), bytes);
    return infoOf(id, decodeUtf8(bytes));
  }

  private readOne(card: Storage, id: string): StoredSkill | undefined {
    const bytes = card.read(pathOf(id));
    if (!bytes) return undefined;
    const md = decodeUtf8(bytes);
    return { info: infoOf(id, md), md };
  }

  private readAll(): StoredSkill[] {
    return onCard(this.storage, (card) => {
      const out: StoredSkill[] = [];
      for (const file of card.list(SKILLS_DIR)) {
        const id = file.endsWith(".md") ? file.slice(0, -3) : "";
        if (!SKILL_ID_PATTERN.test(id) || BUILTIN_SKILLS.some((b) => b.id === id)) continue;
        const s = this.readOne(card, id);
        if (s) out.push(s);
        if (out.length >= SKILLS_MAX_STORED) break;
      }
      return out;
    });
  }
}

function pathOf(id: string): string {
  return `${SKILLS_DIR}/${id}.md`;
}

function builtinInfo(id: string, title: string, md: string): SkillInfo {
  return { id, title, source: "built-in", approved: true, bytes: encodeUtf8(md).length };
}

/** A stored capsule's info from its stamped front matter; unstamped files count as the owner's. */
function infoOf(id: string, md: string): SkillInfo {
  const { fields, body } = parseFrontMatter(md);
  const source: SkillSource = fields.created_by === "agent" ? "agent" : "owner";
  const info: SkillInfo = {
    id,
    title: (fields.title || firstHeading(body) || id).slice(0, TITLE_MAX_CHARS),
    source,
    approved: source === "owner" || fields.approved === "true",
    bytes: encodeUtf8(md).length,
  };
  if (fields.inject) info.inject = fields.inject.slice(0, INJECT_MAX_CHARS);
  return info;
}

/** The words or phrases of an inject: line: comma- or semicolon-separated, lower-cased, at most SKILL_INJECT_WORDS_MAX. */
export function injectWords(inject: string): string[] {
  return inject
    .split(/[,;]/)
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w.length >= 2)
    .slice(0, SKILL_INJECT_WORDS_MAX);
}

/**
 * Whether a task mentions one of the inject: words as whole words, in order (`always` matches every task).
 * Both sides become their words joined by single spaces, so no string is read at an index (quadratic on XS).
 */
export function injectMatches(inject: string, task: string): boolean {
  const text = ` ${wordsOf(task)} `;
  for (const word of injectWords(inject)) {
    if (word === "always") return true;
    const phrase = wordsOf(word);
    if (phrase && text.includes(` ${phrase} `)) return true;
  }
  return false;
}

/** The words of a text (letters, digits, _ and anything non-ASCII), lower-cased, joined by single spaces. */
function wordsOf(text: string): string {
  return text
    .toLowerCase()
    .split(/[^a-z0-9_\u0080-\uffff]+/)
    .filter((w) => w !== "")
    .join(" ");
}

function firstHeading(body: string): string | undefined {
  const m = /^#{1,3} +(.+)$/m.exec(body);
  return m ? m[1].trim() : undefined;
}
