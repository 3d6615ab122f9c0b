// XS entry: runs the artifact store's crash scenario on the XS host and prints its transcript.
import { runFilesCrashScenario } from "../scenarios/files-crash.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runFilesCrashScenario);
