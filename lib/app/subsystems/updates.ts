// Builds the update engine from the ports, with the health check a new image
// must pass after its first restart: network (the feed answers), storage (the
// card takes a write when one is inserted) and registry (tools are there).
import { defineSubsystem } from "../subsystem";
import type { OutboundHttp } from "../../net/outbound";
import { originOfText } from "../../net/outbound";
import type { Ports } from "../../ports";
import type { ToolRegistry } from "../../registry/registry";
import type { HealthCheck } from "../../ota/boot";
import { FEED_TIMEOUT_MS, OtaEngine } from "../../ota/engine";
import { FEED_MAX_BYTES } from "../../ota/feed";
import { OtaRecords } from "../../ota/records";

/** What the host knows about its build (HostChoices.otaBuild). */
export interface OtaBuildOptions {
  /** The build's version (the slots' reading of the running image wins). */
  version: string;
  /** The board name in the feed's images, e.g. "esp32s3". */
  board: string;
  trustedKeys: readonly string[];
  feedUrl?: string;
  checkIntervalMs?: number;
}

const PROBE_PATH = "ota-health-probe.txt";

function healthChecks(
  ports: Pick<Ports, "storage">,
  outbound: OutboundHttp,
  registry: ToolRegistry,
  feedUrl: () => string | undefined,
): HealthCheck[] {
  return [
    {
      name: "network",
      run: async () => {
        const url = feedUrl();
        if (!url) return undefined; // nothing to reach yet
        const origin = originOfText(url);
        const res = await outbound.request({
          method: "GET",
          url,
          timeoutMs: FEED_TIMEOUT_MS,
          maxResponseBytes: FEED_MAX_BYTES,
          maxRedirects: 0,
          trusted: origin ? [origin] : [],
        });
        return res.status === 200 ? undefined : `the release feed answered HTTP ${res.status}`;
      },
    },
    {
      name: "storage",
      run: async () => {
        const storage = ports.storage;
        if (!storage?.present()) return undefined; // no card is not the firmware's fault
        const probe = new TextEncoder().encode("ok");
        storage.writeAtomic(PROBE_PATH, probe);
        const back = storage.read(PROBE_PATH);
        storage.remove(PROBE_PATH);
        return back && back.length === 2 ? undefined : "the card did not read back what was written";
      },
    },
    {
      name: "registry",
      run: async () => (registry.all().length > 0 && registry.has("ota.status") ? undefined : "the tool registry is incomplete"),
    },
  ];
}

/** The update engine, with the health check a new image must pass; undefined without app slots or build options. */
export const UPDATES = defineSubsystem({
  name: "updates",
  ports: ["otaSlots", "settings", "log", "clock", "storage"],
  needs: ["registry", "otaBuild", "outbound"],
  provides: ["updates"],
  build(p, { registry, otaBuild, outbound }) {
    const { otaSlots } = p;
    if (!otaSlots || !otaBuild) return { updates: undefined };
    const records = new OtaRecords(p.settings);
    return {
      updates: new OtaEngine({
        slots: otaSlots,
        http: outbound,
        settings: p.settings,
        log: p.log,
        now: () => p.clock.now(),
        version: otaBuild.version,
        board: otaBuild.board,
        trustedKeys: otaBuild.trustedKeys,
        feedUrl: otaBuild.feedUrl,
        checkIntervalMs: otaBuild.checkIntervalMs,
        checks: healthChecks(p, outbound, registry, () => records.feedUrl() ?? otaBuild.feedUrl),
      }),
    };
  },
});
