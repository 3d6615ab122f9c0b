// The owner controls over spend, models and stored things: budget ceilings
// and rates, the model per provider, listing and deleting skill capsules, and
// the memory embedder (files: lib/http/files-api.ts). Each endpoint group lives in its own file; this one
// names what they need from the core and registers those that exist.
import type { ConfigStore } from "../device/config";
import type { MemoryEngine } from "../memory/engine";
import type { HttpClient, Log } from "../ports";
import type { BudgetGovernor } from "../providers/budget";
import type { ProviderModels } from "../providers/models";
import { budgetRoutes } from "./owner-budget";
import { embedderRoutes } from "./owner-embedder";
import { skillShelfRoutes, type SkillShelf } from "./owner-skills";
import { modelRoutes } from "./owner-models";
import type { OwnerRoute } from "./owner-route";

export interface OwnerControlDeps {
  config: ConfigStore;
  log: Log;
  secrets: { getSecret(name: string): string | undefined };
  /** Ceilings, rates and the reset day of provider spend (lib/http/owner-budget.ts). */
  budget?: BudgetGovernor;
  /** The orchestrator's model and each provider's (lib/http/owner-models.ts). */
  models?: ProviderModels;
  /** Skill capsules: the owner lists them and deletes any stored one (lib/http/owner-skills.ts). */
  skills?: SkillShelf;
  /** The memory engine: the embedder switch (lib/http/owner-embedder.ts). */
  memory?: MemoryEngine;
  /** The outbound HTTP the embedder uses (the core's ports). */
  ports?: { http: HttpClient };
}

export function controlRoutes(deps: OwnerControlDeps): OwnerRoute[] {
  const routes = [
    ...budgetRoutes(deps.budget, deps.log),
    ...modelRoutes(deps.models, deps.config, deps.log),
    ...skillShelfRoutes(deps.skills, deps.log),
  ];
  const { ports, secrets } = deps;
  if (ports)
    routes.push(...embedderRoutes({ memory: deps.memory, http: ports.http, getSecret: (n) => secrets.getSecret(n), log: deps.log }));
  return routes;
}
