import type { Ports } from "../../../lib/ports.ts";
import { consoleLog, cryptoRandom, memoryLog, nodeDigest, systemClock } from "./node-basics.ts";
import { nodeHttpClient } from "./http-client.ts";
import { memoryStorage } from "./memory-storage.ts";
import { memorySettings } from "./memory-settings.ts";
import { folderSettings } from "./settings.ts";

/** The simulator's ports over a data folder. */
export function simulatorPorts(dataDir: string): Ports {
  return {
    clock: systemClock,
    random: cryptoRandom,
    digest: nodeDigest,
    log: consoleLog(),
    settings: folderSettings(`${dataDir}/flash`),
    http: nodeHttpClient,
  };
}

/** Ports that touch no disk and print nothing: tests, generators, benchmarks. */
export function memoryPorts(overrides: Partial<Ports> = {}): Ports {
  return {
    clock: systemClock,
    random: cryptoRandom,
    digest: nodeDigest,
    log: memoryLog(),
    settings: memorySettings(),
    http: nodeHttpClient,
    storage: memoryStorage(),
    ...overrides,
  };
}
