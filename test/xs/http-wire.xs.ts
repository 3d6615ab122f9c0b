// XS entry: runs the HTTP wire scenario on the XS host and prints its transcript.
import { runHttpWireScenario } from "../scenarios/http-wire.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runHttpWireScenario);
