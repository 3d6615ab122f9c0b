// Builds sub-agents and routines and registers their tools: session.* for
// every approved caller, wakeup.set and loop.* for admins. buildCore calls it.
import { mayUseCredit } from "../../people/credit";
import type { Gauge, UsageSource } from "../../people/usage";
import { derivePrincipal, type PrincipalDeps } from "../../people/principals";
import type { Ports } from "../../ports";
import type { Principal } from "../../registry/principal";
import type { ToolRegistry } from "../../registry/registry";
import { registerLoopTools } from "../../tools/loop";
import { registerSessionTools } from "../../tools/session";
import { AlertLog } from "../../agents/alerts";
import { ROUTINES_MAX, SUBAGENTS_MAX_QUEUED, SUBAGENTS_MAX_RUNNING, WAKEUPS_MAX_ARMED } from "../../agents/bounds";
import type { BriefDocuments, BriefSkills } from "../../agents/brief";
import { DailyGovernor } from "../../agents/daily-governor";
import type { ResultStore } from "../../agents/results";
import { Routines } from "../../agents/routines";
import { RoutineScheduler } from "../../agents/scheduler";
import { UTC_OFFSET_MAX_MINUTES, UTC_OFFSET_MIN_MINUTES } from "../../util/schedule";
import { SubAgents, type SubAgentRouter } from "../../agents/sessions";

export interface AgentsDeps {
  ports: Pick<Ports, "clock" | "log" | "random" | "settings">;
  router: SubAgentRouter;
  /** The artifact store: attachments are read from it and results saved to it. */
  artifacts?: BriefDocuments & ResultStore;
  skills?: BriefSkills;
  /** Owner knobs: utcOffsetMin, routineTurnsPerDay, and who may spend provider credit. */
  config: { number(key: string): number; bool(key: string): boolean };
  chats: { has(chatId: string): boolean };
  /** The principal a routine's turn runs as, from its creator's namespace (scheduled: true). */
  principalFor(ns: string): Principal;
}

export interface AgentsSubsystem {
  agents: SubAgents;
  routines: Routines;
  scheduler: RoutineScheduler;
  alerts: AlertLog;
  governor: DailyGovernor;
  /** device.status's sub-agent and routine gauges. */
  usage: UsageSource;
}

export function buildAgentsSubsystem(registry: ToolRegistry, deps: AgentsDeps): AgentsSubsystem {
  const { ports } = deps;
  const offsetMinutes = (): number => {
    const n = deps.config.number("utcOffsetMin");
    return Number.isInteger(n) && n >= UTC_OFFSET_MIN_MINUTES && n <= UTC_OFFSET_MAX_MINUTES ? n : 0;
  };
  const agents = new SubAgents({ router: deps.router, results: deps.artifacts, clock: ports.clock, random: ports.random, log: ports.log });
  const alerts = new AlertLog(ports.settings, ports.clock, ports.log);
  const routines = new Routines({
    settings: ports.settings,
    clock: ports.clock,
    random: ports.random,
    log: ports.log,
    offsetMinutes,
    chatAllowed: (id) => deps.chats.has(id),
  });
  const governor = new DailyGovernor(ports.settings, ports.log, () => deps.config.number("routineTurnsPerDay"), offsetMinutes);
  const scheduler = new RoutineScheduler({
    routines,
    clock: ports.clock,
    log: ports.log,
    alerts,
    governor,
    offsetMinutes,
    principalFor: deps.principalFor,
  });
  const mayUse = (p: Principal): boolean => mayUseCredit(deps.config, p);
  registerSessionTools(registry, { agents, documents: deps.artifacts, skills: deps.skills, mayUseCredit: mayUse });
  registerLoopTools(registry, { routines, scheduler, offsetMinutes });
  const usage: UsageSource = {
    gauges(principal): Gauge[] {
      const { running, queued } = agents.capacity();
      const gauges: Gauge[] = [
        { label: "sub-agents running", used: running, cap: SUBAGENTS_MAX_RUNNING, unit: "count" },
        { label: "sub-agents queued", used: queued, cap: SUBAGENTS_MAX_QUEUED, unit: "count" },
        { label: "your sub-agents", used: agents.list(principal).length, unit: "count" },
      ];
      if (principal.role === "admin") {
        gauges.push(
          { label: "routines", used: routines.count("routine"), cap: ROUTINES_MAX, unit: "count" },
          { label: "wakeups armed", used: routines.count("wakeup"), cap: WAKEUPS_MAX_ARMED, unit: "count" },
          { label: "scheduled turns today", used: governor.used(ports.clock.now()), cap: governor.limitPerDay(), unit: "count" },
        );
      }
      return gauges;
    },
  };
  return { agents, routines, scheduler, alerts, governor, usage };
}

/**
 * The principal a routine's turn runs as: its creator's person record, or the
 * MCP client whose namespace it is; always scheduled, always a turn.
 */
export function scheduledPrincipal(deps: PrincipalDeps, ns: string): Principal {
  const p = derivePrincipal(deps, "web", ns, true);
  if (p.role !== "unknown") return p;
  const client = deps.clients.list().find((c) => c.ns === ns);
  return client ? { ...derivePrincipal(deps, "mcp", client.name, true), via: "turn" } : p;
}
