import { RESULT_CLAMP_BYTES, TOOL_NAME_PATTERN } from "../limits";
import type { Log } from "../ports";
import type { ResultsRing } from "./results-ring";
import { truncateUtf8, utf8Length } from "../util/utf8";
import { HaloError } from "../errors";
import { UnknownToolError } from "./errors";
import { annotationsOf } from "./annotations";
import { refusalFor } from "./policy";
import type { Principal } from "./principal";
import { schemaKey } from "./schema-key";
import type { CompiledValidator, DispatchResult, ToolDefinition, ToolResult, ToolSpec, ValidationReport } from "./types";
import { describeValidationError } from "./validation";

export interface RegistryOptions {
  /** Build-time validators keyed by schemaKey(inputSchema). */
  validators: { [key: string]: CompiledValidator };
  ring: ResultsRing;
  log: Log;
}

interface Entry {
  tool: ToolDefinition;
  validate: CompiledValidator;
}

/**
 * The one authoritative set of tools. The turn's prompt (manifest), the MCP
 * tools/list (toolSpecsFor) and every call (dispatch) read from here.
 */
export class ToolRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly options: RegistryOptions;

  constructor(options: RegistryOptions) {
    this.options = options;
  }

  register(tool: ToolDefinition): void {
    if (typeof tool.name !== "string" || !TOOL_NAME_PATTERN.test(tool.name)) {
      throw new Error(`bad tool name: ${String(tool.name).slice(0, 64)}`);
    }
    if (this.entries.has(tool.name)) throw new Error(`duplicate tool: ${tool.name}`);
    if (typeof tool.description !== "string" || tool.description.length === 0) {
      throw new Error(`tool ${tool.name} needs a description`);
    }
    const schema = tool.inputSchema;
    if (!schema || typeof schema !== "object" || Array.isArray(schema) || schema.type !== "object") {
      throw new Error(`tool ${tool.name} needs an object inputSchema`);
    }
    if (typeof tool.handler !== "function") throw new Error(`tool ${tool.name} needs a handler`);
    const validate = tool.validate || this.options.validators[schemaKey(schema)];
    if (!validate) throw new Error(`no compiled validator for ${tool.name}: run npm run build`);
    this.entries.set(tool.name, { tool, validate });
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Every registered tool, in registration order (docs generation). */
  all(): ToolDefinition[] {
    return Array.from(this.entries.values(), (e) => e.tool);
  }

  /** The tools `principal` may call, as advertised to it. */
  toolSpecsFor(principal: Principal): ToolSpec[] {
    const specs: ToolSpec[] = [];
    for (const { tool } of this.entries.values()) {
      if (refusalFor(tool, principal)) continue;
      const spec: ToolSpec = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
      if (tool.outputSchema) spec.outputSchema = tool.outputSchema;
      const annotations = annotationsOf(tool);
      if (annotations) spec.annotations = annotations;
      specs.push(spec);
    }
    return specs;
  }

  /** The CAPABILITIES text of the prompt: one line per tool `principal` may call. */
  manifest(principal: Principal): string {
    return this.toolSpecsFor(principal)
      .map((spec) => `- ${spec.name}(${argumentSummary(spec)}): ${spec.description}`)
      .join("\n");
  }

  /**
   * Runs one tool call. Throws UnknownToolError for a name the registry does
   * not hold; every other failure is a result with isError.
   */
  async dispatch(name: string, args: unknown, principal: Principal): Promise<DispatchResult> {
    const entry = this.entries.get(name);
    if (!entry) throw new UnknownToolError(name);
    const { tool, validate } = entry;
    const refusal = refusalFor(tool, principal);
    if (refusal) return { text: refusal.text, isError: true };
    const input = args === undefined ? {} : args;
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      return { text: "invalid arguments: arguments must be an object.", isError: true };
    }
    const report: ValidationReport = {};
    if (!validate(input, report)) return { text: describeValidationError(report), isError: true };
    let result: ToolResult;
    try {
      result = await tool.handler(input as { [key: string]: unknown }, { principal });
    } catch (e) {
      if (e instanceof HaloError) return { text: e.message, isError: true };
      this.options.log.warn(`tool ${name} failed: ${e instanceof Error ? e.name : "error"}`);
      return { text: `internal error: ${name} failed.`, isError: true };
    }
    if (result.isError) return result;
    return this.clamp(tool, result, principal);
  }

  // Keeps the whole output in the results ring and cuts what the caller gets.
  private clamp(tool: ToolDefinition, result: DispatchResult, principal: Principal): DispatchResult {
    if (tool.name.startsWith("results.")) return result;
    const size = utf8Length(result.text);
    const tag = this.options.ring.put(principal.ns, "tool_output", tool.name, result.text);
    if (size <= RESULT_CLAMP_BYTES) return result;
    const note = `\n[truncated: ${size} bytes in all; read the rest with results.get tag ${tag}]`;
    const text = truncateUtf8(result.text, RESULT_CLAMP_BYTES - utf8Length(note)) + note;
    return { ...result, text, tag, truncated: true };
  }
}

function argumentSummary(spec: ToolSpec): string {
  const props = (spec.inputSchema.properties || {}) as { [key: string]: unknown };
  const required = (spec.inputSchema.required || []) as string[];
  return Object.keys(props)
    .map((k) => (required.indexOf(k) >= 0 ? k : k + "?"))
    .join(", ");
}
