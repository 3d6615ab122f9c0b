// Builds the status ring for a core whose Led port takes frames, and hooks it
// to what the device does: the turn engine, the voice loop's phases, the
// update engine's state, the Wi-Fi setup access point and what waits for the
// owner's approval. The host adds what only it knows (the network's reports).
import type { Core } from "./core";
import type { OtaState } from "../ports";
import { StatusRing } from "../device/ring/status";

/** Update states during which the ring shows updating: an image is being written or booted. */
const UPDATING_STATES: readonly OtaState[] = ["downloading", "verifying", "restarting"];

/** Anything awaiting the owner: agent skills, routines, links to fetch. */
export function approvalsWaiting(core: Pick<Core, "skills" | "routines" | "downloads" | "wallet">): boolean {
  return (
    core.wallet.rails.list().some((a) => a.state === "awaiting-approval") ||
    core.routines.listPending().length > 0 ||
    core.downloads.all().some((job) => job.state === "awaiting-approval") ||
    core.skills.listPending().length > 0
  );
}

/** The ring, or undefined when the host's Led port has no frame writer. */
export function statusRingFor(
  core: Pick<Core, "ports" | "config" | "turn" | "skills" | "routines" | "downloads" | "wallet" | "voice" | "updates">,
): StatusRing | undefined {
  const { led, clock, log, wifi } = core.ports;
  const frame = led?.frame?.bind(led);
  if (!led || !frame) return undefined;
  const ring = new StatusRing({
    sink: { pixels: led.pixels, write: frame },
    clock,
    log,
    knobs: core.config,
    approvalsWaiting: () => approvalsWaiting(core),
    setupActive: wifi ? () => wifi.status().state === "setup" : undefined,
  });
  core.turn.observe((signal) => ring.turn(signal));
  core.voice.subscribe((e) => ring.report({ kind: "voice", phase: e.phase }));
  core.updates?.observe((state) => ring.report({ kind: "updating", on: UPDATING_STATES.includes(state) }));
  return ring;
}
