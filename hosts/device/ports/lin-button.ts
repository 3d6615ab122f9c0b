// The Button port on the SDK's Linux target, which has no pins: hosts/lin/halo-lin
// turns SIGUSR1 into a short press and SIGUSR2 into a double press and hands
// each to the app as a message, the way the SDK's simulator delivers its
// panel's controls (`screen.onMessage` with "button:press" or
// "button:double-press"). Gestures arrive already made: no debouncing here.
import type { Button, ButtonGesture, Log } from "../../../lib/ports";

/** The gesture a message from halo-lin stands for; undefined for any other message. */
function gestureOf(message: unknown): ButtonGesture | undefined {
  if (message === "button:press") return "press";
  if (message === "button:double-press") return "double-press";
  return undefined;
}

/** The simulator's screen object, where the SDK's lin runtime has one (not on the device). */
interface SimulatorScreen {
  onMessage?: (message: unknown) => void;
}

/** The button, or undefined outside the SDK's simulator runtime (no `screen` global). */
export function linButton(log: Log): Button | undefined {
  const screen = (globalThis as { screen?: SimulatorScreen }).screen;
  if (!screen || typeof screen !== "object") return undefined;
  const listeners: Array<(g: ButtonGesture) => void> = [];
  // Called by the runtime with no catch around it: nothing thrown may leave.
  screen.onMessage = (message: unknown): void => {
    const gesture = gestureOf(message);
    if (gesture === undefined) return;
    log.info(`button: ${gesture} (signal)`);
    for (const listener of listeners) {
      try {
        listener(gesture);
      } catch (e) {
        log.warn(`button: a listener failed (${e instanceof Error ? e.message : "error"})`);
      }
    }
  };
  return {
    onGesture(listener: (gesture: ButtonGesture) => void): void {
      listeners.push(listener);
    },
  };
}
