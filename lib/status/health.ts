import type { Principal } from "../registry/principal";
import { formatBytes, formatFree } from "../util/format";
import type { UsageSource } from "../people/usage";
import type { IntrospectionDeps } from "./sources";
import { formatGauge } from "./status";
import { judgeMic, measureMic, type MicLevel } from "../voice/mic-level";

export type HealthState = "OK" | "WARN" | "FAIL" | "NOT PRESENT" | "NOT CONFIGURED";

export interface HealthItem {
  item: string;
  state: HealthState;
  detail: string;
}

/** Free heap below this is a warning. */
export const LOW_HEAP_BYTES = 48 * 1024;
/** Free PSRAM below this is a warning. */
export const LOW_PSRAM_BYTES = 512 * 1024;
/** A Wi-Fi signal weaker than this is a warning. */
export const WEAK_RSSI_DBM = -80;
/** A gauge at or above this share of its cap is a warning. */
const NEAR_CAP = 0.9;

/** system.health: each part of the device, from its port or subsystem; absent ones say so. The microphone is listened to for a second. */
export async function healthItems(deps: IntrospectionDeps, principal: Principal): Promise<HealthItem[]> {
  const { ports } = deps;
  const info = ports.system?.info();
  const items: HealthItem[] = [];
  const add = (item: string, state: HealthState, detail: string): void => void items.push({ item, state, detail });

  if (!ports.led) add("ring", "NOT PRESENT", "no LED ring port");
  else {
    const fault = ports.led.check();
    add("ring", fault ? "FAIL" : "OK", fault ?? `${ports.led.pixels} pixels, showing ${ports.led.current().mode}`);
  }
  items.push(await micItem(deps));
  if (!ports.audioOut) add("speaker", "NOT PRESENT", "no speaker port");
  else add("speaker", "OK", `volume ${ports.audioOut.volume()}`);
  items.push(sdItem(deps));
  if (!info) add("memory (RAM)", "NOT PRESENT", "no System port");
  else add("memory (RAM)", info.freeHeapBytes < LOW_HEAP_BYTES ? "WARN" : "OK", `${formatBytes(info.freeHeapBytes)} heap free`);
  items.push(storeItem("memory store", deps.sources.memory, principal));
  if (!info || info.freePsramBytes === undefined) add("PSRAM", "NOT PRESENT", info ? "the board reports no PSRAM" : "no System port");
  else add("PSRAM", info.freePsramBytes < LOW_PSRAM_BYTES ? "WARN" : "OK", `${formatBytes(info.freePsramBytes)} free`);
  if (!info || info.wifi === "absent") add("Wi-Fi", "NOT PRESENT", info ? "no radio" : "no System port");
  else if (info.wifi === "disconnected") add("Wi-Fi", "FAIL", "not connected to an access point");
  else {
    const rssi = info.wifiRssiDbm;
    add("Wi-Fi", rssi !== undefined && rssi < WEAK_RSSI_DBM ? "WARN" : "OK", rssi !== undefined ? `${rssi} dBm` : "connected");
  }
  const link = deps.sources.chatLink?.health();
  if (link) add("chat link", !link.configured ? "NOT CONFIGURED" : link.ok ? "OK" : "WARN", link.detail);
  else {
    const botToken = deps.secretStatus().find((s) => s.name === "telegram");
    add("chat link", "NOT CONFIGURED", `no chat transport on this build; bot token ${botToken?.set ? "set" : "not set"}`);
  }
  return items;
}

export function healthText(items: HealthItem[]): string {
  return items.map((h) => `- ${h.item}: ${h.state} (${h.detail})`).join("\n");
}

/** The microphone from the AudioIn port: present, its rate, the last second's level; zeros or clipping FAIL. */
async function micItem(deps: IntrospectionDeps): Promise<HealthItem> {
  const { audioIn, timers, clock } = deps.ports;
  if (!audioIn) return { item: "mic", state: "NOT PRESENT", detail: "no microphone port on this build" };
  // A muted microphone is not opened, not even for a check.
  if (deps.config.bool("micMute"))
    return { item: "mic", state: "OK", detail: `${audioIn.sampleRate} Hz; muted by the owner, not listened to` };
  let level: MicLevel;
  try {
    level = await measureMic(audioIn, timers, clock);
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/\.$/, "") : "error";
    return {
      item: "mic",
      state: /already capturing|busy/i.test(why) ? "OK" : "FAIL",
      detail: `${audioIn.sampleRate} Hz; not measured (${why})`,
    };
  }
  const verdict = judgeMic(level);
  return { item: "mic", state: verdict.ok ? "OK" : "FAIL", detail: verdict.detail };
}

function sdItem(deps: IntrospectionDeps): HealthItem {
  const storage = deps.ports.storage;
  if (!storage) return { item: "SD", state: "NOT PRESENT", detail: "no storage port" };
  try {
    if (!storage.present()) return { item: "SD", state: "FAIL", detail: "no card inserted" };
    return { item: "SD", state: "OK", detail: formatFree(storage.freeBytes()) };
  } catch {
    return { item: "SD", state: "FAIL", detail: "the card does not answer" };
  }
}

function storeItem(item: string, source: UsageSource | undefined, principal: Principal): HealthItem {
  if (!source) return { item, state: "NOT PRESENT", detail: "the subsystem is not built" };
  try {
    const gauges = source.gauges(principal);
    const near = gauges.some((g) => g.cap !== undefined && g.cap > 0 && g.used >= g.cap * NEAR_CAP);
    return { item, state: near ? "WARN" : "OK", detail: gauges.length ? gauges.map(formatGauge).join("; ") : "running" };
  } catch {
    return { item, state: "FAIL", detail: "the subsystem did not answer" };
  }
}
