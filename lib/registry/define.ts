import type { FromSchema, ObjectSchema } from "./schema-types";
import type { ToolContext, ToolDefinition, ToolEffect, ToolResult } from "./types";

/** A tool as its module declares it: the handler's arguments are typed from `inputSchema`. */
export interface TypedTool<S extends ObjectSchema> extends Omit<ToolDefinition, "inputSchema" | "handler" | "effect"> {
  inputSchema: S;
  /** Required here, so every typed tool says what it does (MCP annotations come from it). */
  effect: ToolEffect;
  handler(args: FromSchema<S>, ctx: ToolContext): ToolResult | Promise<ToolResult>;
}

/**
 * Declares a tool whose handler receives arguments of the type its schema
 * describes. The registry validates every call against the schema (with the
 * build-time validator) before the handler runs, which is what makes the
 * handler's view of its arguments true.
 */
export function defineTool<const S extends ObjectSchema>(tool: TypedTool<S>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}
