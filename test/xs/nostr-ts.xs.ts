// XS entry: the Nostr crypto scenario through the TypeScript curve (lib/nostr/curve/ts-curve.ts).
import { tsCurve } from "../../lib/nostr/curve/ts-curve.ts";
import { runNostrScenario } from "../scenarios/nostr.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => runNostrScenario(tsCurve));
