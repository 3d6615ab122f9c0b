import assert from "node:assert/strict";
import { TEST_HOST } from "../support/halo.ts";
import { memoryPorts } from "../../hosts/sim/ports/index.ts";
import type { SimLed } from "../../hosts/sim/ports/hardware.ts";
import { buildCore, type Core } from "../../lib/app/core.ts";
import { MAX_DEVICE_ACTIONS, validateDeviceAction, validateDeviceActions, type ValidationContext } from "../../lib/device/actions.ts";
import { runDeviceArray } from "../../lib/device/device-array.ts";
import { principal } from "../support/registry.ts";

describe("device[] validator", () => {
  let core: Core;
  let ctx: ValidationContext;
  beforeEach(() => {
    core = buildCore(memoryPorts(), TEST_HOST);
    ctx = { principal: principal("admin", "turn", "owner"), config: core.config, midTurn: false };
  });
  const check = (raw: unknown, over: Partial<ValidationContext> = {}) => validateDeviceAction(raw, { ...ctx, ...over });
  const reasonOf = (raw: unknown, over: Partial<ValidationContext> = {}): string => {
    const r = check(raw, over);
    if (r.ok) assert.fail(`expected a refusal for ${JSON.stringify(raw)?.slice(0, 80)}`);
    return (r as { reason: string }).reason;
  };

  it("accepts each action kind in its documented shape", () => {
    const good: unknown[] = [
      { led: { mode: "solid", r: 255, g: 0, b: 0, brightness: 100 } },
      { led: { mode: "rainbow" } },
      { led: { mode: "pulse", r: 0, g: 0, b: 255, brightness: null } },
      { lights: { value: "off" } },
      { lights: { value: "full" } },
      { config: { ledBrightness: 10, Theme: "ember", ttsOn: false, devName: "Desk Halo" } },
      { orch_model: { provider: "anthropic", model: "claude-sonnet-4-5" } },
      { reboot: {} },
      { reboot: true },
      { tts: { text: "Hello there." } },
    ];
    for (const g of good) assert.equal(check(g).ok, true, JSON.stringify(g));
    const led = check({ led: { mode: "flash", g: 40 } });
    assert.deepEqual(led.ok && led.action, { kind: "led", mode: "flash", r: 0, g: 40, b: 0, brightness: null });
    const config = check({ config: { THEME: "ocean" } });
    assert.deepEqual(
      config.ok && config.action,
      { kind: "config", changes: [["theme", "ocean"]] },
      "knob names resolve case-insensitively",
    );
  });

  const refusals: Array<[string, unknown, RegExp]> = [
    ["a non-object", "led", /^invalid: an action is an object with exactly one of/],
    ["null", null, /^invalid:/],
    ["an array", [{ led: { mode: "solid" } }], /^invalid:/],
    ["an empty element", {}, /the element has 0 keys/],
    ["two actions in one element", { led: { mode: "solid" }, lights: { value: "off" } }, /the element has 2 keys/],
    ["an unknown action", { explode: {} }, /^invalid: unknown action; an action is/],
    ["an unknown led mode", { led: { mode: "strobe" } }, /led mode must be one of solid, spinner, pulse, flash, rainbow/],
    ["red 256", { led: { mode: "solid", r: 256 } }, /led r must be an integer from 0 to 255/],
    ["green -1", { led: { mode: "solid", g: -1 } }, /led g must be an integer/],
    ["blue 1.5", { led: { mode: "solid", b: 1.5 } }, /led b must be an integer/],
    ["a string colour", { led: { mode: "solid", r: "255" } }, /led r must be an integer/],
    ["NaN brightness", { led: { mode: "solid", brightness: Number.NaN } }, /brightness must be an integer from 0 to 255, or null/],
    ["brightness 300", { led: { mode: "solid", brightness: 300 } }, /brightness must be/],
    ["an extra led field", { led: { mode: "solid", colour: "red" } }, /led has an unknown field/],
    ["lights dim", { lights: { value: "dim" } }, /lights takes \{value: "off" \| "full"\}/],
    ["lights as a bare string", { lights: "off" }, /lights takes/],
    ["an empty config", { config: {} }, /config names no knob/],
    ["config as a list", { config: [1] }, /config takes an object/],
    ["an unknown knob", { config: { warpDrive: 9 } }, /config key 1 is not a knob; the knobs are ledBrightness/],
    ["a knob out of range", { config: { sfxVol: 101 } }, /sfxVol must be an integer from 0 to 100/],
    ["a knob of the wrong type", { config: { ttsOn: "yes" } }, /ttsOn must be true or false/],
    ["an owner-only knob", { config: { hwTests: false } }, /hwTests is set by the owner only/],
    [
      "nine knobs",
      {
        config: Object.fromEntries(
          ["ledBrightness", "posture", "profile", "theme", "attnHoldMs", "sfxVol", "sfxTheme", "ttsOn", "ttsVoice"].map((k, i) => [k, i]),
        ),
      },
      /at most 8 knobs/,
    ],
    ["an unknown provider", { orch_model: { provider: "grok", model: "x" } }, /provider must be one of openai, anthropic, mistral/],
    ["an empty model", { orch_model: { provider: "openai", model: "" } }, /model is 1-64/],
    ["reboot with parameters", { reboot: { delay: 5 } }, /reboot takes no parameters/],
    ["empty speech", { tts: { text: "   " } }, /tts text must be 1-600 characters/],
    ["long speech", { tts: { text: "x".repeat(601) } }, /tts text must be 1-600/],
  ];
  for (const [name, raw, expected] of refusals) {
    it(`refuses ${name}`, () => assert.match(reasonOf(raw), expected));
  }

  it("a refusal never repeats the value it was given", () => {
    const value = "VALUE-9f3a";
    for (const raw of [
      { led: { mode: value } },
      { led: { mode: "solid", [value]: 1 } },
      { config: { [value]: value } },
      { config: { devName: `${value}\u0000` } },
      { config: { ttsVoice: value } },
      { orch_model: { provider: value, model: value } },
      { [value]: {} },
      { tts: { text: value, voice: value } },
    ]) {
      assert.doesNotMatch(reasonOf(raw), /VALUE-9f3a/);
    }
  });

  it("config, orch_model and reboot are an admin's; led, lights and tts are any approved caller's", () => {
    for (const role of ["user", "guest"] as const) {
      const who = principal(role, "turn");
      for (const raw of [{ config: { theme: "ember" } }, { orch_model: { provider: "openai", model: "m" } }, { reboot: {} }]) {
        assert.match(reasonOf(raw, { principal: who }), /^admin-only: a \w+ action needs an admin conversation\.$/);
      }
      for (const raw of [{ led: { mode: "solid" } }, { lights: { value: "off" } }, { tts: { text: "hi" } }]) {
        assert.equal(check(raw, { principal: who }).ok, true);
      }
    }
  });

  it("refuses reboot mid-turn (device.control) but not at the end of a turn", () => {
    assert.match(reasonOf({ reboot: {} }, { midTurn: true }), /^not-mid-turn: reboot is refused here/);
    assert.equal(check({ reboot: {} }, { midTurn: false }).ok, true);
  });

  it("refuses protected config keys as a whole with protected-BLOCKED, before any other rule", () => {
    const attacks = [
      { config: { oaiKey: "v" } },
      { config: { theme: "ember", OAIKEY: "v" } },
      { config: { "tg-token": "v" } },
      { config: { providerPriority: ["openai"] } },
      { config: { Provider_Priority: ["openai"] } },
      { config: { priority: "openai" } },
      { config: { orchHost: "evil.example" } },
      { config: { fabric: {} } },
      { config: { allowlist: ["1"] } },
      { config: { tgAllow: ["1"] } },
      { config: { loops: [] } },
      { config: { budget: { usd: 1e9 } } },
      { config: { governorMaxCalls: 1e9 } },
      { config: { theme: "ember", nested: { deeper: { antKey: "v" } } } },
      { config: { list: [{ ok: 1 }, { mistral_key: "v" }] } },
      { config: { sfxVol: 10, "x-API-KEY": "v" } },
    ];
    for (const raw of attacks) {
      for (const who of [principal("admin", "turn"), principal("guest", "mcp")]) {
        assert.equal(
          reasonOf(raw, { principal: who }),
          "protected-BLOCKED: this config change touches a setting only the owner may change, through the owner API.",
          JSON.stringify(raw),
        );
      }
    }
    assert.equal(core.config.get("theme"), "aurora", "nothing was applied");
  });

  it("bounds hostile nesting and key floods in a config action", () => {
    let deep: unknown = { theme: "ember" };
    for (let i = 0; i < 10000; i++) deep = { a: deep };
    assert.match(reasonOf({ config: deep }), /^invalid: the config action nests too deeply\.$/);
    const flood = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
    assert.match(reasonOf({ config: { a: flood } }), /^invalid: the config action holds too many keys\.$/);
    let deepList: unknown = 1;
    for (let i = 0; i < 10000; i++) deepList = [deepList];
    assert.match(reasonOf({ config: { a: deepList } }), /nests too deeply/);
  });

  it("validates a hostile device[] array item by item, bounded", () => {
    const items: unknown[] = [
      { led: { mode: "solid", r: 999 } },
      { explode: true },
      { led: { mode: "solid" }, tts: { text: "x" } },
      { lights: { value: "full" } },
      { config: { tgToken: "v" } },
      "not an object",
      { tts: { text: "ok" } },
      { reboot: {} },
    ];
    for (let i = 0; i < 10000; i++) items.push({ led: { mode: "rainbow" } });
    const report = validateDeviceActions(items, ctx);
    assert.equal(report.verdicts.length, MAX_DEVICE_ACTIONS);
    assert.equal(report.dropped, 10000);
    assert.deepEqual(
      report.verdicts.map((v) => v.allowed),
      [false, false, false, true, false, false, true, true],
    );
    assert.match(report.verdicts[0].reason!, /led r/);
    assert.match(report.verdicts[1].reason!, /unknown action/);
    assert.match(report.verdicts[2].reason!, /2 keys/);
    assert.match(report.verdicts[4].reason!, /^protected-BLOCKED/);
    assert.match(report.verdicts[5].reason!, /^invalid/);
    assert.deepEqual(validateDeviceActions({ led: {} }, ctx), {
      verdicts: [{ index: 0, allowed: false, reason: "invalid: device must be an array of actions." }],
      dropped: 0,
    });
    assert.deepEqual(validateDeviceActions([], ctx), { verdicts: [], dropped: 0 });
  });

  it("runs the allowed items of a device[] array through the ports and reports every item", async () => {
    const led = core.ports.led as SimLed;
    const lines = await runDeviceArray(
      [
        { led: { mode: "pulse", r: 10, g: 20, b: 30, brightness: 255 } },
        { config: { oaiKey: "v" } },
        { lights: { value: "off" } },
        { tts: { text: "done" } },
        ...Array(9).fill({ lights: { value: "full" } }),
      ],
      { principal: ctx.principal, config: core.config },
      core.actuator,
    );
    assert.deepEqual(
      lines.map((l) => [l.index, l.ok]),
      [
        [0, true],
        [1, false],
        [2, true],
        [3, false],
        [4, true],
        [5, true],
        [6, true],
        [7, true],
        [8, false],
      ],
    );
    assert.match(lines[0].text, /brightness 153 \(capped from 255/);
    assert.match(lines[8].text, /^limit: at most 8 device actions per turn; 5 more were not run\.$/);
    // No OpenAI key in this rig: the speech is not made, and the line says so (test/voice has it spoken).
    assert.match(lines[3].text, /^failed: the speech did not play \(No OpenAI key is set for speech/);
    assert.deepEqual(led.history.slice(0, 2), [
      { mode: "pulse", r: 10, g: 20, b: 30, brightness: 153 },
      { mode: "off", r: 0, g: 0, b: 0, brightness: 0 },
    ]);
    assert.deepEqual(led.current(), { mode: "solid", r: 255, g: 255, b: 255, brightness: 153 }, "full is white at the cap");
  });
});
