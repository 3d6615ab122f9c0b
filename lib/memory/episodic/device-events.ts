// The device's own timeline in the episodic history: rows in session "system"
// under the namespace no person can take (SYSTEM_NS), which admins read with
// memory.episodic. Only cheap, rare events are recorded here (a boot).
import type { EpisodicJournal } from "./journal";
import type { System } from "../../ports";
import { clipForMessage } from "../../util/text";

/** The namespace of the device's own event timeline (session "system"); admins see it too. No person id can take it. */
export const SYSTEM_NS = "#system";
export const SYSTEM_SESSION = "system";
/** Longest host-supplied field (build id, reset reason) repeated in an event. */
const FIELD_MAX_CHARS = 80;

/** Appends one device event; false when it was not recorded (no store, card out). */
export function recordDeviceEvent(journal: EpisodicJournal, text: string): boolean {
  return journal.write({ ns: SYSTEM_NS, session: SYSTEM_SESSION, role: "device", kind: "log", text });
}

/** The boot event's text: firmware, build and reset reason as the host reports them. */
export function bootEventText(firmwareVersion: string, system: System | undefined): string {
  let info: ReturnType<System["info"]> | undefined;
  try {
    info = system?.info();
  } catch {
    info = undefined;
  }
  const parts = [`boot: firmware ${clipForMessage(firmwareVersion, FIELD_MAX_CHARS)}`];
  if (info?.build) parts.push(`build ${clipForMessage(info.build, FIELD_MAX_CHARS)}`);
  if (info?.simulated) parts.push("simulator");
  parts.push(`reset reason ${info?.resetReason ? clipForMessage(info.resetReason, FIELD_MAX_CHARS) : "unknown"}`);
  return parts.join(", ");
}
