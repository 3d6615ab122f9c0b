// Routine schedules and their next-run times. Pure functions of (schedule,
// anchor, now, UTC offset): the scheduler and the tests call them alike.
//
// Calendar schedules (daily, weekly) run at a local wall-clock time. "Local"
// is UTC plus the owner's fixed offset in minutes (the utcOffsetMin knob,
// default 0 = UTC); there is no daylight-saving rule, so the owner adjusts the
// offset when their clock changes.

/** Week days in Date.getUTCDay() order. */
export const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export type Schedule =
  | { kind: "interval"; everySeconds: number }
  /** Every day at `at`, or only on `days` when given. */
  | { kind: "daily"; at: string; days?: Weekday[] }
  | { kind: "weekly"; at: string; days: Weekday[] };

const AT_PATTERN = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;
const MINUTE_MS = 60000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Shortest and longest interval of a recurring schedule (seconds). */
export const ROUTINE_MIN_INTERVAL_S = 300;
export const ROUTINE_MAX_INTERVAL_S = 30 * 24 * 3600;

/** The offsets real time zones use, UTC-12:00 to UTC+14:00. */
export const UTC_OFFSET_MIN_MINUTES = -720;
export const UTC_OFFSET_MAX_MINUTES = 840;

/**
 * A schedule from a tool's `schedule` argument ({kind, every_seconds, at,
 * days}), or one sentence saying what is wrong with it.
 */
export function parseSchedule(raw: { [key: string]: unknown }): Schedule | string {
  const { kind, every_seconds: every, at, days } = raw;
  if (kind === "interval") {
    if (at !== undefined || days !== undefined) return "an interval schedule takes every_seconds only (no at or days).";
    if (typeof every !== "number" || !Number.isInteger(every) || every < ROUTINE_MIN_INTERVAL_S || every > ROUTINE_MAX_INTERVAL_S) {
      return `an interval schedule needs every_seconds, a whole number from ${ROUTINE_MIN_INTERVAL_S} to ${ROUTINE_MAX_INTERVAL_S}.`;
    }
    return { kind, everySeconds: every };
  }
  if (kind !== "daily" && kind !== "weekly") return "schedule.kind is interval, daily or weekly.";
  if (every !== undefined) return `a ${kind} schedule takes at (and days), not every_seconds.`;
  if (typeof at !== "string" || !AT_PATTERN.test(at)) return `a ${kind} schedule needs at, a time "HH:MM" (00:00 to 23:59).`;
  if (days === undefined) return kind === "daily" ? { kind, at } : 'a weekly schedule needs days, e.g. ["mon", "thu"].';
  if (!Array.isArray(days) || days.length === 0 || days.length > WEEKDAYS.length) return "days is a list of 1 to 7 week days.";
  const set = new Set<Weekday>();
  for (const d of days) {
    if (typeof d !== "string" || (WEEKDAYS as readonly string[]).indexOf(d) < 0) return `days are ${WEEKDAYS.join(", ")}.`;
    set.add(d as Weekday);
  }
  const sorted = WEEKDAYS.filter((d) => set.has(d));
  return kind === "daily" ? { kind, at, days: sorted } : { kind, at, days: sorted };
}

/** Whether a stored value is a well-formed schedule (records read back from settings). */
export function isSchedule(value: unknown): value is Schedule {
  if (!value || typeof value !== "object") return false;
  const s = value as { [key: string]: unknown };
  const raw: { [key: string]: unknown } = { kind: s.kind, every_seconds: s.everySeconds, at: s.at, days: s.days };
  const parsed = parseSchedule(raw);
  return typeof parsed !== "string";
}

/**
 * The first run strictly after `nowMs`. An interval keeps its phase: runs fall
 * at `anchorMs` plus whole intervals (anchor = approval time, then the last
 * planned run), so a late tick does not make the schedule drift.
 */
export function nextRunAfter(schedule: Schedule, anchorMs: number, nowMs: number, offsetMinutes = 0): number {
  if (schedule.kind === "interval") {
    const every = schedule.everySeconds * 1000;
    const steps = nowMs < anchorMs ? 1 : Math.floor((nowMs - anchorMs) / every) + 1;
    return anchorMs + steps * every;
  }
  const offsetMs = offsetMinutes * MINUTE_MS;
  const [hh, mm] = schedule.at.split(":").map(Number);
  const local = new Date(nowMs + offsetMs);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth();
  const d = local.getUTCDate();
  // Today and the next seven days cover every weekly pattern.
  for (let i = 0; i <= 7; i++) {
    const localMidnight = Date.UTC(y, m, d + i);
    const weekday = WEEKDAYS[new Date(localMidnight).getUTCDay()];
    if (schedule.days && schedule.days.indexOf(weekday) < 0) continue;
    const at = localMidnight + (hh * 60 + mm) * MINUTE_MS - offsetMs;
    if (at > nowMs) return at;
  }
  // Unreachable for a valid schedule; a week later keeps the caller safe.
  return nowMs + 7 * DAY_MS;
}

/** One line for people: "every 3600 s", "daily at 08:00", "weekly at 08:00 on mon, thu". */
export function describeSchedule(s: Schedule): string {
  if (s.kind === "interval") return `every ${s.everySeconds} s`;
  const days = s.days ? ` on ${s.days.join(", ")}` : "";
  return `${s.kind} at ${s.at}${days}`;
}

/** "2026-01-05 08:00 (UTC+02:00)": a time on the owner's calendar. */
export function formatLocalTime(ms: number, offsetMinutes = 0): string {
  const iso = new Date(ms + offsetMinutes * MINUTE_MS).toISOString();
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const pad = (n: number): string => (n < 10 ? "0" : "") + n;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} (UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)})`;
}

/** The owner's calendar day of `ms`, YYYY-MM-DD (the daily governor counts per day). */
export function localDay(ms: number, offsetMinutes = 0): string {
  return new Date(ms + offsetMinutes * MINUTE_MS).toISOString().slice(0, 10);
}

/** The owner's UTC offset (the utcOffsetMin knob) in minutes, 0 when it is somehow out of range. */
export function utcOffsetMinutes(config: { number(key: "utcOffsetMin"): number }): number {
  const n = config.number("utcOffsetMin");
  return Number.isInteger(n) && n >= UTC_OFFSET_MIN_MINUTES && n <= UTC_OFFSET_MAX_MINUTES ? n : 0;
}
