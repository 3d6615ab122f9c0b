// XS entry: the scripted turn scenario on the XS host; prints its transcript.
import { runTurnScenario } from "../scenarios/turn.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runTurnScenario);
