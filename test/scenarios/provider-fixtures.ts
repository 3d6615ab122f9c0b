// Provider replies in their documented wire shapes (no Node imports: the XS scenario uses them too).
import type { ChatRequest } from "../../lib/providers/types";

export const TURN_SCHEMA = {
  type: "object",
  properties: { reply: { type: "string", maxLength: 2000 }, mood: { type: "string", enum: ["calm", "busy"] } },
  required: ["reply", "mood"],
  additionalProperties: false,
};

export const SEARCH_TOOL = {
  name: "memory.search",
  description: "Search memories.",
  inputSchema: {
    type: "object",
    properties: { query: { type: "string", maxLength: 200 } },
    required: ["query"],
    additionalProperties: false,
  },
};

export const STATUS_TOOL = {
  name: "device.status",
  description: "Read the device state.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
};

/** A turn mid tool loop: user asked, the assistant called a tool, the tool answered (one error). */
export function toolLoopRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    system: "You are Halo.",
    model: "test-model",
    maxOutputTokens: 1024,
    timeoutMs: 5000,
    schema: { name: "turn", schema: TURN_SCHEMA },
    tools: [SEARCH_TOOL, STATUS_TOOL],
    messages: [
      { role: "user", content: "What did I say about tea?" },
      {
        role: "assistant",
        content: "Let me look.",
        toolCalls: [
          { id: "call_abc123", name: "memory.search", arguments: { query: "tea" } },
          { id: "call_def456", name: "device.status", arguments: {} },
        ],
      },
      { role: "tool", toolCallId: "call_abc123", name: "memory.search", content: "You like green tea." },
      { role: "tool", toolCallId: "call_def456", name: "device.status", content: "storage absent", isError: true },
    ],
    ...overrides,
  };
}

/** A plain question with the answer schema and no tools. */
export function simpleRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    system: "You are Halo.",
    model: "test-model",
    maxOutputTokens: 512,
    timeoutMs: 5000,
    schema: { name: "turn", schema: TURN_SCHEMA },
    messages: [{ role: "user", content: "Hello" }],
    ...overrides,
  };
}

export const ANSWER = { reply: "You like green tea.", mood: "calm" };

type OpenAiItem = { [key: string]: unknown };

export function openAiText(text: string): OpenAiItem {
  return {
    id: "msg_01",
    type: "message",
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

export function openAiCall(callId: string, name: string, args: string): OpenAiItem {
  return { id: `fc_${callId}`, type: "function_call", status: "completed", call_id: callId, name, arguments: args };
}

/** A Response object (POST /responses). */
export function openAiResponse(
  output: OpenAiItem[],
  options: { status?: string; reason?: string; input?: number; output?: number; id?: string } = {},
): object {
  return {
    id: options.id ?? "resp_0123",
    object: "response",
    created_at: 1767225600,
    status: options.status ?? "completed",
    error: null,
    incomplete_details: options.reason ? { reason: options.reason } : null,
    instructions: "You are Halo.",
    model: "gpt-5.4-mini-2026-03-17",
    output: [{ id: "rs_01", type: "reasoning", summary: [] }, ...output],
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: options.input ?? 120,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: options.output ?? 30,
      output_tokens_details: { reasoning_tokens: 8 },
      total_tokens: (options.input ?? 120) + (options.output ?? 30),
    },
  };
}

/** A Message object (POST /messages). */
export function anthropicMessage(
  content: object[],
  options: { stop?: string; input?: number; output?: number; cacheRead?: number; id?: string } = {},
): object {
  return {
    id: options.id ?? "msg_01XYZ",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content,
    stop_reason: options.stop ?? "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: options.input ?? 200,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: options.cacheRead ?? 0,
      output_tokens: options.output ?? 40,
      service_tier: "standard",
    },
  };
}

/** A chat completion (POST /chat/completions). */
export function mistralCompletion(
  message: { content?: unknown; tool_calls?: object[] },
  options: { finish?: string; prompt?: number; completion?: number } = {},
): object {
  return {
    id: "cmpl-e5cc70bb28c444948073e77776eb30ef",
    object: "chat.completion",
    model: "mistral-medium-latest",
    created: 1767225600,
    usage: {
      prompt_tokens: options.prompt ?? 90,
      completion_tokens: options.completion ?? 25,
      total_tokens: (options.prompt ?? 90) + (options.completion ?? 25),
    },
    choices: [
      {
        index: 0,
        finish_reason: options.finish ?? "stop",
        message: { role: "assistant", content: message.content ?? "", tool_calls: message.tool_calls ?? null, prefix: false },
      },
    ],
  };
}
