// POST /api/chat: one conversation turn over HTTP. Any client's bearer token
// gets in (the owner's or an MCP client's); the turn runs as that client's
// principal. The answer is the turn's result as JSON: the reply and ask, and
// what the turn did (tool calls with their result text, memory written,
// device actions applied or refused, session ops), or why there is no answer.
import type { McpClient } from "../people/clients";
import type { Principal } from "../registry/principal";
import type { SpendRails } from "../people/rails";
import type { TurnEngine, TurnResult } from "../turn/engine";
import type { ToolCallReport } from "../turn/loop";
import { truncateUtf8, utf8Length } from "../util/utf8";
import { BODIES, type BodyOf } from "./bodies";
import { badRequest } from "./http-error";
import { requireClient } from "./middleware";
import { OWNER_API_MAX_BODY_BYTES } from "./owner-api";
import { jsonAnswer, type RouteSpec } from "./pipeline";

export const CHAT_PATH = "/api/chat";
/** The channel a chat API turn is shown as. */
export const CHAT_API_CHANNEL = "api";
/** Bytes of each tool call's result text the answer carries; the rest is cut with a marker. */
export const CHAT_TOOL_RESULT_BYTES = 2048;

export interface ChatApiEnvironment {
  verifyToken(token: string): McpClient | undefined;
  /** The principal a client's turn runs as (the engine sets via "turn"). */
  principalFor(client: McpClient): Principal;
  turn: Pick<TurnEngine, "runTurn">;
  /** Credit and rate: asked before the turn (lib/people/rails.ts). */
  rails: Pick<SpendRails, "admit">;
}

export function chatRoute(env: ChatApiEnvironment): RouteSpec {
  return {
    method: "POST",
    pattern: CHAT_PATH,
    maxBody: OWNER_API_MAX_BODY_BYTES,
    errors: "api",
    use: [requireClient(env.verifyToken, "any")],
    body: BODIES.chat,
    handler: async (ctx) => {
      const body = ctx.json as BodyOf<"chat">;
      if (body.text.trim() === "") throw badRequest("'text' must be a non-empty string.");
      const principal = env.principalFor(ctx.client!);
      env.rails.admit(principal, "chat", ctx.client!.name);
      // Each call's result, cut as it arrives so a long one is never held whole.
      const results = new Map<ToolCallReport, string>();
      const result = await env.turn.runTurn(principal, {
        text: body.text,
        channel: CHAT_API_CHANNEL,
        onToolResult: (report, text) => results.set(report, shownResult(text, report.tag)),
      });
      if (result.failure?.kind === "invalid") throw badRequest(result.failure.message);
      return jsonAnswer(200, chatJson(result, results));
    },
  };
}

/** A tool's result as the answer shows it: at most CHAT_TOOL_RESULT_BYTES, then a marker (and where the whole is). */
export function shownResult(text: string, tag?: string): string {
  const size = utf8Length(text);
  if (size <= CHAT_TOOL_RESULT_BYTES) return text;
  const kept = truncateUtf8(text, CHAT_TOOL_RESULT_BYTES);
  const where = tag ? `; the whole result is in the results ring, tag ${tag}` : "";
  return `${kept}\n[cut: ${size - utf8Length(kept)} more bytes${where}]`;
}

/** The result as the chat API answers it (fields that are empty are left out); each tool call with its shown result. */
export function chatJson(r: TurnResult, results?: ReadonlyMap<ToolCallReport, string>): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = { ok: r.ok, reply: r.reply, ask: r.ask };
  if (r.failure) out.failure = r.failure.kind;
  if (r.provider) out.provider = r.provider;
  if (r.model) out.model = r.model;
  out.rounds = r.rounds;
  out.usage = r.usage;
  const lists: Array<[string, unknown[]]> = [
    ["toolCalls", r.toolCalls.map((c) => (results?.has(c) ? { ...c, result: results.get(c) } : c))],
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
