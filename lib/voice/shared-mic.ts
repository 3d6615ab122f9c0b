// One microphone, two kinds of user: the wake-word listener in the background while Halo is idle, and
// everything else in the foreground (a spoken request, audio.transcribe, the health check, realtime speech).
// A foreground start takes the microphone from the background at once; the background never takes it from
// the foreground.
import type { AudioIn } from "../ports";

/** The background side: start() is refused (false) while the foreground holds the microphone. */
export interface BackgroundMic {
  start(onSamples: (samples: Int16Array) => void): boolean;
  stop(): void;
  /** Whether the background holds the microphone now. */
  readonly active: boolean;
}

export interface SharedMic {
  /** What every other part of Halo is given: the microphone as it is, plus the preemption. */
  foreground: AudioIn;
  background: BackgroundMic;
}

/**
 * Shares `mic`. The foreground keeps every other member of the port (a host's own, like the simulator's
 * `load`), since it inherits from it.
 */
export function sharedMic(mic: AudioIn): SharedMic {
  const state = { foreground: false, background: false };
  const foreground: AudioIn = Object.create(mic, {
    start: {
      value(onSamples: (samples: Int16Array) => void): void {
        if (state.background) {
          mic.stop();
          state.background = false;
        }
        mic.start(onSamples);
        state.foreground = true;
      },
    },
    stop: {
      value(): void {
        state.foreground = false;
        mic.stop();
      },
    },
  });
  const background: BackgroundMic = {
    start(onSamples) {
      if (state.foreground || state.background) return false;
      mic.start(onSamples);
      state.background = true;
      return true;
    },
    stop() {
      if (!state.background) return;
      state.background = false;
      mic.stop();
    },
    get active() {
      return state.background;
    },
  };
  return { foreground, background };
}
