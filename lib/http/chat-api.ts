// POST /api/chat: one conversation turn over HTTP. Any client's bearer token
// gets in (the owner's or an MCP client's); the turn runs as that client's
// principal. The answer is the turn's result as JSON: the reply and ask, and
// what the turn did (tool calls, memory written, device actions applied or
// refused, session ops), or why there is no answer.
import type { HttpRequest, HttpResponse } from "../mcp/http";
import type { McpClient } from "../people/clients";
import type { Principal } from "../registry/principal";
import { taggedText } from "../errors";
import { CREDIT_REFUSAL } from "../turn/credit";
import type { TurnEngine, TurnResult } from "../turn/engine";
import { bearerToken, tokenInQuery, unauthorizedMessage } from "./bearer";
import { apiError, readJsonBody } from "./owner-api";

export const CHAT_PATH = "/api/chat";
/** The channel a chat API turn is shown as. */
export const CHAT_API_CHANNEL = "api";

export interface ChatApiEnvironment {
  verifyToken(token: string): McpClient | undefined;
  /** The principal a client's turn runs as (the engine sets via "turn"). */
  principalFor(client: McpClient): Principal;
  turn: Pick<TurnEngine, "runTurn" | "mayUseCredit">;
  originAllowed(origin: string, host: string | undefined): boolean;
}

export async function handleChatApi(req: HttpRequest, env: ChatApiEnvironment): Promise<HttpResponse> {
  if (tokenInQuery(req.path)) return apiError(400, "Tokens are not accepted in a URL: send Authorization: Bearer <token>.");
  if (req.method !== "POST") {
    const r = apiError(405, "Method not allowed: use POST.");
    return { ...r, headers: { ...r.headers, allow: "POST" } };
  }
  const origin = req.headers["origin"];
  if (origin !== undefined && !env.originAllowed(origin, req.headers["host"]))
    return apiError(403, "Forbidden: this origin may not call the chat API.");
  const token = bearerToken(req.headers);
  const client = token === undefined ? undefined : env.verifyToken(token);
  if (!client) {
    const r = apiError(401, unauthorizedMessage(token, "a client's token"));
    return { ...r, headers: { ...r.headers, "www-authenticate": 'Bearer realm="halo", error="invalid_token"' } };
  }
  const parsed = readJsonBody(req);
  if ("status" in parsed) return parsed;
  const body = parsed.body;
  for (const k of Object.keys(body)) if (k !== "text") return apiError(400, "Bad request: unknown field; the only field is text.");
  if (typeof body.text !== "string" || body.text.trim() === "") return apiError(400, "Bad request: 'text' must be a non-empty string.");
  const principal = env.principalFor(client);
  if (!env.turn.mayUseCredit(principal)) return apiError(403, `Forbidden: ${taggedText("not-allowed", CREDIT_REFUSAL)}`);
  const result = await env.turn.runTurn(principal, { text: body.text, channel: CHAT_API_CHANNEL });
  if (result.failure?.kind === "invalid") return apiError(400, `Bad request: ${result.failure.message}`);
  return {
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
    body: JSON.stringify(chatJson(result)),
  };
}

/** The result as the chat API answers it (fields that are empty are left out). */
export function chatJson(r: TurnResult): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = { ok: r.ok, reply: r.reply, ask: r.ask };
  if (r.failure) out.failure = r.failure.kind;
  if (r.provider) out.provider = r.provider;
  if (r.model) out.model = r.model;
  out.rounds = r.rounds;
  out.usage = r.usage;
  const lists: Array<[string, unknown[]]> = [
    ["toolCalls", r.toolCalls],
    ["memoryWritten", r.memoryWritten],
    ["memoryQueried", r.memoryQueried],
    ["sessionOps", r.sessionOps],
    ["device", r.device],
    ["problems", r.problems],
    ["notes", r.notes],
  ];
  for (const [name, list] of lists) if (list.length) out[name] = list;
  if (r.scratchpad) out.scratchpad = r.scratchpad;
  return out;
}
