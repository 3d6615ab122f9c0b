// The device's status ring: the ring machine fed by the turn engine's signals
// and the host's reports (network, setup, button, update), drawn by a
// RingRunner on the host's timer, in the look of the owner's stored knobs.
import type { Clock, Log } from "../../ports";
import { DEFAULT_LOOK, lookFromKnobs, type RingLook } from "./look";
import { RingMachine, type RingEvent } from "./machine";
import { RingRunner, type RingSink } from "./runner";
import type { RingPhase } from "./phases";

/** How often the owner's pending approvals are looked at (they read the card). */
export const APPROVALS_POLL_MS = 30000;

/** How often the Wi-Fi radio is asked whether its setup access point is open. */
export const SETUP_POLL_MS = 1000;

/** What the turn engine reports as a turn runs. */
export type TurnSignal = "start" | "tool" | "reply" | "error" | "end";

export interface StatusRingDeps {
  sink: RingSink;
  clock: Clock;
  log: Log;
  /** The stored knobs (ledBrightness and the night's brightOvr, posture, theme, attnHoldMs). */
  knobs?: { number(key: string): number; string(key: string): string };
  /** Whether anything waits for the owner's approval (skills, routines, links). */
  approvalsWaiting?(): boolean;
  /** Whether the Wi-Fi setup access point is open (the Wi-Fi port's state); polled, reported on change. */
  setupActive?(): boolean;
}

const SIGNAL_EVENTS: { [signal in TurnSignal]: RingEvent } = {
  start: { kind: "turn-start" },
  tool: { kind: "tool-running" },
  reply: { kind: "reply" },
  error: { kind: "error" },
  end: { kind: "turn-end" },
};

export class StatusRing {
  private readonly runner: RingRunner;
  private lastPoll = -Infinity;
  private lastSetupPoll = -Infinity;
  private setup: boolean | undefined;

  constructor(private readonly deps: StatusRingDeps) {
    this.runner = new RingRunner(new RingMachine(), deps.sink, () => this.look());
  }

  private look(): RingLook {
    if (!this.deps.knobs) return DEFAULT_LOOK;
    try {
      return lookFromKnobs(this.deps.knobs, this.deps.clock.now());
    } catch {
      return DEFAULT_LOOK;
    }
  }

  /** A report from the host or the core. */
  report(event: RingEvent): void {
    this.runner.event(event, this.deps.clock.now());
  }

  /** A turn engine signal. */
  turn(signal: TurnSignal): void {
    this.report(SIGNAL_EVENTS[signal]);
  }

  /** Called by the host every RING_FRAME_MS: polls approvals now and then, draws a frame when due. */
  tick(): boolean {
    const now = this.deps.clock.now();
    if (this.deps.approvalsWaiting && now - this.lastPoll >= APPROVALS_POLL_MS) {
      this.lastPoll = now;
      let waiting = false;
      try {
        waiting = this.deps.approvalsWaiting();
      } catch (e) {
        this.deps.log.warn(`ring: reading pending approvals failed (${e instanceof Error ? e.message : "unknown"})`);
      }
      this.runner.event({ kind: "approvals", waiting }, now);
    }
    if (this.deps.setupActive && now - this.lastSetupPoll >= SETUP_POLL_MS) {
      this.lastSetupPoll = now;
      let on = this.setup ?? false;
      try {
        on = this.deps.setupActive();
      } catch (e) {
        this.deps.log.warn(`ring: reading the Wi-Fi state failed (${e instanceof Error ? e.message : "unknown"})`);
      }
      if (on !== this.setup) {
        this.setup = on;
        this.runner.event({ kind: "setup", on }, now);
      }
    }
    return this.runner.tick(now);
  }

  /** The phase on the ring now. */
  phase(): RingPhase | undefined {
    return this.runner.current();
  }
}
