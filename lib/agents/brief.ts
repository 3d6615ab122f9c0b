import { HaloError } from "../errors";
// A sub-agent's brief: its system prompt (the role, plus an approved skill
// capsule) and its first message (the task, plus the full text of up to four
// attached documents from the artifact store, each cut at a bound).
import type { Principal } from "../registry/principal";
import { clipForMessage } from "../util/text";
import { truncateUtf8, utf8Length } from "../util/utf8";
import { SUBAGENT_ATTACH_MAX, SUBAGENT_ATTACH_MAX_BYTES } from "./bounds";

/** What a brief reads from the artifact store (ArtifactStore implements it). */
export interface BriefDocuments {
  /** One page of a visible text file from byte `offset`; throws a HaloError (not-found, binary, no-card). */
  readText(p: Principal, project: string, name: string, offset: number): { text: string; next?: number };
}

/** What a brief reads from the skills store (SkillStore implements it). */
export interface BriefSkills {
  get(id: string): { info: { approved: boolean } } | undefined;
  /** The capsule's text when it may be injected (built-in or approved), else undefined. */
  injectable(id: string): string | undefined;
  /** Approved capsules whose inject: words the task mentions (bounded; not `except`). */
  injectedFor(task: string, except?: string): Array<{ id: string; text: string }>;
}

export const SUBAGENT_ROLE = [
  "You are a Halo sub-agent: a focused helper that the Halo assistant (the orchestrator on its owner's desk device) started to work on one task in parallel.",
  "The orchestrator reads your replies and may write again as your user with follow-up questions.",
  "You have no tools: work from the brief, the attached documents and what you know, and say plainly what would need checking.",
  "Answer in Markdown, the result first, then short notes on assumptions and open points.",
].join("\n");

/**
 * The system prompt: the role, the capsule named (refused when unknown or unapproved), then the approved
 * capsules whose inject: words the task mentions (SkillStore.injectedFor bounds them).
 */
export function subAgentSystem(skills: BriefSkills | undefined, skillId: string | undefined, task = ""): string {
  const parts = [SUBAGENT_ROLE];
  if (skillId !== undefined) {
    const shown = clipForMessage(skillId, 30);
    if (!skills) throw new HaloError("no-card", "skill capsules are not available on this device.");
    const capsule = skills.get(skillId);
    if (!capsule) throw new HaloError("not-found", `no capsule '${shown}'.`);
    const text = skills.injectable(skillId);
    if (!capsule.info.approved || text === undefined) {
      throw new HaloError(
        "not-approved",
        `the capsule '${shown}' awaits the owner's approval; it cannot be given to a sub-agent until then.`,
      );
    }
    parts.push(`## Skill: ${skillId}\n${text}`);
  }
  for (const auto of skills?.injectedFor(task, skillId) ?? [])
    parts.push(`## Skill: ${auto.id} (its inject: words match the task)\n${auto.text}`);
  return parts.join("\n\n");
}

/** The task with each attached document's text spliced in (the spawner's own or shared files only). */
export function subAgentTask(task: string, attach: string[], docs: BriefDocuments | undefined, p: Principal): string {
  if (attach.length === 0) return task;
  if (attach.length > SUBAGENT_ATTACH_MAX) throw new HaloError("invalid-arguments", `attach at most ${SUBAGENT_ATTACH_MAX} documents.`);
  if (!docs) throw new HaloError("no-card", "the file store is not available on this device.");
  const parts = [task, "", "## Attached documents"];
  for (const ref of attach) {
    const slash = ref.indexOf("/");
    if (slash <= 0) throw new HaloError("invalid-arguments", `attach entries are "<project>/<name>", e.g. "research/notes.md".`);
    const project = ref.slice(0, slash);
    const name = ref.slice(slash + 1);
    parts.push("", `### ${project}/${name}`, readCapped(docs, p, project, name));
  }
  return parts.join("\n");
}

/** A document's text up to SUBAGENT_ATTACH_MAX_BYTES, with a note when it was cut. */
function readCapped(docs: BriefDocuments, p: Principal, project: string, name: string): string {
  let text = "";
  let offset: number | undefined = 0;
  while (offset !== undefined && utf8Length(text) < SUBAGENT_ATTACH_MAX_BYTES) {
    const page: { text: string; next?: number } = docs.readText(p, project, name, offset);
    text += page.text;
    offset = page.next;
  }
  if (offset === undefined && utf8Length(text) <= SUBAGENT_ATTACH_MAX_BYTES) return text;
  return `${truncateUtf8(text, SUBAGENT_ATTACH_MAX_BYTES)}\n[cut: only the first ${SUBAGENT_ATTACH_MAX_BYTES} bytes of this document are attached]`;
}
