import { assertMayCall } from "./policy";
import type { FromSchema, ObjectSchema } from "./schema-types";
import type { ToolContext, ToolDefinition, ToolEffect, ToolResult } from "./types";

/** A tool as its namespace's file declares it: the handler's arguments are typed from `inputSchema`, its services from `needs`. */
export interface TypedTool<S extends ObjectSchema, D> extends Omit<ToolDefinition<D>, "inputSchema" | "handler" | "effect" | "needs"> {
  inputSchema: S;
  /** Required here, so every tool says what it does (MCP annotations come from it). */
  effect: ToolEffect;
  /** The services the handler uses; omitted when it uses none. */
  needs?: readonly (keyof D & string)[];
  handler(args: FromSchema<S>, ctx: ToolContext, deps: D): ToolResult | Promise<ToolResult>;
}

/**
 * Declares a tool as a value: a top-level constant of its namespace's file, registered from the one list
 * in lib/app/tools.ts. The registry validates every call against the schema (with the build-time
 * validator) before the handler runs, which is what makes the handler's view of its arguments true; and
 * the handler re-checks its caller against the tool's own marks before it runs, wherever it is called from.
 */
export function defineTool<const S extends ObjectSchema, D = Record<never, never>>(tool: TypedTool<S, D>): ToolDefinition<D> {
  const inner = tool.handler;
  return {
    ...tool,
    needs: tool.needs ?? [],
    handler: (args, ctx, deps) => {
      assertMayCall(tool, ctx.principal);
      return inner(args as FromSchema<S>, ctx, deps);
    },
  } as ToolDefinition<D>;
}
