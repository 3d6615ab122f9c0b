import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { buildRegistry } from "../../lib/halo.ts";
import { makePrincipal, type Role, type Via } from "../../lib/registry/principal.ts";
import type { Principal } from "../../lib/registry/principal.ts";
import { ToolRegistry } from "../../lib/registry/registry.ts";
import { ResultsRing } from "../../lib/store/results-ring.ts";

export function principal(role: Role = "admin", via: Via = "mcp", ns: string = role, scheduled = false): Principal {
  return makePrincipal(ns, role, via, scheduled);
}

/** The device's real registry over memory ports. */
export function deviceRegistry(): { registry: ToolRegistry; ring: ResultsRing } {
  const ring = new ResultsRing();
  return { registry: buildRegistry(memoryPorts(), ring), ring };
}
