// The simulator's stand-ins for the LED ring and the update engine (audio: audio.ts):
// state in memory that tests and pages can read, and log lines that say
// "simulated". No Node imports, so XS scenarios can use them too.
import type { Led, LedPattern, Ota, OtaStatus } from "../../../lib/ports.ts";

export { simAudioOut, type SimAudioOut } from "./audio.ts";

/** The ring on the real device has 24 pixels; the simulator mirrors that. */
export const SIM_RING_PIXELS = 24;

export interface SimLed extends Led {
  /** Every pattern shown, oldest first (bounded). */
  history: LedPattern[];
}

const LED_HISTORY = 64;

/** The ring as state in memory, so a test or a web page can read what it shows. */
export function simLed(): SimLed {
  let current: LedPattern = { mode: "off", r: 0, g: 0, b: 0, brightness: 0 };
  const history: LedPattern[] = [];
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
