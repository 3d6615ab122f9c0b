// XS entry: WAV, resampling, end of speech and the voice pipeline on the XS host.
import { runVoiceScenario } from "../scenarios/voice.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runVoiceScenario);
