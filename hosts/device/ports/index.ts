// The device's ports, assembled from Moddable modules.
import type { Ports } from "../../../lib/ports";
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
    system: deviceSystem(config, log),
    ota: deviceOta(config),
    ...(storage ? { storage } : {}),
    ...(led ? { led } : {}),
  };
}
