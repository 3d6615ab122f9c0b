// XS entry: the Nostr crypto scenario (vectors, forged events, DM round trips) through the C curve
// (modules/curve); nostr-ts.xs.ts runs it through the TypeScript curve.
import { nativeCurve } from "../../modules/curve/curve.ts";
import { runNostrScenario } from "../scenarios/nostr.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => runNostrScenario(nativeCurve));
