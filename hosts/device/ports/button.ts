// The Button port over an ECMA-419 Digital input (active low, with the pull-up
// on): the pin is sampled every BUTTON_SAMPLE_MS and lib/device/button.ts turns
// levels into debounced gestures.
import Modules from "modules";
import Timer from "timer";
import { ButtonGestures } from "../../../lib/device/button";
import type { Button, ButtonGesture, Clock, Log } from "../../../lib/ports";

/** Sampling period: a third of the debounce time. */
const BUTTON_SAMPLE_MS = 10;

/** The part of the ECMA-419 Digital class used here ("embedded:io/digital", loaded only where the build has it). */
interface DigitalInput {
  read(): number;
}
type DigitalClass = (new (options: { pin: number; mode: number }) => DigitalInput) & { readonly InputPullUp: number };

export interface ButtonConfig {
  pin: number;
}

/** The button, or undefined when the build names no button pin or has no Digital IO. */
export function digitalButton(config: ButtonConfig | undefined, clock: Clock, log: Log): Button | undefined {
  if (!config || !Modules.has("embedded:io/digital")) return undefined;
  let input: DigitalInput;
  try {
    const DigitalIo = Modules.importNow("embedded:io/digital") as DigitalClass;
    input = new DigitalIo({ pin: config.pin, mode: DigitalIo.InputPullUp });
  } catch (e) {
    log.warn(`the button on GPIO ${config.pin} did not start (${e instanceof Error ? e.message : String(e)}).`);
    return undefined;
  }
  const gestures = new ButtonGestures();
  const listeners: Array<(g: ButtonGesture) => void> = [];
  Timer.repeat((): void => {
    for (const g of gestures.sample(input.read() === 0, clock.now())) for (const listener of listeners) listener(g);
  }, BUTTON_SAMPLE_MS);
  return {
    onGesture(listener: (gesture: ButtonGesture) => void): void {
      listeners.push(listener);
    },
  };
}
