// What device.status shows under "Token usage and budget".
import type { Gauge, UsageSource } from "../people/usage";
import type { BudgetGovernor } from "../providers/budget";
import { PROVIDER_LABELS } from "../providers/types";
import type { TurnUsage } from "./engine";

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
