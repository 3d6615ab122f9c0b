// Sound effects and night, on Node and on XS with the same transcript: each theme's notes, the day and
// night levels by the owner's clock, the sleep override, the rails that silence effects (profile, theme
// none, volume 0, level 0), the ring's night brightness, and the knobs' ranges as a device action sees them.
import { ConfigStore } from "../../lib/device/config.ts";
import { isNight } from "../../lib/device/night-window.ts";
import { lookFromKnobs } from "../../lib/device/ring/look.ts";
import type { KnobValue } from "../../lib/device/knobs.ts";
import { SoundEffects, type SoundEffect } from "../../lib/voice/sound-effects.ts";
import { portablePorts } from "../support/portable-ports.ts";

export async function runSoundEffectsScenario(): Promise<string[]> {
  const out: string[] = [];
  const ports = portablePorts();
  const config = new ConfigStore(ports.settings, ports.log);
  // 2026-11-01 at 12:00 UTC; moved by the lines below.
  let now = Date.UTC(2026, 10, 1, 12);
  const tones: string[] = [];
  const effects = new SoundEffects({
    config,
    clock: { now: () => now },
    speaker: {
      async tone(hz, ms, level) {
        tones.push(`${hz}/${ms}@${level}`);
      },
    },
  });
  const set = (changes: Array<[string, KnobValue]>): string => config.apply(changes, "device") ?? "ok";
  const play = async (effect: SoundEffect): Promise<string> => {
    tones.length = 0;
    const played = await effects.play(effect);
    return played ? tones.join(" ") : "none";
  };
  const all = async (): Promise<string> => `listen ${await play("listen")}; mute ${await play("mute")}; unmute ${await play("unmute")}`;

  out.push(`defaults noon: ${await all()}`);
  now = Date.UTC(2026, 10, 1, 23);
  out.push(`defaults 23:00: night ${isNight(config, now)}; ${await all()}`);

  out.push(
    `set levels: ${set([
      ["sfxLvlO", 80],
      ["sfxLvlN", 20],
      ["sfxTheme", "soft"],
    ])}`,
  );
  for (const hour of [6, 7, 12, 21, 22]) {
    now = Date.UTC(2026, 10, 1, hour);
    out.push(`soft ${hour}:00 UTC: night ${isNight(config, now)}; ${await all()}`);
  }
  // The owner's clock, not UTC: 23:00 UTC is 09:00 at UTC+10 (day), 12:00 UTC is 02:00 at UTC-10 (night).
  config.apply([["utcOffsetMin", 600]], "owner");
  now = Date.UTC(2026, 10, 1, 23);
  out.push(`UTC+10 at 23:00 UTC: night ${isNight(config, now)}; listen ${await play("listen")}`);
  config.apply([["utcOffsetMin", -600]], "owner");
  now = Date.UTC(2026, 10, 1, 12);
  out.push(`UTC-10 at 12:00 UTC: night ${isNight(config, now)}; listen ${await play("listen")}`);
  config.apply([["utcOffsetMin", 0]], "owner");

  out.push(`sleepOvr asleep at noon: ${set([["sleepOvr", "asleep"]])}; night ${isNight(config, now)}; listen ${await play("listen")}`);
  now = Date.UTC(2026, 10, 1, 23);
  out.push(`sleepOvr awake at 23:00: ${set([["sleepOvr", "awake"]])}; night ${isNight(config, now)}; listen ${await play("listen")}`);
  set([["sleepOvr", "auto"]]);

  // The rails that silence every effect.
  set([["sfxTheme", "classic"]]);
  out.push(`quiet: ${set([["profile", "quiet"]])}; ${await all()}`);
  out.push(`silent: ${set([["profile", "silent"]])}; ${await all()}`);
  set([["profile", "normal"]]);
  out.push(`theme none: ${set([["sfxTheme", "none"]])}; ${await all()}`);
  set([["sfxTheme", "classic"]]);
  out.push(`volume 0: ${set([["sfxVol", 0]])}; ${await all()}`);
  set([["sfxVol", 60]]);
  out.push(`night level 0 at 23:00: ${set([["sfxLvlN", 0]])}; ${await all()}`);
  now = Date.UTC(2026, 10, 1, 12);
  out.push(`day level 80 at noon: listen ${await play("listen")}`);
  out.push(`no speaker: ${await new SoundEffects({ config, clock: { now: () => now } }).play("listen")}`);

  // The ring: ledBrightness by day; brightOvr at night unless it is -1.
  const ring = (): string => {
    const day = lookFromKnobs(config, Date.UTC(2026, 10, 1, 12)).brightness;
    const night = lookFromKnobs(config, Date.UTC(2026, 10, 1, 23)).brightness;
    return `day ${day} night ${night}`;
  };
  out.push(`ring defaults: ${ring()}`);
  out.push(`ring brightOvr 10: ${set([["brightOvr", 10]])}; ${ring()}`);
  out.push(`ring brightOvr 10, awake: ${set([["sleepOvr", "awake"]])}; ${ring()}`);
  set([["sleepOvr", "auto"]]);

  // Ranges: every bad value refused, naming the knob and never the value; nothing changes.
  const bad: Array<[string, KnobValue]> = [
    ["sfxLvlO", 101],
    ["sfxLvlN", -1],
    ["sfxLvlN", 2.5],
    ["sfxLvlO", "50"],
    ["sleepOvr", "night"],
    ["sleepOvr", true],
    ["brightOvr", -2],
    ["brightOvr", 256],
    ["sfxTheme", "loud"],
  ];
  for (const [key, value] of bad) out.push(`refused ${key}: ${set([[key, value]])}`);
  out.push(
    `after refusals: sfxLvlO ${config.number("sfxLvlO")} sfxLvlN ${config.number("sfxLvlN")} brightOvr ${config.number("brightOvr")} sleepOvr ${config.string("sleepOvr")}`,
  );
  // The knobs persist: a restart reads them back.
  const restarted = new ConfigStore(ports.settings, ports.log);
  out.push(
    `after a restart: sfxLvlO ${restarted.number("sfxLvlO")} sfxLvlN ${restarted.number("sfxLvlN")} brightOvr ${restarted.number("brightOvr")} sfxTheme ${restarted.string("sfxTheme")}`,
  );
  return out;
}
