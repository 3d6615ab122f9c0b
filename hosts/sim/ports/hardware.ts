// The simulator's stand-ins for the LED ring and the update engine (audio: audio.ts):
// state in memory that tests and pages can read, and log lines that say
// "simulated". No Node imports, so XS scenarios can use them too.
import type { Button, ButtonGesture, Led, LedPattern, Ota, OtaStatus } from "../../../lib/ports.ts";

export { simAudioOut, type SimAudioOut } from "./audio.ts";

/** The ring on the real device has 12 pixels (`ring.length` in hosts/device/manifest.json); the simulator mirrors that. */
export const SIM_RING_PIXELS = 12;

export interface SimLed extends Led {
  /** Every pattern shown, oldest first (bounded). */
  history: LedPattern[];
  /** The status ring's frames as written, oldest first (bounded to LED_FRAMES_KEPT); each R, G, B per pixel. */
  frames: Uint8Array[];
}

/** Status-ring frames the simulator keeps (about 2 s at 30 fps). */
export const LED_FRAMES_KEPT = 64;

const LED_HISTORY = 64;

/** The ring as state in memory, so a test or a web page can read what it shows. */
export function simLed(): SimLed {
  let current: LedPattern = { mode: "off", r: 0, g: 0, b: 0, brightness: 0 };
  const history: LedPattern[] = [];
  const frames: Uint8Array[] = [];
  return {
    pixels: SIM_RING_PIXELS,
    history,
    show(pattern) {
      current = { ...pattern };
      history.push(current);
      if (history.length > LED_HISTORY) history.shift();
    },
    current: () => ({ ...current }),
    check: () => undefined,
    frames,
    frame(rgb) {
      frames.push(rgb.slice());
      if (frames.length > LED_FRAMES_KEPT) frames.shift();
    },
  };
}

export interface SimButton extends Button {
  /** What a press on the simulated button does: tells every listener (tests and pages call it). */
  press(gesture: ButtonGesture): void;
}

/** The button as a function to call: no pin, so no debouncing; the gesture arrives as given. */
export function simButton(): SimButton {
  const listeners: Array<(gesture: ButtonGesture) => void> = [];
  return {
    onGesture(listener) {
      listeners.push(listener);
    },
    press(gesture) {
      for (const listener of listeners) listener(gesture);
    },
  };
}

/** The update engine of a simulator: disabled, and it says why. */
export function simOta(firmwareVersion: string): Ota {
  return {
    status: (): OtaStatus => ({
      state: "disabled",
      runningVersion: firmwareVersion,
      autoUpdate: false,
      detail: "the simulator does not update itself",
    }),
  };
}
