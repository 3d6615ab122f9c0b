// The device's ports, assembled from Moddable modules.
import type { Ports } from "../../../lib/ports";
import type { DeviceConfig } from "../config";
import { deviceClock } from "./clock";
import { deviceDigest } from "./digest";
import { refusingHttpClient } from "./http-client";
import { traceLog } from "./log";
import { deviceRandom } from "./random";
import { preferenceSettings } from "./settings";
import { fileStorage } from "./storage";

export function devicePorts(config: DeviceConfig): Ports {
  const storage = config.storageRoot === undefined ? undefined : fileStorage(config.storageRoot, config.storageCreate);
  return {
    clock: deviceClock,
    random: deviceRandom,
    digest: deviceDigest,
    log: traceLog(),
    settings: preferenceSettings,
    http: refusingHttpClient,
    ...(storage ? { storage } : {}),
  };
}
