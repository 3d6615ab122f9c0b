import { toJson } from "../util/json";
// The daily governor of scheduled turns: routines and wakeups together may
// start at most N turns per day of the owner's calendar (the owner knob
// routineTurnsPerDay). The count lives in Settings, so a restart does not
// reset it; a new day starts from zero.
import type { Log, Settings } from "../ports";
import { localDay } from "../util/schedule";

const SETTINGS_KEY = "loop.governor";

export class DailyGovernor {
  constructor(
    private readonly settings: Settings,
    private readonly log: Log,
    /** The owner's limit per day (0 stops every scheduled turn). */
    private readonly limit: () => number,
    private readonly offsetMinutes: () => number,
  ) {}

  /** Scheduled turns started on the owner's day containing `nowMs`. */
  used(nowMs: number): number {
    const day = localDay(nowMs, this.offsetMinutes());
    const text = this.settings.get(SETTINGS_KEY);
    if (text === undefined) return 0;
    try {
      const stored = JSON.parse(text) as { day?: unknown; count?: unknown };
      return stored.day === day && typeof stored.count === "number" && Number.isInteger(stored.count) && stored.count >= 0
        ? stored.count
        : 0;
    } catch {
      this.log.warn("loops: the stored daily governor count is unreadable; counting from zero");
      return 0;
    }
  }

  limitPerDay(): number {
    return this.limit();
  }

  /** Counts one scheduled turn if the day's limit allows it (persisted before the turn starts). */
  tryTake(nowMs: number): boolean {
    const used = this.used(nowMs);
    if (used >= this.limit()) return false;
    this.settings.set(SETTINGS_KEY, toJson({ day: localDay(nowMs, this.offsetMinutes()), count: used + 1 }));
    return true;
  }
}
