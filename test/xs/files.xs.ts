// XS entry: runs the files scenario on the XS host and prints its transcript.
import { runFilesScenario } from "../scenarios/files.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runFilesScenario);
