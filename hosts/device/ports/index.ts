// The device's ports, assembled from Moddable modules.
import type { Ports } from "../../../lib/ports";
import { nativeKernels } from "../../../modules/vector/vector";
import type { DeviceConfig } from "../config";
import { deviceClock } from "./clock";
import { deviceDigest } from "./digest";
import { moddableHttpClient, moddableResolver } from "./http-client";
import { neopixelLed } from "./led";
import { traceLog } from "./log";
import { deviceOta } from "./ota";
import { deviceRandom } from "./random";
import { preferenceSettings } from "./settings";
import { fileStorage } from "./storage";
import { deviceSystem } from "./system";

export function devicePorts(config: DeviceConfig): Ports {
  const log = traceLog();
  const storage = config.storageRoot === undefined ? undefined : fileStorage(config.storageRoot, config.storageCreate);
  const led = neopixelLed(config.ring, log);
  return {
    clock: deviceClock,
    random: deviceRandom,
    digest: deviceDigest,
    log,
    settings: preferenceSettings,
    http: moddableHttpClient,
    resolver: moddableResolver,
    // The C int8 kernel (modules/vector), never the TypeScript one: ~0.14 ms instead of ~460 ms per 20k-row scan on XS.
    kernels: nativeKernels,
    system: deviceSystem(config, log),
    ota: deviceOta(config),
    storage,
    led,
    // files.send delivers through the Telegram channel; the speaker has no driver yet.
    messenger: undefined,
    audioOut: undefined,
  };
}
