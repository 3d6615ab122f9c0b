// The device's sound effects: short tone sequences for what the button does (listen, mute, unmute), in
// the owner's theme (sfxTheme) and at the level of the hour (sfxLvlO by day, sfxLvlN at night: see
// lib/device/night-window.ts). An effect never plays on the quiet or silent profile, with the theme
// none, at volume 0 or at level 0. Played through the AudioOut port's tone at that level.
import type { ConfigStore } from "../device/config";
import { effectsLevel } from "../device/night-window";
import type { AudioOut, Clock } from "../ports";

export type SoundEffect = "listen" | "mute" | "unmute";
export type SfxTheme = "classic" | "soft";

/** One note: frequency in Hz, length in ms. */
export type Note = readonly [number, number];

/**
 * Each theme's notes. classic's listen is the 1320 Hz, 60 ms earcon the button always had; soft is lower
 * and longer. A listen effect stays under 100 ms: the capture starts after it.
 */
export const SFX_THEMES: { readonly [theme in SfxTheme]: { readonly [effect in SoundEffect]: readonly Note[] } } = {
  classic: {
    listen: [[1320, 60]],
    mute: [
      [880, 60],
      [660, 90],
    ],
    unmute: [
      [660, 60],
      [880, 90],
    ],
  },
  soft: {
    listen: [[880, 90]],
    mute: [[440, 140]],
    unmute: [[587, 140]],
  },
};

export interface SoundEffectsDeps {
  config: Pick<ConfigStore, "string" | "number">;
  clock: Clock;
  /** Without a speaker there are no effects. */
  speaker?: Pick<AudioOut, "tone">;
}

export class SoundEffects {
  constructor(private readonly deps: SoundEffectsDeps) {}

  /** The notes and level `effect` would play at now, or undefined when it would not play. */
  plan(effect: SoundEffect): { notes: readonly Note[]; level: number } | undefined {
    const { config, clock, speaker } = this.deps;
    if (!speaker || config.string("profile") !== "normal" || config.number("sfxVol") <= 0) return undefined;
    const theme = config.string("sfxTheme");
    if (theme !== "classic" && theme !== "soft") return undefined;
    const level = effectsLevel(config, clock.now());
    if (!(level > 0)) return undefined;
    return { notes: SFX_THEMES[theme][effect], level: Math.min(100, level) };
  }

  /** Plays `effect` and resolves when it has played; resolves at once when it does not play. */
  async play(effect: SoundEffect): Promise<boolean> {
    const plan = this.plan(effect);
    if (!plan) return false;
    for (const [hz, ms] of plan.notes) await this.deps.speaker!.tone(hz, ms, plan.level);
    return true;
  }
}
