import { toJson } from "../util/json";
// The owner's monthly web-search budget: a call counter persisted in Settings
// (`web.usage`, atomic per write) against the owner-only knob webSearchBudget.
// Months are calendar months in UTC; the counter starts again at 0 when the
// month changes.
import type { UsageSource } from "../people/usage";
import { HaloError } from "../errors";
import type { Clock, Log, Settings } from "../ports";

/** The knob (owner API only; a device config action naming it is protected-BLOCKED). */
export const WEB_BUDGET_KNOB = "webSearchBudget";
const USAGE_KEY = "web.usage";
const MONTH_PATTERN = /^\d{4}-\d{2}$/;

export interface WebUsage {
  /** `YYYY-MM`, UTC. */
  month: string;
  calls: number;
  budget: number;
}

export class WebSearchBudget {
  private month = "";
  private calls = 0;

  constructor(
    private readonly settings: Settings,
    private readonly budget: () => number,
    private readonly clock: Clock,
    private readonly log: Log,
  ) {
    const text = settings.get(USAGE_KEY);
    if (text === undefined) return;
    const stored = parseUsage(text);
    if (stored) {
      this.month = stored.month;
      this.calls = stored.calls;
    } else log.warn(`web search: ${USAGE_KEY} is unreadable; counting this month from 0`);
  }

  usage(): WebUsage {
    const month = monthOf(this.clock.now());
    return { month, calls: month === this.month ? this.calls : 0, budget: this.budget() };
  }

  /** Counts one search before it is sent; a refusal sentence (tag quota:) when the budget is spent. */
  reserve(): void {
    const { month, calls, budget } = this.usage();
    if (budget === 0) throw new HaloError("quota", "web search is switched off (the owner set the monthly budget to 0).");
    if (calls >= budget) {
      throw new HaloError(
        "quota",
        `this month's web-search budget (${budget} searches) is spent; it starts again on ${nextMonthStart(month)} (UTC), or the owner can raise it.`,
      );
    }
    if (!this.save(month, calls + 1)) throw new HaloError("unavailable", "the web-search counter could not be saved; try again later.");
  }

  /** Gives a reserved search back (the service refused it, so it cost nothing). */
  refund(): void {
    const { month, calls } = this.usage();
    if (calls > 0) this.save(month, calls - 1);
  }

  private save(month: string, calls: number): boolean {
    try {
      this.settings.set(USAGE_KEY, toJson({ month, calls }));
    } catch {
      this.log.warn("web search: the usage counter could not be saved");
      return false;
    }
    this.month = month;
    this.calls = calls;
    return true;
  }
}

/** device.status's line: searches this month against the budget. */
export function webUsageSource(budget: WebSearchBudget): UsageSource {
  return {
    gauges: () => {
      const u = budget.usage();
      return [{ label: `searches in ${u.month}`, used: u.calls, cap: u.budget, unit: "count" }];
    },
  };
}

/** `YYYY-MM` of a time, UTC. */
export function monthOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

function nextMonthStart(month: string): string {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? `${year + 1}-01-01` : `${year}-${String(m + 1).padStart(2, "0")}-01`;
}

function parseUsage(text: string): { month: string; calls: number } | undefined {
  try {
    const v = JSON.parse(text);
    if (v && typeof v.month === "string" && MONTH_PATTERN.test(v.month) && Number.isInteger(v.calls) && v.calls >= 0)
      return { month: v.month, calls: v.calls };
  } catch {
    return undefined;
  }
  return undefined;
}
