// The owner's wake phrase (lib/wake/phrase.ts): its examples' features in settings and the detector taught
// from them; absent on a host without the wake-word engine.
import { WakePhrase } from "../../wake/phrase";
import { defineSubsystem } from "../subsystem";

export const WAKE = defineSubsystem({
  name: "wake",
  ports: ["wake", "settings", "log"],
  needs: [],
  provides: ["wake"],
  build(p): { wake: WakePhrase | undefined } {
    return { wake: p.wake ? new WakePhrase({ kernel: p.wake, settings: p.settings, log: p.log }) : undefined };
  },
});
