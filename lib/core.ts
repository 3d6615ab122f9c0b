import { VALIDATORS } from "./generated/validators.js";
import { DOCS_PACK } from "./generated/docs-pack";
import { ClientTokens } from "./people/clients";
import type { Ports } from "./ports";
import { ToolRegistry } from "./registry/registry";
import type { CompiledValidator } from "./registry/types";
import { DocsLibrary } from "./store/docs-pack";
import { ResultsRing } from "./store/results-ring";
import { registerDocsTools } from "./tools/docs";
import { registerResultTools } from "./tools/results";

/** Every subsystem of the device, built once from the ports. Hosts and the HTTP routes reach them here. */
export interface Core {
  ports: Ports;
  registry: ToolRegistry;
  ring: ResultsRing;
  clients: ClientTokens;
}

/**
 * Builds the subsystems and registers every tool the device offers. The
 * generators call it too (with pass-through validators) to read the tools.
 */
export function buildCore(ports: Ports, validators: { [key: string]: CompiledValidator } = VALIDATORS): Core {
  const ring = new ResultsRing();
  const registry = new ToolRegistry({ validators, ring, log: ports.log });
  const clients = new ClientTokens(ports.settings, ports.digest, ports.random, ports.log, () => ports.clock.now());
  registerDocsTools(registry, new DocsLibrary(DOCS_PACK));
  registerResultTools(registry, ring);
  return { ports, registry, ring, clients };
}
