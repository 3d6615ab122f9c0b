// The device's own voice controls: the button's gestures on the voice loop (press to talk, mute, barge-in)
// and the wake phrase listening in the background, which starts what a press starts.
import type { Core } from "./core";
import type { StatusRing } from "../device/ring/status";
import { PressToTalk } from "../voice/press-to-talk";
import type { SharedMic } from "../voice/shared-mic";
import { SoundEffects } from "../voice/sound-effects";
import { WakeListener } from "../voice/wake-listener";

export interface VoiceControlSources {
  core: Core;
  lights: StatusRing | undefined;
  /** The shared microphone; undefined without one (then there is no wake listener). */
  mic: SharedMic | undefined;
  /** What the long presses do on this host. */
  buttonActions?: { longPress?(): void; veryLongPress?(): void };
}

export function voiceControls({ core, lights, mic, buttonActions }: VoiceControlSources): {
  button: PressToTalk;
  wake: WakeListener | undefined;
} {
  const button = new PressToTalk({
    voice: core.voice,
    config: core.config,
    effects: new SoundEffects({ config: core.config, clock: core.ports.clock, speaker: core.ports.audioOut }),
    ring: lights,
    log: core.ports.log,
    longPress: buttonActions?.longPress,
    veryLongPress: buttonActions?.veryLongPress,
  });
  // Gestures work from the first moment, before the network and the lifecycle start.
  core.ports.button?.onGesture((gesture) => void button.gesture(gesture));
  const wake = mic
    ? new WakeListener({
        mic: mic.background,
        detector: () => core.wake?.detector(),
        voice: core.voice,
        onWake: () => void button.gesture("press"),
        log: core.ports.log,
      })
    : undefined;
  // Back to idle: listen for the phrase again.
  if (wake) core.voice.subscribe(() => wake.sync());

  return { button, wake };
}
