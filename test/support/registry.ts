import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { buildCore } from "../../lib/app/core.ts";
import { makePrincipal, type Principal, type Role, type Via } from "../../lib/registry/principal.ts";
import type { ToolRegistry } from "../../lib/registry/registry.ts";
import type { ResultsRing } from "../../lib/registry/results-ring";

export function principal(role: Role = "admin", via: Via = "mcp", ns: string = role, scheduled = false): Principal {
  return makePrincipal(ns, role, via, scheduled);
}

/** The device's real registry over memory ports. */
export function deviceRegistry(): { registry: ToolRegistry; ring: ResultsRing } {
  const core = buildCore(memoryPorts());
  return { registry: core.registry, ring: core.ring };
}
