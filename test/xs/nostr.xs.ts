// XS entry: the Nostr crypto scenario (vectors, forged events, DM round trips).
import { runNostrScenario } from "../scenarios/nostr.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(runNostrScenario);
