// The LLM providers in the owner's order and the budget governor every call goes through. The turn
// and the sub-agents share the one router, so one governor sees every call.
import { BudgetGovernor } from "../../providers/budget";
import { ProviderModels } from "../../providers/models";
import { ProviderRouter } from "../../providers/router";
import { utcOffsetMinutes } from "../../util/schedule";
import { defineSubsystem } from "../subsystem";

export const PROVIDERS = defineSubsystem({
  name: "providers",
  ports: ["clock", "http", "log", "random", "settings", "timers"],
  needs: ["secrets", "priority", "config", "baseUrls"],
  provides: ["router", "budget", "models"],
  build(p, { secrets, priority, config, baseUrls }) {
    // Billing periods follow the owner's calendar.
    const budget = new BudgetGovernor(p.settings, p.clock, { log: p.log, utcOffsetMinutes: () => utcOffsetMinutes(config) });
    const models = new ProviderModels({
      settings: p.settings,
      http: p.http,
      log: p.log,
      getSecret: (name) => secrets.getSecret(name),
      baseUrl: (name) => baseUrls[name],
    });
    const router = new ProviderRouter({
      http: p.http,
      clock: p.clock,
      random: p.random,
      sleep: (ms) => p.timers.sleep(ms),
      getSecret: (name) => secrets.getSecret(name),
      priority: () => priority.get(),
      model: (id) => models.get(id),
      baseUrls: { openai: baseUrls.openai, anthropic: baseUrls.anthropic, mistral: baseUrls.mistral },
      budget,
      log: p.log,
    });
    return { router, budget, models };
  },
});
