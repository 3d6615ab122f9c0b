// The tool loop of one turn: call the model, run the registry tools it asks
// for, hand back the results, until it gives its final answer. Bounded by a
// round cap, a deadline, calls per round, and the bytes of tool output the
// model is shown (each result clamped, all results together clamped; whatever
// is cut stays in the results ring under a tag).
import { RESULT_CLAMP_BYTES } from "../limits";
import type { Clock, Log } from "../ports";
import { UnknownToolError } from "../registry/errors";
import type { Principal } from "../registry/principal";
import type { ToolRegistry } from "../registry/registry";
import type { ResultsRing } from "../registry/results-ring";
import { clipForMessage } from "../util/text";
import { truncateUtf8, utf8Length } from "../util/utf8";
import {
  CONTRACT_REPAIRS_MAX,
  PROVIDER_CALL_MIN_MS,
  PROVIDER_CALL_TIMEOUT_MS,
  TOOL_CALLS_PER_ROUND_MAX,
  TOOL_RESULTS_TOTAL_MAX_BYTES,
  TURN_MAX_OUTPUT_TOKENS,
} from "./bounds";
import { ProviderError } from "../providers/errors";
import type { RouteRequest, RoutedResponse } from "../providers/router";
import type { AnswerSchema, ChatMessage, ChatProvider, ProviderId, ToolCall, ToolSpec } from "../providers/types";

/** What the loop needs of the ProviderRouter. */
export interface TurnRouter {
  complete(req: RouteRequest): Promise<RoutedResponse>;
  /** Keyed providers in the owner's order. */
  available(): ProviderId[];
  /** The adapter of a keyed provider (read for its continuation style). */
  provider(id: ProviderId): Pick<ChatProvider, "continuation"> | undefined;
}

/** One tool call as the turn reports it. */
export interface ToolCallReport {
  round: number;
  name: string;
  ok: boolean;
  /** The model saw a cut result; the whole of it is in the results ring under `tag`. */
  truncated?: boolean;
  tag?: string;
}

export type Acceptance<T> = { ok: true; value: T } | { ok: false; error: string };

export interface LoopRequest<T> {
  principal: Principal;
  system: string;
  messages: ChatMessage[];
  schema: AnswerSchema;
  tools: ToolSpec[];
  maxRounds: number;
  /** When set, a call to any other tool is refused before dispatch (a skill's requires_tool list). */
  allowTools?: ReadonlySet<string>;
  /** Absolute time (clock ms) after which no provider call starts. */
  deadline: number;
  /** The head's own provider and model (the orch_model action), tried first. */
  provider?: ProviderId;
  model?: string;
  /** Reads a final answer; a refusal is sent back to the model for repair (CONTRACT_REPAIRS_MAX times). */
  accept(json: unknown, res: RoutedResponse): Acceptance<T>;
  /** Told of each tool call as it completes, with the tool's whole output (before the clamp for the model). */
  onToolResult?(report: ToolCallReport, text: string): void;
}

export type LoopFailure = "budget" | "no-provider" | "provider" | "timeout" | "contract" | "refusal" | "rounds";

export interface LoopOutcome<T> {
  value?: T;
  /** Set when there is no value: what went wrong, and one sentence. */
  failure?: { kind: LoopFailure; message: string };
  toolCalls: ToolCallReport[];
  rounds: number;
  providerCalls: number;
  usage: { inputTokens: number; outputTokens: number };
  provider?: ProviderId;
  model?: string;
}

export interface LoopDeps {
  registry: ToolRegistry;
  ring: ResultsRing;
  router: TurnRouter;
  clock: Clock;
  log: Log;
}

/** Runs the tool loop to a final answer (or a failure, never a throw for anything the model or a provider does). */
export async function runToolLoop<T>(deps: LoopDeps, req: LoopRequest<T>): Promise<LoopOutcome<T>> {
  const out: LoopOutcome<T> = { toolCalls: [], rounds: 0, providerCalls: 0, usage: { inputTokens: 0, outputTokens: 0 } };
  const messages = req.messages.slice();
  const budget = { spent: 0 };
  let served: Served | undefined;
  let repairs = 0;
  let capHit = false;
  const maxCalls = req.maxRounds + 2 + CONTRACT_REPAIRS_MAX;
  const fail = (kind: LoopFailure, message: string): LoopOutcome<T> => {
    out.failure = { kind, message };
    return out;
  };

  while (out.providerCalls < maxCalls) {
    const remaining = req.deadline - deps.clock.now();
    if (remaining < PROVIDER_CALL_MIN_MS) return fail("timeout", `timeout: the turn's deadline passed after ${out.rounds} tool rounds.`);
    const base: RouteRequest = {
      system: req.system,
      messages,
      schema: req.schema,
      tools: req.tools.length ? req.tools : undefined,
      maxOutputTokens: TURN_MAX_OUTPUT_TOKENS,
      timeoutMs: Math.floor(Math.min(PROVIDER_CALL_TIMEOUT_MS, remaining)),
      provider: req.provider,
      model: req.model,
    };
    let res: RoutedResponse;
    try {
      out.providerCalls++;
      res = await complete(deps.router, base, served);
    } catch (e) {
      const error = e instanceof ProviderError ? e : undefined;
      if (error?.kind === "budget") return fail("budget", error.message);
      if (error?.kind === "unavailable" && deps.router.available().length === 0) return fail("no-provider", error.message);
      return fail("provider", error ? error.message : "the provider call failed.");
    }
    out.usage.inputTokens += res.usage.inputTokens;
    out.usage.outputTokens += res.usage.outputTokens;
    out.provider = res.provider;
    out.model = res.model;
    messages.push({ role: "assistant", content: res.text, toolCalls: res.toolCalls.length ? res.toolCalls : undefined });
    const continues = res.responseId && deps.router.provider(res.provider)?.continuation === "response-id";
    served = continues ? { provider: res.provider, model: res.model, responseId: res.responseId!, sent: messages.length } : undefined;

    if (res.finish === "tool_calls" && res.toolCalls.length) {
      if (capHit) return fail("rounds", `limit: the model kept calling tools after the round cap of ${req.maxRounds}.`);
      if (out.rounds >= req.maxRounds) {
        capHit = true;
        const note = `limit: the tool round cap of ${req.maxRounds} for this turn is reached; no more tools run now. Give your final answer.`;
        for (const call of res.toolCalls)
          messages.push({ role: "tool", toolCallId: call.id, name: call.name, content: note, isError: true });
        continue;
      }
      out.rounds++;
      await runCalls(deps, req, res.toolCalls, messages, out, budget);
      continue;
    }
    if (res.finish === "refusal") return fail("refusal", "refusal: the model declined to answer.");
    const accepted: Acceptance<T> =
      res.json !== undefined ? req.accept(res.json, res) : { ok: false, error: res.jsonError || "the answer is not valid JSON." };
    if (accepted.ok) {
      out.value = accepted.value;
      return out;
    }
    if (repairs >= CONTRACT_REPAIRS_MAX)
      return fail("contract", `contract: the model's answer could not be used (${accepted.error.replace(/\.$/, "")}).`);
    repairs++;
    messages.push({
      role: "user",
      content: `Your answer broke the turn contract: ${accepted.error} Answer again with one JSON object that follows the turn_answer schema.`,
    });
  }
  return fail("rounds", "limit: the turn made too many provider calls.");
}

/** The last answer, when its provider keeps the conversation: `sent` messages are already on its side. */
interface Served {
  provider: ProviderId;
  model: string;
  responseId: string;
  sent: number;
}

/** One provider call: continued by response id where the last provider keeps the conversation, else the whole history. */
async function complete(router: TurnRouter, base: RouteRequest, served: Served | undefined): Promise<RoutedResponse> {
  if (!served) return router.complete(base);
  const continued: RouteRequest = {
    ...base,
    messages: base.messages.slice(served.sent),
    provider: served.provider,
    model: served.model,
    previousResponseId: served.responseId,
  };
  try {
    return await router.complete(continued);
  } catch (e) {
    // A continuation is pinned to one provider; on its failure the whole history may go anywhere.
    if (e instanceof ProviderError && e.kind === "budget") throw e;
    return router.complete(base);
  }
}

async function runCalls<T>(
  deps: LoopDeps,
  req: LoopRequest<T>,
  calls: ToolCall[],
  messages: ChatMessage[],
  out: LoopOutcome<T>,
  budget: { spent: number },
): Promise<void> {
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    let result: { text: string; isError?: boolean; tag?: string; truncated?: boolean };
    if (i >= TOOL_CALLS_PER_ROUND_MAX)
      result = {
        text: `limit: at most ${TOOL_CALLS_PER_ROUND_MAX} tool calls run per round; call it again in the next round.`,
        isError: true,
      };
    else if (deps.clock.now() >= req.deadline)
      result = { text: "timeout: the turn's deadline passed before this call ran.", isError: true };
    else if (req.allowTools && !req.allowTools.has(call.name))
      result = {
        text: `not-allowed: ${clipForMessage(call.name, 64)} is not among this skill's tools; call only the tools listed in CAPABILITIES.`,
        isError: true,
      };
    else result = await dispatchOne(deps, req.principal, call);
    const shown = clampForModel(deps.ring, req.principal, call.name, result, budget);
    const report: ToolCallReport = { round: out.rounds, name: clipForMessage(call.name, 64), ok: !result.isError };
    if (shown.tag) report.tag = shown.tag;
    if (shown.truncated) report.truncated = true;
    out.toolCalls.push(report);
    req.onToolResult?.(report, result.text);
    messages.push({ role: "tool", toolCallId: call.id, name: call.name, content: shown.text, isError: result.isError ? true : undefined });
  }
}

async function dispatchOne(
  deps: LoopDeps,
  principal: Principal,
  call: ToolCall,
): Promise<{ text: string; isError?: boolean; tag?: string; truncated?: boolean }> {
  if (call.argumentsError) return { text: `invalid arguments: ${call.argumentsError}.`, isError: true };
  try {
    return await deps.registry.dispatch(call.name, call.arguments, principal);
  } catch (e) {
    if (e instanceof UnknownToolError)
      return { text: `unknown tool: ${clipForMessage(call.name, 64)}; call only the tools listed in CAPABILITIES.`, isError: true };
    deps.log.warn(`turn: tool ${clipForMessage(call.name, 64)} failed: ${e instanceof Error ? e.name : "error"}`);
    return { text: "internal error: the tool failed.", isError: true };
  }
}

/** The text the model is shown: each result within RESULT_CLAMP_BYTES, all results within TOOL_RESULTS_TOTAL_MAX_BYTES. */
function clampForModel(
  ring: ResultsRing,
  principal: Principal,
  name: string,
  result: { text: string; tag?: string; truncated?: boolean },
  budget: { spent: number },
): { text: string; tag?: string; truncated?: boolean } {
  const size = utf8Length(result.text);
  const room = Math.min(RESULT_CLAMP_BYTES, TOOL_RESULTS_TOTAL_MAX_BYTES - budget.spent);
  if (size <= room) {
    budget.spent += size;
    return result;
  }
  const tag = result.tag ?? ring.put(principal.ns, "tool_output", name, result.text);
  const why = room < RESULT_CLAMP_BYTES ? "this turn's tool output budget is spent" : "the result is too long";
  const note = `\n[cut: ${why}; the full result is in the results ring, tag ${tag} (results.get)]`;
  const text = truncateUtf8(result.text, Math.max(0, room - utf8Length(note))) + note;
  budget.spent += Math.min(room, utf8Length(text));
  return { text, tag, truncated: true };
}
