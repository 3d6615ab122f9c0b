// The Timers port on Moddable's Timer.
import Timer from "timer";
import type { Timers } from "../../../lib/ports";

export const deviceTimers: Timers = {
  every(ms, fn) {
    const id = Timer.repeat(fn, ms);
    return (): void => Timer.clear(id);
  },
  sleep: (ms) => new Promise((resolve) => void Timer.set(() => resolve(), ms)),
};
