import { HaloError } from "../errors";
// Sub-agents: parallel helpers the orchestrator starts with session.spawn and
// talks to with session.tell / session.poll. Each runs on the ProviderRouter
// (so the owner's priority, keys and budget governor apply) as a promise in
// the core: no tools, a sub-agent system prompt, its task as the first message.
//
// Capacity is device-wide: SUBAGENTS_MAX_RUNNING exchanges in flight, then up
// to SUBAGENTS_MAX_QUEUED waiting (spawns and follow-ups alike), then refusal.
// Sessions are per principal: a caller sees and touches only its own; another
// person's id reads exactly like an unknown one. Sessions live in memory only
// and are gone after a restart; their results are saved to the artifact store.
import type { Clock, Log, Random } from "../ports";
import type { Principal } from "../registry/principal";
import type { RoutedResponse, RouteRequest } from "../providers/router";
import type { ChatProvider, ProviderId } from "../providers/types";
import { randomHexId } from "../util/id";
import { clipForMessage } from "../util/text";
import {
  SUBAGENT_MAX_OUTPUT_TOKENS,
  SUBAGENT_TIMEOUT_MS,
  SUBAGENTS_MAX_ACTIVE_PER_MEMBER,
  SUBAGENTS_MAX_KEPT,
  SUBAGENTS_MAX_QUEUED,
  SUBAGENTS_MAX_RUNNING,
} from "./bounds";
import { Conversation } from "./conversation";
import { saveResult, type ResultStore } from "./results";

/** What sub-agents need of the ProviderRouter. */
export interface SubAgentRouter {
  complete(req: RouteRequest): Promise<RoutedResponse>;
  provider(id: ProviderId): ChatProvider | undefined;
}

/**
 * - queued: waiting for a running slot (its first exchange or a follow-up);
 * - running: a provider exchange is in flight;
 * - idle: it answered and waits for session.tell;
 * - failed: its first exchange failed (spawn again);
 * - terminated: stopped by session.terminate.
 */
export type SubAgentState = "queued" | "running" | "idle" | "failed" | "terminated";

export interface SpawnSpec {
  /** The first message: the task with any attachments already spliced in. */
  brief: string;
  /** The system prompt (role plus an approved capsule). */
  system: string;
  name: string;
  project: string;
  provider?: ProviderId;
  model?: string;
}

export interface SubAgentView {
  id: string;
  name: string;
  state: SubAgentState;
  provider?: ProviderId;
  model?: string;
  rounds: number;
  /** The latest reply, and whether session.poll has returned it yet. */
  reply?: string;
  unread: boolean;
  /** Why the last exchange failed. */
  error?: string;
  /** Where the latest result was saved, "<project>/<file>", or why it was not. */
  savedAs?: string;
  saveError?: string;
  inputTokens: number;
  outputTokens: number;
}

interface Session extends SubAgentView {
  owner: Principal;
  project: string;
  system: string;
  conversation: Conversation;
  /** The message waiting for a slot while queued. */
  pending?: string;
  updated: number;
}

export interface SubAgentsDeps {
  router: SubAgentRouter;
  /** Where results are saved (the artifact store); absent: nothing is saved. */
  results?: ResultStore;
  clock: Clock;
  random: Random;
  log: Log;
}

export class SubAgents {
  private readonly sessions = new Map<string, Session>();
  private readonly queue: Session[] = [];
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: SubAgentsDeps) {}

  /** Starts (or queues) a sub-agent; refuses when the queue is full. */
  spawn(p: Principal, spec: SpawnSpec): SubAgentView {
    this.checkCapacity(p);
    this.evictOld();
    const s: Session = {
      id: this.newId(),
      name: spec.name,
      project: spec.project,
      owner: p,
      system: spec.system,
      state: "queued",
      rounds: 0,
      unread: false,
      inputTokens: 0,
      outputTokens: 0,
      conversation: new Conversation(spec.provider, spec.model),
      updated: this.deps.clock.now(),
    };
    if (spec.provider) s.provider = spec.provider;
    if (spec.model) s.model = spec.model;
    this.sessions.set(s.id, s);
    this.enqueue(s, spec.brief);
    return view(s);
  }

  /** A follow-up message, as the sub-agent's user. */
  tell(p: Principal, id: string, message: string): SubAgentView {
    const s = this.own(p, id);
    if (s.state === "queued" || s.state === "running") {
      throw new HaloError("busy", `sub-agent ${s.id} is still working on its last message; poll it until it answers, then tell it.`);
    }
    if (s.state === "terminated") throw new HaloError("terminated", `sub-agent ${s.id} was stopped; spawn a new one.`);
    if (s.state === "failed")
      throw new HaloError("failed", `sub-agent ${s.id} never answered its task (${s.error ?? "error"}); spawn a new one.`);
    this.checkCapacity(p);
    s.error = undefined;
    this.enqueue(s, message);
    return view(s);
  }

  /** The latest reply (marked read) and the state. */
  poll(p: Principal, id: string): SubAgentView {
    const s = this.own(p, id);
    const out = view(s);
    s.unread = false;
    return out;
  }

  list(p: Principal): SubAgentView[] {
    return Array.from(this.sessions.values())
      .filter((s) => s.owner.ns === p.ns)
      .map(view);
  }

  /**
   * Stops a sub-agent. A queued one leaves the queue at once; a running one's
   * exchange cannot be cancelled mid-request, so its slot frees when that
   * request ends and its answer is discarded.
   */
  terminate(p: Principal, id: string): { agent: SubAgentView; before: SubAgentState } {
    const s = this.own(p, id);
    const before = s.state;
    if (before === "terminated") return { agent: view(s), before };
    const queued = this.queue.indexOf(s);
    if (queued >= 0) this.queue.splice(queued, 1);
    s.state = "terminated";
    s.pending = undefined;
    s.conversation.clear();
    s.updated = this.deps.clock.now();
    return { agent: view(s), before };
  }

  /** Device-wide capacity, for device.status. */
  capacity(): { running: number; queued: number } {
    return { running: this.inFlight.size, queued: this.queue.length };
  }

  /** Resolves once nothing is running or queued (tests; a host shutting down). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(Array.from(this.inFlight));
  }

  private own(p: Principal, id: string): Session {
    const s = this.sessions.get(id);
    if (!s || s.owner.ns !== p.ns) throw new HaloError("not-found", `no sub-agent ${clipForMessage(id, 20)}.`);
    return s;
  }

  private checkCapacity(p: Principal): void {
    if (this.inFlight.size >= SUBAGENTS_MAX_RUNNING && this.queue.length >= SUBAGENTS_MAX_QUEUED) {
      throw new HaloError(
        "limit",
        `${SUBAGENTS_MAX_RUNNING} sub-agents are running and ${SUBAGENTS_MAX_QUEUED} are queued; wait for one to finish or terminate one.`,
      );
    }
    if (p.role === "admin") return;
    let active = 0;
    for (const s of this.sessions.values()) if (s.owner.ns === p.ns && (s.state === "queued" || s.state === "running")) active++;
    if (active >= SUBAGENTS_MAX_ACTIVE_PER_MEMBER) {
      throw new HaloError(
        "limit",
        `you have ${SUBAGENTS_MAX_ACTIVE_PER_MEMBER} sub-agents working; wait for one to answer or terminate one.`,
      );
    }
  }

  /** Keeps at most SUBAGENTS_MAX_KEPT sessions: forgets the least recently updated inactive one. */
  private evictOld(): void {
    while (this.sessions.size >= SUBAGENTS_MAX_KEPT) {
      let oldest: Session | undefined;
      for (const s of this.sessions.values()) {
        if (s.state === "queued" || s.state === "running") continue;
        if (!oldest || s.updated < oldest.updated) oldest = s;
      }
      if (!oldest) return;
      this.sessions.delete(oldest.id);
    }
  }

  private enqueue(s: Session, message: string): void {
    s.state = "queued";
    s.pending = message;
    s.updated = this.deps.clock.now();
    this.queue.push(s);
    this.pump();
  }

  private pump(): void {
    while (this.inFlight.size < SUBAGENTS_MAX_RUNNING && this.queue.length > 0) {
      const s = this.queue.shift()!;
      const message = s.pending!;
      s.pending = undefined;
      s.state = "running";
      // exchange() records every failure itself; the catch only keeps a slot from leaking on a bug.
      const run = this.exchange(s, message)
        .catch(() => this.deps.log.warn(`sub-agent ${s.id} stopped unexpectedly`))
        .then(() => {
          this.inFlight.delete(run);
          this.pump();
        });
      this.inFlight.add(run);
    }
  }

  /** One provider exchange. Never rejects: a failure is recorded on the session. */
  private async exchange(s: Session, message: string): Promise<void> {
    const turn = s.conversation.next(message);
    let reply: RoutedResponse;
    try {
      reply = await this.deps.router.complete({
        ...turn,
        system: s.system,
        maxOutputTokens: SUBAGENT_MAX_OUTPUT_TOKENS,
        timeoutMs: SUBAGENT_TIMEOUT_MS,
      });
    } catch (e) {
      if (s.state === "terminated") return;
      // Provider and route errors are one sentence that never holds a key.
      s.error = e instanceof Error ? clipForMessage(e.message, 200) : "the provider exchange failed";
      s.state = s.rounds === 0 ? "failed" : "idle";
      s.updated = this.deps.clock.now();
      this.deps.log.warn(`sub-agent ${s.id} exchange failed`);
      return;
    }
    if (s.state === "terminated") return;
    const continuation = this.deps.router.provider(reply.provider)?.continuation ?? "history";
    s.conversation.commit(message, reply, continuation);
    s.provider = reply.provider;
    s.model = reply.model;
    s.rounds++;
    s.inputTokens += reply.usage.inputTokens;
    s.outputTokens += reply.usage.outputTokens;
    s.reply = replyText(reply);
    s.unread = true;
    s.state = "idle";
    s.updated = this.deps.clock.now();
    if (this.deps.results) {
      const saved = saveResult(this.deps.results, s.owner, s, s.reply);
      s.savedAs = saved.savedAs;
      s.saveError = saved.error;
    }
  }

  private newId(): string {
    for (;;) {
      const id = randomHexId(this.deps.random, "sa", 4);
      if (!this.sessions.has(id)) return id;
    }
  }
}

function replyText(reply: RoutedResponse): string {
  const text = reply.text.trim() === "" ? "(the sub-agent gave no text)" : reply.text;
  if (reply.finish === "length") return `${text}\n\n[cut off: the reply reached the output limit; tell it to continue]`;
  if (reply.finish === "refusal") return `${text}\n\n[the provider refused or filtered this reply]`;
  return text;
}

function view(s: Session): SubAgentView {
  const out: SubAgentView = {
    id: s.id,
    name: s.name,
    state: s.state,
    rounds: s.rounds,
    unread: s.unread,
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
  };
  if (s.provider) out.provider = s.provider;
  if (s.model) out.model = s.model;
  if (s.reply !== undefined) out.reply = s.reply;
  if (s.error) out.error = s.error;
  if (s.savedAs) out.savedAs = s.savedAs;
  if (s.saveError) out.saveError = s.saveError;
  return out;
}
