// createHalo as the tests build it: the host's choices a test does not care about set to the
// simulator's (no outside services, no update engine, loopback only, halo.local).
import { createHalo, type Halo, type HaloOptions } from "../../lib/app/halo.ts";
import type { Ports } from "../../lib/ports.ts";

export function testHalo(ports: Ports, options: Partial<HaloOptions> = {}): Halo {
  return createHalo({
    ports,
    firmwareVersion: "t",
    core: { baseUrls: {}, otaBuild: undefined, walletKit: undefined },
    addresses: () => [],
    deviceName: () => "halo",
    hostRoutes: [],
    ...options,
  });
}

/** The host's choices of a core built for a test: no outside services, no update engine. */
export const TEST_HOST = { baseUrls: {}, otaBuild: undefined, walletKit: undefined } as const;
