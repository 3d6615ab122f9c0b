// Ring frames as a function of phase, time in the phase and the look: three
// bytes (R, G, B) per pixel, already scaled by the capped brightness, so the
// device writes them as they are. Pure: the same inputs give the same frame.
import type { RingPhase } from "./phases";
import { AMBER, RED, WHITE, cappedLevel, paletteFor, type Rgb, type RingLook } from "./look";

/** Periods of the moving patterns, in ms. */
const BOOT_TURN_MS = 1200;
const THINK_TURN_MS = 800;
const UPDATE_SWEEP_MS = 2000;
const SETUP_BREATH_MS = 2000;
const REPLY_BREATH_MS = 1000;
const WAIT_BREATH_MS = 3000;
const NO_NETWORK_BLINK_MS = 2000;
const ERROR_BLINK_MS = 500;
/** A breathing pattern never goes fully dark (fraction of its peak). */
const BREATH_FLOOR = 0.1;
/** Muted is a dim red: a quarter of the level. */
const MUTED_FRACTION = 0.25;
/** The pixel behind a spinner's head, as a fraction of the head. */
const TAIL_FRACTION = 0.25;

/** Bytes in one frame of `pixels` pixels. */
export function frameBytes(pixels: number): number {
  return pixels * 3;
}

function put(out: Uint8Array, i: number, c: Rgb, intensity: number, level: number): void {
  const k = (intensity * level) / 255;
  out[i * 3] = Math.round(c[0] * k);
  out[i * 3 + 1] = Math.round(c[1] * k);
  out[i * 3 + 2] = Math.round(c[2] * k);
}

function fill(out: Uint8Array, n: number, c: Rgb, intensity: number, level: number): void {
  for (let i = 0; i < n; i++) put(out, i, c, intensity, level);
}

/** 0 -> 1 -> 0 over one period, never below BREATH_FLOOR. */
function breath(t: number, period: number): number {
  const phase = (t % period) / period;
  const tri = phase < 0.5 ? phase * 2 : 2 - phase * 2;
  return BREATH_FLOOR + (1 - BREATH_FLOOR) * tri;
}

function spinner(out: Uint8Array, n: number, c: Rgb, t: number, period: number, heads: number, level: number): void {
  const head = Math.floor(((t % period) / period) * n);
  for (let h = 0; h < heads; h++) {
    const at = (head + Math.floor((h * n) / heads)) % n;
    put(out, at, c, 1, level);
    put(out, (at + n - 1) % n, c, TAIL_FRACTION, level);
  }
}

/**
 * Writes the frame for `phase` at `t` ms into the phase into `out` (length
 * frameBytes(pixels)) and returns it. Pixels not lit are 0.
 */
export function renderFrame(phase: RingPhase, t: number, pixels: number, look: RingLook, out: Uint8Array): Uint8Array {
  out.fill(0);
  const level = cappedLevel(look);
  const n = pixels;
  if (level === 0 || n === 0) return out;
  const { main, accent } = paletteFor(look.theme);
  const time = Math.max(0, t);
  switch (phase) {
    case "idle":
      break;
    case "updating": {
      // A sweep that fills the ring and starts over.
      const lit = Math.floor(((time % UPDATE_SWEEP_MS) / UPDATE_SWEEP_MS) * (n + 1));
      for (let i = 0; i < lit; i++) put(out, i, accent, 1, level);
      break;
    }
    case "setup":
      fill(out, n, accent, breath(time, SETUP_BREATH_MS), level);
      break;
    case "boot":
      spinner(out, n, WHITE, time, BOOT_TURN_MS, 1, level);
      break;
    case "no-network":
      if (time % NO_NETWORK_BLINK_MS < NO_NETWORK_BLINK_MS / 2) for (let i = 0; i < n; i += 2) put(out, i, AMBER, 1, level);
      break;
    case "error":
      if (time % ERROR_BLINK_MS < ERROR_BLINK_MS / 2) fill(out, n, RED, 1, level);
      break;
    case "listening":
      fill(out, n, main, 1, level);
      break;
    case "thinking":
      spinner(out, n, main, time, THINK_TURN_MS, 2, level);
      break;
    case "replying":
      fill(out, n, main, breath(time, REPLY_BREATH_MS), level);
      break;
    case "waiting-owner":
      fill(out, n, AMBER, breath(time, WAIT_BREATH_MS), level);
      break;
    case "muted":
      fill(out, n, RED, MUTED_FRACTION, level);
      break;
  }
  return out;
}

/** Whether a phase's frames change with time (a still phase is drawn once). */
export function phaseMoves(phase: RingPhase): boolean {
  return phase !== "idle" && phase !== "listening" && phase !== "muted";
}
