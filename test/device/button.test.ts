import assert from "node:assert/strict";
import { BUTTON_DEBOUNCE_MS, BUTTON_DOUBLE_MS, BUTTON_LONG_MS, BUTTON_VERY_LONG_MS, ButtonGestures } from "../../lib/device/button.ts";
import type { ButtonGesture } from "../../lib/ports.ts";

/** Samples `level` every `step` ms from `from` to `to` (exclusive); returns the gestures. */
function hold(b: ButtonGestures, level: boolean, from: number, to: number, step = 10): ButtonGesture[] {
  const out: ButtonGesture[] = [];
  for (let t = from; t < to; t += step) out.push(...b.sample(level, t));
  return out;
}

describe("button gestures", () => {
  it("a short press is down, then press once the double-press time passed with no second press", () => {
    const b = new ButtonGestures();
    assert.deepEqual(b.sample(true, 0), []);
    assert.deepEqual(b.sample(true, BUTTON_DEBOUNCE_MS - 1), [], "not yet stable");
    assert.deepEqual(b.sample(true, BUTTON_DEBOUNCE_MS), ["down"]);
    assert.deepEqual(hold(b, true, 40, 300), []);
    assert.deepEqual(hold(b, false, 300, 300 + BUTTON_DOUBLE_MS), [], "held back for a second press");
    assert.deepEqual(hold(b, false, 300 + BUTTON_DOUBLE_MS, 800), ["press"]);
    assert.equal(b.isPressed(), false);
  });

  it("two short presses within the double-press time are one double-press, and no press", () => {
    const b = new ButtonGestures();
    const out = [...hold(b, true, 0, 100), ...hold(b, false, 100, 300), ...hold(b, true, 300, 400), ...hold(b, false, 400, 1500)];
    assert.deepEqual(out, ["down", "down", "double-press"]);
  });

  it("a second press after the double-press time is a second press", () => {
    const b = new ButtonGestures();
    const out = [
      ...hold(b, true, 0, 100),
      ...hold(b, false, 100, 100 + BUTTON_DOUBLE_MS + 100),
      ...hold(b, true, 550, 650),
      ...hold(b, false, 650, 1500),
    ];
    assert.deepEqual(out, ["down", "press", "down", "press"]);
  });

  it("a storm of 20 presses in 2 s gives ten double presses and ends released", () => {
    const b = new ButtonGestures();
    const out: ButtonGesture[] = [];
    for (let k = 0; k < 20; k++) out.push(...hold(b, true, k * 100, k * 100 + 50, 5), ...hold(b, false, k * 100 + 50, k * 100 + 100, 5));
    out.push(...hold(b, false, 2000, 3000));
    assert.deepEqual(
      out.filter((g) => g !== "down"),
      Array(10).fill("double-press"),
    );
    assert.equal(out.filter((g) => g === "down").length, 20);
    assert.equal(b.isPressed(), false);
  });

  it("ignores bounces shorter than the debounce time", () => {
    const b = new ButtonGestures();
    const out: ButtonGesture[] = [];
    // Contact bounce: the level flips every 5 ms for 25 ms, then settles released.
    for (let t = 0; t < 25; t += 5) out.push(...b.sample(t % 10 === 0, t));
    out.push(...hold(b, false, 25, 200));
    assert.deepEqual(out, []);
    // Bouncing on the way down, then held: one down only.
    const down: ButtonGesture[] = [];
    for (let t = 200; t < 225; t += 5) down.push(...b.sample(t % 10 === 0, t));
    down.push(...hold(b, true, 225, 400));
    assert.deepEqual(down, ["down"]);
  });

  it("a hold released after the long time is long-press (setup)", () => {
    const b = new ButtonGestures();
    const out = [...hold(b, true, 0, BUTTON_LONG_MS + 500), ...hold(b, false, BUTTON_LONG_MS + 500, BUTTON_LONG_MS + 700)];
    assert.deepEqual(out, ["down", "long-press"]);
  });

  it("a hold just short of the long time is still a press", () => {
    const b = new ButtonGestures();
    const out = [...hold(b, true, 0, BUTTON_LONG_MS - 10), ...hold(b, false, BUTTON_LONG_MS - 10, BUTTON_LONG_MS + 500)];
    assert.deepEqual(out, ["down", "press"]);
  });

  it("reaching the very long time while held is very-long-press (reboot) at once, and nothing on release", () => {
    const b = new ButtonGestures();
    const held = hold(b, true, 0, BUTTON_VERY_LONG_MS + 20);
    assert.deepEqual(held, ["down", "very-long-press"]);
    assert.deepEqual(b.poll(BUTTON_VERY_LONG_MS + 5000), []);
    assert.deepEqual(hold(b, false, BUTTON_VERY_LONG_MS + 5000, BUTTON_VERY_LONG_MS + 5200), []);
    // The next press starts afresh.
    assert.deepEqual([...hold(b, true, 20000, 20100), ...hold(b, false, 20100, 20600)], ["down", "press"]);
  });

  it("poll alone completes a press when the pin is sampled only on edges", () => {
    const b = new ButtonGestures();
    b.sample(true, 0);
    assert.deepEqual(b.poll(50), ["down"]);
    b.sample(false, 500);
    assert.deepEqual(b.poll(540), []);
    assert.deepEqual(b.poll(500 + BUTTON_DOUBLE_MS), ["press"]);
  });
});
