// XS entry: the provider scenario (request building, reply parsing, router, budget) on the XS host.
import { runProvidersScenario } from "../scenarios/providers.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runProvidersScenario);
