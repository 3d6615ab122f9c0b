// XS entry: runs the interop scenario on the XS host and prints its transcript.
import { runInteropScenario } from "../scenarios/interop.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runInteropScenario);
