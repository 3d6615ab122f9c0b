import { HaloError } from "../errors";
import { RESULT_CLAMP_BYTES, TOOL_CALL_DEADLINE_MS, TOOL_NAME_PATTERN } from "../limits";
import type { Clock, Log, Timers } from "../ports";
import { Abort, type CallSignal } from "../util/abort";
import { truncateUtf8, utf8Length } from "../util/utf8";
import { annotationsOf } from "./annotations";
import { UnknownToolError } from "./errors";
import { refusalFor } from "./policy";
import type { Principal } from "./principal";
import type { ResultsRing } from "./results-ring";
import { schemaKey } from "./schema-key";
import type { CompiledValidator, DispatchResult, ToolDefinition, ToolSpec, ValidationReport } from "./types";
import { describeValidationError } from "./validation";

export interface RegistryOptions {
  /** Build-time validators keyed by schemaKey(inputSchema). */
  validators: { [key: string]: CompiledValidator };
  ring: ResultsRing;
  log: Log;
  clock: Clock;
  /** Arms each call's deadline: its signal is aborted when the deadline passes. */
  timers: Pick<Timers, "every">;
}

/** What a caller may say about one call: its deadline and the signal it aborts when it gives up. */
export interface CallOptions {
  deadline?: number;
  signal?: CallSignal;
}

interface Entry {
  tool: ToolDefinition;
  validate: CompiledValidator;
  /** The services the tool named in `needs`, and nothing else. */
  deps: { [name: string]: unknown };
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

  /** Adds `tool`, handing it the services it needs from `from` (only those it names). */
  register<D>(tool: ToolDefinition<D>, from: D): void {
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
    const deps: { [name: string]: unknown } = {};
    const source = from as { [name: string]: unknown };
    for (const need of tool.needs) {
      if (!(need in source)) throw new Error(`tool ${tool.name} needs ${need}, which nothing provides`);
      deps[need] = source[need];
    }
    this.entries.set(tool.name, { tool: tool as ToolDefinition, validate, deps });
  }

  /** Registers every tool of a list with the services they need. */
  registerAll<D>(tools: readonly ToolDefinition<D>[], from: D): void {
    for (const tool of tools) this.register(tool, from);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Every registered tool, in registration order (docs generation); those not available now included. */
  all(): ToolDefinition[] {
    return Array.from(this.entries.values(), (e) => e.tool);
  }

  /** The tools `principal` may call now, as advertised to it. */
  toolSpecsFor(principal: Principal): ToolSpec[] {
    const specs: ToolSpec[] = [];
    for (const entry of this.entries.values()) {
      const { tool } = entry;
      if (refusalFor(tool, principal) || unavailable(entry) !== undefined) continue;
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
   * not hold; every other failure is a result with isError and its tag.
   */
  async dispatch(name: string, args: unknown, principal: Principal, call: CallOptions = {}): Promise<DispatchResult> {
    const entry = this.entries.get(name);
    if (!entry) throw new UnknownToolError(name);
    const { tool, validate } = entry;
    const refusal = refusalFor(tool, principal);
    if (refusal) return failure(new HaloError(refusal.tag, refusal.sentence, refusal.text));
    const why = unavailable(entry);
    if (why !== undefined) return failure(new HaloError("not-configured", why));
    const input = args === undefined ? {} : args;
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      return failure(new HaloError("invalid-arguments", "arguments must be an object."));
    }
    const report: ValidationReport = {};
    if (!validate(input, report)) {
      const text = describeValidationError(report);
      return failure(new HaloError("invalid-arguments", text.replace(/^invalid arguments: /, ""), text));
    }
    const now = this.options.clock.now();
    const deadline = call.deadline ?? now + TOOL_CALL_DEADLINE_MS;
    // The call's own signal: aborted when the caller's is, or when the deadline passes.
    const abort = new Abort();
    const unlink = call.signal?.onAbort(() => abort.abort(call.signal?.reason ?? "the caller gave up.")) ?? ((): void => undefined);
    const disarm = this.options.timers.every(Math.max(1, deadline - now), () => abort.abort("the call's deadline passed."));
    try {
      const result = await tool.handler(input as { [key: string]: unknown }, { principal, deadline, signal: abort.signal }, entry.deps);
      return this.clamp(tool, result, principal);
    } catch (e) {
      if (e instanceof HaloError) return failure(e);
      this.options.log.warn(`tool ${name} failed: ${e instanceof Error ? e.name : "error"}`);
      return failure(new HaloError("failed", `${name} failed.`, `internal error: ${name} failed.`));
    } finally {
      disarm();
      unlink();
    }
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

function failure(e: HaloError): DispatchResult {
  return { text: e.message, isError: true, error: { tag: e.tag, sentence: e.sentence } };
}

/** Why the tool cannot run now, or undefined when it can. */
function unavailable(entry: Entry): string | undefined {
  const answer = entry.tool.available?.(entry.deps);
  return answer === undefined || answer === true ? undefined : answer;
}

function argumentSummary(spec: ToolSpec): string {
  const props = (spec.inputSchema.properties || {}) as { [key: string]: unknown };
  const required = (spec.inputSchema.required || []) as string[];
  return Object.keys(props)
    .map((k) => (required.indexOf(k) >= 0 ? k : k + "?"))
    .join(", ");
}
