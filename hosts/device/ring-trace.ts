// On the SDK's Linux target, prints the status ring's phase each time it changes
// ("[halo] ring: listening"), and a voice error's sentence, for hosts/lin/check-voice.mjs. The voice loop's
// phase events are heard after the ring took them (it subscribed first); a
// timer at the ring's frame rate catches the rest (a turn's events, an error's
// hold running out).
import Timer from "timer";
import type { StatusRing } from "../../lib/device/ring/status";
import { RING_FRAME_MS } from "../../lib/device/ring/runner";
import type { Log } from "../../lib/ports";
import type { PhaseEvent } from "../../lib/voice/pipeline";

export function traceRingPhases(ring: StatusRing, voice: { subscribe(listener: (e: PhaseEvent) => void): () => void }, log: Log): void {
  let last = "";
  const note = (): void => {
    const phase = ring.phase() ?? "none";
    if (phase === last) return;
    last = phase;
    log.info(`ring: ${phase}`);
  };
  voice.subscribe((e) => {
    // The sentence an error carries says what failed (the ring shows only that something did).
    if (e.phase === "error") log.info(`voice: error: ${e.detail ?? "(no detail)"}`);
    note();
  });
  Timer.repeat(note, RING_FRAME_MS);
}
