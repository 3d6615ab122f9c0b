// Cancellation that runs on every engine: XS 13.3 has no AbortController, so the
// core carries its own. A caller makes an Abort, hands its `signal` down, and
// aborts when it gives up (a deadline passed, a client went away); long work
// checks `signal.aborted` or listens, and host ports close their sockets.
import type { CallSignal } from "../ports";

export type { CallSignal };

/** The owning half: aborts its signal once; later calls do nothing. */
export class Abort {
  private listeners: Array<() => void> = [];
  private why: string | undefined;
  readonly signal: CallSignal;

  constructor() {
    const self = this;
    this.signal = {
      get aborted(): boolean {
        return self.why !== undefined;
      },
      get reason(): string | undefined {
        return self.why;
      },
      onAbort(listener: () => void): () => void {
        if (self.why !== undefined) {
          listener();
          return () => {};
        }
        self.listeners.push(listener);
        return () => {
          const i = self.listeners.indexOf(listener);
          if (i >= 0) self.listeners.splice(i, 1);
        };
      },
    };
  }

  abort(reason: string): void {
    if (this.why !== undefined) return;
    this.why = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const l of listeners) l();
  }
}

/** A signal that is never aborted: for calls nobody can cancel (a test, a boot step). */
export const NEVER_ABORTED: CallSignal = Object.freeze({
  aborted: false,
  reason: undefined,
  onAbort: (): (() => void) => () => {},
});

/** What a long call is bounded by: the caller's deadline (ms since the epoch) and its abort signal. */
export interface CallBounds {
  deadline: number;
  signal: CallSignal;
}

/** An outbound request's own timeout cut to what is left of the caller's deadline (at least 1 ms), and its signal. */
export function boundedBy(timeoutMs: number, call: CallBounds | undefined, now: number): { timeoutMs: number; signal?: CallSignal } {
  if (!call) return { timeoutMs };
  return { timeoutMs: Math.max(1, Math.min(timeoutMs, call.deadline - now)), signal: call.signal };
}
