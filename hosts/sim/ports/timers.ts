// The Timers port on Node's timers. They are unref'd: the simulator's HTTP server (or the test runner)
// keeps the process alive, not the scheduler tick or a retry's wait.
import type { Timers } from "../../../lib/ports.ts";

export const nodeTimers: Timers = {
  every(ms, fn) {
    const t = setInterval(fn, ms);
    t.unref();
    return () => clearInterval(t);
  },
  sleep: (ms) => new Promise((ok) => setTimeout(ok, ms).unref()),
};
