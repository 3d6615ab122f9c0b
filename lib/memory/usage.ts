// What device.status and system.health report about memory.
import type { Gauge, UsageSource } from "../people/usage";
import type { MemoryEngine } from "./engine";
import { FLAG_PINNED } from "./store/vector-store";

export function memoryUsageSource(engine: MemoryEngine): UsageSource {
  return {
    gauges(principal): Gauge[] {
      const { store, config } = engine;
      const mask = store.maskOf(principal.ns);
      let pinned = 0;
      if (mask) for (let slot = 0; slot < store.count; slot++) if (mask[slot] && store.flags[slot] & FLAG_PINNED) pinned++;
      const gauges: Gauge[] = [
        { label: "your memories", used: store.countIn(principal.ns), cap: principal.quota.vectors, unit: "count" },
        { label: "your pinned memories", used: pinned, cap: principal.quota.pins, unit: "count" },
      ];
      if (principal.role === "admin") {
        gauges.push({ label: "live memories (all people)", used: store.count, cap: config.max_vectors, unit: "count" });
        // Where the rows live (native memory outside the XS heap on the device) and what max_vectors can reach on it.
        gauges.push({ label: "vector arena", used: engine.arena.usedBytes(), cap: engine.arena.budgetBytes(), unit: "bytes" });
        gauges.push({ label: "max_vectors this device fits", used: engine.vectorLimit, unit: "count" });
      }
      return gauges;
    },
  };
}
