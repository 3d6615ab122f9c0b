// The orchestrator turn: the engine over the registry, the shared provider router, memory recall and
// the scratchpad, the device's actuator, the conversations and the episodic journal.
import type { DeviceActuator } from "../../device/actuator";
import type { ConfigStore } from "../../device/config";
import type { EpisodicStore } from "../../memory/episodic/episodic";
import type { Ports } from "../../ports";
import type { ToolRegistry } from "../../registry/registry";
import type { ResultsRing } from "../../registry/results-ring";
import type { TurnRouter } from "../../turn/loop";
import type { MemoryEngine } from "../../memory/engine";
import { EpisodicJournal } from "../../memory/episodic/journal";
import { searchMemory } from "../../memory/recall/search";
import { RECALL_QUERY_MAX_CHARS } from "../../turn/bounds";
import { ConversationStore } from "../../turn/conversation";
import { TurnEngine, type MemoryRecall } from "../../turn/engine";
import { defineSubsystem } from "../subsystem";

/** Recall for the prompt: memory.search's engine over the person's text, "" when nothing matches. */
export function memoryRecall(memory: MemoryEngine): MemoryRecall {
  return async (principal, text) => {
    const query = text.trim().slice(0, RECALL_QUERY_MAX_CHARS);
    const answer = await searchMemory(memory, principal, query);
    return answer.hits.length ? answer.text : "";
  };
}

/** What the turn engine is built on; the turn scenarios build one on a scripted router. */
export interface TurnParts {
  ports: Pick<Ports, "clock" | "log" | "storage" | "system">;
  registry: ToolRegistry;
  ring: ResultsRing;
  router: TurnRouter;
  config: ConfigStore;
  actuator: DeviceActuator;
  memory: MemoryEngine;
  episodic: EpisodicStore | undefined;
}

export function turnEngine({ ports: p, ...d }: TurnParts): TurnEngine {
  return new TurnEngine({
    registry: d.registry,
    ring: d.ring,
    router: d.router,
    clock: p.clock,
    log: p.log,
    conversations: new ConversationStore(p.storage, p.log),
    config: d.config,
    actuator: d.actuator,
    recall: memoryRecall(d.memory),
    scratchpad: d.memory.scratchpad,
    timeZone: () => p.system?.info().timeZone ?? "UTC",
    journal: new EpisodicJournal(d.episodic, p.log),
  });
}

export const TURN = defineSubsystem({
  name: "turn",
  ports: ["clock", "log", "storage", "system"],
  needs: ["registry", "ring", "router", "config", "actuator", "memory", "episodic"],
  provides: ["turn"],
  build: (ports, d) => ({ turn: turnEngine({ ports, ...d }) }),
});
