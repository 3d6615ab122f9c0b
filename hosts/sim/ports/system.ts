// The simulator's System port: readings of the Node process, marked simulated.
// No PSRAM and no radio are reported, because the PC has neither.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Log, System, SystemInfo } from "../../../lib/ports.ts";

export interface SimSystem extends System {
  /** How many times reboot() was asked for. */
  rebootRequests: number;
}

/** System over the Node process: heap from V8, flash = the settings folder's bytes (no fixed size). */
export function simSystem(options: { firmwareVersion: string; flashDir?: string; log: Log }): SimSystem {
  const started = Date.now();
  const system: SimSystem = {
    rebootRequests: 0,
    info(): SystemInfo {
      const heap = process.memoryUsage();
      return {
        firmwareVersion: options.firmwareVersion,
        build: `simulator, Node ${process.versions.node}`,
        simulated: true,
        uptimeMs: Date.now() - started,
        freeHeapBytes: Math.max(0, heap.heapTotal - heap.heapUsed),
        totalHeapBytes: heap.heapTotal,
        flashUsedBytes: options.flashDir ? folderBytes(options.flashDir) : undefined,
        wifi: "absent",
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
        resetReason: "simulator start",
      };
    },
    reboot() {
      system.rebootRequests++;
      options.log.info("simulated reboot requested (the simulator keeps running)");
    },
  };
  return system;
}

function folderBytes(dir: string): number | undefined {
  try {
    let n = 0;
    for (const name of readdirSync(dir)) n += statSync(join(dir, name)).size;
    return n;
  } catch {
    return undefined;
  }
}
