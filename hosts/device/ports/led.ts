// The Led port over the SDK's `neopixel` driver (ESP32 only: on lin the module
// is not in the build and the port is absent). Solid and off are one update;
// the moving modes run on one Timer that stops when the ring goes solid or off.
// Status-ring frames (lib/device/ring) are written pixel by pixel as given.
import type NeoPixel from "neopixel";
import Modules from "modules";
import Timer, { type TimerId } from "timer";
import type { Led, LedPattern, Log } from "../../../lib/ports";
import { LED_MAX_BRIGHTNESS } from "../../../lib/device/knobs";
import type { RingConfig } from "../config";

/** One animation step. */
const FRAME_MS = 50;
/** Frames for one turn of the spinner, one pulse, one flash on+off, one rainbow turn. */
const SPINNER_FRAMES_PER_PIXEL = 2;
const PULSE_FRAMES = 40;
const FLASH_FRAMES = 10;
const RAINBOW_FRAMES = 60;
/** HSB saturation and brightness at full scale in makeHSB. */
const HSB_FULL = 1000;

type NeoPixelClass = new (options: { length: number; pin: number; order?: string }) => NeoPixel;

const OFF: LedPattern = { mode: "off", r: 0, g: 0, b: 0, brightness: 0 };

/** The ring, or undefined when the build has no ring or no neopixel driver. */
export function neopixelLed(ring: RingConfig | undefined, log: Log): Led | undefined {
  if (!ring || !Modules.has("neopixel")) return undefined;
  let strip: NeoPixel | undefined;
  let problem: string | undefined;
  try {
    const Driver = Modules.importNow("neopixel") as NeoPixelClass;
    strip = new Driver({ length: ring.length, pin: ring.pin, order: "GRB" });
  } catch (e) {
    problem = `the ring's driver did not start (${e instanceof Error ? e.message : String(e)}).`;
    log.warn(problem);
  }
  let current = OFF;
  let timer: TimerId | undefined;
  let frame = 0;

  function draw(px: NeoPixel, pattern: LedPattern): void {
    const color = px.makeRGB(pattern.r, pattern.g, pattern.b);
    const n = px.length;
    let level = Math.min(pattern.brightness, LED_MAX_BRIGHTNESS);
    switch (pattern.mode) {
      case "off":
        px.fill(0);
        level = 0;
        break;
      case "solid":
        px.fill(color);
        break;
      case "spinner": {
        px.fill(0);
        const head = Math.floor(frame / SPINNER_FRAMES_PER_PIXEL) % n;
        px.setPixel(head, color);
        px.setPixel((head + n - 1) % n, px.makeRGB(pattern.r >> 2, pattern.g >> 2, pattern.b >> 2));
        break;
      }
      case "pulse": {
        const phase = frame % PULSE_FRAMES;
        const half = PULSE_FRAMES / 2;
        px.fill(color);
        level = Math.round((level * (phase < half ? phase : PULSE_FRAMES - phase)) / half);
        break;
      }
      case "flash":
        px.fill(frame % FLASH_FRAMES < FLASH_FRAMES / 2 ? color : 0);
        break;
      case "rainbow":
        for (let i = 0; i < n; i++) {
          const hue = Math.floor((i * 360) / n + (frame * 360) / RAINBOW_FRAMES) % 360;
          px.setPixel(i, px.makeHSB(hue, HSB_FULL, HSB_FULL));
        }
        break;
    }
    px.brightness = level;
    px.update();
  }

  return {
    pixels: ring.length,
    show(pattern: LedPattern): void {
      current = { ...pattern, brightness: Math.min(pattern.brightness, LED_MAX_BRIGHTNESS) };
      if (timer !== undefined) Timer.clear(timer);
      timer = undefined;
      frame = 0;
      const px = strip;
      if (!px) return;
      draw(px, current);
      if (current.mode === "off" || current.mode === "solid") return;
      timer = Timer.repeat((): void => {
        frame++;
        draw(px, current);
      }, FRAME_MS);
    },
    current: (): LedPattern => ({ ...current }),
    check: (): string | undefined => problem,
    frame(rgb: Uint8Array): void {
      // A status-ring frame replaces any moving pattern; its bytes are already scaled and capped.
      if (timer !== undefined) Timer.clear(timer);
      timer = undefined;
      const px = strip;
      if (!px) return;
      const n = Math.min(px.length, Math.floor(rgb.length / 3));
      for (let i = 0; i < n; i++) px.setPixel(i, px.makeRGB(rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2]));
      px.brightness = 255;
      px.update();
    },
  };
}
