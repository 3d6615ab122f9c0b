// Speech to text and spoken replies, for the whole device (device[] tts, reply.speak, the voice loop,
// Telegram voice notes in, audio.transcribe).
import { Speech } from "../../voice/speech-service";
import { defineSubsystem } from "../subsystem";

export const SPEECH = defineSubsystem({
  name: "speech",
  ports: ["audioHttp", "random", "clock", "timers"],
  needs: ["config", "secrets", "baseUrls"],
  provides: ["speech"],
  build: (p, d) => ({ speech: new Speech({ ports: p, config: d.config, getSecret: (n) => d.secrets.getSecret(n), baseUrls: d.baseUrls }) }),
});
