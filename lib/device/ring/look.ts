// How the stored ring knobs (ledBrightness, brightOvr, posture, theme, attnHoldMs) change
// what the ring shows: read once per frame from the config, bounded here.
import { LED_MAX_BRIGHTNESS } from "../knobs";
import { ringBrightness } from "../night-window";

export type RingPosture = "full" | "subtle" | "off";
export type RingTheme = "aurora" | "ember" | "ocean" | "mono";

export interface RingLook {
  /** 0-255 as stored; frames never exceed LED_MAX_BRIGHTNESS (60%). */
  brightness: number;
  posture: RingPosture;
  theme: RingTheme;
  /** How long an error stays on the ring, in ms. */
  attnHoldMs: number;
}

export type Rgb = readonly [number, number, number];

/** A theme's two colours: the voice phases use `main`, attention uses `accent`. */
export interface RingPalette {
  main: Rgb;
  accent: Rgb;
}

const PALETTES: { [theme in RingTheme]: RingPalette } = {
  aurora: { main: [40, 120, 255], accent: [170, 60, 255] },
  ember: { main: [255, 110, 20], accent: [255, 40, 60] },
  ocean: { main: [0, 180, 200], accent: [40, 80, 255] },
  mono: { main: [255, 255, 255], accent: [200, 200, 200] },
};

/** Colours that mean the same on every theme. */
export const RED: Rgb = [255, 0, 0];
export const AMBER: Rgb = [255, 140, 0];
export const WHITE: Rgb = [255, 255, 255];

export const DEFAULT_LOOK: RingLook = { brightness: 96, posture: "full", theme: "aurora", attnHoldMs: 8000 };

export function paletteFor(theme: RingTheme): RingPalette {
  return PALETTES[theme] ?? PALETTES.aurora;
}

/** The level frames are scaled by: the stored brightness, never above 60% of full. */
export function cappedLevel(look: RingLook): number {
  const b = Number.isFinite(look.brightness) ? Math.round(look.brightness) : 0;
  return Math.max(0, Math.min(b, LED_MAX_BRIGHTNESS));
}

/**
 * The look from the owner's stored knobs (unknown values fall back to the defaults); given the time, the
 * brightness is the night's (brightOvr) at night.
 */
export function lookFromKnobs(read: { number(key: string): number; string(key: string): string }, nowMs?: number): RingLook {
  const posture = read.string("posture");
  const theme = read.string("theme");
  return {
    brightness: nowMs === undefined ? read.number("ledBrightness") : ringBrightness(read, nowMs),
    posture: posture === "subtle" || posture === "off" ? posture : "full",
    theme: theme === "ember" || theme === "ocean" || theme === "mono" ? theme : "aurora",
    attnHoldMs: Math.max(0, read.number("attnHoldMs")),
  };
}
