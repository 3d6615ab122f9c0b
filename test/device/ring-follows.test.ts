// The ring follows the device, not only the web page's preview: the voice
// loop's phases (a reply still spoken after its turn ended), the mute, errors,
// the update engine writing an image, and the Wi-Fi setup access point, each
// from the real part on a core built as every host builds it.
import assert from "node:assert/strict";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import { simLed } from "../../hosts/sim/ports/hardware.ts";
import { bootSimSlots } from "../../hosts/sim/ports/ota-bootloader.ts";
import { buildAppImage } from "../../hosts/sim/ports/ota-image.ts";
import { nodeSha256 } from "../../hosts/sim/ports/node-basics.ts";
import { nodeSha512 } from "../../hosts/sim/ports/ota-slots.ts";
import { simWifi } from "../../hosts/sim/ports/wifi.ts";
import { RingMachine, type RingEvent } from "../../lib/device/ring/machine.ts";
import { SETUP_POLL_MS } from "../../lib/device/ring/status.ts";
import { digestWith, memoryReleaseServer, memorySlotFlash, signedFeed, signingKey } from "../support/ota-fixtures.ts";
import { TEST_HOST, testHalo } from "../support/halo.ts";

describe("the ring follows the device", () => {
  it("shows the voice phases in order, keeps speaking after the turn ended, and never sticks", () => {
    const m = new RingMachine();
    const seen: string[] = [];
    let now = 0;
    const step = (e: RingEvent): void => {
      m.apply(e, now, 500);
      seen.push(m.shown(now, "full"));
      now += 100;
    };
    step({ kind: "booted" });
    step({ kind: "muted", on: false });
    step({ kind: "voice", phase: "listening" });
    step({ kind: "voice", phase: "thinking" });
    step({ kind: "turn-start" });
    step({ kind: "reply" });
    step({ kind: "turn-end" });
    step({ kind: "voice", phase: "replying" });
    step({ kind: "voice", phase: "idle" });
    assert.deepEqual(seen, ["idle", "idle", "listening", "thinking", "thinking", "thinking", "thinking", "replying", "idle"]);
    // An error is held, then gone; muted shows under everything else.
    step({ kind: "muted", on: true });
    step({ kind: "voice", phase: "listening" });
    step({ kind: "voice", phase: "error" });
    assert.deepEqual(seen.slice(-3), ["muted", "listening", "error"]);
    now += 500;
    assert.equal(m.shown(now, "full"), "muted");
    step({ kind: "updating", on: true });
    step({ kind: "setup", on: true });
    assert.deepEqual(seen.slice(-2), ["updating", "updating"]);
    step({ kind: "updating", on: false });
    assert.equal(seen[seen.length - 1], "setup");
  });

  it("shows updating while the update engine writes an image, then idle", async () => {
    const files = new Map<string, Uint8Array>();
    const phases: string[] = [];
    let halo!: ReturnType<typeof testHalo>;
    const http = memoryReleaseServer(files, { beforeChunk: () => void phases.push(halo.lights!.phase() ?? "none") });
    const key = signingKey(1);
    const feed = "https://updates.example/halo/feed.json";
    const image = buildAppImage("1.1.0", 60_000);
    files.set("https://updates.example/halo/halo-1.1.0.bin", image);
    const signed = signedFeed({ version: "1.1.0", url: "halo-1.1.0.bin", image, key, sha256: digestWith(nodeSha256) });
    files.set(feed, new TextEncoder().encode(JSON.stringify(signed)));
    const slots = bootSimSlots(memorySlotFlash(), { factoryVersion: "1.0.0", onRestart: () => {}, sha256: nodeSha256, sha512: nodeSha512 });
    const led = simLed();
    halo = testHalo(memoryPorts({ led, otaSlots: slots, http }), {
      core: { ...TEST_HOST, otaBuild: { version: "1.0.0", board: "esp32s3", feedUrl: feed, trustedKeys: [key.publicHex] } },
    });
    halo.lights!.report({ kind: "booted" });
    const engine = halo.core.updates!;
    assert.equal((await engine.check()).state, "available");
    assert.equal(halo.lights!.phase(), "idle");
    const done = await engine.install("1.1.0", false);
    assert.equal(done.state, "ready", done.detail);
    assert.ok(phases.length >= 1 && phases.every((p) => p === "updating"), phases.join(","));
    assert.equal(halo.lights!.phase(), "idle");
  });

  it("shows setup while the Wi-Fi setup access point is open, from the Wi-Fi port", () => {
    let now = 1_000_000;
    const wifi = simWifi();
    const halo = testHalo(memoryPorts({ led: simLed(), wifi, clock: { now: () => now } }));
    const lights = halo.lights!;
    lights.report({ kind: "booted" });
    lights.tick();
    assert.equal(wifi.status().state, "setup", "no stored network: the access point is open");
    assert.equal(lights.phase(), "setup");
    wifi.join({ ssid: "home", password: "12345678" });
    now += SETUP_POLL_MS;
    lights.tick();
    assert.notEqual(wifi.status().state, "setup");
    assert.equal(lights.phase(), "idle");
  });

  it("shows muted from the stored knob at start, and after a double press", () => {
    const settings = memoryPorts().settings;
    settings.set("cfg.micmute", "true");
    const halo = testHalo(memoryPorts({ led: simLed(), settings }));
    halo.lights!.report({ kind: "booted" });
    assert.equal(halo.lights!.phase(), "muted");
    assert.equal(halo.button.gesture("double-press"), "unmuted");
    assert.equal(halo.lights!.phase(), "idle");
    assert.equal(settings.get("cfg.micmute"), "false");
  });
});
