// Owner API endpoints for the budget governor: this period's spend per
// provider, the owner's ceilings in dollars and tokens, the per-provider rates
// the spend is priced at, and the day the period resets. The governor refuses
// a provider once a ceiling is reached; no tool reads or writes any of it.
import type { Log } from "../ports";
import type { BudgetGovernor, BudgetLimits } from "../providers/budget";
import { PROVIDER_IDS, type ProviderId } from "../providers/types";
import { onlyFields } from "./owner-fields";
import type { ApiHandler, ApiReply } from "./owner-routes";
import type { Route } from "./router";

/** Body field -> BudgetLimits field. */
const LIMIT_FIELDS: ReadonlyArray<[string, keyof BudgetLimits]> = [
  ["usd_ceiling", "usdCeiling"],
  ["token_ceiling", "tokenCeiling"],
  ["usd_per_mtok_in", "usdPerMTokIn"],
  ["usd_per_mtok_out", "usdPerMTokOut"],
];

const ok = (body: { [key: string]: unknown }): ApiReply => ({ status: 200, body });
const fail = (status: number, error: string): ApiReply => ({ status, body: { error } });

export function budgetRoutes(budget: BudgetGovernor | undefined, log: Log): Array<Route<ApiHandler>> {
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
    {
      method: "PUT",
      pattern: "/api/budget",
      handler: ({ body }) => {
        const bad = onlyFields(body, ["reset_day"], ["reset_day"]);
        if (bad) return bad;
        try {
          budget.setResetDay(body.reset_day as number);
        } catch (e) {
          return fail(400, `Bad request: ${e instanceof Error ? e.message : "invalid reset day"}.`);
        }
        log.info("owner api: budget reset day changed");
        return ok(view());
      },
    },
    {
      method: "PUT",
      pattern: "/api/budget/:provider",
      handler: ({ params, body }) => {
        const provider = params.provider as ProviderId;
        if (PROVIDER_IDS.indexOf(provider) < 0) return fail(404, `Not found: the providers are ${PROVIDER_IDS.join(", ")}.`);
        const bad = onlyFields(
          body,
          LIMIT_FIELDS.map(([name]) => name),
        );
        if (bad) return bad;
        if (Object.keys(body).length === 0)
          return fail(400, `Bad request: give at least one of ${LIMIT_FIELDS.map(([n]) => n).join(", ")}.`);
        const limits: BudgetLimits = {};
        for (const [name, field] of LIMIT_FIELDS) {
          if (!(name in body)) continue;
          const v = body[name];
          // null clears a limit; a number sets it (the governor checks the range).
          if (v !== null && typeof v !== "number") return fail(400, `Bad request: ${name} is a number, or null to clear it.`);
          limits[field] = v === null ? undefined : v;
        }
        try {
          budget.configure(provider, limits);
        } catch (e) {
          return fail(400, `Bad request: ${e instanceof Error ? e.message : "invalid limit"}.`);
        }
        log.info(`owner api: ${provider} budget changed`);
        return ok(view());
      },
    },
  ];
}
