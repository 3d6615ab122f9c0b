// Builds the status ring for a core whose Led port takes frames, and hooks it
// to the turn engine and to what waits for the owner's approval.
import type { Core } from "./core";
import { StatusRing } from "../device/ring/status";

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
  core: Pick<Core, "ports" | "config" | "turn" | "skills" | "routines" | "downloads" | "wallet">,
): StatusRing | undefined {
  const { led, clock, log } = core.ports;
  const frame = led?.frame?.bind(led);
  if (!led || !frame) return undefined;
  const ring = new StatusRing({
    sink: { pixels: led.pixels, write: frame },
    clock,
    log,
    knobs: core.config,
    approvalsWaiting: () => approvalsWaiting(core),
  });
  core.turn.observe((signal) => ring.turn(signal));
  return ring;
}
