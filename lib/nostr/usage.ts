// How the Nostr subsystem reports its verification queue to device.status: what waits (against the
// queue's room), what was checked, refused and dropped since boot, and how often a flooding relay was
// backed off. Counts only: no key, no event, no relay URL.
import type { UsageSource } from "../people/usage";
import type { NostrSubsystem } from "./subsystem";

export function nostrUsageSource(nostr: Pick<NostrSubsystem, "verifier" | "pool">): UsageSource {
  return {
    gauges: () => {
      const q = nostr.verifier.status();
      const backoffs = (nostr.pool?.status() ?? []).reduce((sum, r) => sum + r.backoffs, 0);
      return [
        { label: "events waiting for a signature check", used: q.waiting, cap: q.capacity, unit: "count" },
        { label: "of them the owner's or followed keys'", used: q.waitingPreferred, unit: "count" },
        { label: `checked (at most ${q.perSecond} a second)`, used: q.verified, unit: "count" },
        { label: "refused", used: q.refused, unit: "count" },
        { label: "dropped", used: q.dropped, unit: "count" },
        { label: "relay backoffs", used: backoffs, unit: "count" },
      ];
    },
  };
}
