// Blinded outputs whose secrets and blinding factors come from the Random port, never from cashu-ts's own
// randomBytes (crypto.getRandomValues): a test with a seeded Random gets the same outputs on Node and XS, and
// the device's randomness has one source. Also the journal's form of an output and back.
import {
  Amount,
  type AmountLike,
  blindMessage,
  type HasKeysetKeys,
  OutputData,
  type OutputDataCreator,
  type OutputDataLike,
  splitAmount,
} from "@cashu/cashu-ts";
import type { Random } from "../../ports";
import { toHex } from "../../util/hash";
import type { JournaledOutput, OutputRole, RoleOutput } from "../types";

/** The order of secp256k1's group: a blinding factor is in [1, N - 1]. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function randomScalar(random: Random): bigint {
  const bytes = new Uint8Array(32);
  for (;;) {
    random.fill(bytes);
    const r = BigInt(`0x${toHex(bytes)}`);
    if (r > 0n && r < N) return r;
  }
}

/** One output of `amount` for keyset `id`: a 64-hex-character secret (the form cashu-ts uses) and a fresh r. */
export function randomOutput(random: Random, amount: AmountLike, id: string): OutputData {
  const bytes = new Uint8Array(32);
  random.fill(bytes);
  const secret = new TextEncoder().encode(toHex(bytes));
  const r = randomScalar(random);
  const { B_ } = blindMessage(secret, r);
  return new OutputData({ amount: Amount.from(amount), B_: B_.toHex(true), id }, r, secret);
}

/** cashu-ts's OutputDataCreator with random data from `random`; P2PK and deterministic data as cashu-ts makes them. */
export function randomOutputCreator(random: Random): OutputDataCreator {
  return {
    createRandomData: (amount, keyset, split) => splitAmount(amount, keyset.keys, split).map((a) => randomOutput(random, a, keyset.id)),
    createSingleRandomData: (amount, keysetId) => randomOutput(random, amount, keysetId),
    createP2PKData: (p2pk, amount, keyset: HasKeysetKeys, split) => OutputData.createP2PKData(p2pk, amount, keyset, split),
    createSingleP2PKData: (p2pk, amount, keysetId) => OutputData.createSingleP2PKData(p2pk, amount, keysetId),
    createDeterministicData: (amount, seed, counter, keyset, split) =>
      OutputData.createDeterministicData(amount, seed, counter, keyset, split),
    createSingleDeterministicData: (amount, seed, counter, keysetId) =>
      OutputData.createSingleDeterministicData(amount, seed, counter, keysetId),
  };
}

/** Outputs in the journal's form (cashu-ts's SerializedOutputData), each with its role. */
export function toJournaled(outputs: OutputDataLike[], role: OutputRole): RoleOutput[] {
  return outputs.map((o) => {
    const s = OutputData.serialize(o);
    return { blindedMessage: s.blindedMessage, blindingFactor: s.blindingFactor, secret: s.secret, role };
  });
}

/** A journaled output as cashu-ts's OutputData again (it unblinds a signature with toProof). */
export function toOutputData(o: JournaledOutput): OutputData {
  return OutputData.deserialize({ blindedMessage: o.blindedMessage, blindingFactor: o.blindingFactor, secret: o.secret });
}
