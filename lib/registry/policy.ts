import { HaloError } from "../errors";
import type { Principal } from "./principal";
import type { ToolDefinition } from "./types";

/** Policy tags that name why a call was refused. A refusal never echoes the blocked value. */
export type PolicyTag = "not-approved" | "admin-only" | "turn-only" | "scheduled-refused";

export interface Refusal {
  tag: PolicyTag;
  text: string;
}

/** The marks access is decided by. */
export type AccessMarks = Pick<ToolDefinition, "name" | "adminOnly" | "turnOnly" | "refuseScheduled">;

/** Why `principal` may not call `tool`, or undefined when it may. The one place access is decided. */
export function refusalFor(tool: AccessMarks, principal: Principal): Refusal | undefined {
  if (principal.role === "unknown") {
    return { tag: "not-approved", text: "not-approved: this conversation is not approved to use tools." };
  }
  if (tool.adminOnly && principal.role !== "admin") {
    return { tag: "admin-only", text: `admin-only: ${tool.name} needs an admin conversation.` };
  }
  if (tool.turnOnly && principal.via !== "turn") {
    return { tag: "turn-only", text: `turn-only: ${tool.name} runs only inside a conversation turn, not over /mcp.` };
  }
  if ((tool.adminOnly || tool.refuseScheduled) && principal.scheduled) {
    return { tag: "scheduled-refused", text: `scheduled-refused: ${tool.name} is not allowed in a scheduled turn.` };
  }
  return undefined;
}

/** For handlers that re-check the caller: throws the refusal the registry would give. */
export function assertMayCall(tool: AccessMarks, principal: Principal): void {
  const refusal = refusalFor(tool, principal);
  if (refusal) throw new HaloError(refusal.tag, refusal.text, refusal.text);
}
