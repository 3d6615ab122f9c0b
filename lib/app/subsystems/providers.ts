// Builds the ProviderRouter and its budget governor from the core's parts: the
// owner's keys (SecretStore), priority, time zone and the host's timer. The
// turn engine and the sub-agents share the one router, so one governor sees
// every call.
import { BudgetGovernor } from "../../providers/budget";
import { ProviderModels } from "../../providers/models";
import type { Ports } from "../../ports";
import { ProviderRouter } from "../../providers/router";
import type { ProviderId } from "../../providers/types";

export interface RouterWiring {
  ports: Pick<Ports, "clock" | "http" | "log" | "random" | "settings">;
  getSecret(name: ProviderId): string | undefined;
  priority(): readonly ProviderId[];
  /** The owner's offset from UTC (billing periods follow the owner's calendar). */
  utcOffsetMinutes?(): number;
  /** API base URLs by provider id (the simulator points them at local stand-ins). */
  baseUrls?: { [service: string]: string | undefined };
  /** The host's timer for retry backoff; without one, retries do not wait. */
  sleep?(ms: number): Promise<void>;
}

export function buildProviderRouter(w: RouterWiring): { router: ProviderRouter; budget: BudgetGovernor; models: ProviderModels } {
  const { ports } = w;
  const budget = new BudgetGovernor(ports.settings, ports.clock, { log: ports.log, utcOffsetMinutes: w.utcOffsetMinutes });
  const models = new ProviderModels({
    settings: ports.settings,
    http: ports.http,
    log: ports.log,
    getSecret: (name) => w.getSecret(name),
    baseUrl: (name) => w.baseUrls?.[name],
  });
  const router = new ProviderRouter({
    http: ports.http,
    clock: ports.clock,
    random: ports.random,
    sleep: w.sleep ?? (() => Promise.resolve()),
    getSecret: (name) => w.getSecret(name),
    priority: () => w.priority(),
    model: (id) => models.get(id),
    baseUrls: { openai: w.baseUrls?.openai, anthropic: w.baseUrls?.anthropic, mistral: w.baseUrls?.mistral },
    budget,
    log: ports.log,
  });
  return { router, budget, models };
}
