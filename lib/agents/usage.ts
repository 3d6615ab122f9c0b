// What device.status reports about sub-agents, routines and wakeups.
import type { Gauge, UsageSource } from "../people/usage";
import { ROUTINES_MAX, SUBAGENTS_MAX_QUEUED, SUBAGENTS_MAX_RUNNING, WAKEUPS_MAX_ARMED } from "./bounds";
import type { DailyGovernor } from "./daily-governor";
import type { Routines } from "./routines";
import type { SubAgents } from "./sessions";

export function agentsUsageSource(agents: SubAgents, routines: Routines, governor: DailyGovernor, now: () => number): UsageSource {
  return {
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
          { label: "scheduled turns today", used: governor.used(now()), cap: governor.limitPerDay(), unit: "count" },
        );
      }
      return gauges;
    },
  };
}
