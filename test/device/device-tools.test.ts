import assert from "node:assert/strict";
import { TEST_HOST } from "../support/halo.ts";
import type { SimAudioOut, SimLed } from "../../hosts/sim/ports/hardware.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import type { MemoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { fakeClock } from "../../hosts/sim/ports/node-basics.ts";
import type { SimSystem } from "../../hosts/sim/ports/system.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import type { Ota, Ports, SystemInfo } from "../../lib/ports.ts";
import { principal, withoutError } from "../support/registry.ts";
import { memoryStorage } from "../../hosts/sim/ports/memory-storage.ts";
import { FREE_SPACE_UNKNOWN } from "../../lib/util/format.ts";
import { babble as babbleNoise, replyPcm } from "../support/speech.ts";
import { simAudioIn } from "../../hosts/sim/ports/audio.ts";
import { VoiceServer } from "../support/voice-server.ts";

const admin = principal("admin", "turn", "owner");

function coreWith(over: Partial<Ports> = {}): Core {
  return buildCore(memoryPorts({ clock: fakeClock(Date.UTC(2026, 5, 1, 12)), ...over }), TEST_HOST);
}

/** Ports with no board at all (no System, ring, speaker, update engine or card) and no memory or file store. */
function bareCore(): Core {
  const core = coreWith({ system: undefined, led: undefined, audioOut: undefined, ota: undefined, storage: undefined });
  delete core.status.sources.memory;
  delete core.status.sources.files;
  delete core.status.sources.agents;
  return core;
}

describe("device.status", () => {
  it("reports the simulator's live state from its ports, and every knob", async () => {
    const core = coreWith();
    core.secrets.set("anthropic", "sk-ant-VALUE-THAT-MUST-NOT-SHOW");
    const r = await core.registry.dispatch("device.status", {}, admin);
    assert.equal(r.isError, undefined);
    assert.match(r.text, /^Firmware: 0\.0\.0-test \(build simulator, Node [\d.]+\) \[simulator\]$/m);
    assert.match(r.text, /^Update engine: disabled, running 0\.0\.0-test; auto-update off; the simulator does not update itself$/m);
    assert.match(r.text, /^Time: 2026-06-01T12:00:00\.000Z UTC; time zone \S+; up \d+ s$/m);
    assert.match(r.text, /^Heap: [\d.]+ [KMG]?B free of [\d.]+ [KMG]?B$/m);
    assert.match(r.text, /^PSRAM: not present$/m);
    assert.match(r.text, /^Wi-Fi: not present$/m);
    assert.match(r.text, /^SD card: present, 64\.0 MB free$/m);
    assert.match(r.text, /^LED ring: 12 pixels, showing off$/m);
    assert.match(r.text, /^Memory: your memories 0 of 5000; your pinned memories 0 of 200/m);
    assert.match(r.text, /^File store: your files 0; /m);
    assert.match(r.text, /^Embedder: offline-hash-v1\/256; no memories yet$/m);
    assert.match(r.text, /^Provider models: openai \S+ \(default\); anthropic \S+ \(default\); mistral \S+ \(default\)$/m);
    assert.match(
      r.text,
      /^Sub-agents: sub-agents running 0 of 4; sub-agents queued 0 of 12; your sub-agents 0; routines 0 of 16; wakeups armed 0 of 4; scheduled turns today 0 of 24$/m,
    );
    assert.match(r.text, /^Token usage and budget: turns since boot 0; tokens since boot 0$/m);
    // The order of names as the owner set it, and how many chats are allowed: never which chats.
    assert.match(r.text, new RegExp(`^Provider priority: ${core.priority.get().join(" > ")}$`, "m"));
    core.chats.replace(["12345", "67890"]);
    const after = (await core.registry.dispatch("device.status", {}, admin)).text;
    assert.match(after, /^Chat allow-list: 2 chats$/m);
    assert.doesNotMatch(after, /12345|67890/);
    const user = (await core.registry.dispatch("device.status", {}, principal("user"))).text;
    assert.match(user, /^Provider priority: set by the owner \(shown to admins\)$/m);
    assert.match(r.text, /^Secrets: openai not set, anthropic set, mistral not set, tavily not set, telegram not set$/m);
    assert.match(r.text, /^- ledBrightness: 96 \(default\)$/m);
    assert.doesNotMatch(
      r.text,
      /hwTests|ownerChatId|webSearchBudget|utcOffsetMin|routineTurnsPerDay/,
      "owner-only knobs are not readable through tools",
    );
    assert.doesNotMatch(r.text, /VALUE-THAT-MUST-NOT-SHOW/);
  });

  it("says not present for every absent port, and never invents a reading", async () => {
    const r = await bareCore().registry.dispatch("device.status", {}, admin);
    for (const line of [
      "Firmware: not present (no System port)",
      "Update engine: not present",
      "Heap, PSRAM, internal flash, Wi-Fi: not present (no System port)",
      "SD card: not present",
      "LED ring: not present",
      "Speaker: not present",
      "Memory: not present",
      "File store: not present",
      "Sub-agents: not configured",
      "Token usage and budget: turns since boot 0; tokens since boot 0",
    ]) {
      assert.ok(r.text.split("\n").includes(line), line);
    }
    assert.match(r.text, /time zone not present/);
  });

  it("says free space is unknown when the card cannot tell, never a made-up number", async () => {
    const storage = memoryStorage();
    const core = coreWith({ storage: { ...storage, freeBytes: () => FREE_SPACE_UNKNOWN } });
    const status = (await core.registry.dispatch("device.status", {}, admin)).text;
    assert.match(status, /^SD card: present, free space unknown$/m);
    assert.match(status, /SD card free unknown/);
    const health = (await core.registry.dispatch("system.health", {}, admin)).text;
    assert.match(health, /free space unknown/);
  });

  it("reports a pulled card, then the reinserted one, without a restart", async () => {
    const core = coreWith();
    const card = core.ports.storage as MemoryStorage;
    card.pull();
    assert.match((await core.registry.dispatch("device.status", {}, admin)).text, /^SD card: not inserted$/m);
    card.insert();
    assert.match((await core.registry.dispatch("device.status", {}, admin)).text, /^SD card: present/m);
  });

  it("reports present subsystems through their gauges, and a failing one as an error", async () => {
    const core = coreWith();
    core.status.sources.memory = { gauges: (p) => [{ label: "vectors", used: 950, cap: p.quota.vectors, unit: "count" }] };
    core.status.sources.files = {
      gauges: () => [
        { label: "bytes", used: 2048, cap: 1024 * 1024, unit: "bytes" },
        { label: "files", used: 3, unit: "count" },
      ],
    };
    core.status.sources.budget = {
      gauges: () => {
        throw new Error("boom");
      },
    };
    const user = principal("user", "turn", "alice");
    const r = await core.registry.dispatch("device.status", {}, user);
    assert.match(r.text, /^Memory: vectors 950 of 1000$/m);
    assert.match(r.text, /^File store: bytes 2\.0 KB of 1\.0 MB; files 3$/m);
    assert.match(r.text, /^Token usage and budget: error \(the subsystem did not answer\)$/m);
    const h = await core.registry.dispatch("system.health", {}, user);
    assert.match(h.text, /^- memory store: WARN \(vectors 950 of 1000\)$/m);
  });
});

describe("system.health", () => {
  it("names every item with its state, from the ports", async () => {
    const r = await coreWith().registry.dispatch("system.health", {}, admin);
    const items = r.text.split("\n").map((l) => /^- ([^:]+): ([A-Z ]+) \(/.exec(l)?.slice(1, 3));
    assert.deepEqual(items, [
      ["ring", "OK"],
      ["mic", "OK"],
      ["speaker", "OK"],
      ["SD", "OK"],
      ["memory (RAM)", "OK"],
      ["memory store", "OK"],
      ["PSRAM", "NOT PRESENT"],
      ["Wi-Fi", "NOT PRESENT"],
      ["chat link", "NOT CONFIGURED"],
    ]);
  });

  it("reads a device-like System port: PSRAM, weak Wi-Fi, low heap, a ring fault", async () => {
    const info: SystemInfo = {
      firmwareVersion: "1.2.3",
      build: "abc",
      simulated: false,
      uptimeMs: 1,
      freeHeapBytes: 20 * 1024,
      freePsramBytes: 6 * 1024 * 1024,
      totalPsramBytes: 8 * 1024 * 1024,
      wifi: "connected",
      wifiRssiDbm: -88,
      timeZone: "Europe/Berlin",
    };
    const core = coreWith({
      system: { info: () => info, reboot: () => undefined },
      led: {
        pixels: 24,
        show: () => undefined,
        current: () => ({ mode: "off", r: 0, g: 0, b: 0, brightness: 0 }),
        check: () => "the data line does not answer",
      },
    });
    const r = await core.registry.dispatch("system.health", {}, admin);
    assert.match(r.text, /^- ring: FAIL \(the data line does not answer\)$/m);
    assert.match(r.text, /^- memory \(RAM\): WARN \(20\.0 KB heap free\)$/m);
    assert.match(r.text, /^- PSRAM: OK \(6\.0 MB free\)$/m);
    assert.match(r.text, /^- Wi-Fi: WARN \(-88 dBm\)$/m);
    const s = await core.registry.dispatch("device.status", {}, admin);
    assert.match(s.text, /^Firmware: 1\.2\.3 \(build abc\)$/m);
    assert.match(s.text, /^PSRAM: 6\.0 MB free of 8\.0 MB$/m);
    assert.match(s.text, /^Wi-Fi: connected, -88 dBm$/m);
    assert.match(s.text, /time zone Europe\/Berlin/);
  });
});

describe("device.selftest", () => {
  it("runs the silent items and skips the audible ones unless asked", async () => {
    const core = coreWith();
    const r = await core.registry.dispatch("device.selftest", {}, admin);
    assert.match(r.text, /^Self-test \(simulator\): 5 PASS, 0 FAIL, 4 SKIP$/m);
    assert.match(r.text, /^- speaker: SKIP \(audible items not requested/m);
    assert.equal((core.ports.audioOut as SimAudioOut).calls.length, 0);
    assert.equal(core.ports.settings.get("selftest.probe"), undefined, "the probe is removed");
    assert.deepEqual(core.ports.storage!.list(""), []);
  });

  it("plays the tone when asked, and refuses audible items on silent or when the owner turned tests off", async () => {
    const core = coreWith();
    const audio = core.ports.audioOut as SimAudioOut;
    const audible = (await core.registry.dispatch("device.selftest", { audible: true }, admin)).text;
    assert.match(audible, /^- speaker: PASS \(1000 Hz tone played\)$/m);
    assert.match(audible, /^- mic loopback: PASS \(heard the tone \(1000 Hz at level \d+ of \d+ RMS\)\)$/m);
    assert.deepEqual(audio.calls, [
      { kind: "tone", hz: 1000, ms: 300, level: 100 },
      { kind: "tone", hz: 1000, ms: 300, level: 100 },
    ]);
    core.config.apply([["profile", "silent"]], "device");
    const silent = await core.registry.dispatch("device.selftest", { audible: true }, admin);
    assert.match(silent.text, /^Audible items refused: the device is on silent\.$/m);
    assert.match(silent.text, /^- speaker: SKIP \(refused: the device is on silent\)$/m);
    core.config.apply(
      [
        ["profile", "normal"],
        ["hwTests", false],
      ],
      "owner",
    );
    const off = await core.registry.dispatch("device.selftest", { audible: true }, admin);
    assert.match(off.text, /^- speaker: SKIP \(refused: the owner turned hardware tests off\)$/m);
    assert.equal(audio.calls.length, 2, "no tone after the refusals");
  });

  it("fails the mic loopback when the microphone does not hear the tone, and skips it without a microphone", async () => {
    const deaf = coreWith({ audioIn: simAudioIn() });
    const text = (await deaf.registry.dispatch("device.selftest", { audible: true }, admin)).text;
    assert.match(text, /^- mic loopback: FAIL \(did not hear the tone \(1000 Hz at level \d+ of [0-4] RMS\)\)$/m);
    const noisy = simAudioIn();
    noisy.load(babbleNoise(2000));
    const hiss = (await coreWith({ audioIn: noisy }).registry.dispatch("device.selftest", { audible: true }, admin)).text;
    assert.match(hiss, /^- mic loopback: FAIL \(did not hear the tone/m, "noise alone is not the tone");
    const none = await coreWith({ audioIn: undefined }).registry.dispatch("device.selftest", { audible: true }, admin);
    assert.match(none.text, /^- mic loopback: SKIP \(no microphone port\)$/m);
  });

  it("fails the SD item on a pulled card and skips what is absent", async () => {
    const core = coreWith();
    (core.ports.storage as MemoryStorage).pull();
    assert.match((await core.registry.dispatch("device.selftest", {}, admin)).text, /^- SD: FAIL \(no card inserted\)$/m);
    const bare = await bareCore().registry.dispatch("device.selftest", { audible: true }, admin);
    assert.match(bare.text, /^Self-test: 2 PASS, 0 FAIL, 7 SKIP$/m);
    assert.match(bare.text, /^- speaker: SKIP \(no speaker port\)$/m);
    const health = await bareCore().registry.dispatch("system.health", {}, admin);
    assert.match(health.text, /^- memory store: NOT PRESENT \(the subsystem is not built\)$/m);
    assert.match(health.text, /^- SD: NOT PRESENT \(no storage port\)$/m);
  });

  it("refuses bad arguments", async () => {
    const core = coreWith();
    for (const args of [{ audible: "yes" }, { audible: 1 }, { loud: true }]) {
      const r = await core.registry.dispatch("device.selftest", args, admin);
      assert.equal(r.isError, true);
      assert.match(r.text, /^invalid arguments/);
    }
  });
});

describe("ota.status", () => {
  it("reads the update engine through the Ota port, notes clipped", async () => {
    const ota: Ota = {
      status: () => ({
        state: "ready",
        runningVersion: "1.0.0",
        slot: "ota_1",
        autoUpdate: true,
        latest: { version: "1.1.0", notes: "n".repeat(1000) },
        lastInstall: { version: "1.0.0", outcome: "ok", at: Date.UTC(2026, 0, 2) },
      }),
    };
    const r = await coreWith({ ota }).registry.dispatch("ota.status", {}, admin);
    assert.match(r.text, /^State: ready\nRunning: 1\.0\.0 \(ota_1\)\nAuto-update: on\nLatest seen: 1\.1\.0\nRelease notes: n{400}…$/m);
    assert.match(r.text, /^Last install: 1\.0\.0 ok at 2026-01-02T00:00:00\.000Z$/m);
    assert.equal((await bareCore().registry.dispatch("ota.status", {}, admin)).text, "Update engine: not present on this host.");
    assert.equal((await coreWith().registry.dispatch("ota.status", { install: true }, admin)).isError, true);
  });
});

describe("device.control", () => {
  it("applies one action through the ports; changes persist", async () => {
    const core = coreWith();
    const led = core.ports.led as SimLed;
    const run = (action: unknown, who = admin) => core.registry.dispatch("device.control", { action }, who);
    assert.equal(
      (await run({ led: { mode: "solid", r: 255, g: 0, b: 0, brightness: 200 } })).text,
      "ring: solid 255,0,0 at brightness 153 (capped from 200 at 60% for the hardware's safety).",
    );
    assert.deepEqual(led.current(), { mode: "solid", r: 255, g: 0, b: 0, brightness: 153 });
    assert.equal((await run({ config: { ledBrightness: 30 } })).text, "config: ledBrightness updated.");
    await run({ led: { mode: "spinner", b: 200 } });
    assert.deepEqual(led.current(), { mode: "spinner", r: 0, g: 0, b: 200, brightness: 30 }, "null brightness uses the knob");
    await run({ config: { sfxVol: 25 } });
    assert.equal(core.ports.audioOut!.volume(), 25);
    assert.equal(
      (await run({ orch_model: { provider: "mistral", model: "mistral-large-latest" } })).text,
      "orchestrator model: mistral mistral-large-latest from the next turn.",
    );
    assert.equal(core.config.get("orchProvider"), "mistral");
    assert.equal(core.ports.settings.get("cfg.orchmodel"), '"mistral-large-latest"');
    assert.equal((await run({ lights: { value: "off" } })).text, "ring: lights off.");
  });

  it("speaks unless silent, off, muted or without a speaker", async () => {
    const stand = await VoiceServer.start();
    after(() => stand.close());
    const core = buildCore(memoryPorts({ clock: fakeClock(Date.UTC(2026, 5, 1, 12)) }), { ...TEST_HOST, baseUrls: { openai: stand.url } });
    core.secrets.set("openai", "sk-tts-KEY");
    stand.speech.push({ pcm: replyPcm(300) });
    const audio = core.ports.audioOut as SimAudioOut;
    const speak = () => core.registry.dispatch("device.control", { action: { tts: { text: "Hello" } } }, principal("guest", "mcp"));
    assert.equal((await speak()).text, "spoke 5 characters.");
    assert.equal(stand.speechRequests.at(-1).voice, "alloy");
    assert.equal(audio.played.length, 1);
    assert.equal(audio.played[0].samples.length, replyPcm(300).length);
    core.config.apply([["ttsOn", false]], "device");
    assert.match((await speak()).text, /^off: spoken replies are off/);
    core.config.apply(
      [
        ["ttsOn", true],
        ["profile", "silent"],
      ],
      "device",
    );
    assert.match((await speak()).text, /^silent:/);
    core.config.apply(
      [
        ["profile", "normal"],
        ["sfxVol", 0],
      ],
      "device",
    );
    assert.match((await speak()).text, /^off: the speaker volume is 0/);
    assert.equal(stand.speechRequests.length, 1);
    assert.equal(audio.played.length, 1);
    const bare = await bareCore().registry.dispatch("device.control", { action: { tts: { text: "x" } } }, admin);
    // device.control's caller would get a Telegram voice note instead (test/device/tts-fallback.test.ts): none is set up here.
    assert.deepEqual(withoutError(bare), {
      text: "not-present: this device has no speaker, and the Telegram voice note was not sent (no owner chat is set, ownerChatId).",
      isError: true,
    });
  });

  it("refuses reboot, non-admin config, protected keys and malformed actions", async () => {
    const core = coreWith();
    const cases: Array<[unknown, unknown, RegExp]> = [
      [{ action: { reboot: {} } }, admin, /^not-mid-turn:/],
      [{ action: { config: { theme: "ember" } } }, principal("user", "mcp"), /^admin-only: a config action/],
      [{ action: { config: { theme: "ember", tgToken: "123:ABC" } } }, admin, /^protected-BLOCKED:/],
      [{ action: { led: { mode: "solid" }, lights: { value: "off" } } }, admin, /^invalid: the element has 2 keys/],
      [{ action: {} }, admin, /^invalid: the element has 0 keys/],
      [{ action: { led: { mode: "solid", r: 300 } } }, admin, /^invalid arguments: 'action\.led\.r' must be <= 255/],
      [{ action: { lights: { value: "dim" } } }, admin, /must be one of off, full/],
      [{ action: { warp: {} } }, admin, /unknown argument 'warp'/],
      [{ action: "led" }, admin, /'action' must be object/],
      [{}, admin, /'action' is required/],
      [{ action: { tts: { text: "x".repeat(601) } } }, admin, /must NOT have more than 600 characters/],
    ];
    for (const [args, who, expected] of cases) {
      const r = await core.registry.dispatch("device.control", args, who as typeof admin);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(r.text, expected);
    }
    assert.equal(core.config.get("theme"), "aurora");
    assert.equal((core.ports.system as SimSystem).rebootRequests, 0);
  });
});

describe("device.control's list form (what a turn's device[] holds)", () => {
  it("runs each entry in order, checked on its own, as device[] does", async () => {
    const core = coreWith();
    const led = core.ports.led as SimLed;
    const run = (action: unknown, who = admin) => core.registry.dispatch("device.control", { action }, who);
    const both = await run([{ config: { ledBrightness: 40 } }, { led: { mode: "pulse", r: 0, g: 80, b: 255 } }]);
    assert.equal(both.isError, undefined, both.text);
    assert.equal(both.text, "2 of 2 actions ran:\n1. config: ledBrightness updated.\n2. ring: pulse 0,80,255 at brightness 40.");
    assert.deepEqual(led.current(), { mode: "pulse", r: 0, g: 80, b: 255, brightness: 40 }, "in order: the knob, then the ring");
    // A list of one answers as the element alone.
    assert.equal((await run([{ lights: { value: "off" } }])).text, "ring: lights off.");
    // Each entry on its own: a refused one does not stop the others, and is named with its tag.
    const mixed = await run([{ reboot: {} }, { config: { theme: "ember", tgToken: "123:ABC" } }, { lights: { value: "full" } }]);
    assert.equal(mixed.isError, undefined);
    assert.match(mixed.text, /^1 of 3 actions ran:\n1\. not-mid-turn: .*\n2\. protected-BLOCKED: .*\n3\. ring: lights full\.$/);
    assert.ok(!mixed.text.includes("123:ABC"), "the blocked value is never echoed");
    assert.equal(core.config.get("theme"), "aurora");
    assert.equal((core.ports.system as SimSystem).rebootRequests, 0);
    // A member: the admin entries are refused per entry, the ring still follows.
    const member = await run([{ config: { theme: "ember" } }, { led: { mode: "solid", r: 1, g: 2, b: 3 } }], principal("user", "mcp"));
    assert.match(member.text, /^1 of 2 actions ran:\n1\. admin-only: /);
    assert.equal(core.config.get("theme"), "aurora");
  });

  it("refuses a list where nothing ran, an empty or too long list, and malformed entries", async () => {
    const core = coreWith();
    const cases: Array<[unknown, RegExp]> = [
      [
        [{ reboot: {} }, { led: { mode: "solid" }, lights: { value: "off" } }],
        /^not-mid-turn: none of the 2 actions ran:\n1\. not-mid-turn: .*\n2\. invalid: the element has 2 keys/,
      ],
      [[{ warp: {} }], /^invalid arguments: /],
      [[], /^invalid arguments: /],
      [Array.from({ length: 9 }, () => ({ lights: { value: "off" } })), /^invalid arguments: /],
      [[{ led: { mode: "solid", r: 300 } }, { lights: { value: "off" } }], /^invalid arguments: /],
      [["led", { lights: { value: "off" } }], /^invalid arguments: /],
      [[[{ lights: { value: "off" } }]], /^invalid arguments: /],
      [[{}], /^invalid: the element has 0 keys/],
    ];
    const led = core.ports.led as SimLed;
    const before = JSON.stringify(led.current());
    for (const [action, expected] of cases) {
      const r = await core.registry.dispatch("device.control", { action }, admin);
      assert.equal(r.isError, true, JSON.stringify(action));
      assert.match(r.text, expected, JSON.stringify(action));
    }
    assert.equal(JSON.stringify(led.current()), before, "no refused list moved the ring");
  });
});

describe("introspection tools refuse arguments they do not take", () => {
  for (const name of ["device.status", "system.health", "ota.status"]) {
    it(`${name}`, async () => {
      const core = coreWith();
      for (const [args, expected] of [
        [{ verbose: true }, /unknown argument 'verbose'/],
        [[], /arguments must be an object/],
        ["x", /arguments must be an object/],
      ] as const) {
        const r = await core.registry.dispatch(name, args, admin);
        assert.equal(r.isError, true);
        assert.match(r.text, expected);
      }
    });
  }
});
