// The button's gestures from raw pin levels: a level counts once it has been
// stable for BUTTON_DEBOUNCE_MS. A short press is "press" (press to talk), a
// hold released between BUTTON_LONG_MS and BUTTON_VERY_LONG_MS is "long-press"
// (enter Wi-Fi setup), and reaching BUTTON_VERY_LONG_MS while held is
// "very-long-press" (reboot) at once, with nothing more on release.
// Time comes in with each call; the host samples the pin on a timer.
import type { ButtonGesture } from "../ports";

export const BUTTON_DEBOUNCE_MS = 30;
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
        out.push("down");
      } else if (!this.veryLongSent) {
        const held = this.rawSince - this.downAt;
        out.push(held >= BUTTON_LONG_MS ? "long-press" : "press");
      }
    }
    if (this.pressed && !this.veryLongSent && now - this.downAt >= BUTTON_VERY_LONG_MS) {
      this.veryLongSent = true;
      out.push("very-long-press");
    }
    return out;
  }

  /** Whether the debounced level is pressed. */
  isPressed(): boolean {
    return this.pressed;
  }
}
