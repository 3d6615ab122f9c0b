// Drives a ring from a RingMachine: the host calls tick() every RING_FRAME_MS;
// a frame is rendered only when the phase moves or changed, and written only
// when it differs from the last one written, so a still ring costs no writes
// (and a pattern a device action showed stays until the phase changes).
import type { RingEvent, RingMachine } from "./machine";
import { frameBytes, phaseMoves, renderFrame } from "./frames";
import type { RingLook } from "./look";
import type { RingPhase } from "./phases";

/** The frame interval: 30 frames a second, under the 60 fps ceiling. */
export const RING_FRAME_MS = 33;
/** The ring is never redrawn faster than this (60 fps). */
export const RING_MIN_FRAME_MS = 1000 / 60;

export interface RingSink {
  readonly pixels: number;
  /** Writes one frame: R, G, B bytes per pixel, already scaled. */
  write(frame: Uint8Array): void;
}

export class RingRunner {
  private readonly frame: Uint8Array;
  private readonly written: Uint8Array;
  private hasWritten = false;
  private lastTick = -Infinity;
  private phase: RingPhase | undefined;
  private since = 0;
  private lookKey = "";

  constructor(
    private readonly machine: RingMachine,
    private readonly sink: RingSink,
    private readonly look: () => RingLook,
  ) {
    this.frame = new Uint8Array(frameBytes(sink.pixels));
    this.written = new Uint8Array(frameBytes(sink.pixels));
  }

  /** Feeds an event to the machine and redraws at once if the phase changed. */
  event(event: RingEvent, now: number): void {
    this.machine.apply(event, now, this.look().attnHoldMs);
    this.tick(now, true);
  }

  /** The phase shown since the last tick. */
  current(): RingPhase | undefined {
    return this.phase;
  }

  /** Renders and writes the frame for `now`; false when nothing was written. */
  tick(now: number, force = false): boolean {
    if (!force && now - this.lastTick < RING_MIN_FRAME_MS) return false;
    this.lastTick = now;
    const look = this.look();
    const phase = this.machine.shown(now, look.posture);
    const key = `${look.brightness}/${look.theme}`;
    const changed = phase !== this.phase || key !== this.lookKey;
    if (changed) {
      this.phase = phase;
      this.since = now;
      this.lookKey = key;
    } else if (!phaseMoves(phase)) return false;
    renderFrame(phase, now - this.since, this.sink.pixels, look, this.frame);
    if (this.hasWritten && sameBytes(this.frame, this.written)) return false;
    this.written.set(this.frame);
    this.hasWritten = true;
    this.sink.write(this.frame);
    return true;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
