// The button's gestures from raw pin levels: a level counts once it has been
// stable for BUTTON_DEBOUNCE_MS. A short press is "press" (press to talk) once
// BUTTON_DOUBLE_MS has passed with no second press; two short presses within
// it are one "double-press" (microphone mute). A hold released between
// BUTTON_LONG_MS and BUTTON_VERY_LONG_MS is "long-press" (enter Wi-Fi setup),
// and reaching BUTTON_VERY_LONG_MS while held is "very-long-press" (reboot) at
// once, with nothing more on release. A second press that turns into a hold
// is that hold alone (the short press before it is dropped).
// Time comes in with each call; the host samples the pin on a timer.
import type { ButtonGesture } from "../ports";

export const BUTTON_DEBOUNCE_MS = 30;
/** The most time between a short press's release and the next press for the two to be a double press. */
export const BUTTON_DOUBLE_MS = 350;
export const BUTTON_LONG_MS = 3000;
export const BUTTON_VERY_LONG_MS = 10000;

export class ButtonGestures {
  /** The debounced level. */
  private pressed = false;
  /** The last raw level and when it last changed. */
  private raw = false;
  private rawSince = 0;
  private downAt = 0;
  private veryLongSent = false;
  /** When a short press was released and its "press" is held back (waiting for a second press). */
  private heldSince: number | undefined;
  /** The press going on now is the second of a double press. */
  private second = false;

  /** Feeds one raw sample (true = pressed) at `now`; returns the gestures it completes. */
  sample(level: boolean, now: number): ButtonGesture[] {
    if (level !== this.raw) {
      this.raw = level;
      this.rawSince = now;
    }
    return this.poll(now);
  }

  /** Advances time with no new sample. */
  poll(now: number): ButtonGesture[] {
    const out: ButtonGesture[] = [];
    if (this.raw !== this.pressed && now - this.rawSince >= BUTTON_DEBOUNCE_MS) {
      this.pressed = this.raw;
      if (this.pressed) {
        // The press began when the level first changed, not when it settled.
        this.downAt = this.rawSince;
        this.veryLongSent = false;
        this.second = this.heldSince !== undefined && this.downAt - this.heldSince < BUTTON_DOUBLE_MS;
        if (this.heldSince !== undefined && !this.second) out.push("press");
        this.heldSince = undefined;
        out.push("down");
      } else if (!this.veryLongSent) {
        const held = this.rawSince - this.downAt;
        if (held >= BUTTON_LONG_MS) out.push("long-press");
        else if (this.second) out.push("double-press");
        else this.heldSince = this.rawSince;
        this.second = false;
      }
    }
    if (this.pressed && !this.veryLongSent && now - this.downAt >= BUTTON_VERY_LONG_MS) {
      this.veryLongSent = true;
      this.second = false;
      out.push("very-long-press");
    }
    if (!this.pressed && this.heldSince !== undefined && now - this.heldSince >= BUTTON_DOUBLE_MS && this.raw === this.pressed) {
      this.heldSince = undefined;
      out.push("press");
    }
    return out;
  }

  /** Whether the debounced level is pressed. */
  isPressed(): boolean {
    return this.pressed;
  }
}
