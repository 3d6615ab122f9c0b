import { tsKernels } from "../../../lib/memory/kernel-ts.ts";
import type { Log, Ota, Ports } from "../../../lib/ports.ts";
import { consoleLog, cryptoRandom, memoryLog, nodeDigest, systemClock } from "./node-basics.ts";
import { nodeHttpClient, nodeResolver } from "./http-client.ts";
import { folderStorage } from "./folder-storage.ts";
import { memoryStorage } from "./memory-storage.ts";
import { memorySettings } from "./memory-settings.ts";
import { folderSettings } from "./settings.ts";
import { simAudioOut, simLed, simOta, type SimAudioOut, type SimLed } from "./hardware.ts";
import { simSystem, type SimSystem } from "./system.ts";

/** The firmware version memoryPorts' simulated System reports. */
export const TEST_FIRMWARE_VERSION = "0.0.0-test";

/** The simulator's ports over a data folder. */
export function simulatorPorts(dataDir: string, firmwareVersion = TEST_FIRMWARE_VERSION, log: Log = consoleLog()): Ports {
  return {
    clock: systemClock,
    random: cryptoRandom,
    digest: nodeDigest,
    log,
    settings: folderSettings(`${dataDir}/flash`),
    http: nodeHttpClient,
    resolver: nodeResolver,
    // Node has no native modules of Halo's: the TypeScript kernel (the same contract as the C one).
    kernels: tsKernels,
    // The SD card; tests pull it through halo.core.ports.storage (a RemovableStorage).
    storage: folderStorage(`${dataDir}/sd`),
    // files.send delivers through the Telegram channel.
    messenger: undefined,
    ...simHardware({ firmwareVersion, log, flashDir: `${dataDir}/flash` }),
  };
}

/** Ports that touch no disk and print nothing: tests, generators, benchmarks. */
export function memoryPorts(overrides: Partial<Ports> = {}): Ports {
  const log = overrides.log ?? memoryLog();
  return {
    clock: systemClock,
    random: cryptoRandom,
    digest: nodeDigest,
    log,
    settings: memorySettings(),
    http: nodeHttpClient,
    resolver: nodeResolver,
    kernels: tsKernels,
    storage: memoryStorage(),
    messenger: undefined,
    ...simHardware({ firmwareVersion: TEST_FIRMWARE_VERSION, log }),
    ...overrides,
  };
}

/** All four board ports of the simulator. */
export function simHardware(options: { firmwareVersion: string; log: Log; flashDir?: string }): {
  system: SimSystem;
  led: SimLed;
  audioOut: SimAudioOut;
  ota: Ota;
} {
  return { system: simSystem(options), led: simLed(), audioOut: simAudioOut(options.log), ota: simOta(options.firmwareVersion) };
}
