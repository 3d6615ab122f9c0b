// Events signed fast, for tests that need thousands (floods, junk): Halo's BIP-340 over the simulator's C
// curve, about a hundredth of nostr-tools' time. Events a test means as another client's keep nostr-tools'
// finalizeEvent, so interoperability is still what those show.
import { randomFillSync } from "node:crypto";
import { nodeCurve } from "../../hosts/sim/curve/curve.ts";
import { nodeDigest } from "../../hosts/sim/ports/node-basics.ts";
import { type EventTemplate, type NostrEvent, publicKeyOf, signEvent } from "../../lib/nostr/event.ts";

/** Signs `template` with `secretKey` (fresh auxiliary randomness each time). */
export function signFast(template: EventTemplate, secretKey: Uint8Array): NostrEvent {
  const curve = nodeCurve();
  return signEvent(curve, nodeDigest, template, secretKey, randomFillSync(new Uint8Array(32)), publicKeyOf(curve, secretKey));
}
