// "time" (modules/base/time): the real-time clock and a millisecond counter.

export default class Time {
  /** Sets the clock, in seconds since the epoch (what SNTP delivers). */
  static set(seconds: number): void;
  /** Milliseconds from an arbitrary start; only differences mean anything. */
  static readonly ticks: number;
  static delta(start: number, end?: number): number;
}
