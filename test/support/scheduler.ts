// The device's subsystem table with the scheduler firing routines through a runner a test switches at
// will (scripted outcomes instead of real turns). Portable: the scenarios run it on XS too.
import type { ScheduledTurnRunner } from "../../lib/agents/scheduler.ts";
import type { SubsystemEntry } from "../../lib/app/subsystem.ts";
import { SCHEDULER, schedulerSubsystem } from "../../lib/app/subsystems/agents.ts";
import { SUBSYSTEMS } from "../../lib/app/subsystems/table.ts";

export function switchableScheduler(first: ScheduledTurnRunner): { subsystems: SubsystemEntry[]; use(runner: ScheduledTurnRunner): void } {
  let current = first;
  const runner: ScheduledTurnRunner = { runScheduledTurn: (p, r) => current.runScheduledTurn(p, r) };
  return {
    subsystems: SUBSYSTEMS.map((s) => (s === SCHEDULER ? schedulerSubsystem(runner) : s)),
    use(next): void {
      current = next;
    },
  };
}
