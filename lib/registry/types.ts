import type { ToolAnnotations } from "./annotations";
import type { Principal } from "./principal";

/** A JSON Schema object, as advertised to MCP clients. */
export type JsonSchema = { [key: string]: unknown };

export interface ToolResult {
  /** What the caller reads: one short sentence when `isError`. */
  text: string;
  /** Machine-readable result for tools with an output schema. */
  structured?: { [key: string]: unknown };
  isError?: boolean;
}

export interface ToolContext {
  principal: Principal;
}

export type ToolHandler = (args: { [key: string]: unknown }, ctx: ToolContext) => ToolResult | Promise<ToolResult>;

/** Where a validator puts the failures of one call. */
export interface ValidationReport {
  errors?: Array<{ instancePath: string; message?: string; params?: { [key: string]: unknown } }> | null;
}

/** A validator compiled at build time (ajv standalone); a failed call sets `report.errors`. It keeps no state. */
export type CompiledValidator = (data: unknown, report: ValidationReport) => boolean;

/** "read" changes nothing; "write" adds or updates; "destroy" deletes or overwrites; "act" does something outside storage (speaks, sends, reboots). */
export type ToolEffect = "read" | "write" | "destroy" | "act";

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  handler: ToolHandler;
  /** Hidden from, and refused to, anyone but an admin; also refused in scheduled turns. */
  adminOnly?: boolean;
  /** A turn-output tool: hidden from and refused over /mcp. */
  turnOnly?: boolean;
  /** Refused in scheduled (unattended) turns. */
  refuseScheduled?: boolean;
  /** What a call does to stored state: MCP annotations are derived from it. */
  effect?: ToolEffect;
  /** The tool reaches outside the device (the web, a provider, a relay). */
  openWorld?: boolean;
  /** Overrides the build-time validator lookup (tests of the registry itself). */
  validate?: CompiledValidator;
}

/** What a caller is shown of a tool. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
}

/** A tool result after the registry's clamp. `tag` names the whole output in the results ring. */
export interface DispatchResult extends ToolResult {
  tag?: string;
  truncated?: boolean;
}
