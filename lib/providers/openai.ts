import { toJson } from "../util/json";
// OpenAI Responses API adapter: POST {base}/responses (docs/providers.md has the wire facts and sources).
import { clipForMessage } from "../util/text";
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

/** The API's floor for max_output_tokens. */
const OPENAI_MIN_OUTPUT_TOKENS = 16;

/** The request body and headers for `req` (pure). */
export function buildOpenAiRequest(req: ChatRequest, apiKey: string, baseUrl: string): WireRequest {
  const names = toolNames(req);
  const input: unknown[] = [];
  for (const m of req.messages) {
    if (m.role === "user") input.push({ role: "user", content: m.content });
    else if (m.role === "assistant") {
      if (m.content) input.push({ role: "assistant", content: m.content });
      for (const c of m.toolCalls ?? []) {
        input.push({ type: "function_call", call_id: c.id, name: names.toWire(c.name), arguments: toJson(argumentsObject(c)) });
      }
    } else input.push({ type: "function_call_output", call_id: m.toolCallId, output: toolResultText(m) });
  }
  const body: { [key: string]: unknown } = {
    model: req.model,
    input,
    max_output_tokens: Math.max(OPENAI_MIN_OUTPUT_TOKENS, req.maxOutputTokens),
  };
  if (req.system) body.instructions = req.system;
  if (req.tools?.length) {
    // Registry schemas have optional properties, which strict function tools do not allow.
    body.tools = req.tools.map((t) => ({
      type: "function",
      name: names.toWire(t.name),
      description: t.description,
      parameters: t.inputSchema,
      strict: false,
    }));
  }
  if (req.schema) {
    const format: { [key: string]: unknown } = {
      type: "json_schema",
      name: req.schema.name,
      schema: req.schema.schema,
      strict: req.schema.strict ?? true,
    };
    if (req.schema.description) format.description = req.schema.description;
    body.text = { format };
  }
  if (req.previousResponseId) body.previous_response_id = req.previousResponseId;
  return {
    url: endpoint(baseUrl, "/responses"),
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: toJson(body),
  };
}

/** Reads a Response object (pure). Throws a ProviderError when it is not one. */
export function parseOpenAiResponse(body: unknown, req: ChatRequest): ChatResponse {
  if (!isPlainObject(body)) throw badResponse("openai", "is not a JSON object");
  const status = body.status;
  if (status === "failed" || status === "cancelled") {
    const error =
      isPlainObject(body.error) && typeof body.error.message === "string" ? `: ${clipForMessage(body.error.message, 120)}` : ".";
    throw new ProviderError("server", `${PROVIDER_LABELS.openai} could not generate the answer (status ${status})${error}`, {
      provider: "openai",
    });
  }
  if (status !== undefined && status !== "completed" && status !== "incomplete")
    throw badResponse("openai", `is not finished (status ${String(status).slice(0, 20)})`);
  if (!Array.isArray(body.output)) throw badResponse("openai", "has no output list");
  const names = toolNames(req);
  let text = "";
  let refusal: string | undefined;
  const toolCalls: ToolCall[] = [];
  for (const item of body.output) {
    if (!isPlainObject(item)) throw badResponse("openai", "has an output item that is not an object");
    if (item.type === "message") {
      if (!Array.isArray(item.content)) throw badResponse("openai", "has a message without content");
      for (const part of item.content) {
        if (!isPlainObject(part)) continue;
        if (part.type === "output_text" && typeof part.text === "string") text += part.text;
        else if (part.type === "refusal" && typeof part.refusal === "string") refusal = part.refusal;
      }
    } else if (item.type === "function_call") {
      if (typeof item.call_id !== "string" || typeof item.name !== "string")
        throw badResponse("openai", "has a function call without call_id or name");
      toolCalls.push(toolCallFrom(item.call_id, names.fromWire(item.name), item.arguments));
    }
  }
  const reason = isPlainObject(body.incomplete_details) ? body.incomplete_details.reason : undefined;
  let finish: FinishReason = toolCalls.length ? "tool_calls" : "stop";
  if (refusal !== undefined || (status === "incomplete" && reason === "content_filter")) finish = "refusal";
  else if (status === "incomplete") finish = "length";
  if (!text && refusal !== undefined) text = refusal;
  const usage = isPlainObject(body.usage) ? body.usage : {};
  return chatResponse(body, req, { text, toolCalls, finish, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens });
}

export function openAiProvider(conn: ProviderConnection): ChatProvider {
  return jsonProvider("openai", "response-id", conn, buildOpenAiRequest, parseOpenAiResponse);
}
