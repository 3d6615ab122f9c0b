// Sub-agents (session.*), routines and wakeups (loop.*, wakeup.set) with their daily governor and the
// owner's alerts; then, once the turn exists, the scheduler that fires routines as scheduled turns.
import { AlertLog } from "../../agents/alerts";
import { DailyGovernor } from "../../agents/daily-governor";
import { deliverScheduledReply } from "../../agents/reply-delivery";
import { Routines } from "../../agents/routines";
import { RoutineScheduler, type ScheduledTurnRunner } from "../../agents/scheduler";
import { SubAgents } from "../../agents/sessions";
import type { TelegramChannel } from "../../chat/telegram-channel";
import { derivePrincipal, type PrincipalDeps } from "../../people/principals";
import type { Log } from "../../ports";
import type { Principal } from "../../registry/principal";
import type { TurnEngine } from "../../turn/engine";
import { utcOffsetMinutes } from "../../util/schedule";
import { defineSubsystem, type SubsystemEntry } from "../subsystem";

export const AGENTS = defineSubsystem({
  name: "agents",
  ports: ["clock", "log", "random", "settings"],
  needs: ["router", "artifacts", "config", "chats"],
  provides: ["agents", "routines", "alerts", "governor"],
  build(p, { router, artifacts, config, chats }) {
    const offsetMinutes = (): number => utcOffsetMinutes(config);
    return {
      agents: new SubAgents({ router, results: artifacts, clock: p.clock, random: p.random, log: p.log }),
      alerts: new AlertLog(p.settings, p.clock, p.log),
      routines: new Routines({
        settings: p.settings,
        clock: p.clock,
        random: p.random,
        log: p.log,
        offsetMinutes,
        chatAllowed: (id) => chats.has(id),
      }),
      governor: new DailyGovernor(p.settings, p.log, () => config.number("routineTurnsPerDay"), offsetMinutes),
    };
  },
});

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

/** Routines fire as scheduled turns of the engine; a fired routine's reply goes to Telegram, or is kept as an owner alert. */
export function scheduledTurns(
  turn: Pick<TurnEngine, "runTurn">,
  delivery: { channel: TelegramChannel; alerts: AlertLog },
  log: Log,
): ScheduledTurnRunner {
  return {
    async runScheduledTurn(principal, request) {
      const session = `routine:${request.routineId}`;
      const r = await turn.runTurn(principal, { text: request.text, channel: "routine", session, scheduled: true });
      if (!r.ok) return { ok: false, error: r.failure?.message ?? "the turn failed." };
      const reportedItself = r.toolCalls.some((c) => c.name === "reply.telegram" && c.ok);
      await deliverScheduledReply(
        { ...delivery, log },
        { routineId: request.routineId, chatId: request.chatId, reply: r.reply, reportedItself },
      );
      return { ok: true };
    },
  };
}

/**
 * The scheduler subsystem; `runner` chooses what runs a fired routine (the turn engine; the routine
 * tests give a scripted one, replacing this entry of the table).
 */
export function schedulerSubsystem(runner?: ScheduledTurnRunner): SubsystemEntry {
  return defineSubsystem({
    name: "scheduler",
    ports: ["clock", "log"],
    needs: ["routines", "alerts", "governor", "config", "turn", "telegram", "people", "clients", "chats"],
    provides: ["scheduler"],
    build: (p, d) => ({
      scheduler: new RoutineScheduler({
        routines: d.routines,
        clock: p.clock,
        log: p.log,
        alerts: d.alerts,
        governor: d.governor,
        offsetMinutes: () => utcOffsetMinutes(d.config),
        principalFor: (ns) => scheduledPrincipal(d, ns),
        runner: runner ?? scheduledTurns(d.turn, { channel: d.telegram, alerts: d.alerts }, p.log),
      }),
    }),
  });
}

export const SCHEDULER = schedulerSubsystem();
