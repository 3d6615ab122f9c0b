import type { ToolDefinition } from "./types";

/** MCP tool annotations (hints for clients; never a security boundary). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The annotations of a tool, from what the registry knows of it: its effect and whether it reaches outside the device. */
export function annotationsOf(tool: Pick<ToolDefinition, "effect" | "openWorld">): ToolAnnotations | undefined {
  if (tool.effect === undefined) return undefined;
  const readOnly = tool.effect === "read";
  return {
    readOnlyHint: readOnly,
    destructiveHint: tool.effect === "destroy",
    idempotentHint: readOnly,
    openWorldHint: tool.openWorld === true,
  };
}
