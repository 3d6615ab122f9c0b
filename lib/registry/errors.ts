import { nameError } from "../errors";
/** Dispatch of a name the registry does not hold. MCP maps it to JSON-RPC -32602. */
export class UnknownToolError extends Error {
  readonly toolName: string;
  constructor(toolName: string) {
    super(`unknown tool: ${toolName.length > 64 ? toolName.slice(0, 64) + "…" : toolName}`);
    nameError(this, "UnknownToolError");
    this.toolName = toolName;
  }
}
