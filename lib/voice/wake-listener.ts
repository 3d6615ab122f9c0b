// The wake phrase on the microphone: while a phrase is taught and on, the microphone is not muted and Halo is
// idle, the microphone's blocks go to the detector and nowhere else (audio before a detection never leaves
// the device). A detection gives the microphone back and does what a press does: the earcon, the listening
// ring and the same pipeline. docs/wake-word.md, "On the device".
import type { Log, WakeDetector } from "../ports";
import type { VoicePhase } from "./pipeline";
import type { BackgroundMic } from "./shared-mic";

/** How often the lifecycle re-checks whether to listen (a phrase taught, the mute toggled). */
export const WAKE_SYNC_MS = 250;

export interface WakeListenerDeps {
  mic: BackgroundMic;
  /** The taught detector while the phrase is set and on (lib/wake/phrase.ts). */
  detector(): WakeDetector | undefined;
  voice: { phase(): VoicePhase; muted(): boolean; available(): boolean };
  /** What a detection starts: the button's press. */
  onWake(): void;
  log: Log;
}

export class WakeListener {
  private detections = 0;

  constructor(private readonly deps: WakeListenerDeps) {}

  /** Starts or stops listening as the phrase, the mute and the voice phase say; call it on every change. */
  sync(): void {
    const { mic, voice } = this.deps;
    const detector = this.deps.detector();
    const should = detector !== undefined && voice.available() && !voice.muted() && voice.phase() === "idle";
    if (!should) {
      mic.stop();
      return;
    }
    if (mic.active) return;
    detector.reset();
    mic.start((block) => {
      // A phrase replaced, turned off or forgotten meanwhile: stop; the next sync starts with the new one.
      if (this.deps.detector() !== detector) return mic.stop();
      if (!mic.active || !detector.push(block)) return;
      mic.stop();
      this.detections++;
      this.deps.log.info("wake: the phrase was heard");
      this.deps.onWake();
    });
  }

  /** Stops listening (the lifecycle's stop). */
  stop(): void {
    this.deps.mic.stop();
  }

  /** Whether the detector hears the microphone now, and how many times it woke Halo since start. */
  state(): { listening: boolean; detections: number } {
    return { listening: this.deps.mic.active, detections: this.detections };
  }
}
