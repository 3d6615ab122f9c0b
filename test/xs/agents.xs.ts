// XS entry: the sub-agent and routine scenario on the XS host; prints its transcript.
import { runAgentsScenario } from "../scenarios/agents.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runAgentsScenario);
