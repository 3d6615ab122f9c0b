import { toJson } from "../util/json";
// Mistral chat completions adapter: POST {base}/chat/completions (docs/providers.md has the wire facts and sources).
import { djb2 } from "../util/hash";
import { badResponse, ProviderError } from "./errors";
import { jsonProvider, type ProviderConnection } from "./exchange";
import {
  PROVIDER_LABELS,
  type ChatProvider,
  type ChatRequest,
  type ChatResponse,
  type FinishReason,
  type ToolCall,
  type WireRequest,
} from "./types";
import { argumentsObject, endpoint, isPlainObject, chatResponse, toolCallFrom, toolNames, toolResultText } from "./wire";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Mistral accepts only tool call ids of exactly this form. */
const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;

/** A Mistral-valid id for any call id: kept when valid, else 9 base62 characters derived from it (stable). */
export function mistralToolId(id: string): string {
  if (MISTRAL_ID.test(id)) return id;
  let a = djb2(id);
  let b = djb2(`${id}\u0000`);
  let out = "";
  for (let i = 0; i < 9; i++) {
    const source = i < 5 ? a : b;
    out += BASE62[source % 62];
    if (i < 5) a = Math.floor(a / 62);
    else b = Math.floor(b / 62);
  }
  return out;
}

/** The request body and headers for `req` (pure). */
export function buildMistralRequest(req: ChatRequest, apiKey: string, baseUrl: string): WireRequest {
  if (req.previousResponseId) {
    throw new ProviderError("bad-request", "Mistral keeps no conversation: send the whole history instead of previousResponseId.", {
      provider: "mistral",
    });
  }
  const names = toolNames(req);
  const messages: unknown[] = req.system ? [{ role: "system", content: req.system }] : [];
  for (const m of req.messages) {
    if (m.role === "user") messages.push({ role: "user", content: m.content });
    else if (m.role === "assistant") {
      const msg: { [key: string]: unknown } = { role: "assistant", content: m.content };
      if (m.toolCalls?.length) {
        msg.tool_calls = m.toolCalls.map((c) => ({
          id: mistralToolId(c.id),
          type: "function",
          function: { name: names.toWire(c.name), arguments: toJson(argumentsObject(c)) },
        }));
      }
      messages.push(msg);
    } else
      messages.push({ role: "tool", content: toolResultText(m), tool_call_id: mistralToolId(m.toolCallId), name: names.toWire(m.name) });
  }
  const body: { [key: string]: unknown } = { model: req.model, messages, max_tokens: req.maxOutputTokens };
  if (req.tools?.length) {
    body.tools = req.tools.map((t) => ({
      type: "function",
      function: { name: names.toWire(t.name), description: t.description, parameters: t.inputSchema },
    }));
  }
  if (req.schema) {
    const format: { [key: string]: unknown } = { name: req.schema.name, schema: req.schema.schema, strict: req.schema.strict ?? true };
    if (req.schema.description) format.description = req.schema.description;
    body.response_format = { type: "json_schema", json_schema: format };
  }
  return {
    url: endpoint(baseUrl, "/chat/completions"),
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: toJson(body),
  };
}

/** Message content: a string, or chunks of which the text ones count (reasoning models add "thinking" chunks). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const chunk of content) if (isPlainObject(chunk) && chunk.type === "text" && typeof chunk.text === "string") text += chunk.text;
  return text;
}

/** Reads a chat completion (pure). Throws a ProviderError when it is not one. */
export function parseMistralResponse(body: unknown, req: ChatRequest): ChatResponse {
  if (!isPlainObject(body) || !Array.isArray(body.choices) || !body.choices.length) throw badResponse("mistral", "has no choices");
  const choice = body.choices[0];
  if (!isPlainObject(choice) || !isPlainObject(choice.message)) throw badResponse("mistral", "has a choice without a message");
  if (choice.finish_reason === "error")
    throw new ProviderError("server", `${PROVIDER_LABELS.mistral} stopped with an error while generating.`, { provider: "mistral" });
  const names = toolNames(req);
  const text = contentText(choice.message.content);
  const toolCalls: ToolCall[] = [];
  const calls = choice.message.tool_calls;
  if (Array.isArray(calls)) {
    calls.forEach((call, i) => {
      if (!isPlainObject(call) || !isPlainObject(call.function) || typeof call.function.name !== "string") {
        throw badResponse("mistral", "has a tool call without a function name");
      }
      const id = typeof call.id === "string" && call.id ? call.id : mistralToolId(`${String(body.id)}#${i}`);
      toolCalls.push(toolCallFrom(id, names.fromWire(call.function.name), call.function.arguments));
    });
  }
  const reason = choice.finish_reason;
  let finish: FinishReason = toolCalls.length ? "tool_calls" : "stop";
  if (reason === "length" || reason === "model_length") finish = "length";
  else if (reason === "content_filter") finish = "refusal";
  const usage = isPlainObject(body.usage) ? body.usage : {};
  return chatResponse(body, req, { text, toolCalls, finish, inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens });
}

export function mistralProvider(conn: ProviderConnection): ChatProvider {
  return jsonProvider("mistral", "history", conn, buildMistralRequest, parseMistralResponse);
}
