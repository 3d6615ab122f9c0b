// The LLM provider port: one provider-neutral request/response shape that the
// orchestrator turn, its tool loop and sub-agents speak, whatever model serves.
//
//   ChatProvider.complete(ChatRequest) -> Promise<ChatResponse>   one exchange, no retries
//   ProviderRouter.complete(RouteRequest) -> Promise<RoutedResponse>   (router.ts)
//       owner's priority order, keyed providers only, budget check before every
//       attempt, bounded retries (429/5xx/529/network), fallback to the next
//       provider on any failure except a budget refusal, usage recorded after.
//
// Conversation model (the caller owns the history):
// - `messages` is the whole conversation after the system prompt: user text,
//   assistant text with the tool calls it made, and one `tool` message per
//   call with the result. Adapters translate it to each wire format
//   (OpenAI input items, Anthropic content blocks, Mistral chat messages).
// - Continuation: a provider with `continuation: "response-id"` (OpenAI) keeps
//   the conversation server-side; pass the last `responseId` as
//   `previousResponseId` and only the messages added since (typically the tool
//   results). Providers with `continuation: "history"` need the full history
//   every time and refuse `previousResponseId` (kind "bad-request"). On OpenAI,
//   prefer continuing a tool loop by id: it keeps the model's reasoning items,
//   which a history rebuilt from ChatMessages does not carry.
// - Tool loop: when `finish` is "tool_calls", run `toolCalls`, append
//   `{role:"assistant", content: text, toolCalls}` and one
//   `{role:"tool", toolCallId, name, content, isError}` per call, and call again.
//   Tool names are the registry's (dots allowed): adapters map them to wire-safe
//   names and back, and rewrite call ids a provider would reject.
// - Structured answer: with `schema`, the final answer is forced to that JSON
//   schema (OpenAI text.format json_schema strict, Anthropic a forced tool,
//   Mistral response_format json_schema strict). `text` holds the JSON text,
//   `json` the parsed value, or `jsonError` says why there is none; invalid
//   model output is reported, never thrown. `json` is NOT validated against the
//   schema here: the turn contract does that. Strict mode (the default) needs a
//   schema whose objects list every property in `required` and set
//   `additionalProperties: false` (optional fields: a type union with null).
//   On Anthropic with tools the model must call a tool every round (the answer
//   tool being one), so it never ends with plain text.
//
// Failures throw ProviderError (errors.ts) whose message is one sentence that
// never contains a key; the router throws RouteError (kind + attempts).
//
// Wiring (the lead's): new ProviderRouter({ http: ports.http, clock, random,
//   sleep: host timer, getSecret: (n) => secrets.getSecret(n),
//   priority: () => providerPriority.get(), model: (p) => owner's model,
//   baseUrls: from HALO_*_BASE_URL in hosts/sim, budget: new BudgetGovernor(settings, clock) }).

/** The providers Halo speaks to. Also the secret names their keys are stored under. */
export type ProviderId = "openai" | "anthropic" | "mistral";

export const PROVIDER_IDS: readonly ProviderId[] = ["openai", "anthropic", "mistral"];

export const PROVIDER_LABELS: { readonly [id in ProviderId]: string } = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  mistral: "Mistral",
};

export function isProviderId(value: unknown): value is ProviderId {
  return value === "openai" || value === "anthropic" || value === "mistral";
}

/** A JSON Schema object, passed to the provider as-is. */
export type JsonSchema = { [keyword: string]: unknown };

/** A tool the model may call (a registry tool: name, one-line description, input schema). */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** The schema the final answer must follow (the turn contract). */
export interface AnswerSchema {
  /** `[A-Za-z0-9_-]{1,64}`: OpenAI's format name, Anthropic's forced tool, Mistral's json_schema name. */
  name: string;
  description?: string;
  schema: JsonSchema;
  /** Strict schema adherence (OpenAI, Mistral); default true. Strict needs every property required and additionalProperties false. */
  strict?: boolean;
}

export interface ToolCall {
  /** The provider's call id; pass it back as `toolCallId`. */
  id: string;
  /** The registry name (unmapped from the wire name). */
  name: string;
  /** Parsed arguments (normally an object); the raw text when `argumentsError` is set. */
  arguments: unknown;
  /** Set when the model's arguments were not a JSON object. */
  argumentsError?: string;
}

export type ChatMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError?: boolean };

export interface ChatRequest {
  system: string;
  messages: ChatMessage[];
  schema?: AnswerSchema;
  tools?: ToolSpec[];
  model: string;
  /** Cap on generated tokens (OpenAI counts reasoning tokens too). */
  maxOutputTokens: number;
  /** Deadline of one HTTP exchange. */
  timeoutMs: number;
  /** OpenAI only: continue the stored response; `messages` then holds only what was added since. */
  previousResponseId?: string;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Why generation stopped: a finished answer, the token cap, tool calls to run, or a refusal/content filter. */
export type FinishReason = "stop" | "length" | "tool_calls" | "refusal";

export interface ChatResponse {
  /** The model's text; with a schema, the JSON text of the answer. */
  text: string;
  /** With a schema and a finished answer: the parsed JSON value. */
  json?: unknown;
  /** With a schema: why `json` is absent (cut off, refused, not JSON). */
  jsonError?: string;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  /** The provider's id of this response (OpenAI: use as `previousResponseId`). */
  responseId?: string;
  finish: FinishReason;
  /** The model that served, as the provider reports it. */
  model?: string;
}

/** One provider behind the port: a single HTTP exchange per call, no retries. */
export interface ChatProvider {
  readonly id: ProviderId;
  readonly continuation: "response-id" | "history";
  complete(req: ChatRequest): Promise<ChatResponse>;
}

export type BudgetCheck = { ok: true } | { ok: false; message: string };

/** What the router needs of the budget governor (lib/turn/budget.ts implements it). */
export interface BudgetGate {
  /** Before every attempt: a refusal stops the route before anything is sent. */
  check(provider: ProviderId): BudgetCheck;
  /** After a served answer. */
  record(provider: ProviderId, usage: TokenUsage): void;
}

/** A provider request before it is sent: what the pure build functions return. */
export interface WireRequest {
  url: string;
  headers: { [name: string]: string };
  body: string;
}

/** Largest provider answer read (bytes). OpenAI echoes instructions and tool schemas back, so leave room. */
export const PROVIDER_MAX_RESPONSE_BYTES = 512 * 1024;
/** Largest request body sent (bytes). */
export const PROVIDER_MAX_REQUEST_BYTES = 768 * 1024;
/** Bounds of a ChatRequest. */
export const CHAT_MAX_MESSAGES = 256;
export const CHAT_MAX_TOOLS = 128;
export const CHAT_MAX_OUTPUT_TOKENS = 64000;
export const CHAT_MIN_TIMEOUT_MS = 50;
export const CHAT_MAX_TIMEOUT_MS = 600000;
/** Wire tool/format names: the rule all three providers share. */
export const WIRE_NAME_MAX_CHARS = 64;
export const WIRE_NAME_PATTERN: RegExp = /^[A-Za-z0-9_-]{1,64}$/;

export const DEFAULT_BASE_URLS: { readonly [id in ProviderId]: string } = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  mistral: "https://api.mistral.ai/v1",
};
