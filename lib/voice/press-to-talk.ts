// The button on the voice loop: what each gesture does given the voice
// phase. A press starts listening after a short earcon (the listen sound
// effect), ends a capture in progress, or stops a reply being spoken
// (barge-in, which listens again); a double press toggles the microphone
// mute, stored in the micMute knob so it survives a restart, with the mute
// and unmute sound effects; while muted a press only shows the muted ring. Long
// and very long presses are the host's (Wi-Fi setup, reboot). Every gesture
// returns at once with what it did; the earcon and the exchange run on.
import type { ConfigStore } from "../device/config";
import type { RingEvent } from "../device/ring/machine";
import type { ButtonGesture, Log } from "../ports";
import type { VoiceExchange, VoicePhase } from "./pipeline";
import { SFX_THEMES, type SoundEffect } from "./sound-effects";

/** The classic theme's earcon before listening: short and high, so the capture starts clean after it. */
export const EARCON_HZ = SFX_THEMES.classic.listen[0][0];
export const EARCON_MS = SFX_THEMES.classic.listen[0][1];

/** What a gesture did. */
export type ButtonOutcome =
  | "listening"
  | "capture-ended"
  | "barge-in"
  | "busy"
  | "muted-press"
  | "muted"
  | "unmuted"
  | "no-microphone"
  | "long-press"
  | "very-long-press"
  | "ignored";

/** What the controller needs of the voice loop (lib/voice/voice-loop.ts). */
export interface VoiceControls {
  phase(): VoicePhase;
  available(): boolean;
  muted(): boolean;
  press(): Promise<VoiceExchange> | undefined;
  release(): void;
  cancel(): void;
}

export interface PressToTalkDeps {
  voice: VoiceControls;
  config: Pick<ConfigStore, "bool" | "string" | "number" | "apply">;
  /** The sound effects (lib/voice/sound-effects.ts); without them there is no earcon. */
  effects?: { play(effect: SoundEffect): Promise<boolean> };
  /** The status ring, told when the mute changes (and at start). */
  ring?: { report(event: RingEvent): void };
  log: Log;
  /** The host's meanings of the long presses (Wi-Fi setup, reboot). */
  longPress?(): void;
  veryLongPress?(): void;
}

export class PressToTalk {
  /** Between a press and the capture's start (the earcon plays). */
  private starting = false;
  private running: Promise<VoiceExchange | undefined> | undefined;
  private lastOutcome: ButtonOutcome | undefined;

  constructor(private readonly deps: PressToTalkDeps) {
    deps.ring?.report({ kind: "muted", on: deps.voice.muted() });
  }

  /** Acts on one gesture; returns what it did. */
  gesture(gesture: ButtonGesture): ButtonOutcome {
    const outcome = this.decide(gesture);
    if (gesture !== "down") this.lastOutcome = outcome;
    return outcome;
  }

  /** What the last gesture (other than "down") did. */
  last(): ButtonOutcome | undefined {
    return this.lastOutcome;
  }

  private decide(gesture: ButtonGesture): ButtonOutcome {
    switch (gesture) {
      case "press":
        return this.press();
      case "double-press":
        return this.toggleMute();
      case "long-press":
        this.deps.longPress?.();
        return "long-press";
      case "very-long-press":
        this.deps.veryLongPress?.();
        return "very-long-press";
      default:
        return "ignored";
    }
  }

  /** The exchange the last press started (tests and the simulator's route wait on it). */
  exchange(): Promise<VoiceExchange | undefined> | undefined {
    return this.running;
  }

  private press(): ButtonOutcome {
    const { voice, ring } = this.deps;
    if (voice.muted()) {
      ring?.report({ kind: "muted", on: true });
      return "muted-press";
    }
    if (!voice.available()) return "no-microphone";
    if (this.starting) return "busy";
    switch (voice.phase()) {
      case "listening":
        voice.release();
        return "capture-ended";
      case "thinking":
        return "busy";
      case "replying": {
        // The pipeline stops the reply and listens again; the silence is the cue.
        const next = voice.press();
        if (!next) return "busy";
        this.running = next;
        return "barge-in";
      }
      default:
        this.starting = true;
        this.running = this.start();
        return "listening";
    }
  }

  private async start(): Promise<VoiceExchange | undefined> {
    try {
      await this.deps.effects?.play("listen");
    } catch (e) {
      this.deps.log.warn(`button: the earcon did not play (${e instanceof Error ? e.message : "error"})`);
    } finally {
      this.starting = false;
    }
    // Muted while the earcon played: nothing is captured.
    return this.deps.voice.press();
  }

  private toggleMute(): ButtonOutcome {
    const { voice, config, ring, log } = this.deps;
    const on = !voice.muted();
    const problem = config.apply([["micMute", on]], "owner");
    if (problem) {
      log.warn(`button: the mute was not stored (${problem})`);
      return "ignored";
    }
    if (on) voice.cancel();
    ring?.report({ kind: "muted", on });
    this.effect(on ? "mute" : "unmute");
    log.info(`button: microphone ${on ? "muted" : "unmuted"}`);
    return on ? "muted" : "unmuted";
  }

  /** Plays an effect that nothing waits for. */
  private effect(effect: SoundEffect): void {
    this.deps.effects?.play(effect).catch((e: unknown) => {
      this.deps.log.warn(`button: the ${effect} sound did not play (${e instanceof Error ? e.message : "error"})`);
    });
  }
}
