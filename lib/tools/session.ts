import { HaloError } from "../errors";
import {
  SUBAGENT_ATTACH_MAX,
  SUBAGENT_MESSAGE_MAX_CHARS,
  SUBAGENT_MODEL_MAX_CHARS,
  SUBAGENT_NAME_MAX_CHARS,
  SUBAGENTS_MAX_QUEUED,
  SUBAGENTS_MAX_RUNNING,
} from "../agents/bounds";
import { subAgentSystem, subAgentTask, type BriefDocuments, type BriefSkills } from "../agents/brief";
import type { SubAgents, SubAgentView } from "../agents/sessions";
import { ARTIFACT_PROJECT_MAX_CHARS, SKILL_ID_MAX_CHARS, SUBAGENT_TASK_MAX_CHARS } from "../limits";
import { defineTool } from "../registry/define";
import type { ToolResult } from "../registry/types";
import { projectProblem } from "../store/artifact-names";
import type { SpendRails } from "../people/rails";
import { PROVIDER_IDS, PROVIDER_LABELS } from "../providers/types";

/** What the session tools work on: the sub-agents. */
export interface SessionToolDeps {
  agents: SubAgents;
}

/** session.spawn also reads attachments (the artifact store), skills for the brief, and who may spend credit (knobs). */
export interface SpawnToolDeps extends SessionToolDeps {
  artifacts: BriefDocuments;
  skills: BriefSkills;
  /** Credit and rate per caller (lib/people/rails.ts): a sub-agent spends provider credit. */
  rails: Pick<SpendRails, "admit">;
}

/** The default name and project of a sub-agent's saved results. */
export const SUBAGENT_DEFAULT_NAME = "agent";
export const SUBAGENT_DEFAULT_PROJECT = "subagents";

const ID = { type: "string", minLength: 1, maxLength: 16, description: "a sub-agent id from session.spawn or session.list" } as const;

export const sessionSpawn = defineTool({
  name: "session.spawn",
  needs: ["agents", "artifacts", "skills", "rails"],
  effect: "act",
  openWorld: true,
  description: "Start a sub-agent to work on a task in parallel. Returns its session id; read its answer with session.poll.",
  inputSchema: {
    type: "object",
    properties: {
      task: { type: "string", minLength: 1, maxLength: SUBAGENT_TASK_MAX_CHARS },
      provider: { type: "string", enum: PROVIDER_IDS.slice(), description: "preferred provider (fallback follows the owner's order)" },
      model: { type: "string", pattern: `^[A-Za-z0-9._:/-]{1,${SUBAGENT_MODEL_MAX_CHARS}}$`, maxLength: SUBAGENT_MODEL_MAX_CHARS },
      skill: {
        type: "string",
        pattern: `^[a-z0-9_-]{1,${SKILL_ID_MAX_CHARS}}$`,
        maxLength: SKILL_ID_MAX_CHARS,
        description: "an approved skill capsule id, injected into the brief",
      },
      name: {
        type: "string",
        pattern: `^[A-Za-z0-9][A-Za-z0-9_-]{0,${SUBAGENT_NAME_MAX_CHARS - 1}}$`,
        maxLength: SUBAGENT_NAME_MAX_CHARS,
        description: `short display name, also the saved result's name (default ${SUBAGENT_DEFAULT_NAME})`,
      },
      project: {
        type: "string",
        pattern: `^[a-z0-9][a-z0-9_-]{0,${ARTIFACT_PROJECT_MAX_CHARS - 1}}$`,
        maxLength: ARTIFACT_PROJECT_MAX_CHARS,
        description: `run tag: results save to <project>/<name>-<id>.md (default ${SUBAGENT_DEFAULT_PROJECT})`,
      },
      attach: {
        type: "array",
        maxItems: SUBAGENT_ATTACH_MAX,
        items: { type: "string", minLength: 3, maxLength: 121, pattern: "^[a-z0-9][a-z0-9_-]{0,39}/[^/]{1,80}$" },
        description: "<project>/<name> documents whose full text is spliced into the brief",
      },
    },
    required: ["task"],
    additionalProperties: false,
  },
  handler: (args, ctx, { agents, artifacts, skills, rails }: SpawnToolDeps): ToolResult => {
    const p = ctx.principal;
    rails.admit(p, "session-spawn");
    if (args.task.trim() === "") throw new HaloError("invalid-arguments", "the task is empty.");
    const project = args.project ?? SUBAGENT_DEFAULT_PROJECT;
    const problem = projectProblem(project);
    if (problem) throw new HaloError("invalid-arguments", `${problem}`);
    const system = subAgentSystem(skills, args.skill, args.task);
    const brief = subAgentTask(args.task, args.attach ?? [], artifacts, p);
    const s = agents.spawn(p, {
      brief,
      system,
      name: args.name ?? SUBAGENT_DEFAULT_NAME,
      project,
      provider: args.provider,
      model: args.model,
    });
    const { running, queued } = agents.capacity();
    const text =
      s.state === "queued"
        ? `Queued sub-agent ${s.id} "${s.name}": ${running} are running; it starts when a slot frees (${queued} of ${SUBAGENTS_MAX_QUEUED} waiting). Check it with session.poll.`
        : `Started sub-agent ${s.id} "${s.name}"; it works in the background. Read its answer with session.poll.`;
    return { text, structured: { id: s.id, state: s.state } };
  },
});

export const sessionList = defineTool({
  name: "session.list",
  needs: ["agents"],
  effect: "read",
  description: "List your sub-agents and their state.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  handler: (_args, ctx, { agents }: SessionToolDeps): ToolResult => {
    const mine = agents.list(ctx.principal);
    const { running, queued } = agents.capacity();
    const head = `Device-wide: ${running} of ${SUBAGENTS_MAX_RUNNING} running, ${queued} of ${SUBAGENTS_MAX_QUEUED} queued.`;
    if (mine.length === 0) return { text: `You have no sub-agents. ${head}` };
    return { text: [`Your sub-agents (${head}):`, ...mine.map(line)].join("\n") };
  },
});

export const sessionTerminate = defineTool({
  name: "session.terminate",
  needs: ["agents"],
  effect: "destroy",
  description: "Stop one of your sub-agents.",
  inputSchema: { type: "object", properties: { id: ID }, required: ["id"], additionalProperties: false },
  handler: (args, ctx, { agents }: SessionToolDeps): ToolResult => {
    const { agent: s, before } = agents.terminate(ctx.principal, args.id);
    if (before === "terminated") return { text: `Sub-agent ${s.id} was already terminated.` };
    const note = before === "running" ? " Its request in flight finishes on its own; its answer is discarded." : "";
    return { text: `Terminated sub-agent ${s.id} "${s.name}".${note}` };
  },
});

export const sessionTell = defineTool({
  name: "session.tell",
  needs: ["agents"],
  effect: "act",
  openWorld: true,
  description: "Send a message to one of your sub-agents, as if you were its user; read its answer with session.poll.",
  inputSchema: {
    type: "object",
    properties: { id: ID, message: { type: "string", minLength: 1, maxLength: SUBAGENT_MESSAGE_MAX_CHARS } },
    required: ["id", "message"],
    additionalProperties: false,
  },
  handler: (args, ctx, { agents }: SessionToolDeps): ToolResult => {
    if (args.message.trim() === "") throw new HaloError("invalid-arguments", "the message is empty.");
    const s = agents.tell(ctx.principal, args.id, args.message);
    const where = s.state === "queued" ? "it is queued until a slot frees" : "it is working on it";
    return {
      text: `Sent to sub-agent ${s.id}; ${where}. Read its answer with session.poll.`,
      structured: { id: s.id, state: s.state },
    };
  },
});

export const sessionPoll = defineTool({
  name: "session.poll",
  needs: ["agents"],
  effect: "read",
  description: "Read the latest reply from one of your sub-agents (like reading its message to you).",
  inputSchema: { type: "object", properties: { id: ID }, required: ["id"], additionalProperties: false },
  handler: (args, ctx, { agents }: SessionToolDeps): ToolResult => {
    const s = agents.poll(ctx.principal, args.id);
    return { text: pollText(s), structured: { id: s.id, state: s.state, rounds: s.rounds, unread: s.unread } };
  },
});

/** session.spawn, session.list, session.terminate, session.tell, session.poll. */
export const SESSION_TOOLS = [sessionSpawn, sessionList, sessionTerminate, sessionTell, sessionPoll] as const;

function servedBy(s: SubAgentView): string {
  return s.provider ? `${PROVIDER_LABELS[s.provider]}${s.model ? ` ${s.model}` : ""}` : "no provider yet";
}

function line(s: SubAgentView): string {
  const parts = [s.state, servedBy(s), `${s.rounds} round${s.rounds === 1 ? "" : "s"}`];
  if (s.unread) parts.push("unread reply");
  if (s.savedAs) parts.push(`saved ${s.savedAs}`);
  if (s.error) parts.push(`last error: ${s.error}`);
  return `- ${s.id} "${s.name}": ${parts.join(", ")}`;
}

function pollText(s: SubAgentView): string {
  const who = `Sub-agent ${s.id} "${s.name}"`;
  if (s.state === "queued" || s.state === "running") {
    return `${who} is still working (${s.state}). Poll again later.${s.reply !== undefined ? " Its previous reply was already delivered." : ""}`;
  }
  if (s.state === "failed") return `${who} failed before answering: ${s.error ?? "unknown error"} Spawn a new one to retry.`;
  if (s.reply === undefined) return `${who} was terminated before answering.`;
  const status = s.state === "terminated" ? "was terminated; its last reply" : s.unread ? "replied" : "replied (already read)";
  const failure = s.error ? `\n[your last message failed: ${s.error} Tell it again to retry.]` : "";
  const saved = s.savedAs ? `\n[saved as ${s.savedAs}]` : s.saveError ? `\n[not saved: ${s.saveError}]` : "";
  return `${who} ${status} (${servedBy(s)}, round ${s.rounds}):${failure}\n\n${s.reply}${saved}`;
}
