import { SKILL_ID_MAX_CHARS, SKILL_MAX_BYTES, SKILLS_MAX_PENDING } from "../limits";
import { HaloError } from "../errors";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import type { SkillInfo, SkillStore } from "../store/skills";
import { clipForMessage } from "../util/text";

const SKILL_ID = { type: "string", minLength: 1, maxLength: SKILL_ID_MAX_CHARS, description: "a-z, 0-9, - and _" } as const;

/** What the skill tools work on: the capsule store on the card. */
export interface SkillToolDeps {
  skills: SkillStore;
}

export const skillList = defineTool({
  name: "skill.list",
  needs: ["skills"],
  effect: "read",
  description: "List the on-device knowledge capsules you can read (id + title).",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, _ctx, { skills }: SkillToolDeps): ToolResult => {
    const { skills: all, note } = skills.list();
    const lines = all.map((s) => `- ${s.id}: ${s.title} (${status(s)})`);
    return { text: `Skill capsules:\n${lines.join("\n")}${note ? `\n${note}` : ""}` };
  },
});

export const skillGet = defineTool({
  name: "skill.get",
  needs: ["skills"],
  effect: "read",
  description: "Read a knowledge capsule by id (from skill.list).",
  inputSchema: { type: "object", properties: { id: SKILL_ID }, required: ["id"], additionalProperties: false },
  handler: (args, _ctx, { skills }: SkillToolDeps): ToolResult => {
    const id = args.id;
    const s = skills.get(id);
    if (!s) {
      const ids = skills
        .list()
        .skills.map((x) => x.id)
        .join(", ");
      throw new HaloError("not-found", `no capsule '${clipForMessage(id, 30)}'. Capsules: ${ids}.`);
    }
    const inert = s.info.approved ? "" : "\n\n[this capsule awaits the owner's approval: it is never injected until then]";
    return { text: s.md + inert };
  },
});

export const skillSave = defineTool({
  name: "skill.save",
  adminOnly: true,
  needs: ["skills"],
  effect: "destroy",
  description: "Save (or update) a reusable skill capsule you authored.",
  inputSchema: {
    type: "object",
    properties: {
      id: SKILL_ID,
      md: {
        type: "string",
        minLength: 1,
        maxLength: SKILL_MAX_BYTES,
        description: "the SKILL.md text; optional front matter with title: and inject:",
      },
    },
    required: ["id", "md"],
    additionalProperties: false,
  },
  handler: (args, _ctx, { skills }: SkillToolDeps): ToolResult => {
    const info = skills.saveByAgent(args.id, args.md);
    return {
      text: `Saved capsule ${info.id} (${info.bytes} bytes). It is inert until the owner approves it (at most ${SKILLS_MAX_PENDING} wait at once); do not count on it in this task.`,
    };
  },
});

export const skillDelete = defineTool({
  name: "skill.delete",
  adminOnly: true,
  needs: ["skills"],
  effect: "destroy",
  description: "Delete a skill capsule you authored (created_by: agent).",
  inputSchema: { type: "object", properties: { id: SKILL_ID }, required: ["id"], additionalProperties: false },
  handler: (args, _ctx, { skills }: SkillToolDeps): ToolResult => {
    skills.deleteByAgent(args.id);
    return { text: `Deleted capsule ${args.id}.` };
  },
});

/** skill.list, skill.get, skill.save, skill.delete over the capsule store. */
export const SKILL_TOOLS = [skillList, skillGet, skillSave, skillDelete] as const;

function status(s: SkillInfo): string {
  if (s.source === "built-in") return "built-in";
  if (s.source === "owner") return "owner";
  return s.approved ? "agent, approved" : "agent, awaiting approval";
}
