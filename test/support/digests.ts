// Digest ports for tests and benches that stand in for SHA-256 (no Node imports: scenarios run on XS too).
import { concatBytes } from "../../lib/util/bytes.ts";
import type { Digest } from "../../lib/ports.ts";

/** A Digest over a one-shot stand-in hash: its stream keeps the pieces and hashes them together at the end. */
export function standInDigest(sha256: (data: Uint8Array) => Uint8Array): Digest {
  return {
    sha256,
    sha256Stream: () => {
      const pieces: Uint8Array[] = [];
      return {
        update: (bytes) => void pieces.push(bytes.slice()),
        digest: () => sha256(concatBytes(pieces)),
      };
    },
  };
}

/** Every hash 32 zero bytes, streamed without keeping anything (benches measure the store, not the hash). */
export function zeroDigest(): Digest {
  return {
    sha256: () => new Uint8Array(32),
    sha256Stream: () => ({ update: () => undefined, digest: () => new Uint8Array(32) }),
  };
}
