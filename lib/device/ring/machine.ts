// The ring's state: which phases are active, from the events the core and the
// host report. The phase shown is the highest-priority active phase that the
// owner's posture allows. No timers here: time comes in with each call.
import { RING_PHASES, SUBTLE_PHASES, type RingPhase, type VoicePhase } from "./phases";
import type { RingPosture } from "./look";

export type RingEvent =
  | { kind: "booted" }
  | { kind: "setup"; on: boolean }
  | { kind: "network"; up: boolean }
  | { kind: "updating"; on: boolean }
  | { kind: "muted"; on: boolean }
  | { kind: "listening"; on: boolean }
  | { kind: "turn-start" }
  | { kind: "tool-running" }
  | { kind: "reply" }
  | { kind: "turn-end" }
  | { kind: "error" }
  | { kind: "approvals"; waiting: boolean }
  /** The voice loop's phase (lib/voice/pipeline.ts): the device's own spoken exchange. */
  | { kind: "voice"; phase: "idle" | "listening" | "thinking" | "replying" | "error" };

/** More concurrent turns than this are not counted (a bound, not a limit on turns). */
const TURNS_COUNTED_MAX = 64;

export class RingMachine {
  private booting = true;
  private setup = false;
  private networkUp = true;
  private updating = false;
  private muted = false;
  private listening = false;
  private turns = 0;
  private voice: VoicePhase | undefined;
  /** The spoken exchange's phase, apart from turns: a reply is still spoken after its turn ended. */
  private spoken: VoicePhase | undefined;
  private errorUntil = -1;
  private approvals = false;

  /** Applies one event at time `now` (ms); `errorHoldMs` is how long an error stays shown. */
  apply(event: RingEvent, now: number, errorHoldMs: number): void {
    switch (event.kind) {
      case "booted":
        this.booting = false;
        break;
      case "setup":
        this.setup = event.on;
        break;
      case "network":
        this.networkUp = event.up;
        break;
      case "updating":
        this.updating = event.on;
        break;
      case "muted":
        this.muted = event.on;
        break;
      case "listening":
        this.listening = event.on;
        break;
      case "turn-start":
        this.turns = Math.min(this.turns + 1, TURNS_COUNTED_MAX);
        this.voice = "thinking";
        break;
      case "tool-running":
        if (this.turns > 0) this.voice = "thinking";
        break;
      case "reply":
        if (this.turns > 0) this.voice = "replying";
        break;
      case "turn-end":
        this.turns = Math.max(0, this.turns - 1);
        if (this.turns === 0) this.voice = undefined;
        break;
      case "error":
        this.errorUntil = now + Math.max(0, errorHoldMs);
        break;
      case "approvals":
        this.approvals = event.waiting;
        break;
      case "voice":
        this.spoken = event.phase === "idle" || event.phase === "error" ? undefined : event.phase;
        if (event.phase === "error") this.errorUntil = now + Math.max(0, errorHoldMs);
        break;
    }
  }

  /** Every active phase, highest priority first (idle always last). */
  active(now: number): RingPhase[] {
    // During a spoken exchange its phase wins: the turn inside it says "reply" before the reply is spoken.
    const talk = this.spoken ?? this.voice;
    const on: { [phase in RingPhase]: boolean } = {
      updating: this.updating,
      setup: this.setup,
      boot: this.booting,
      "no-network": !this.networkUp,
      error: now < this.errorUntil,
      listening: this.listening || this.spoken === "listening",
      replying: talk === "replying",
      thinking: talk === "thinking",
      "waiting-owner": this.approvals,
      muted: this.muted,
      idle: true,
    };
    return RING_PHASES.filter((p) => on[p]);
  }

  /** The phase the ring shows at `now` under `posture`. */
  shown(now: number, posture: RingPosture): RingPhase {
    if (posture === "off") return "idle";
    for (const phase of this.active(now)) {
      if (posture === "full" || SUBTLE_PHASES.includes(phase)) return phase;
    }
    return "idle";
  }
}
