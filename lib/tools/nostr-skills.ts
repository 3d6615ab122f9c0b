// nostr.skill_publish, nostr.skill_edit, nostr.skill_adopt, nostr.skill_list,
// nostr.skill_remove: skills as kind 31123 events (31124: the text NIP-44-encrypted
// to the author); adoption is the kind 10123 list plus the owner's approval.
// nostr.skill_search and nostr.trigger_list are in nostr-skill-find.ts.
import { resolveToolName } from "../registry/seed-names";
import { HaloError } from "../errors";
import { tagValue, type NostrEvent } from "../nostr/event";
import { parsePubkey } from "../nostr/keys";
import { MESSAGE_REFERENCE, referencesIn } from "../nostr/references";
import { NOSTR_QUERY_TIMEOUT_DEFAULT_MS } from "../nostr/limits";
import {
  checkFilter,
  KIND_SKILL,
  KIND_SKILL_ADOPTIONS,
  KIND_SKILL_PRIVATE,
  NOSTR_SKILL_CONTENT_MAX_BYTES,
  NOSTR_SKILL_FILTER_MAX_CHARS,
  SKILL_TRIGGERS,
  skillFromEvent,
} from "../nostr/skills";
import type { NostrSubsystem } from "../nostr/subsystem";
import { defineTool } from "../registry/define";
import type { ToolRegistry } from "../registry/registry";
import type { ToolResult } from "../registry/types";
import { clipForMessage } from "../util/text";
import { contextToolFor } from "./context-references";
import { outcomesText, publish } from "./nostr";
import { PUBKEY } from "./nostr-schemas";

export const D = { type: "string", pattern: "^[A-Za-z0-9._-]{1,64}$" } as const;
const SKILL_FIELDS = {
  content: { type: "string", minLength: 1, maxLength: NOSTR_SKILL_CONTENT_MAX_BYTES },
  description: { type: "string", maxLength: 200 },
  trigger: { type: "string", enum: SKILL_TRIGGERS },
  filter: {
    type: "string",
    minLength: 1,
    maxLength: NOSTR_SKILL_FILTER_MAX_CHARS,
    description:
      'dm: the keyword a DM must contain; schedule: {"kind":"interval","every_seconds":3600} or {"kind":"daily","at":"08:00"}; subscription: a relay filter with kinds; chain: the d tag of the skill it follows',
  },
  requires_tool: { type: "array", maxItems: 16, items: { type: "string", minLength: 1, maxLength: 128 } },
} as const;

interface SkillSpec {
  d: string;
  content: string;
  description?: string;
  trigger?: string;
  filter?: string;
  requires_tool?: readonly string[];
  private?: boolean;
}

/** Signs a skill event (checking its trigger filter first), dated `after` at the earliest; a private one's text is NIP-44-encrypted to the device. */
function skillEvent(nostr: NostrSubsystem, spec: SkillSpec, after = 0): NostrEvent {
  try {
    checkFilter(spec.trigger as never, spec.filter);
  } catch (e) {
    if (e instanceof HaloError) throw new HaloError("invalid-arguments", e.sentence);
    throw e;
  }
  const tags = [["d", spec.d]];
  if (spec.description) tags.push(["description", spec.description]);
  if (spec.trigger) tags.push(["trigger", spec.trigger]);
  if (spec.filter) tags.push(["filter", spec.filter]);
  for (const t of spec.requires_tool ?? []) tags.push(["requires_tool", t]);
  const content = spec.private ? nostr.identity.nip44Encrypt(nostr.identity.pubkey, spec.content) : spec.content;
  return nostr.identity.sign({
    kind: spec.private ? KIND_SKILL_PRIVATE : KIND_SKILL,
    tags,
    content,
    created_at: Math.max(nostr.nowSeconds(), after),
  });
}

/** The newest skill event by `author` with `d` (either kind), verified by the pool. */
export async function findSkill(nostr: NostrSubsystem, author: string, d: string): Promise<NostrEvent | undefined> {
  if (!nostr.pool) throw new HaloError("not-configured", "this device has no WebSocket client for relays.");
  const found = await nostr.pool.query(
    [{ kinds: [KIND_SKILL, KIND_SKILL_PRIVATE], authors: [author], "#d": [d] }],
    NOSTR_QUERY_TIMEOUT_DEFAULT_MS,
  );
  let newest: NostrEvent | undefined;
  for (const e of found) {
    if (e.pubkey !== author || (e.kind !== KIND_SKILL && e.kind !== KIND_SKILL_PRIVATE) || tagValue(e, "d") !== d) continue;
    if (!newest || e.created_at > newest.created_at) newest = e;
  }
  return newest;
}

/** A skill event's readable text: a kind 31124 opens only when the device wrote it. */
function readableText(nostr: NostrSubsystem, e: NostrEvent): string {
  if (e.kind !== KIND_SKILL_PRIVATE) return e.content;
  if (e.pubkey !== nostr.identity.pubkey)
    throw new HaloError("not-allowed", "a private skill (kind 31124) is readable only by its author.");
  try {
    return nostr.identity.nip44Decrypt(nostr.identity.pubkey, e.content);
  } catch {
    throw new HaloError("invalid", "that private skill's text does not decrypt.");
  }
}

/** What the skill tools work on: the device's key, relays and adopted skills (nostr.skills). */
export interface NostrSkillToolDeps {
  nostr: NostrSubsystem;
}

/** skill_adopt also checks that every tool the skill requires is on this device. */
export interface SkillAdoptToolDeps extends NostrSkillToolDeps {
  registry: Pick<ToolRegistry, "has" | "all">;
}

/** Publishes the kind 10123 list of the skills this device adopted; the relays' answers as text. */
async function publishAdoptions(nostr: NostrSubsystem): Promise<string> {
  const tags = nostr.skills.list().map((s) => ["a", s.address]);
  const event = nostr.identity.sign({ kind: KIND_SKILL_ADOPTIONS, tags, content: "", created_at: nostr.nowSeconds() });
  return outcomesText(event, nostr.pool ? await nostr.pool.publish(event) : []);
}

export const nostrSkillPublish = defineTool({
  name: "nostr.skill_publish",
  needs: ["nostr"],
  description:
    "Publish a skill (markdown instructions) as a kind 31123 event (private: 31124, readable only by this device) with an optional trigger: dm, schedule, subscription, webhook or chain.",
  adminOnly: true,
  effect: "act",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { d: D, ...SKILL_FIELDS, private: { type: "boolean" } },
    required: ["d", "content"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { nostr }: NostrSkillToolDeps): Promise<ToolResult> => publish(nostr, skillEvent(nostr, args)),
});

export const nostrSkillEdit = defineTool({
  name: "nostr.skill_edit",
  needs: ["nostr"],
  description: "Edit one of this device's own published skills by d tag (the fields given replace the old ones) and republish it.",
  adminOnly: true,
  effect: "act",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { d: D, ...SKILL_FIELDS },
    required: ["d"],
    additionalProperties: false,
  },
  handler: async (args, _ctx, { nostr }: NostrSkillToolDeps): Promise<ToolResult> => {
    const old = await findSkill(nostr, nostr.identity.pubkey, args.d);
    if (!old) throw new HaloError("not-found", "this device has published no skill with that d tag.");
    const was = skillFromEvent(old, readableText(nostr, old));
    const spec: SkillSpec = {
      d: args.d,
      content: args.content ?? was.content,
      description: args.description ?? was.description,
      trigger: args.trigger ?? was.trigger,
      filter: args.filter ?? was.pattern,
      requires_tool: args.requires_tool ?? was.requiresTools,
      private: old.kind === KIND_SKILL_PRIVATE,
    };
    // A replaceable event with the same time may lose to the old one on a relay (lowest id wins): the edit is dated later.
    return publish(nostr, skillEvent(nostr, spec, old.created_at + 1));
  },
});

export const nostrSkillAdopt = defineTool({
  name: "nostr.skill_adopt",
  needs: ["nostr", "registry"],
  description: "Adopt a published skill by author and d tag; it stays inert until the owner approves it.",
  adminOnly: true,
  effect: "write",
  openWorld: true,
  inputSchema: { type: "object", properties: { pubkey: PUBKEY, d: D }, required: ["pubkey", "d"], additionalProperties: false },
  handler: async (args, _ctx, { nostr, registry }: SkillAdoptToolDeps): Promise<ToolResult> => {
    const event = await findSkill(nostr, parsePubkey(args.pubkey), args.d);
    if (!event) throw new HaloError("not-found", "no such skill on the relays.");
    const skill = skillFromEvent(event, readableText(nostr, event));
    // The reference agents' names and Halo's plain spellings count (lib/registry/seed-names.ts).
    const missing = skill.requiresTools.filter((t) => resolveToolName(t, registry) === undefined);
    if (missing.length)
      throw new HaloError("unavailable", `the skill requires tools this device does not have: ${missing.slice(0, 5).join(", ")}.`);
    const kept = nostr.skills.adopt(skill);
    const adoptions = await publishAdoptions(nostr);
    // References that will read "[unavailable]" in its turns: adopted anyway, as the seed's agent would run it.
    const loose = referencesIn(skill.content).filter((r) => r !== MESSAGE_REFERENCE && contextToolFor(r, registry) === undefined);
    const note = loose.length
      ? `\nReferences this device does not resolve: ${loose
          .slice(0, 8)
          .map((r) => `{{${clipForMessage(r, 40)}}}`)
          .join(", ")}.`
      : "";
    return { text: `Adopted skill ${kept.d} (id ${kept.id}); it is inert until the owner approves it.${note}\n${adoptions}` };
  },
});

export const nostrSkillList = defineTool({
  name: "nostr.skill_list",
  needs: ["nostr"],
  description: "The adopted skills: id, address, trigger, whether the owner approved each.",
  adminOnly: true,
  effect: "read",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, _ctx, { nostr }: NostrSkillToolDeps): ToolResult => {
    const all = nostr.skills.list();
    if (all.length === 0) return { text: "No adopted skills." };
    return {
      text: all
        .map(
          (s) =>
            `- ${s.id} ${s.address}: ${s.description || "(no description)"}; trigger ${s.trigger ?? "none"}${s.pattern ? ` "${s.pattern}"` : ""}; ${s.approved ? "approved" : "awaiting the owner"}`,
        )
        .join("\n"),
    };
  },
});

export const nostrSkillRemove = defineTool({
  name: "nostr.skill_remove",
  needs: ["nostr"],
  description: "Stop using an adopted skill (by id) and republish the adoption list.",
  adminOnly: true,
  effect: "destroy",
  openWorld: true,
  inputSchema: {
    type: "object",
    properties: { id: { type: "string", pattern: "^[0-9a-f]{16}$" } },
    required: ["id"],
    additionalProperties: false,
  },
  handler: async (args, _ctx, { nostr }: NostrSkillToolDeps): Promise<ToolResult> => {
    const gone = nostr.skills.remove(args.id);
    return { text: `Removed skill ${gone.d}.\n${await publishAdoptions(nostr)}` };
  },
});

/** nostr.skill_publish, _edit, _adopt, _list, _remove, with nostr.skill_search and nostr.trigger_list. */
export const NOSTR_SKILL_TOOLS = [nostrSkillPublish, nostrSkillEdit, nostrSkillAdopt, nostrSkillList, nostrSkillRemove] as const;
