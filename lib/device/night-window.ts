// Night on the device: from 22:00 to 07:00 in the owner's time (the utcOffsetMin knob), unless the
// sleepOvr knob holds it asleep or awake. At night sound effects play at the sfxLvlN level and the ring
// shows at brightOvr; by day at sfxLvlO and ledBrightness. The night values start equal to the day's
// (100, and -1: none), so nothing changes until the owner sets them. Pure functions of the knobs and time.
import { utcOffsetMinutes } from "../util/schedule";

/** Night starts and ends at these minutes of the owner's day. */
export const NIGHT_START_MINUTE = 22 * 60;
export const NIGHT_END_MINUTE = 7 * 60;
export const NIGHT_WINDOW_TEXT = "22:00-07:00";

const DAY_MINUTES = 24 * 60;

/** The knobs night reads (the ConfigStore has them). */
export interface NightKnobs {
  number(key: "utcOffsetMin" | "sfxLvlO" | "sfxLvlN" | "brightOvr" | "ledBrightness"): number;
  string(key: "sleepOvr"): string;
}

/** Whether it is night at `nowMs`: the override when it holds one, else the owner's clock. */
export function isNight(knobs: NightKnobs, nowMs: number): boolean {
  const held = knobs.string("sleepOvr");
  if (held === "asleep") return true;
  if (held === "awake") return false;
  const local = Math.floor(nowMs / 60000) + utcOffsetMinutes(knobs);
  const minute = ((local % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return minute >= NIGHT_START_MINUTE || minute < NIGHT_END_MINUTE;
}

/** The sound-effect level now, 0-100 percent of the speaker volume. */
export function effectsLevel(knobs: NightKnobs, nowMs: number): number {
  return knobs.number(isNight(knobs, nowMs) ? "sfxLvlN" : "sfxLvlO");
}

/** The ring brightness now, as stored (the ring caps it): brightOvr at night unless it is -1 (none). */
export function ringBrightness(knobs: NightKnobs, nowMs: number): number {
  const night = isNight(knobs, nowMs) ? knobs.number("brightOvr") : -1;
  return night >= 0 ? night : knobs.number("ledBrightness");
}
