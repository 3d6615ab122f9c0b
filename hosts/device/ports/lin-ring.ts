// The Led port on the SDK's Linux target, which has no ring: it keeps the last
// pattern and frame and lights nothing, so that the status ring (lib/device/ring)
// runs on lin as on the board and hosts/device/ring-trace.ts can print its phases.
import type { Led, LedPattern } from "../../../lib/ports";

/** The reference board's ring length, so frames have the board's size. */
export const LIN_RING_PIXELS = 12;

const OFF: LedPattern = { mode: "off", r: 0, g: 0, b: 0, brightness: 0 };

export function linRing(): Led {
  let current = OFF;
  return {
    pixels: LIN_RING_PIXELS,
    show(pattern: LedPattern): void {
      current = { ...pattern };
    },
    current: (): LedPattern => ({ ...current }),
    check: (): string | undefined => undefined,
    frame(): void {
      // Nothing to light: the phase the frame shows is read from the status ring itself.
    },
  };
}
