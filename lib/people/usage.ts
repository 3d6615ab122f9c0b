// How a subsystem reports what it uses, for device.status and system.health. Every subsystem
// that keeps something bounded (memory, files, agents, the budget, web searches) offers one.
import type { Principal } from "../registry/principal";

/** One measured quantity of a subsystem, against its cap when it has one. */
export interface Gauge {
  label: string;
  used: number;
  cap?: number;
  unit: "count" | "bytes";
}

/** How a subsystem reports its usage to device.status and system.health. */
export interface UsageSource {
  gauges(principal: Principal): Gauge[];
}
