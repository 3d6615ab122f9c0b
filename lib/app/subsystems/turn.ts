// Wires the orchestrator turn from the core's subsystems: the shared provider
// router and budget governor (lib/turn/providers/wiring.ts), the conversation
// store and the TurnEngine; binds the engine as the routine scheduler's runner
// (a fired routine's reply is delivered by lib/agents/reply-delivery.ts); and
// reports the budget for device.status.
import { deliverScheduledReply, type ReplyDeliveryDeps } from "../../agents/reply-delivery";
import type { RoutineScheduler } from "../../agents/scheduler";
import type { DeviceActuator } from "../../device/actuator";
import type { ConfigStore } from "../../device/config";
import type { Gauge, UsageSource } from "../../people/usage";
import type { MemoryEngine } from "../../memory/engine";
import { EpisodicJournal, type EpisodicAppender } from "../../memory/episodic/journal";
import { searchMemory } from "../../memory/recall/search";
import type { Ports } from "../../ports";
import type { ToolRegistry } from "../../registry/registry";
import type { ResultsRing } from "../../registry/results-ring";
import { RECALL_QUERY_MAX_CHARS } from "../../turn/bounds";
import type { BudgetGovernor } from "../../providers/budget";
import { ConversationStore } from "../../turn/conversation";
import { TurnEngine, type MemoryRecall, type TurnUsage } from "../../turn/engine";
import type { TurnRouter } from "../../turn/loop";
import { PROVIDER_LABELS } from "../../providers/types";

export interface TurnWiring {
  ports: Pick<Ports, "clock" | "log" | "storage" | "system">;
  registry: ToolRegistry;
  ring: ResultsRing;
  /** The ProviderRouter (scenarios and benches pass a scripted one). */
  router: TurnRouter;
  budget: BudgetGovernor;
  config: ConfigStore;
  actuator: DeviceActuator;
  memory: MemoryEngine;
  /** When given, routines and wakeups run as scheduled turns of this engine. */
  scheduler?: Pick<RoutineScheduler, "setRunner">;
  /** Where a scheduled turn's reply goes (Telegram, else the owner alerts); without it the reply is only returned. */
  delivery?: Omit<ReplyDeliveryDeps, "log">;
  /** The episodic log each turn is recorded in (CoreOptions.episodic). */
  episodic?: EpisodicAppender;
}

export interface TurnSubsystem {
  engine: TurnEngine;
  /** What device.status shows under "Token usage and budget". */
  budgetSource: UsageSource;
}

/** Recall for the prompt: memory.search's engine over the person's text, "" when nothing matches. */
export function memoryRecall(memory: MemoryEngine): MemoryRecall {
  return async (principal, text) => {
    const query = text.trim().slice(0, RECALL_QUERY_MAX_CHARS);
    const answer = await searchMemory(memory, principal, query);
    return answer.hits.length ? answer.text : "";
  };
}

export function buildTurn(w: TurnWiring): TurnSubsystem {
  const { ports } = w;
  const engine = new TurnEngine({
    registry: w.registry,
    ring: w.ring,
    router: w.router,
    clock: ports.clock,
    log: ports.log,
    conversations: new ConversationStore(ports.storage, ports.log),
    config: w.config,
    actuator: w.actuator,
    recall: memoryRecall(w.memory),
    scratchpad: w.memory.scratchpad,
    timeZone: () => ports.system?.info().timeZone ?? "UTC",
    journal: new EpisodicJournal(w.episodic, ports.log),
  });
  const delivery = w.delivery;
  w.scheduler?.setRunner({
    async runScheduledTurn(principal, request) {
      const session = `routine:${request.routineId}`;
      const r = await engine.runTurn(principal, { text: request.text, channel: "routine", session, scheduled: true });
      if (!r.ok) return { ok: false, error: r.failure?.message ?? "the turn failed." };
      if (delivery) {
        const reportedItself = r.toolCalls.some((c) => c.name === "reply.telegram" && c.ok);
        await deliverScheduledReply(
          { ...delivery, log: ports.log },
          { routineId: request.routineId, chatId: request.chatId, reply: r.reply, reportedItself },
        );
      }
      return { ok: true };
    },
  });
  return { engine, budgetSource: budgetUsageSource(w.budget, engine.usage) };
}

/** Per provider this period: tokens against the token ceiling, spend in US cents against the dollar ceiling; then the last turn. */
export function budgetUsageSource(budget: BudgetGovernor, usage: TurnUsage): UsageSource {
  return {
    gauges(): Gauge[] {
      const snap = budget.snapshot();
      const out: Gauge[] = [];
      for (const p of snap.providers) {
        if (p.calls === 0 && p.usdCeiling === undefined && p.tokenCeiling === undefined) continue;
        const label = PROVIDER_LABELS[p.provider];
        const over = p.over ? " [budget spent]" : "";
        out.push({
          label: `${label} tokens this period (resets ${snap.nextReset})${over}`,
          used: p.inputTokens + p.outputTokens,
          cap: p.tokenCeiling,
          unit: "count",
        });
        const cap = p.usdCeiling === undefined ? undefined : Math.round(p.usdCeiling * 100);
        out.push({ label: `${label} estimated spend in US cents (${p.calls} calls)`, used: Math.round(p.usd * 100), cap, unit: "count" });
      }
      const last = usage.last;
      if (last)
        out.push({
          label: `last turn tokens (${last.provider ?? "?"} ${last.model ?? ""})`.replace(" )", ")"),
          used: last.inputTokens + last.outputTokens,
          unit: "count",
        });
      out.push({ label: "turns since boot", used: usage.turns, unit: "count" });
      out.push({ label: "tokens since boot", used: usage.inputTokens + usage.outputTokens, unit: "count" });
      return out;
    },
  };
}
