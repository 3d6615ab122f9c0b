import type { ErrorTag } from "../errors";
import type { CallSignal } from "../util/abort";
import type { ToolAnnotations } from "./annotations";
import type { Principal } from "./principal";

/** A JSON Schema object, as advertised to MCP clients. */
export type JsonSchema = { [key: string]: unknown };

/** What a tool that ran gives back. A tool that fails throws a HaloError (a tag and one sentence) instead. */
export interface ToolResult {
  /** What the caller reads. */
  text: string;
  /** Machine-readable result for tools with an output schema. */
  structured?: { [key: string]: unknown };
}

/** What every call carries besides its arguments. */
export interface ToolContext {
  principal: Principal;
  /** When the call must be done by (ms since the epoch, the clock port's time): the turn's deadline, or the MCP call's. */
  deadline: number;
  /** Aborted when the caller gives up (the deadline passed); long tools pass it to the HTTP client and stop early. */
  signal: CallSignal;
}

/** A tool's handler: its arguments (validated against its schema), the call, and the services it declared in `needs`. */
export type ToolHandler<D = unknown> = (args: { [key: string]: unknown }, ctx: ToolContext, deps: D) => ToolResult | Promise<ToolResult>;

/** Where a validator puts the failures of one call. */
export interface ValidationReport {
  errors?: Array<{ instancePath: string; message?: string; params?: { [key: string]: unknown } }> | null;
}

/** A validator compiled at build time (ajv standalone); a failed call sets `report.errors`. It keeps no state. */
export type CompiledValidator = (data: unknown, report: ValidationReport) => boolean;

/** "read" changes nothing; "write" adds or updates; "destroy" deletes or overwrites; "act" does something outside storage (speaks, sends, reboots). */
export type ToolEffect = "read" | "write" | "destroy" | "act";

/** Who may call a tool. Access is decided from these alone (lib/registry/policy.ts). */
export interface ToolMarks {
  name: string;
  /** Hidden from, and refused to, anyone but an admin; also refused in scheduled turns. */
  adminOnly?: boolean;
  /** A turn-output tool: hidden from and refused over /mcp. */
  turnOnly?: boolean;
  /** Refused in scheduled (unattended) turns. */
  refuseScheduled?: boolean;
}

export interface ToolDefinition<D = unknown> extends ToolMarks {
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** The services the handler is given, by name: the registry hands it exactly these. */
  needs: readonly string[];
  /**
   * Whether the tool can run on this device now: true, or one sentence saying why not (e.g. its key is not
   * set). Asked at every listing and call, so a key set later enables the tool without a restart.
   */
  available?(deps: D): true | string;
  handler: ToolHandler<D>;
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

/** A tool call's outcome after the registry: its result (clamped), or the failure's tag and sentence. */
export interface DispatchResult extends ToolResult {
  isError?: boolean;
  /** Why the call failed, when it did: the tag to act on and the sentence to show (`text` is both, written out). */
  error?: { tag: ErrorTag; sentence: string };
  /** Names the whole output in the results ring when `text` was cut. */
  tag?: string;
  truncated?: boolean;
}
