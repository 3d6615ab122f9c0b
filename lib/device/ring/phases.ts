// The ring's phases, highest priority first. The order follows Home Assistant's
// Voice PE (setup above boot above no connection above the voice phases above
// muted above idle); updating sits on top because the owner must see that the
// firmware is being written before pulling the plug.
export const RING_PHASES = [
  "updating",
  "setup",
  "boot",
  "no-network",
  "error",
  "listening",
  "replying",
  "thinking",
  "waiting-owner",
  "muted",
  "idle",
] as const;

export type RingPhase = (typeof RING_PHASES)[number];

/** The voice phases a turn moves through; at most one at a time. */
export type VoicePhase = "listening" | "thinking" | "replying";

/** What the `posture` knob "subtle" still shows: attention and errors. */
export const SUBTLE_PHASES: readonly RingPhase[] = ["updating", "setup", "no-network", "error", "waiting-owner"];

/** The higher-priority of two phases. */
export function higherPhase(a: RingPhase, b: RingPhase): RingPhase {
  return RING_PHASES.indexOf(a) <= RING_PHASES.indexOf(b) ? a : b;
}
