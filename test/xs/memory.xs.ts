// XS entry: runs the memory scenario on the XS host with the TypeScript kernel and prints its transcript.
import { runMemoryScenario } from "../scenarios/memory.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runMemoryScenario);
