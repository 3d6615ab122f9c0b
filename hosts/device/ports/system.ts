// The System port: firmware and build from the build's config, heap and PSRAM
// from haloboard.c, Wi-Fi from the network module, restart through ESP-IDF.
// On lin (simulated) the heap is the PC process's malloc arena and there is
// no radio; reboot only logs.
import Time from "time";
import type { Log, System, SystemInfo } from "../../../lib/ports";
import type { DeviceConfig } from "../config";
import { wifiStatus } from "../network";
import { boardHeap, boardPsram, boardResetReason, boardRestart } from "./haloboard";

/** esp_reset_reason_t names, by value (ESP-IDF esp_system.h). */
const RESET_REASONS = [
  "unknown",
  "power-on",
  "external pin",
  "software restart",
  "panic",
  "interrupt watchdog",
  "task watchdog",
  "other watchdog",
  "deep sleep",
  "brownout",
  "SDIO",
  "USB",
  "JTAG",
  "eFuse error",
  "power glitch",
  "CPU lockup",
];

function resetReason(): string | undefined {
  const code = boardResetReason();
  if (code === undefined) return undefined;
  return RESET_REASONS[code] ?? `code ${code}`;
}

export function deviceSystem(config: DeviceConfig, log: Log): System {
  const bootTicks = Time.ticks;
  const reset = resetReason();
  return {
    info(): SystemInfo {
      const heap = boardHeap();
      const psram = boardPsram();
      const wifi = wifiStatus();
      const info: SystemInfo = {
        firmwareVersion: config.firmwareVersion,
        build: config.build,
        simulated: config.simulated,
        uptimeMs: Time.delta(bootTicks),
        freeHeapBytes: heap ? heap[0] : 0,
        wifi: wifi.state,
        timeZone: config.timeZone,
      };
      if (heap) info.totalHeapBytes = heap[1];
      if (psram) {
        info.freePsramBytes = psram[0];
        info.totalPsramBytes = psram[1];
      }
      if (wifi.rssiDbm !== undefined) info.wifiRssiDbm = wifi.rssiDbm;
      if (reset !== undefined) info.resetReason = reset;
      else if (config.simulated) info.resetReason = "lin start";
      return info;
    },
    reboot(): void {
      if (!boardRestart()) log.info("reboot requested: this build cannot restart itself (lin keeps running)");
    },
  };
}
