// The board's outputs: device[] actions on the ring, the speaker and the system (speech through `speech`).
import { DeviceActuator } from "../../device/actuator";
import { defineSubsystem } from "../subsystem";

export const BOARD = defineSubsystem({
  name: "board",
  ports: ["log", "led", "audioOut", "system"],
  needs: ["config", "speech"],
  provides: ["actuator"],
  build(p, { config, speech }) {
    const speak = p.audioOut ? speech.speakOnSpeaker(p.audioOut) : undefined;
    return { actuator: new DeviceActuator({ config, log: p.log, led: p.led, audioOut: p.audioOut, system: p.system, speak }) };
  },
});
