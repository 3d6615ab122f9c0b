// The orchestrator turn: compose the prompt, run the tool loop to a contract
// answer, deliver the reply, then apply the answer's arrays and keep the
// conversation state. One turn per person at a time.
import type { DeviceActuator } from "../device/actuator";
import type { ConfigStore } from "../device/config";
import { EpisodicJournal } from "../memory/episodic/journal";
import type { Clock, Log } from "../ports";
import type { Principal } from "../registry/principal";
import type { ToolRegistry } from "../registry/registry";
import { resolveToolName } from "../registry/seed-names";
import type { ResultsRing } from "../registry/results-ring";
import { clipForMessage } from "../util/text";
import type { TurnSignal } from "../device/ring/status";
import { utf8Length } from "../util/utf8";
import { applyAnswer, type AppliedTurn, type Outcome, type ScratchpadWriter } from "./apply";
import { TOOL_ROUNDS_DEFAULT, TOOL_ROUNDS_MAX } from "../device/knobs";
import { TURN_CHANNEL_MAX_CHARS, TURN_DEADLINE_MS, TURN_SESSION_MAX_CHARS, TURN_TEXT_MAX_BYTES } from "./bounds";
import { parseTurnAnswer, TURN_ANSWER, type TurnAnswer } from "./contract";
import { recordTurn, type ConversationStore } from "./conversation";
import { DEFAULT_TURN_SESSION, turnHistory, type TurnHistory } from "./history";
import { runToolLoop, type LoopFailure, type ToolCallReport, type TurnRouter } from "./loop";
import { composePrompt } from "./prompt";
import { CHAT_MAX_TOOLS, isProviderId, type ProviderId } from "../providers/types";

/** What a turn is asked. */
export interface TurnInput {
  text: string;
  /** Where the text came from ("web", "telegram", "voice", "routine"...); shown to the model. */
  channel?: string;
  /** An unattended turn (a routine or wakeup): the principal is marked scheduled. */
  scheduled?: boolean;
  /** The episodic history's session for this turn's rows (default: the channel, else "turn"). */
  session?: string;
  /** Only these tools are shown and callable in this turn (a skill's requires_tool list); the registry's policy still applies. */
  tools?: readonly string[];
  /** Called with the reply as soon as it is final, before memory writes and device actions run. */
  onReply?(reply: { reply: string; ask: string }): void | Promise<void>;
  /** Told of each tool call as it completes, with the tool's whole output (the chat API shows a bounded part). */
  onToolResult?(report: ToolCallReport, text: string): void;
}

export type TurnFailureKind = LoopFailure | "invalid" | "not-approved";

export interface TurnResult {
  /** True when the model answered by the contract and the answer was applied. */
  ok: boolean;
  /** What to show the person: the model's reply, or one sentence saying why there is none. */
  reply: string;
  ask: string;
  failure?: { kind: TurnFailureKind; message: string };
  provider?: ProviderId;
  model?: string;
  rounds: number;
  toolCalls: ToolCallReport[];
  usage: { inputTokens: number; outputTokens: number };
  /** Contract problems (dropped items, cut fields). */
  problems: string[];
  scratchpad?: Outcome;
  memoryWritten: Outcome[];
  memoryQueried: Outcome[];
  sessionOps: AppliedTurn["sessionOps"];
  device: AppliedTurn["device"];
  /** Anything else worth knowing (the state could not be saved...). */
  notes: string[];
}

/** The turn's memory recall over the person's text ("" when nothing matches or memory is unavailable). */
export type MemoryRecall = (principal: Principal, text: string) => Promise<string>;

export interface TurnEngineDeps {
  registry: ToolRegistry;
  ring: ResultsRing;
  router: TurnRouter;
  clock: Clock;
  log: Log;
  conversations: ConversationStore;
  config: ConfigStore;
  actuator: DeviceActuator;
  recall?: MemoryRecall;
  /** The device-wide scratchpad (shown to and written by admin conversations only). */
  scratchpad?: ScratchpadWriter & { render(): string };
  /** The device's IANA time zone. */
  timeZone?(): string;
  /** The whole turn's deadline (default TURN_DEADLINE_MS). */
  deadlineMs?: number;
  /** Where each turn's rows go (lib/turn/history.ts); without it nothing is recorded. */
  journal?: EpisodicJournal;
}

const CHANNEL_PATTERN = new RegExp(`^[A-Za-z0-9._-]{1,${TURN_CHANNEL_MAX_CHARS}}$`);
const SESSION_PATTERN = new RegExp(`^[A-Za-z0-9._:-]{1,${TURN_SESSION_MAX_CHARS}}$`);

/** The sentence a turn answers with while no provider has a key. */
export const NO_PROVIDER_KEY_REPLY =
  "No language-model key is set yet, so I cannot answer. The owner adds one with: " +
  `curl -X PUT http://<device>/api/secrets/openai -H "Authorization: Bearer <admin token>" -H "content-type: application/json" -d '{"value":"<key>"}' ` +
  "(or /api/secrets/anthropic, /api/secrets/mistral).";

/** Usage of the last served turn and of this boot (device.status reads it). */
export interface TurnUsage {
  last?: { provider?: ProviderId; model?: string; inputTokens: number; outputTokens: number; at: number };
  turns: number;
  inputTokens: number;
  outputTokens: number;
}

export class TurnEngine {
  private readonly locks = new Map<string, Promise<void>>();
  private readonly journal: EpisodicJournal;
  readonly usage: TurnUsage = { turns: 0, inputTokens: 0, outputTokens: 0 };
  private readonly observers: Array<(signal: TurnSignal) => void> = [];

  constructor(private readonly deps: TurnEngineDeps) {
    this.journal = deps.journal ?? new EpisodicJournal(undefined, deps.log);
  }

  /** Runs one turn for `principal` (its `via` is set to "turn"). Never throws for anything a model or provider does. */
  runTurn(principal: Principal, input: TurnInput): Promise<TurnResult> {
    const who: Principal = { ...principal, via: "turn", scheduled: principal.scheduled || input.scheduled === true };
    const refused = checkInput(who, input);
    if (refused) return Promise.resolve(refused);
    const history = turnHistory(this.journal, who, input.session ?? input.channel ?? DEFAULT_TURN_SESSION);
    return this.exclusive(who.ns, async () => {
      history.message(input.text);
      this.signal("start");
      try {
        const result = await this.turn(who, input, history);
        if (result.failure) history.failure(result.failure.kind, result.failure.message);
        if (result.failure) this.signal("error");
        return result;
      } finally {
        this.signal("end");
      }
    });
  }

  /** Tells `listener` of each turn's start, tool calls, reply, failure and end (the status ring listens). */
  observe(listener: (signal: TurnSignal) => void): void {
    this.observers.push(listener);
  }

  private signal(signal: TurnSignal): void {
    for (const listener of this.observers) listener(signal);
  }

  /** The tool rounds a turn may run: the owner's knob, within bounds. */
  maxRounds(): number {
    const n = this.deps.config.number("toolLoopRounds");
    return Number.isInteger(n) && n >= 1 && n <= TOOL_ROUNDS_MAX ? n : TOOL_ROUNDS_DEFAULT;
  }

  private async turn(who: Principal, input: TurnInput, history: TurnHistory): Promise<TurnResult> {
    const { deps } = this;
    if (deps.router.available().length === 0) return failed("no-provider", NO_PROVIDER_KEY_REPLY);
    const state = deps.conversations.load(who.ns);
    // A skill may name its tools as the reference agents do (`nostr_post`, `cashu_wallet_balance`): Halo's names here.
    const allowed = input.tools ? new Set(input.tools.map((t) => resolveToolName(t, deps.registry) ?? t)) : undefined;
    const specs = deps.registry
      .toolSpecsFor(who)
      .filter((s) => !allowed || allowed.has(s.name))
      .slice(0, CHAT_MAX_TOOLS);
    const maxRounds = this.maxRounds();
    const prompt = composePrompt({
      principal: who,
      text: input.text,
      channel: input.channel,
      deviceName: deps.config.string("devName"),
      now: deps.clock.now(),
      timeZone: deps.timeZone?.() ?? "UTC",
      manifest: allowedLines(deps.registry.manifest(who), allowed),
      sessionOps: specs.some((s) => s.name === "session.spawn"),
      maxRounds,
      scratchpad: who.role === "admin" && deps.scratchpad ? deps.scratchpad.render() : undefined,
      recalled: await this.recall(who, input.text),
      state,
    });
    const head = deps.config.string("orchProvider");
    const loop = await runToolLoop<{ answer: TurnAnswer; problems: string[] }>(deps, {
      principal: who,
      system: prompt.system,
      messages: prompt.messages,
      schema: TURN_ANSWER,
      tools: specs.map((s) => ({ name: s.name, description: s.description, inputSchema: s.inputSchema })),
      maxRounds,
      allowTools: allowed,
      deadline: deps.clock.now() + (deps.deadlineMs ?? TURN_DEADLINE_MS),
      provider: isProviderId(head) ? head : undefined,
      model: deps.config.string("orchModel") || undefined,
      accept: (json) => {
        const parsed = parseTurnAnswer(json);
        return parsed.ok ? { ok: true, value: { answer: parsed.answer, problems: parsed.problems } } : parsed;
      },
      onToolResult: (report, text) => {
        history.toolOutput(report, text);
        input.onToolResult?.(report, text);
        this.signal("tool");
      },
    });
    this.count(loop.usage, loop.provider, loop.model);
    const base = { provider: loop.provider, model: loop.model, rounds: loop.rounds, toolCalls: loop.toolCalls, usage: loop.usage };
    if (!loop.value) {
      const failure = loop.failure ?? { kind: "provider" as const, message: "the turn ended without an answer." };
      const reply = failure.kind === "no-provider" ? NO_PROVIDER_KEY_REPLY : failure.message;
      return { ...failed(failure.kind, reply), ...base };
    }
    const { answer, problems } = loop.value;
    history.reply(answer.reply, answer.ask);
    this.signal("reply");
    const notes: string[] = [];
    try {
      await input.onReply?.({ reply: answer.reply, ask: answer.ask });
    } catch (e) {
      deps.log.warn(`turn: delivering a reply failed (${clipForMessage(e instanceof Error ? e.message : "unknown", 80)})`);
      notes.push("the reply could not be delivered on its channel.");
    }
    const applied = await applyAnswer(deps, who, answer);
    recordTurn(state, input.text, answer.reply, deps.clock.now());
    state.note = answer.memory;
    state.queryResults = applied.queryResults;
    const unsaved = deps.conversations.save(state);
    if (unsaved) notes.push(unsaved + ".");
    const result: TurnResult = {
      ok: true,
      reply: answer.reply,
      ask: answer.ask,
      ...base,
      problems,
      memoryWritten: applied.memoryWritten,
      memoryQueried: applied.memoryQueried,
      sessionOps: applied.sessionOps,
      device: applied.device,
      notes,
    };
    if (applied.scratchpad) result.scratchpad = applied.scratchpad;
    if (applied.reboot) {
      const outcome = await applied.reboot();
      if (!outcome.ok) notes.push(outcome.text);
    }
    return result;
  }

  private async recall(who: Principal, text: string): Promise<string> {
    if (!this.deps.recall) return "";
    try {
      return await this.deps.recall(who, text);
    } catch (e) {
      // Memory being unavailable (card out, embedder down) must not cost the turn.
      return `(memory recall unavailable: ${clipForMessage(e instanceof Error ? e.message : "unknown", 100)})`;
    }
  }

  private count(usage: { inputTokens: number; outputTokens: number }, provider?: ProviderId, model?: string): void {
    if (usage.inputTokens === 0 && usage.outputTokens === 0) return;
    this.usage.turns++;
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
    this.usage.last = { provider, model, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, at: this.deps.clock.now() };
  }

  /** Runs `work` after any turn of the same person still running. */
  private exclusive<T>(ns: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(ns) ?? Promise.resolve();
    const run = previous.then(work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(ns, settled);
    void settled.then(() => {
      if (this.locks.get(ns) === settled) this.locks.delete(ns);
    });
    return run;
  }
}

/** The CAPABILITIES lines ("- name(args): ...") of the allowed tools only. */
function allowedLines(manifest: string, allowed: ReadonlySet<string> | undefined): string {
  if (!allowed) return manifest;
  return manifest
    .split("\n")
    .filter((line) => allowed.has(line.slice(2, line.indexOf("("))))
    .join("\n");
}

function failed(kind: TurnFailureKind, message: string): TurnResult {
  return {
    ok: false,
    reply: message,
    ask: "",
    failure: { kind, message },
    rounds: 0,
    toolCalls: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    problems: [],
    memoryWritten: [],
    memoryQueried: [],
    sessionOps: [],
    device: [],
    notes: [],
  };
}

function checkInput(who: Principal, input: TurnInput): TurnResult | undefined {
  if (who.role === "unknown")
    return failed("not-approved", "not-approved: this conversation is not approved; the owner can approve it through the owner API.");
  if (!input || typeof input.text !== "string" || input.text.trim() === "") return failed("invalid", "invalid: the text is empty.");
  if (utf8Length(input.text) > TURN_TEXT_MAX_BYTES)
    return failed("invalid", `invalid: the text is longer than ${TURN_TEXT_MAX_BYTES} bytes.`);
  if (input.channel !== undefined && (typeof input.channel !== "string" || !CHANNEL_PATTERN.test(input.channel))) {
    return failed("invalid", `invalid: the channel is 1-${TURN_CHANNEL_MAX_CHARS} of A-Z a-z 0-9 . _ -.`);
  }
  if (input.session !== undefined && (typeof input.session !== "string" || !SESSION_PATTERN.test(input.session))) {
    return failed("invalid", `invalid: the session is 1-${TURN_SESSION_MAX_CHARS} of A-Z a-z 0-9 . _ : -.`);
  }
  return undefined;
}
