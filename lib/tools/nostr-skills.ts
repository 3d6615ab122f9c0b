// nostr.skill_publish, nostr.skill_adopt, nostr.skill_list, nostr.skill_remove:
// skills as kind 31123 events; adoption is the kind 10123 list plus the owner's approval.
import { HaloError } from "../errors";
import { tagValue } from "../nostr/event";
import { parsePubkey } from "../nostr/keys";
import { NOSTR_QUERY_TIMEOUT_DEFAULT_MS } from "../nostr/limits";
import {
  KIND_SKILL,
  KIND_SKILL_ADOPTIONS,
  NOSTR_SKILL_CONTENT_MAX_BYTES,
  NOSTR_SKILL_PATTERN_MAX_CHARS,
  skillFromEvent,
  type NostrSkills,
} from "../nostr/skills";
import type { NostrSubsystem } from "../nostr/subsystem";
import { defineTool } from "../registry/define";
import type { ToolRegistry } from "../registry/registry";
import type { ToolDefinition, ToolResult } from "../registry/types";
import { outcomesText, publish } from "./nostr";
import { guarded, PUBKEY } from "./nostr-schemas";

const D = { type: "string", pattern: "^[A-Za-z0-9._-]{1,64}$" } as const;

export function registerNostrSkillTools(registry: ToolRegistry, nostr: NostrSubsystem, skills: NostrSkills): void {
  const register = (tool: ToolDefinition): void => registry.register(guarded(tool));
  const publishAdoptions = async (): Promise<string> => {
    const tags = skills.list().map((s) => ["a", s.address]);
    const event = nostr.identity.sign({ kind: KIND_SKILL_ADOPTIONS, tags, content: "", created_at: nostr.nowSeconds() });
    return outcomesText(event, nostr.pool ? await nostr.pool.publish(event) : []);
  };
  register(
    defineTool({
      name: "nostr.skill_publish",
      description: "Publish a skill (markdown instructions) as a kind 31123 event, optionally DM-triggered by a keyword.",
      adminOnly: true,
      effect: "act",
      openWorld: true,
      inputSchema: {
        type: "object",
        properties: {
          d: D,
          content: { type: "string", minLength: 1, maxLength: NOSTR_SKILL_CONTENT_MAX_BYTES },
          description: { type: "string", maxLength: 200 },
          trigger: { type: "string", enum: ["dm"] },
          filter: { type: "string", minLength: 1, maxLength: NOSTR_SKILL_PATTERN_MAX_CHARS, description: "the keyword a DM must contain" },
          requires_tool: { type: "array", maxItems: 16, items: { type: "string", minLength: 1, maxLength: 128 } },
        },
        required: ["d", "content"],
        additionalProperties: false,
      },
      handler: (args): Promise<ToolResult> => {
        if (args.trigger === "dm" && !args.filter)
          throw new HaloError("invalid-arguments", "a DM-triggered skill needs its keyword (filter).");
        const tags = [["d", args.d]];
        if (args.description) tags.push(["description", args.description]);
        if (args.trigger) tags.push(["trigger", args.trigger]);
        if (args.filter) tags.push(["filter", args.filter]);
        for (const t of args.requires_tool ?? []) tags.push(["requires_tool", t]);
        return publish(nostr, nostr.identity.sign({ kind: KIND_SKILL, tags, content: args.content, created_at: nostr.nowSeconds() }));
      },
    }),
  );
  register(
    defineTool({
      name: "nostr.skill_adopt",
      description: "Adopt a published skill by author and d tag; it stays inert until the owner approves it.",
      adminOnly: true,
      effect: "write",
      openWorld: true,
      inputSchema: { type: "object", properties: { pubkey: PUBKEY, d: D }, required: ["pubkey", "d"], additionalProperties: false },
      handler: async (args): Promise<ToolResult> => {
        if (!nostr.pool) throw new HaloError("not-configured", "this device has no WebSocket client for relays.");
        const author = parsePubkey(args.pubkey);
        const found = await nostr.pool.query(
          [{ kinds: [KIND_SKILL], authors: [author], "#d": [args.d], limit: 1 }],
          NOSTR_QUERY_TIMEOUT_DEFAULT_MS,
        );
        const event = found.find((e) => e.pubkey === author && e.kind === KIND_SKILL && tagValue(e, "d") === args.d);
        if (!event) throw new HaloError("not-found", "no such skill on the relays.");
        const skill = skillFromEvent(event);
        const missing = skill.requiresTools.filter((t) => !registry.all().some((tool) => tool.name === t));
        if (missing.length)
          throw new HaloError("unavailable", `the skill requires tools this device does not have: ${missing.slice(0, 5).join(", ")}.`);
        const kept = skills.adopt(skill);
        const adoptions = await publishAdoptions();
        return { text: `Adopted skill ${kept.d} (id ${kept.id}); it is inert until the owner approves it.\n${adoptions}` };
      },
    }),
  );
  register(
    defineTool({
      name: "nostr.skill_list",
      description: "The adopted skills: id, address, trigger, whether the owner approved each.",
      adminOnly: true,
      effect: "read",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      handler: (): ToolResult => {
        const all = skills.list();
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
    }),
  );
  register(
    defineTool({
      name: "nostr.skill_remove",
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
      handler: async (args): Promise<ToolResult> => {
        const gone = skills.remove(args.id);
        return { text: `Removed skill ${gone.d}.\n${await publishAdoptions()}` };
      },
    }),
  );
}
