// Log lines to the debug console (xsbug over USB, or stdout of hosts/lin).
import type { Log } from "../../../lib/ports";

export function traceLog(prefix = "halo"): Log {
  return {
    info: (message: string): void => trace(`[${prefix}] ${message}\n`),
    warn: (message: string): void => trace(`[${prefix}] warning: ${message}\n`),
  };
}
