// Sound effects with their knobs: the themes, day and night levels, the sleep and brightness overrides,
// on Node and on the XS engine (same transcript), and the rails a device action meets on them.
import assert from "node:assert/strict";
import { memoryLog } from "../../hosts/sim/ports/node-basics.ts";
import { memorySettings } from "../../hosts/sim/ports/memory-settings.ts";
import { validateDeviceAction } from "../../lib/device/actions.ts";
import { ConfigStore } from "../../lib/device/config.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { runSoundEffectsScenario } from "../scenarios/sound-effects.ts";
import { compareOnXs } from "../support/xs-compare.ts";

describe("sound effects and night (Node and XS)", () => {
  const run = compareOnXs("test/xs/sound-effects.xs.ts", runSoundEffectsScenario, 30);
  const line = (prefix: string): string => {
    const found = run.node().find((l) => l.startsWith(prefix));
    assert.ok(found, `no line starting ${prefix}`);
    return found;
  };

  it("classic is the earcon the button always had; the night level starts equal to the day's", () => {
    assert.equal(line("defaults noon:"), "defaults noon: listen 1320/60@100; mute 880/60@100 660/90@100; unmute 660/60@100 880/90@100");
    assert.equal(
      line("defaults 23:00:"),
      "defaults 23:00: night true; listen 1320/60@100; mute 880/60@100 660/90@100; unmute 660/60@100 880/90@100",
    );
  });

  it("plays the soft theme at sfxLvlO by day and sfxLvlN from 22:00 to 07:00", () => {
    assert.equal(line("soft 6:00 UTC:"), "soft 6:00 UTC: night true; listen 880/90@20; mute 440/140@20; unmute 587/140@20");
    assert.equal(line("soft 7:00 UTC:"), "soft 7:00 UTC: night false; listen 880/90@80; mute 440/140@80; unmute 587/140@80");
    assert.match(line("soft 21:00 UTC:"), /night false; listen 880\/90@80;/);
    assert.match(line("soft 22:00 UTC:"), /night true; listen 880\/90@20;/);
  });

  it("reads night on the owner's clock (utcOffsetMin), not UTC", () => {
    assert.equal(line("UTC+10 at 23:00 UTC:"), "UTC+10 at 23:00 UTC: night false; listen 880/90@80");
    assert.equal(line("UTC-10 at 12:00 UTC:"), "UTC-10 at 12:00 UTC: night true; listen 880/90@20");
  });

  it("sleepOvr holds night or day whatever the time", () => {
    assert.equal(line("sleepOvr asleep at noon:"), "sleepOvr asleep at noon: ok; night true; listen 880/90@20");
    assert.equal(line("sleepOvr awake at 23:00:"), "sleepOvr awake at 23:00: ok; night false; listen 880/90@80");
  });

  it("no effect on quiet or silent, with the theme none, at volume 0, at level 0 or without a speaker", () => {
    for (const label of ["quiet:", "silent:", "theme none:", "volume 0:", "night level 0 at 23:00:"])
      assert.match(line(label), /: ok; listen none; mute none; unmute none$/, label);
    assert.equal(line("day level 80 at noon:"), "day level 80 at noon: listen 1320/60@80", "level 0 at night only");
    assert.equal(line("no speaker:"), "no speaker: false");
  });

  it("the ring shows brightOvr at night, ledBrightness by day, and none when it is -1 or held awake", () => {
    assert.equal(line("ring defaults:"), "ring defaults: day 96 night 96");
    assert.equal(line("ring brightOvr 10:"), "ring brightOvr 10: ok; day 96 night 10");
    assert.equal(line("ring brightOvr 10, awake:"), "ring brightOvr 10, awake: ok; day 96 night 96");
  });

  it("refuses values out of range, naming the knob and never the value, and keeps what was set", () => {
    const refused = run.node().filter((l) => l.startsWith("refused "));
    assert.equal(refused.length, 9);
    for (const l of refused) {
      assert.match(l, /^refused (\w+): \1 must be /, l);
      assert.doesNotMatch(l, /101|2\.5|"50"|night\b|loud|256|-2\b/, l);
    }
    assert.equal(line("after refusals:"), "after refusals: sfxLvlO 80 sfxLvlN 0 brightOvr 10 sleepOvr auto");
    assert.equal(line("after a restart:"), "after a restart: sfxLvlO 80 sfxLvlN 0 brightOvr 10 sfxTheme classic");
  });
});

describe("sound knobs in a device action", () => {
  const config = (): ConfigStore => new ConfigStore(memorySettings(), memoryLog());

  it("are benign knobs an admin's turn may set, as the seed's config action lists them", () => {
    const c = config();
    const check = validateDeviceAction(
      { config: { sfxLvlO: 70, sfxLvlN: 10, sfxTheme: "soft", sleepOvr: "asleep", brightOvr: 5 } },
      { principal: makePrincipal("owner", "admin", "turn"), config: c, midTurn: true },
    );
    assert.ok(check.ok, JSON.stringify(check));
  });

  it("are refused to a member's turn, and a bad value is refused without echoing it", () => {
    const c = config();
    const member = validateDeviceAction(
      { config: { sfxLvlN: 10 } },
      { principal: makePrincipal("bob", "user", "turn"), config: c, midTurn: true },
    );
    assert.equal(member.ok, false);
    const bad = validateDeviceAction(
      { config: { sfxLvlN: 4242 } },
      { principal: makePrincipal("owner", "admin", "turn"), config: c, midTurn: true },
    );
    assert.equal(bad.ok, false);
    assert.ok(!bad.ok && !bad.reason.includes("4242"), !bad.ok ? bad.reason : "");
    assert.equal(c.number("sfxLvlN"), 100, "nothing written");
  });

  it("a config action mixing a sound knob with a protected key is refused whole as protected-BLOCKED", () => {
    const c = config();
    const check = validateDeviceAction(
      { config: { sfxLvlN: 10, providerPriority: "x" } },
      { principal: makePrincipal("owner", "admin", "turn"), config: c, midTurn: true },
    );
    assert.ok(!check.ok && check.reason.startsWith("protected-BLOCKED"), JSON.stringify(check));
    assert.equal(c.number("sfxLvlN"), 100);
  });
});
