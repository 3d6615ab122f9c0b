import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { buildCore } from "../../lib/app/core.ts";
import { makePrincipal, type Principal, type Role, type Via } from "../../lib/registry/principal.ts";
import type { ToolRegistry } from "../../lib/registry/registry.ts";
import type { ResultsRing } from "../../lib/registry/results-ring.ts";
import type { DispatchResult, ToolContext } from "../../lib/registry/types.ts";
import { NEVER_ABORTED } from "../../lib/util/abort.ts";

export function principal(role: Role = "admin", via: Via = "mcp", ns: string = role, scheduled = false): Principal {
  return makePrincipal(ns, role, via, scheduled);
}

/** The device's real registry over memory ports. */
export function deviceRegistry(): { registry: ToolRegistry; ring: ResultsRing } {
  const core = buildCore(memoryPorts(), { baseUrls: {}, otaBuild: undefined, walletKit: undefined });
  return { registry: core.registry, ring: core.ring };
}

/** What a tool's handler is called with when a test reaches it past the registry: the caller, a minute's deadline, no abort. */
export function callContext(p: Principal): ToolContext {
  return { principal: p, deadline: Date.now() + 60_000, signal: NEVER_ABORTED };
}

/** A dispatch result as the caller reads it: its text and whether it failed, without the error's tag and sentence. */
export function withoutError(r: DispatchResult): Omit<DispatchResult, "error"> {
  const { error: _error, ...rest } = r;
  return rest;
}
