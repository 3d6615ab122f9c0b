// Pure helpers the three adapters share: request checks, wire-safe tool names,
// tool-call arguments and the structured answer.
import { ProviderError } from "./errors";
import {
  CHAT_MAX_MESSAGES,
  CHAT_MAX_OUTPUT_TOKENS,
  CHAT_MAX_TIMEOUT_MS,
  CHAT_MAX_TOOLS,
  CHAT_MIN_TIMEOUT_MS,
  WIRE_NAME_MAX_CHARS,
  WIRE_NAME_PATTERN,
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  type FinishReason,
  type ToolCall,
} from "./types";

/** Longest model id accepted. */
const MODEL_MAX_CHARS = 200;
/** Longest registry tool name accepted (the MCP rule). */
const TOOL_NAME_MAX_CHARS = 128;

function invalid(what: string): ProviderError {
  return new ProviderError("bad-request", `The provider request is invalid: ${what}.`);
}

function isBoundedInteger(n: unknown, min: number, max: number): boolean {
  return typeof n === "number" && Number.isInteger(n) && n >= min && n <= max;
}

function isPlainObject(v: unknown): v is { [key: string]: unknown } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkMessage(m: ChatMessage, i: number): void {
  if (!isPlainObject(m)) throw invalid(`message ${i} is not an object`);
  if (typeof m.content !== "string") throw invalid(`message ${i} has no text content`);
  if (m.role === "user") return;
  if (m.role === "assistant") {
    if (m.toolCalls === undefined) return;
    if (!Array.isArray(m.toolCalls)) throw invalid(`message ${i} has a malformed toolCalls list`);
    for (const c of m.toolCalls) {
      if (!isPlainObject(c) || typeof c.id !== "string" || !c.id || typeof c.name !== "string" || !c.name) {
        throw invalid(`message ${i} has a tool call without an id or a name`);
      }
    }
    return;
  }
  if (m.role === "tool") {
    if (typeof m.toolCallId !== "string" || !m.toolCallId || typeof m.name !== "string" || !m.name) {
      throw invalid(`tool message ${i} needs a toolCallId and a name`);
    }
    return;
  }
  throw invalid(`message ${i} has an unknown role`);
}

/** Throws a "bad-request" ProviderError naming the first thing wrong with `req`. */
export function checkChatRequest(req: ChatRequest): void {
  if (!isPlainObject(req)) throw invalid("it is not an object");
  if (typeof req.system !== "string") throw invalid("system must be a string");
  if (typeof req.model !== "string" || !req.model || req.model.length > MODEL_MAX_CHARS) throw invalid("model must be a non-empty name");
  if (!isBoundedInteger(req.maxOutputTokens, 1, CHAT_MAX_OUTPUT_TOKENS)) {
    throw invalid(`maxOutputTokens must be an integer from 1 to ${CHAT_MAX_OUTPUT_TOKENS}`);
  }
  if (!isBoundedInteger(req.timeoutMs, CHAT_MIN_TIMEOUT_MS, CHAT_MAX_TIMEOUT_MS)) {
    throw invalid(`timeoutMs must be an integer from ${CHAT_MIN_TIMEOUT_MS} to ${CHAT_MAX_TIMEOUT_MS}`);
  }
  if (!Array.isArray(req.messages) || req.messages.length < 1 || req.messages.length > CHAT_MAX_MESSAGES) {
    throw invalid(`messages must hold 1 to ${CHAT_MAX_MESSAGES} messages`);
  }
  req.messages.forEach(checkMessage);
  if (req.tools !== undefined) {
    if (!Array.isArray(req.tools) || req.tools.length > CHAT_MAX_TOOLS) throw invalid(`tools must be a list of at most ${CHAT_MAX_TOOLS}`);
    for (const t of req.tools) {
      if (!isPlainObject(t) || typeof t.name !== "string" || !t.name || t.name.length > TOOL_NAME_MAX_CHARS) {
        throw invalid("every tool needs a name");
      }
      if (typeof t.description !== "string" || !isPlainObject(t.inputSchema))
        throw invalid(`tool ${t.name} needs a description and an input schema`);
    }
  }
  if (req.schema !== undefined) {
    if (!isPlainObject(req.schema) || typeof req.schema.name !== "string" || !WIRE_NAME_PATTERN.test(req.schema.name)) {
      throw invalid("the answer schema needs a name of 1 to 64 letters, digits, _ or -");
    }
    if (!isPlainObject(req.schema.schema)) throw invalid("the answer schema must be a JSON Schema object");
  }
  if (req.previousResponseId !== undefined && (typeof req.previousResponseId !== "string" || !req.previousResponseId)) {
    throw invalid("previousResponseId must be a non-empty string");
  }
}

/** Registry names (dots allowed) to the names a provider accepts, and back. */
export interface ToolNames {
  toWire(name: string): string;
  fromWire(wire: string): string;
}

/**
 * A deterministic mapping for one request: the request's tools in order, then
 * any other name in the history; `reserved` (the forced answer tool) is never
 * handed out. Characters outside `[A-Za-z0-9_-]` become `_`; clashes get `_2`, `_3`...
 */
export function toolNames(req: Pick<ChatRequest, "tools" | "messages">, reserved?: string): ToolNames {
  const toWire = new Map<string, string>();
  const fromWire = new Map<string, string>();
  const used = new Set<string>(reserved ? [reserved] : []);
  const add = (name: string): void => {
    if (toWire.has(name)) return;
    const base = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, WIRE_NAME_MAX_CHARS) || "tool";
    let wire = base;
    for (let n = 2; used.has(wire); n++) {
      const suffix = `_${n}`;
      wire = base.slice(0, WIRE_NAME_MAX_CHARS - suffix.length) + suffix;
    }
    used.add(wire);
    toWire.set(name, wire);
    fromWire.set(wire, name);
  };
  for (const t of req.tools ?? []) add(t.name);
  for (const m of req.messages) {
    if (m.role === "assistant") for (const c of m.toolCalls ?? []) add(c.name);
    else if (m.role === "tool") add(m.name);
  }
  return {
    toWire: (name) => toWire.get(name) ?? name,
    fromWire: (wire) => fromWire.get(wire) ?? wire,
  };
}

/** A tool call from the wire: arguments as JSON text (OpenAI, Mistral) or an object (Anthropic, sometimes Mistral). */
export function toolCallFrom(id: string, name: string, raw: unknown): ToolCall {
  let value = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") value = {};
    else {
      try {
        value = JSON.parse(raw);
      } catch {
        return { id, name, arguments: raw, argumentsError: "the arguments are not valid JSON" };
      }
    }
  }
  if (!isPlainObject(value)) return { id, name, arguments: raw, argumentsError: "the arguments are not a JSON object" };
  return { id, name, arguments: value };
}

/** The arguments of a history tool call as an object (a call whose arguments were bad is replayed as `{}`). */
export function argumentsObject(call: ToolCall): { [key: string]: unknown } {
  return !call.argumentsError && isPlainObject(call.arguments) ? call.arguments : {};
}

/** Tool result text for wires without an error flag (OpenAI, Mistral). */
export function toolResultText(m: { content: string; isError?: boolean }): string {
  return m.isError ? `[error] ${m.content}` : m.content;
}

/** The parsed structured answer, or why there is none. */
export function structuredAnswer(text: string, finish: FinishReason): { json?: unknown; jsonError?: string } {
  if (finish === "tool_calls") return {};
  if (finish === "refusal") return { jsonError: "the model refused to answer" };
  if (!text.trim()) return { jsonError: finish === "length" ? "the answer was cut off at the output token limit" : "the answer is empty" };
  try {
    return { json: JSON.parse(text) };
  } catch {
    return { jsonError: finish === "length" ? "the answer was cut off at the output token limit" : "the answer is not valid JSON" };
  }
}

/** A non-negative integer from a usage field; anything else counts as 0. */
export function tokenCount(n: unknown): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/** `base` + `/path`, with any trailing slashes of `base` dropped. */
export function endpoint(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, "") + path;
}

export { isPlainObject };

/** The parsed parts of a provider reply, assembled the same way for every adapter. */
export function chatResponse(
  body: { [key: string]: unknown },
  req: ChatRequest,
  parts: { text: string; toolCalls: ToolCall[]; finish: FinishReason; inputTokens: unknown; outputTokens: unknown },
): ChatResponse {
  const out: ChatResponse = {
    text: parts.text,
    toolCalls: parts.toolCalls,
    usage: { inputTokens: tokenCount(parts.inputTokens), outputTokens: tokenCount(parts.outputTokens) },
    finish: parts.finish,
  };
  if (typeof body.id === "string") out.responseId = body.id;
  if (typeof body.model === "string") out.model = body.model;
  if (req.schema) Object.assign(out, structuredAnswer(parts.text, parts.finish));
  return out;
}
