// One sub-agent's conversation state, so the orchestrator can hold a
// back-and-forth with it (session.tell / session.poll):
// - a provider that continues by response id (OpenAI) keeps the history
//   server-side: we keep only the last response id and send the new message;
// - a provider that needs the history (Anthropic, Mistral) gets it every time:
//   we keep it, bounded. The first exchange (the brief and its answer) is
//   never dropped; older follow-ups go first.
// The first exchange may be served by any provider (the router's fallback);
// later ones stay on the provider that served it.
import type { RouteRequest } from "../providers/router";
import type { ChatMessage, ProviderId } from "../providers/types";
import { utf8Length } from "../util/utf8";
import { SUBAGENT_HISTORY_MAX_BYTES, SUBAGENT_HISTORY_MAX_MESSAGES } from "./bounds";

export type Continuation = "response-id" | "history";

/** The part of a RouteRequest a conversation decides. */
export type ConversationTurn = Pick<RouteRequest, "messages" | "previousResponseId" | "provider" | "model" | "fallback">;

export class Conversation {
  /** Set by the first served exchange. */
  provider?: ProviderId;
  private continuation?: Continuation;
  private responseId?: string;
  private history: ChatMessage[] = [];

  /** `provider`/`model`: the spawner's preference for the first exchange (and the model for later ones). */
  constructor(
    private readonly preferred?: ProviderId,
    private readonly model?: string,
  ) {}

  /** What to send for the next user message. */
  next(userText: string): ConversationTurn {
    const user: ChatMessage = { role: "user", content: userText };
    if (!this.provider) {
      const first: ConversationTurn = { messages: [user] };
      if (this.preferred) first.provider = this.preferred;
      if (this.model) first.model = this.model;
      return first;
    }
    const turn: ConversationTurn = { provider: this.provider, fallback: false, messages: [] };
    if (this.model) turn.model = this.model;
    if (this.continuation === "response-id" && this.responseId) {
      turn.previousResponseId = this.responseId;
      turn.messages = [user];
    } else turn.messages = this.history.concat([user]);
    return turn;
  }

  /** Records a served exchange. */
  commit(userText: string, reply: { provider: ProviderId; text: string; responseId?: string }, continuation: Continuation): void {
    if (!this.provider) {
      this.provider = reply.provider;
      this.continuation = continuation;
    }
    if (this.continuation === "response-id" && reply.responseId) {
      this.responseId = reply.responseId;
      return;
    }
    // A response-id provider that gave no id falls back to carrying the history.
    this.continuation = "history";
    this.history.push({ role: "user", content: userText }, { role: "assistant", content: reply.text });
    this.bound();
  }

  /** Messages kept locally (tests and the bound's own check). */
  historyLength(): number {
    return this.history.length;
  }

  /** Drops everything (a terminated sub-agent frees its memory). */
  clear(): void {
    this.history = [];
    this.responseId = undefined;
  }

  private bound(): void {
    const bytes = (): number => this.history.reduce((n, m) => n + utf8Length(m.content), 0);
    // Keep [brief, answer] and drop the oldest follow-up exchange (a user/assistant pair) until within bounds.
    while (this.history.length > 4 && (this.history.length > SUBAGENT_HISTORY_MAX_MESSAGES || bytes() > SUBAGENT_HISTORY_MAX_BYTES)) {
      this.history.splice(2, 2);
    }
  }
}
