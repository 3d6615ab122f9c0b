// XS entry: the Nostr crypto scenario (vectors, forged events, DM round trips) through the C curve
// (modules/curve) and the C SHA-256 (modules/sha256); nostr-ts.xs.ts runs it through the TypeScript ones.
import { nativeCurve } from "../../modules/curve/curve.ts";
import { nativeDigest } from "../../modules/sha256/sha256.ts";
import { runNostrScenario } from "../scenarios/nostr.ts";
import { printTranscript } from "../support/xs-entry.ts";

printTranscript(() => runNostrScenario(nativeCurve, nativeDigest));
