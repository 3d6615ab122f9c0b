// "timer" (modules/base/timer).

export type TimerId = object;

export default class Timer {
  static set(callback: (id: TimerId) => void, delay?: number, repeat?: number): TimerId;
  static repeat(callback: (id: TimerId) => void, interval: number): TimerId;
  static clear(id: TimerId | undefined): void;
}
