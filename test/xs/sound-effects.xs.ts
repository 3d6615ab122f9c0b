// XS entry: sound effects, night and the sound knobs on the XS host.
import { runSoundEffectsScenario } from "../scenarios/sound-effects.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runSoundEffectsScenario);
