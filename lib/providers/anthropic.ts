import { toJson } from "../util/json";
// Anthropic Messages API adapter: POST {base}/messages (docs/providers.md has the wire facts and sources).
// The answer schema travels as a tool the model is forced to call; its input is the answer.
import { djb2Hex } from "../util/hash";
import { badResponse, ProviderError } from "./errors";
import { jsonProvider, type ProviderConnection } from "./exchange";
import type { ChatProvider, ChatRequest, ChatResponse, FinishReason, ToolCall, WireRequest } from "./types";
import { argumentsObject, endpoint, isPlainObject, structuredAnswer, tokenCount, toolCallFrom, toolNames } from "./wire";

export const ANTHROPIC_VERSION = "2023-06-01";
/** Description of the forced answer tool when the schema has none. */
const ANSWER_TOOL_DESCRIPTION = "Give your final answer by calling this tool with the answer as its input.";

type Block = { [key: string]: unknown };
type WireMessage = { role: "user" | "assistant"; content: Block[] };

/** tool_use ids must match ^[a-zA-Z0-9_-]+$; ids from other providers are rewritten the same way each time. */
export function anthropicToolId(id: string): string {
  return /^[A-Za-z0-9_-]{1,128}$/.test(id) ? id : `${id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100)}_${djb2Hex(id)}`;
}

function wireMessages(req: ChatRequest, toWire: (name: string) => string): WireMessage[] {
  const out: WireMessage[] = [];
  const push = (role: "user" | "assistant", blocks: Block[]): void => {
    if (!blocks.length) return;
    const last = out[out.length - 1];
    // Consecutive tool results (and text after them) share one user message, as the API requires.
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of req.messages) {
    if (m.role === "user") push("user", m.content ? [{ type: "text", text: m.content }] : []);
    else if (m.role === "assistant") {
      const blocks: Block[] = m.content ? [{ type: "text", text: m.content }] : [];
      for (const c of m.toolCalls ?? [])
        blocks.push({ type: "tool_use", id: anthropicToolId(c.id), name: toWire(c.name), input: argumentsObject(c) });
      push("assistant", blocks);
    } else {
      const block: Block = { type: "tool_result", tool_use_id: anthropicToolId(m.toolCallId), content: m.content };
      if (m.isError) block.is_error = true;
      push("user", [block]);
    }
  }
  return out;
}

/** The request body and headers for `req` (pure). */
export function buildAnthropicRequest(req: ChatRequest, apiKey: string, baseUrl: string): WireRequest {
  if (req.previousResponseId) {
    throw new ProviderError("bad-request", "Anthropic keeps no conversation: send the whole history instead of previousResponseId.", {
      provider: "anthropic",
    });
  }
  const names = toolNames(req, req.schema?.name);
  const messages = wireMessages(req, names.toWire).map((m) =>
    m.content.length === 1 && m.content[0].type === "text" ? { role: m.role, content: m.content[0].text } : m,
  );
  if (!messages.length)
    throw new ProviderError("bad-request", "The request to Anthropic has no message with content.", { provider: "anthropic" });
  const body: { [key: string]: unknown } = { model: req.model, max_tokens: req.maxOutputTokens, messages };
  if (req.system) body.system = req.system;
  const tools: Block[] = (req.tools ?? []).map((t) => ({
    name: names.toWire(t.name),
    description: t.description,
    input_schema: t.inputSchema,
  }));
  if (req.schema) {
    // With other tools the model must call some tool ("any"), the answer tool being one; alone it is forced by name.
    body.tool_choice = tools.length ? { type: "any" } : { type: "tool", name: req.schema.name };
    tools.push({ name: req.schema.name, description: req.schema.description || ANSWER_TOOL_DESCRIPTION, input_schema: req.schema.schema });
  }
  if (tools.length) body.tools = tools;
  return {
    url: endpoint(baseUrl, "/messages"),
    headers: { "content-type": "application/json", "x-api-key": apiKey, "anthropic-version": ANTHROPIC_VERSION },
    body: toJson(body),
  };
}

/** Reads a Message object (pure). Throws a ProviderError when it is not one. */
export function parseAnthropicResponse(body: unknown, req: ChatRequest): ChatResponse {
  if (!isPlainObject(body) || !Array.isArray(body.content)) throw badResponse("anthropic", "has no content list");
  const names = toolNames(req, req.schema?.name);
  let text = "";
  let answer: unknown;
  const toolCalls: ToolCall[] = [];
  for (const block of body.content) {
    if (!isPlainObject(block)) throw badResponse("anthropic", "has a content block that is not an object");
    if (block.type === "text" && typeof block.text === "string") text += block.text;
    else if (block.type === "tool_use") {
      if (typeof block.id !== "string" || typeof block.name !== "string")
        throw badResponse("anthropic", "has a tool_use block without id or name");
      if (req.schema && block.name === req.schema.name) answer = block.input;
      else toolCalls.push(toolCallFrom(block.id, names.fromWire(block.name), block.input));
    }
  }
  const stop = body.stop_reason;
  let finish: FinishReason = toolCalls.length ? "tool_calls" : "stop";
  if (stop === "max_tokens" || stop === "model_context_window_exceeded") finish = "length";
  else if (stop === "refusal") finish = "refusal";
  const usage = isPlainObject(body.usage) ? body.usage : {};
  const inputTokens =
    tokenCount(usage.input_tokens) + tokenCount(usage.cache_creation_input_tokens) + tokenCount(usage.cache_read_input_tokens);
  const out: ChatResponse = { text, toolCalls, usage: { inputTokens, outputTokens: tokenCount(usage.output_tokens) }, finish };
  if (typeof body.id === "string") out.responseId = body.id;
  if (typeof body.model === "string") out.model = body.model;
  if (req.schema) {
    if (answer !== undefined && finish === "stop") {
      out.text = toJson(answer);
      if (isPlainObject(answer)) out.json = answer;
      else out.jsonError = "the answer is not a JSON object";
    } else Object.assign(out, structuredAnswer(text, finish));
  }
  return out;
}

export function anthropicProvider(conn: ProviderConnection): ChatProvider {
  return jsonProvider("anthropic", "history", conn, buildAnthropicRequest, parseAnthropicResponse);
}
