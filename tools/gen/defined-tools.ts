import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { buildCore } from "../../lib/app/core.ts";
import { SecretStore } from "../../lib/device/secrets.ts";
import { episodicOverStorage } from "../../lib/memory/build.ts";
import type { CompiledValidator, ToolDefinition } from "../../lib/registry/types.ts";

/**
 * Every tool the device registers, read without the build-time validators
 * (any key finds a pass-through), so generators work before those exist.
 */
export function definedTools(): ToolDefinition[] {
  const anyValidator = new Proxy({}, { get: () => (() => true) as CompiledValidator });
  const ports = memoryPorts();
  // web.search is registered only when a Tavily key is set at boot: a placeholder key lists it too.
  new SecretStore(ports.settings, ports.log).set("tavily", "catalog-placeholder");
  return buildCore(ports, anyValidator, { episodic: episodicOverStorage(ports) }).registry.all();
}
