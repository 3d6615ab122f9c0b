// A Log that rate-limits repeated lines, so a client that aborts request after
// request cannot flood the console or the card. Lines are grouped by their
// text with digit runs folded; each group passes LOG_REPEATS_PER_WINDOW lines
// per window, all groups together LOG_LINES_PER_WINDOW; the rest are counted
// and reported in one summary line per group when the window ends.
import type { Clock, Log } from "../ports";

export const LOG_WINDOW_MS = 60 * 1000;
export const LOG_REPEATS_PER_WINDOW = 3;
export const LOG_LINES_PER_WINDOW = 60;
/** Groups tracked in one window; lines of further groups count under "other lines". */
export const LOG_MAX_GROUPS = 32;
/** How much of a line a summary quotes. */
const SUMMARY_QUOTE_CHARS = 80;

interface Group {
  level: "info" | "warn";
  sample: string;
  passed: number;
  suppressed: number;
}

export class RateLimitedLog implements Log {
  private windowStart = -Infinity;
  private groups = new Map<string, Group>();
  private passedInWindow = 0;
  private otherSuppressed = 0;
  private total = 0;

  constructor(
    private readonly inner: Log,
    private readonly clock: Clock,
  ) {}

  info(message: string): void {
    this.write("info", message);
  }

  warn(message: string): void {
    this.write("warn", message);
  }

  /** Lines withheld since boot. */
  withheld(): number {
    return this.total;
  }

  private write(level: "info" | "warn", message: string): void {
    const now = this.clock.now();
    if (now - this.windowStart >= LOG_WINDOW_MS) this.newWindow(now);
    const key = level + ":" + message.replace(/[0-9]+/g, "#");
    let group = this.groups.get(key);
    if (!group && this.groups.size < LOG_MAX_GROUPS) {
      group = { level, sample: message, passed: 0, suppressed: 0 };
      this.groups.set(key, group);
    }
    const overall = this.passedInWindow >= LOG_LINES_PER_WINDOW;
    if (!group || overall || group.passed >= LOG_REPEATS_PER_WINDOW) {
      if (group) group.suppressed++;
      else this.otherSuppressed++;
      this.total++;
      return;
    }
    group.passed++;
    this.passedInWindow++;
    this.inner[level](message);
  }

  private newWindow(now: number): void {
    for (const g of this.groups.values()) {
      if (g.suppressed > 0) this.inner[g.level](`log: ${g.suppressed} more like "${g.sample.slice(0, SUMMARY_QUOTE_CHARS)}" withheld`);
    }
    if (this.otherSuppressed > 0) this.inner.warn(`log: ${this.otherSuppressed} other lines withheld`);
    this.groups = new Map();
    this.passedInWindow = 0;
    this.otherSuppressed = 0;
    this.windowStart = now;
  }
}
