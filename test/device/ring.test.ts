import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { simLed } from "../../hosts/sim/ports/hardware.ts";
import { testHalo } from "../support/halo.ts";
import { LED_MAX_BRIGHTNESS } from "../../lib/device/knobs.ts";
import { frameBytes, renderFrame } from "../../lib/device/ring/frames.ts";
import { DEFAULT_LOOK, lookFromKnobs, type RingLook, type RingTheme } from "../../lib/device/ring/look.ts";
import { RingMachine, type RingEvent } from "../../lib/device/ring/machine.ts";
import { RING_PHASES, type RingPhase } from "../../lib/device/ring/phases.ts";
import { RING_FRAME_MS, RING_MIN_FRAME_MS, RingRunner } from "../../lib/device/ring/runner.ts";
import { APPROVALS_POLL_MS, StatusRing } from "../../lib/device/ring/status.ts";
import { principal } from "../support/registry.ts";

const PIXELS = 12;
const frame = (phase: RingPhase, t: number, look: RingLook = DEFAULT_LOOK): Uint8Array =>
  renderFrame(phase, t, PIXELS, look, new Uint8Array(frameBytes(PIXELS)));
const lit = (f: Uint8Array): number => {
  let n = 0;
  for (let i = 0; i < f.length; i += 3) if (f[i] || f[i + 1] || f[i + 2]) n++;
  return n;
};
const pixel = (f: Uint8Array, i: number): number[] => [f[i * 3], f[i * 3 + 1], f[i * 3 + 2]];

function machineWith(events: RingEvent[], now = 0): RingMachine {
  const m = new RingMachine();
  for (const e of events) m.apply(e, now, 8000);
  return m;
}

describe("ring state machine", () => {
  it("orders phases like Voice PE: setup over boot over no network over voice over muted over idle", () => {
    const all: RingEvent[] = [
      { kind: "muted", on: true },
      { kind: "turn-start" },
      { kind: "network", up: false },
      { kind: "setup", on: true },
    ];
    const m = machineWith(all);
    assert.deepEqual(m.active(0), ["setup", "boot", "no-network", "thinking", "muted", "idle"]);
    const expected: RingPhase[] = ["setup", "boot", "no-network", "thinking", "muted"];
    const clear: RingEvent[] = [
      { kind: "setup", on: false },
      { kind: "booted" },
      { kind: "network", up: true },
      { kind: "turn-end" },
      { kind: "muted", on: false },
    ];
    for (let i = 0; i < expected.length; i++) {
      assert.equal(m.shown(0, "full"), expected[i]);
      m.apply(clear[i], 0, 8000);
    }
    assert.equal(m.shown(0, "full"), "idle");
  });

  it("puts updating above everything and the owner's approvals below the voice phases", () => {
    const m = machineWith([
      { kind: "booted" },
      { kind: "approvals", waiting: true },
      { kind: "setup", on: true },
      { kind: "updating", on: true },
    ]);
    assert.equal(m.shown(0, "full"), "updating");
    m.apply({ kind: "updating", on: false }, 0, 0);
    m.apply({ kind: "setup", on: false }, 0, 0);
    assert.equal(m.shown(0, "full"), "waiting-owner");
    m.apply({ kind: "turn-start" }, 0, 0);
    assert.equal(m.shown(0, "full"), "thinking");
  });

  it("moves a turn through thinking, tools and replying, and counts overlapping turns", () => {
    const m = machineWith([{ kind: "booted" }]);
    m.apply({ kind: "turn-start" }, 0, 0);
    m.apply({ kind: "tool-running" }, 0, 0);
    assert.equal(m.shown(0, "full"), "thinking");
    m.apply({ kind: "turn-start" }, 0, 0);
    m.apply({ kind: "reply" }, 0, 0);
    assert.equal(m.shown(0, "full"), "replying");
    m.apply({ kind: "turn-end" }, 0, 0);
    assert.equal(m.shown(0, "full"), "replying", "one turn still runs");
    m.apply({ kind: "turn-end" }, 0, 0);
    m.apply({ kind: "turn-end" }, 0, 0);
    assert.equal(m.shown(0, "full"), "idle");
    m.apply({ kind: "reply" }, 0, 0);
    assert.equal(m.shown(0, "full"), "idle", "a reply outside a turn changes nothing");
  });

  it("holds an error for attnHoldMs, above the voice phases, then shows what is under it", () => {
    const m = machineWith([{ kind: "booted" }, { kind: "turn-start" }]);
    m.apply({ kind: "error" }, 1000, 5000);
    assert.equal(m.shown(1000, "full"), "error");
    assert.equal(m.shown(5999, "full"), "error");
    assert.equal(m.shown(6000, "full"), "thinking");
  });

  it("follows the posture knob: subtle keeps attention and errors, off shows nothing", () => {
    const m = machineWith([{ kind: "booted" }, { kind: "turn-start" }]);
    assert.equal(m.shown(0, "subtle"), "idle");
    m.apply({ kind: "approvals", waiting: true }, 0, 0);
    assert.equal(m.shown(0, "subtle"), "waiting-owner");
    m.apply({ kind: "error" }, 0, 1000);
    assert.equal(m.shown(0, "subtle"), "error");
    assert.equal(m.shown(0, "off"), "idle");
  });
});

describe("ring frames", () => {
  it("never exceed 60% brightness in any phase, theme or time, even at stored brightness 255", () => {
    const themes: RingTheme[] = ["aurora", "ember", "ocean", "mono"];
    let max = 0;
    for (const theme of themes)
      for (const phase of RING_PHASES)
        for (let t = 0; t < 6000; t += 37) {
          const f = frame(phase, t, { ...DEFAULT_LOOK, brightness: 255, theme });
          for (const b of f) max = Math.max(max, b);
        }
    assert.equal(max, LED_MAX_BRIGHTNESS, "the brightest byte is exactly the cap");
  });

  it("draws each phase as documented", () => {
    const look = { ...DEFAULT_LOOK, brightness: 153, theme: "mono" as const };
    assert.equal(lit(frame("idle", 0, look)), 0);
    assert.equal(lit(frame("listening", 0, look)), PIXELS);
    assert.deepEqual(pixel(frame("listening", 0, look), 5), [153, 153, 153]);
    assert.equal(lit(frame("boot", 0, look)), 2, "a head and its tail");
    assert.deepEqual(pixel(frame("boot", 0, look), 0), [153, 153, 153]);
    assert.equal(lit(frame("thinking", 0, look)), 4, "two heads with tails");
    assert.equal(lit(frame("no-network", 0, look)), PIXELS / 2, "every other pixel");
    assert.equal(lit(frame("no-network", 1500, look)), 0, "off in the second half of its blink");
    assert.deepEqual(pixel(frame("error", 0, look), 3), [153, 0, 0]);
    assert.equal(lit(frame("error", 300, look)), 0);
    assert.deepEqual(pixel(frame("muted", 0, look), 0), [38, 0, 0], "a quarter-level red");
    assert.equal(lit(frame("updating", 0, look)), 0);
    assert.equal(lit(frame("updating", 1999, look)), PIXELS, "the sweep fills the ring");
  });

  it("moves: the boot spinner advances and the reply pulse breathes", () => {
    const head = (f: Uint8Array): number => {
      let best = 0;
      for (let i = 1; i < PIXELS; i++) if (f[i * 3] > f[best * 3]) best = i;
      return best;
    };
    assert.deepEqual(
      [0, 100, 200, 300].map((t) => head(frame("boot", t))),
      [0, 1, 2, 3],
    );
    const levels = [0, 250, 500, 750].map((t) => frame("replying", t, { ...DEFAULT_LOOK, theme: "mono", brightness: 153 })[0]);
    assert.ok(levels[0] < levels[1] && levels[1] < levels[2] && levels[2] > levels[3], levels.join(","));
    assert.ok(levels[0] > 0, "a breath never goes dark");
  });

  it("scale with the brightness knob and change colour with the theme", () => {
    assert.equal(lit(frame("listening", 0, { ...DEFAULT_LOOK, brightness: 0 })), 0);
    const half = frame("listening", 0, { ...DEFAULT_LOOK, brightness: 50, theme: "mono" })[0];
    const full = frame("listening", 0, { ...DEFAULT_LOOK, brightness: 100, theme: "mono" })[0];
    assert.equal(half, 50);
    assert.equal(full, 100);
    const ember = pixel(frame("listening", 0, { ...DEFAULT_LOOK, theme: "ember" }), 0);
    const ocean = pixel(frame("listening", 0, { ...DEFAULT_LOOK, theme: "ocean" }), 0);
    assert.ok(ember[0] > ember[2] && ocean[2] > ocean[0], `${ember} ${ocean}`);
  });

  it("reads the stored knobs, falling back on unknown values", () => {
    const values: { [k: string]: number | string } = { ledBrightness: 40, posture: "subtle", theme: "bogus", attnHoldMs: -5 };
    const look = lookFromKnobs({ number: (k) => values[k] as number, string: (k) => values[k] as string });
    assert.deepEqual(look, { brightness: 40, posture: "subtle", theme: "aurora", attnHoldMs: 0 });
  });
});

describe("ring runner", () => {
  const sink = () => {
    const written: Uint8Array[] = [];
    return { written, pixels: PIXELS, write: (f: Uint8Array) => void written.push(f.slice()) };
  };

  it("never draws faster than 60 fps and runs at 30", () => {
    assert.ok(RING_FRAME_MS >= RING_MIN_FRAME_MS && RING_MIN_FRAME_MS >= 1000 / 60);
    const s = sink();
    const replying = machineWith([{ kind: "booted" }, { kind: "turn-start" }, { kind: "reply" }]);
    const r = new RingRunner(replying, s, () => DEFAULT_LOOK);
    assert.equal(r.tick(0), true);
    assert.equal(r.tick(10), false, "10 ms later is too soon");
    assert.equal(r.tick(RING_FRAME_MS), true);
    let writes = 0;
    for (let t = 2 * RING_FRAME_MS; t < 1000 + 2 * RING_FRAME_MS; t += 5) if (r.tick(t)) writes++;
    assert.ok(writes <= 60 && writes >= 20, `${writes} frames in a second`);
  });

  it("writes a still phase once, and a device action's pattern stays until the phase changes", () => {
    const s = sink();
    const m = new RingMachine();
    m.apply({ kind: "booted" }, 0, 0);
    m.apply({ kind: "listening", on: true }, 0, 0);
    const r = new RingRunner(m, s, () => DEFAULT_LOOK);
    for (let t = 0; t < 2000; t += RING_FRAME_MS) r.tick(t);
    assert.equal(s.written.length, 1);
    r.event({ kind: "listening", on: false }, 2000);
    assert.equal(r.current(), "idle");
    assert.equal(s.written.length, 2);
    assert.equal(lit(s.written[1]), 0);
  });

  it("redraws when the owner changes the brightness", () => {
    const s = sink();
    let look = { ...DEFAULT_LOOK, brightness: 20 };
    const m = machineWith([{ kind: "booted" }, { kind: "muted", on: true }]);
    const r = new RingRunner(m, s, () => look);
    r.tick(0);
    look = { ...look, brightness: 120 };
    r.tick(100);
    assert.equal(s.written.length, 2);
    assert.ok(s.written[1][0] > s.written[0][0]);
  });
});

describe("status ring on the core", () => {
  it("shows a failed turn as an error, in red, in the simulated ring's kept frames", async () => {
    const led = simLed();
    let now = 1_000_000;
    const ports = memoryPorts({ led, clock: { now: () => now } });
    const halo = testHalo(ports, { firmwareVersion: "test" });
    const lights = halo.lights;
    assert.ok(lights);
    const seen: string[] = [];
    halo.core.turn.observe((s) => seen.push(s));
    lights.report({ kind: "booted" });
    // No provider key: the turn fails, which the ring shows as an error.
    const result = await halo.core.turn.runTurn(principal("admin", "turn", "owner"), { text: "hello" });
    assert.equal(result.ok, false);
    assert.deepEqual(seen, ["start", "error", "end"]);
    assert.equal(lights.phase(), "error");
    const last = led.frames[led.frames.length - 1];
    assert.ok(last[0] > 0 && last[1] === 0 && last[2] === 0, "red");
    now += halo.core.config.number("attnHoldMs");
    lights.tick();
    assert.equal(lights.phase(), "idle");
  });

  it("polls approvals at most every APPROVALS_POLL_MS and shows waiting-owner", () => {
    let now = 0;
    let polls = 0;
    const led = simLed();
    const ring = new StatusRing({
      sink: { pixels: led.pixels, write: (f) => led.frame?.(f) },
      clock: { now: () => now },
      log: { info: () => {}, warn: () => {} },
      approvalsWaiting: () => (polls++, true),
    });
    ring.report({ kind: "booted" });
    for (; now < APPROVALS_POLL_MS; now += RING_FRAME_MS) ring.tick();
    assert.equal(polls, 1);
    assert.equal(ring.phase(), "waiting-owner");
  });
});

describe("the simulator's ring is the device's", () => {
  it("has as many pixels as the device build's ring (hosts/device/manifest.json)", async () => {
    const { readFileSync } = await import("node:fs");
    const manifest = JSON.parse(readFileSync("hosts/device/manifest.json", "utf8"));
    const length = (function find(o: any): number | undefined {
      if (!o || typeof o !== "object") return undefined;
      if (o.ring && typeof o.ring.length === "number") return o.ring.length;
      for (const v of Object.values(o)) {
        const n = find(v);
        if (n !== undefined) return n;
      }
      return undefined;
    })(manifest);
    assert.equal(length, 12);
    assert.equal(simLed().pixels, length);
    assert.equal(memoryPorts().led!.pixels, length);
  });
});
