// What device.status and system.health report about the file store.
import type { Gauge, UsageSource } from "../people/usage";
import type { ArtifactStore } from "./artifact-store";

/** The store's gauges; throws (reported as a failure) when the card is out. */
export function filesUsageSource(store: ArtifactStore): UsageSource {
  return {
    gauges(p): Gauge[] {
      const u = store.summary(p);
      return [
        { label: "your files", used: u.files, unit: "count" },
        { label: "your file storage", used: u.bytes, cap: p.quota.bytes, unit: "bytes" },
        { label: "SD card free", used: u.freeBytes, unit: "bytes" },
      ];
    },
  };
}
