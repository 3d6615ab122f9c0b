// The composition root: every subsystem built once from the ports and the host's choices, in the
// order their declared needs give (lib/app/subsystems/table.ts), then every tool registered with
// the services it needs (lib/tools/catalog.ts).
import { VALIDATORS } from "../generated/validators.js";
import type { Ports } from "../ports";
import { ALL_TOOLS } from "../tools/catalog";
import type { HostChoices, Services } from "./services";
import { buildSubsystems, type SubsystemEntry } from "./subsystem";
import { SUBSYSTEMS } from "./subsystems/table";

/** Every service of the device, and the ports it was built from. */
export interface Core extends Services {
  ports: Ports;
}

/** What a host chooses besides its ports; `validators` defaults to the build-time ones. */
export interface CoreOptions extends Omit<HostChoices, "validators"> {
  validators?: HostChoices["validators"];
  /** Called after each subsystem is built, with its name (the XS heap bench measures each one's share). */
  onBuilt?(subsystem: string): void;
  /** The subsystems to build (default the device's table); tests replace an entry to script it. */
  subsystems?: readonly SubsystemEntry[];
}

/** Builds the device's subsystems from `ports` and registers every tool. The generators call it too. */
export function buildCore(ports: Ports, options: CoreOptions): Core {
  const host: HostChoices = {
    baseUrls: options.baseUrls,
    otaBuild: options.otaBuild,
    walletKit: options.walletKit,
    validators: options.validators ?? VALIDATORS,
  };
  const services = buildSubsystems(options.subsystems ?? SUBSYSTEMS, ports, host, options.onBuilt) as unknown as Services;
  services.registry.registerAll(ALL_TOOLS, { ...ports, ...services });
  options.onBuilt?.("tools");
  return { ...services, ports };
}
