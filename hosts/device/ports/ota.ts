// The Ota port, read-only and honest: no update server is configured, so the
// engine is disabled; on the device it names the app partition running now.
import type { Ota, OtaStatus } from "../../../lib/ports";
import type { DeviceConfig } from "../config";
import { boardRunningSlot } from "./haloboard";

export function deviceOta(config: DeviceConfig): Ota {
  return {
    status(): OtaStatus {
      const slot = boardRunningSlot();
      const status: OtaStatus = {
        state: "disabled",
        runningVersion: config.firmwareVersion,
        autoUpdate: false,
        detail: config.simulated ? "the lin build does not update itself" : "no update server is configured on this build",
      };
      if (slot !== undefined) status.slot = slot;
      return status;
    },
  };
}
