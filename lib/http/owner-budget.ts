// Owner API endpoints for the budget governor: this period's spend per
// provider, the owner's ceilings in dollars and tokens, the per-provider rates
// the spend is priced at, and the day the period resets. The governor refuses
// a provider once a ceiling is reached; no tool reads or writes any of it.
import type { Log } from "../ports";
import type { BudgetGovernor, BudgetLimits } from "../providers/budget";
import { PROVIDER_IDS, type ProviderId } from "../providers/types";
import { BODIES } from "./bodies";
import { badRequest, notFound } from "./http-error";
import { ok, withBody, type OwnerRoute } from "./owner-route";

/** Body field -> BudgetLimits field. */
const LIMIT_FIELDS: ReadonlyArray<["usd_ceiling" | "token_ceiling" | "usd_per_mtok_in" | "usd_per_mtok_out", keyof BudgetLimits]> = [
  ["usd_ceiling", "usdCeiling"],
  ["token_ceiling", "tokenCeiling"],
  ["usd_per_mtok_in", "usdPerMTokIn"],
  ["usd_per_mtok_out", "usdPerMTokOut"],
];

export function budgetRoutes(budget: BudgetGovernor | undefined, log: Log): OwnerRoute[] {
  if (!budget) return [];
  const view = (): { [key: string]: unknown } => {
    const s = budget.snapshot();
    return {
      reset_day: s.resetDay,
      period_start: s.periodStart,
      next_reset: s.nextReset,
      providers: s.providers.map((p) => ({
        provider: p.provider,
        input_tokens: p.inputTokens,
        output_tokens: p.outputTokens,
        calls: p.calls,
        usd: p.usd,
        usd_ceiling: p.usdCeiling ?? null,
        token_ceiling: p.tokenCeiling ?? null,
        usd_per_mtok_in: p.usdPerMTokIn,
        usd_per_mtok_out: p.usdPerMTokOut,
        over: p.over,
      })),
    };
  };
  return [
    { method: "GET", pattern: "/api/budget", handler: () => ok(view()) },
    withBody({
      method: "PUT",
      pattern: "/api/budget",
      body: BODIES.budgetResetDay,
      handler: ({ body }) => {
        budget.setResetDay(body.reset_day);
        log.info("owner api: budget reset day changed");
        return ok(view());
      },
    }),
    withBody({
      method: "PUT",
      pattern: "/api/budget/:provider",
      body: BODIES.budgetLimits,
      handler: ({ params, body }) => {
        const provider = params.provider as ProviderId;
        if (PROVIDER_IDS.indexOf(provider) < 0) throw notFound(`the providers are ${PROVIDER_IDS.join(", ")}.`);
        if (Object.keys(body).length === 0) throw badRequest(`give at least one of ${LIMIT_FIELDS.map(([n]) => n).join(", ")}.`);
        // null clears a limit; a number sets it (the schema holds each to the governor's range).
        const limits: BudgetLimits = {};
        for (const [name, field] of LIMIT_FIELDS) {
          const v = body[name];
          if (v !== undefined) limits[field] = v === null ? undefined : v;
        }
        budget.configure(provider, limits);
        log.info(`owner api: ${provider} budget changed`);
        return ok(view());
      },
    }),
  ];
}
