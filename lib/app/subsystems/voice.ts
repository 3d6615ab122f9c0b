// The device's spoken conversation (press to talk, realtime speech) on the turn: a spoken request
// runs as the person the owner assigned to the device (voicePerson), else the owner.
import { OWNER_PERSON_ID } from "../../people/people";
import { derivePrincipal } from "../../people/principals";
import { VoiceLoop } from "../../voice/voice-loop";
import { defineSubsystem } from "../subsystem";

export const VOICE = defineSubsystem({
  name: "voice",
  ports: ["audioIn", "audioOut", "webSocket"],
  needs: ["config", "speech", "turn", "registry", "secrets", "baseUrls", "people", "clients", "chats"],
  provides: ["voice"],
  build: (p, d) => ({
    voice: new VoiceLoop({
      ports: p,
      config: d.config,
      speech: d.speech,
      turns: d.turn,
      principal: () => derivePrincipal(d, "web", d.config.string("voicePerson") || OWNER_PERSON_ID),
      getSecret: (n) => d.secrets.getSecret(n),
      baseUrls: d.baseUrls,
      registry: d.registry,
    }),
  }),
});
