// The board's outputs: device[] actions on the ring, the speaker and the system (speech through `speech`;
// without a speaker, tts through a Telegram voice note).
import { DeviceActuator } from "../../device/actuator";
import { defineSubsystem } from "../subsystem";
import { voiceNoteFallback } from "../voice-note-fallback";

export const BOARD = defineSubsystem({
  name: "board",
  ports: ["log", "led", "audioOut", "system"],
  needs: ["config", "speech", "telegram", "voiceNotes", "chats"],
  provides: ["actuator"],
  build(p, { config, speech, telegram, voiceNotes, chats }) {
    const speak = p.audioOut ? speech.speakOnSpeaker(p.audioOut) : undefined;
    // Without a speaker, tts goes out as a Telegram voice note (lib/app/voice-note-fallback.ts).
    const voiceNote = p.audioOut ? undefined : voiceNoteFallback({ telegram, voiceNotes, chats });
    return {
      actuator: new DeviceActuator({ config, log: p.log, led: p.led, audioOut: p.audioOut, system: p.system, speak, voiceNote }),
    };
  },
});
