import { HaloError } from "../errors";
import type { Principal } from "./principal";
import type { ToolMarks } from "./types";

/** Policy tags that name why a call was refused. A refusal never echoes the blocked value. */
export type PolicyTag = "not-approved" | "admin-only" | "turn-only" | "scheduled-refused";

export interface Refusal {
  tag: PolicyTag;
  /** The sentence alone; `text` is it with its tag. */
  sentence: string;
  text: string;
}

function refusal(tag: PolicyTag, sentence: string): Refusal {
  return { tag, sentence, text: `${tag}: ${sentence}` };
}

/** Why `principal` may not call `tool`, or undefined when it may. The one place access is decided. */
export function refusalFor(tool: ToolMarks, principal: Principal): Refusal | undefined {
  if (principal.role === "unknown") return refusal("not-approved", "this conversation is not approved to use tools.");
  if (tool.adminOnly && principal.role !== "admin") return refusal("admin-only", `${tool.name} needs an admin conversation.`);
  if (tool.turnOnly && principal.via !== "turn") {
    return refusal("turn-only", `${tool.name} runs only inside a conversation turn, not over /mcp.`);
  }
  if ((tool.adminOnly || tool.refuseScheduled) && principal.scheduled) {
    return refusal("scheduled-refused", `${tool.name} is not allowed in a scheduled turn.`);
  }
  return undefined;
}

/**
 * Throws the refusal the registry would give. defineTool calls it with the tool's own marks before every
 * handler runs; a handler calls it only for a part of the tool with stricter marks than the whole (one
 * action of several, the microphone instead of a file), named like "audio.transcribe (microphone)".
 */
export function assertMayCall(marks: ToolMarks, principal: Principal): void {
  const r = refusalFor(marks, principal);
  if (r) throw new HaloError(r.tag, r.sentence, r.text);
}
