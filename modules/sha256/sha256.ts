// Binds the streaming SHA-256 in C (sha256.c) as the update engine's
// Sha256Stream and the memory files' (Digest.sha256Stream), on the device and
// on the XS test host alike; `nativeDigest` is the whole Digest port over it
// for the XS test host (the device hashes whole buffers with Moddable's crypt).
import type { Digest, Sha256Stream } from "../../lib/ports";

// biome-ignore lint/suspicious/noExplicitAny: the bound C function's signature is given where it is used
declare function native(name: string): (...args: any[]) => any;

const create = native("xs_sha256_create") as () => ArrayBuffer;
const update = native("xs_sha256_update") as (state: ArrayBuffer, bytes: Uint8Array) => void;
const finish = native("xs_sha256_finish") as (state: ArrayBuffer) => ArrayBuffer;

export function nativeSha256(): Sha256Stream {
  const state = create();
  return {
    update: (bytes) => update(state, bytes),
    digest: () => new Uint8Array(finish(state)),
  };
}

/** The Digest port over the C SHA-256 alone. */
export const nativeDigest: Digest = Object.freeze({
  sha256(data: Uint8Array): Uint8Array {
    const hash = nativeSha256();
    hash.update(data);
    return hash.digest();
  },
  sha256Stream: nativeSha256,
});
