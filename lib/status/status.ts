import { toJson } from "../util/json";
import type { Principal } from "../registry/principal";
import { formatBytes, formatFree, FREE_SPACE_UNKNOWN } from "../util/format";
import { clipForMessage } from "../util/text";
import type { Gauge, UsageSource } from "../people/usage";
import type { IntrospectionDeps } from "./sources";

/** Release notes longer than this are cut in status replies. */
export const NOTES_MAX_CHARS = 400;

/** device.status: the complete live state, from the ports and the subsystems that exist. */
export function deviceStatusText(deps: IntrospectionDeps, principal: Principal): string {
  const { ports, config } = deps;
  const info = ports.system?.info();
  const out: string[] = [];
  out.push(
    info
      ? `Firmware: ${info.firmwareVersion} (build ${info.build})${info.simulated ? " [simulator]" : ""}`
      : "Firmware: not present (no System port)",
  );
  out.push(`Update engine: ${otaLine(deps)}`);
  const now = new Date(ports.clock.now()).toISOString();
  out.push(
    `Time: ${now} UTC; time zone ${info ? info.timeZone : "not present"}${info ? `; up ${Math.round(info.uptimeMs / 1000)} s` : ""}`,
  );
  if (info) {
    out.push(
      `Heap: ${formatBytes(info.freeHeapBytes)} free${info.totalHeapBytes !== undefined ? ` of ${formatBytes(info.totalHeapBytes)}` : ""}`,
    );
    out.push(
      `PSRAM: ${info.freePsramBytes === undefined ? "not present" : `${formatBytes(info.freePsramBytes)} free${info.totalPsramBytes !== undefined ? ` of ${formatBytes(info.totalPsramBytes)}` : ""}`}`,
    );
    out.push(
      `Internal flash: ${info.flashUsedBytes === undefined ? "unknown" : `${formatBytes(info.flashUsedBytes)} used${info.flashTotalBytes !== undefined ? ` of ${formatBytes(info.flashTotalBytes)}` : ""}`}`,
    );
    out.push(
      `Wi-Fi: ${info.wifi === "connected" ? `connected, ${info.wifiRssiDbm ?? "?"} dBm` : info.wifi === "absent" ? "not present" : "disconnected"}`,
    );
  } else {
    out.push("Heap, PSRAM, internal flash, Wi-Fi: not present (no System port)");
  }
  out.push(`SD card: ${sdLine(deps)}`);
  out.push(`LED ring: ${ports.led ? `${ports.led.pixels} pixels, showing ${ports.led.current().mode}` : "not present"}`);
  out.push(`Speaker: ${ports.audioOut ? `volume ${ports.audioOut.volume()}` : "not present"}`);
  out.push(`Wake phrase: ${wakeLine(deps)}`);
  out.push(`Memory: ${usageLine(deps.sources.memory, principal, "not present")}`);
  out.push(`Embedder: ${embedderLine(deps)}`);
  out.push(`File store: ${usageLine(deps.sources.files, principal, "not present")}`);
  out.push(`Sub-agents: ${usageLine(deps.sources.agents, principal, "not configured")}`);
  out.push(`Token usage and budget: ${usageLine(deps.sources.budget, principal, "not configured")}`);
  out.push(`Web search: ${usageLine(deps.sources.web, principal, "not configured")}`);
  out.push(`Nostr verification: ${usageLine(deps.sources.nostr, principal, "not present")}`);
  out.push(`Provider priority: ${providerLine(deps, principal)}`);
  out.push(`Provider models: ${deps.providerModels ? deps.providerModels().join("; ") : "not configured"}`);
  out.push(`Chat allow-list: ${deps.allowedChats ? `${deps.allowedChats()} chats` : "not configured"}`);
  const withheld = ports.log.withheld?.();
  if (withheld !== undefined) out.push(`Log: ${withheld} repeated lines withheld since boot`);
  out.push(
    `Secrets: ${deps
      .secretStatus()
      .map((s) => `${s.name} ${s.set ? "set" : "not set"}`)
      .join(", ")}`,
  );
  // Owner-only knobs (hardware tests, the owner's chat, budgets) sit on the human-web-only rail: not shown.
  out.push("Config:");
  for (const k of config.all()) {
    if (k.writer === "owner") continue;
    out.push(`- ${k.key}: ${toJson(k.value)}${k.isDefault ? " (default)" : ""}${k.writer === "device" ? "" : " [orch_model action]"}`);
  }
  return out.join("\n");
}

function wakeLine(deps: IntrospectionDeps): string {
  if (!deps.wake) return "not present (no wake-word engine)";
  const w = deps.wake();
  const pending = w.pending > 0 ? `; ${w.pending} of ${w.needed} examples recorded for a new phrase` : "";
  if (!w.set) return `not set (the owner teaches one with ${w.needed} examples)${pending}`;
  return `set, ${w.enabled ? "on" : "off"}, sensitivity ${w.sensitivity}${pending}`;
}

function embedderLine(deps: IntrospectionDeps): string {
  if (!deps.embedder) return "not present";
  const e = deps.embedder();
  return `${e.id}; ${e.vectors > 0 ? `locked: ${e.vectors} memories hold its vectors (the owner changes it with a re-embed)` : "no memories yet"}`;
}

// The order is the owner's routing choice: an admin reads it here; others are told it exists.
function providerLine(deps: IntrospectionDeps, principal: Principal): string {
  if (!deps.providerOrder) return "not configured";
  if (principal.role !== "admin") return "set by the owner (shown to admins)";
  return deps.providerOrder().join(" > ");
}

function otaLine(deps: IntrospectionDeps): string {
  const ota = deps.ports.ota;
  if (!ota) return "not present";
  const s = ota.status();
  const parts = [`${s.state}, running ${s.runningVersion}${s.slot ? ` (${s.slot})` : ""}`, `auto-update ${s.autoUpdate ? "on" : "off"}`];
  if (s.latest) parts.push(`latest seen ${s.latest.version}`);
  if (s.detail) parts.push(s.detail);
  return parts.join("; ");
}

/** The ota.status reply: state, latest version and notes, last install outcome. */
export function otaStatusText(deps: IntrospectionDeps): string {
  const ota = deps.ports.ota;
  if (!ota) return "Update engine: not present on this host.";
  const s = ota.status();
  const lines = [
    `State: ${s.state}`,
    `Running: ${s.runningVersion}${s.slot ? ` (${s.slot})` : ""}`,
    `Auto-update: ${s.autoUpdate ? "on" : "off"}`,
  ];
  if (s.detail) lines.push(`Detail: ${s.detail}`);
  lines.push(s.latest ? `Latest seen: ${s.latest.version}\nRelease notes: ${clipForNotes(s.latest.notes)}` : "Latest seen: none yet");
  lines.push(
    s.lastInstall
      ? `Last install: ${s.lastInstall.version} ${s.lastInstall.outcome} at ${new Date(s.lastInstall.at).toISOString()}`
      : "Last install: none",
  );
  lines.push("Installing is the owner's decision: no tool starts an update.");
  return lines.join("\n");
}

function clipForNotes(notes: string): string {
  return notes.length > NOTES_MAX_CHARS ? notes.slice(0, NOTES_MAX_CHARS) + "…" : notes;
}

function sdLine(deps: IntrospectionDeps): string {
  const storage = deps.ports.storage;
  if (!storage) return "not present";
  try {
    if (!storage.present()) return "not inserted";
    return `present, ${formatFree(storage.freeBytes())}`;
  } catch (e) {
    return `error (${clipForMessage(e instanceof Error ? e.message : "unreadable")})`;
  }
}

function usageLine(source: UsageSource | undefined, principal: Principal, absent: string): string {
  if (!source) return absent;
  let gauges: Gauge[];
  try {
    gauges = source.gauges(principal);
  } catch {
    return "error (the subsystem did not answer)";
  }
  return gauges.length === 0 ? "nothing to report" : gauges.map(formatGauge).join("; ");
}

export function formatGauge(g: Gauge): string {
  const f = (n: number): string => (g.unit !== "bytes" ? String(n) : n >= FREE_SPACE_UNKNOWN ? "unknown" : formatBytes(n));
  return `${g.label} ${f(g.used)}${g.cap !== undefined ? ` of ${f(g.cap)}` : ""}`;
}
